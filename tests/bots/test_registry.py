"""The bot registry the CLI and the server share, and the runner's hand-off to search bots."""

from __future__ import annotations

import random

import pytest

from ludotheque.bots import ISMCTSBot, NoisyBot, RandomBot, UnknownBotError, bot_names, make_bot, parse_bots
from ludotheque.bots.levels import LEVELS, level_settings
from ludotheque.core import load_game


@pytest.fixture
def geier2():  # type: ignore[no-untyped-def]
    return load_game("geier", players=2)


def test_names(geier2) -> None:  # type: ignore[no-untyped-def]
    assert {"random", "heuristic", "easy", "medium", "hard", "ismcts", "noisy", "gt"} <= set(bot_names())
    assert isinstance(make_bot("random", geier2), RandomBot)
    assert make_bot("heuristic", geier2).name == "heuristic"
    assert isinstance(make_bot("noisy:0.5", geier2), NoisyBot)


def test_levels_and_ismcts_specs(geier2) -> None:  # type: ignore[no-untyped-def]
    for level in LEVELS:
        assert make_bot(level, geier2).name == level
    medium = make_bot("medium", geier2)
    assert isinstance(medium, ISMCTSBot) and medium.time_limit is None
    assert make_bot("medium:time=0.5", geier2).time_limit == 0.5  # type: ignore[attr-defined]
    hard = make_bot("hard:time=2.5", geier2)
    assert isinstance(hard, ISMCTSBot) and hard.time_limit == 2.5
    assert hard.iterations == level_settings(geier2, "hard")["iterations"]
    custom = make_bot("ismcts:iterations=77:c=1.2:rollout=random", geier2)
    assert isinstance(custom, ISMCTSBot)
    assert (custom.iterations, custom.exploration, custom.rollout_policy) == (77, 1.2, "random")
    assert make_bot("hard:win=0.3", geier2).win_weight == 0.3  # type: ignore[attr-defined]
    assert isinstance(make_bot("ismcts:hard", geier2), ISMCTSBot)
    modelled = make_bot("hard:model=observed:opp=public", geier2)
    assert isinstance(modelled, ISMCTSBot)
    assert (modelled.opponent_model, modelled.opponent_nodes) == ("observed", "public")


@pytest.mark.parametrize(
    "spec",
    [
        "nope",
        "random:1",
        "ismcts:width=3",
        "ismcts:it=x",
        "noisy:2",
        "easy:time=3",
        "hard:win=1.5",
        "hard:opp=x",
        "hard:model=x",
    ],
)
def test_bad_specs(geier2, spec: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UnknownBotError):
        make_bot(spec, geier2)


def test_gt_only_for_two_player_geier() -> None:
    with pytest.raises(UnknownBotError):
        make_bot("gt", load_game("geier", players=3))


def test_parse_bots(geier2) -> None:  # type: ignore[no-untyped-def]
    bots = parse_bots("random,ismcts:hard:time=1", geier2, 2)
    assert bots[0].name == "random" and isinstance(bots[1], ISMCTSBot)
    assert len(parse_bots("heuristic", geier2, 2)) == 2
    with pytest.raises(UnknownBotError):
        parse_bots("random,random,random", geier2, 2)


def test_noisy_bot_is_noisy(geier2) -> None:  # type: ignore[no-untyped-def]
    state = geier2.new_initial_state()
    state.apply_action(14)  # the +10
    view, legal = state.view(0), state.legal_actions(0)
    rng = random.Random(0)
    never = NoisyBot(geier2.heuristic_bot(), 0.0)
    always = NoisyBot(geier2.heuristic_bot(), 1.0)
    assert len({never.choose(view, legal, rng) for _ in range(20)}) == 1
    assert len({always.choose(view, legal, rng) for _ in range(50)}) > 3


def test_level_budgets_scale_with_seats_unless_measured_per_count() -> None:
    # mice: 120 iterations set for 2 seats, scaled in proportion beyond (a rollout costs about one move per seat),
    # but measured at 2 seats themselves: 80 there fits medium's second, while hard keeps 480
    assert level_settings(load_game("mice", players=2), "medium")["iterations"] == 80
    assert level_settings(load_game("mice", players=2), "hard")["iterations"] == 480
    assert level_settings(load_game("mice", players=3), "medium")["iterations"] == 80
    assert level_settings(load_game("mice", players=4), "medium")["iterations"] == 60
    # a by_players entry may set other settings than the budget, which is then still scaled (Safarü 3, Geier 4-5)
    geier4 = level_settings(load_game("geier", players=4), "hard")
    assert (geier4["iterations"], geier4["rollout_epsilon"]) == (1200, 0.5)
    assert "rollout_epsilon" not in level_settings(load_game("geier", players=3), "hard")
    safaru3 = level_settings(load_game("safaru", players=3), "medium")
    assert (safaru3["iterations"], safaru3["rollout_epsilon"]) == (53, 0.5)
    assert "rollout_epsilon" not in level_settings(load_game("safaru", players=4), "medium")
    # Geier easy: more random moves at 4 seats, where predictable bids collide (tied cards cancel)
    assert level_settings(load_game("geier", players=3), "easy") == {"kind": "noisy", "epsilon": 0.3}
    assert make_bot("easy", load_game("geier", players=4)).epsilon == 0.5  # type: ignore[attr-defined]
    assert level_settings(load_game("geier", players=5), "easy") == {"kind": "noisy", "epsilon": 0.3}
    # Safarü easy: more random moves at 3 seats, so that medium's step above it is a real one
    assert level_settings(load_game("safaru", players=3), "easy") == {"kind": "noisy", "epsilon": 0.5}
    assert level_settings(load_game("safaru", players=2), "easy") == {"kind": "noisy", "epsilon": 0.3}
    # cheese: scaled at 3 seats, a measured budget at 4 (by_players)
    assert level_settings(load_game("cheese", players=3), "medium")["iterations"] == 27
    assert level_settings(load_game("cheese", players=4), "hard")["iterations"] == 160
    # ismcts:LEVEL searches with the level's budget for this table
    cheese4 = load_game("cheese", players=4)
    assert make_bot("ismcts:hard", cheese4).iterations == make_bot("hard", cheese4).iterations == 160  # type: ignore[attr-defined]
