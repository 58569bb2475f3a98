"""The bot registry the CLI and the server share, and the runner's hand-off to search bots."""

from __future__ import annotations

import random

import pytest

from ludotheque.bots import ISMCTSBot, NoisyBot, RandomBot, UnknownBotError, bot_names, make_bot, parse_bots
from ludotheque.bots.levels import LEVELS, level_settings
from ludotheque.games import load_game


@pytest.fixture
def geier2():  # type: ignore[no-untyped-def]
    return load_game("geier", players=2)


def test_names(geier2) -> None:  # type: ignore[no-untyped-def]
    assert {"random", "heuristic", "easy", "medium", "hard", "expert", "ismcts", "noisy", "oracle"} == set(bot_names())
    assert set(bot_names(geier2)) == {*bot_names(), "gt"}  # Geier's own bot, at 2 players
    assert isinstance(make_bot("random", geier2), RandomBot)
    assert make_bot("heuristic", geier2).name == "heuristic"
    assert isinstance(make_bot("noisy:0.5", geier2), NoisyBot)


def test_levels_and_ismcts_specs(geier2) -> None:  # type: ignore[no-untyped-def]
    for level in LEVELS:
        assert make_bot(level, geier2).name == level
    medium = make_bot("medium", geier2)
    # levels by time (bots/levels.py): medium thinks at most 0.3 s of CPU a move, hard 2 s, expert 10 s; a compiled
    # engine buys more iterations in that time
    assert isinstance(medium, ISMCTSBot) and medium.time_limit == 0.3
    assert medium.compiled_iterations == 10 * medium.iterations
    expert = make_bot("expert", geier2)
    assert isinstance(expert, ISMCTSBot) and expert.time_limit == 10.0
    assert expert.iterations == 4 * level_settings(geier2, "hard")["iterations"]
    assert make_bot("medium:time=0.5", geier2).time_limit == 0.5  # type: ignore[attr-defined]
    # an explicit count is the count on either engine; cit= sets the compiled one apart
    exact = make_bot("hard:it=50", geier2)
    assert isinstance(exact, ISMCTSBot) and (exact.iterations, exact.compiled_iterations) == (50, None)
    split = make_bot("ismcts:it=50:cit=900", geier2)
    assert isinstance(split, ISMCTSBot) and (split.iterations, split.compiled_iterations) == (50, 900)
    hard = make_bot("hard:time=2.5", geier2)
    assert isinstance(hard, ISMCTSBot) and hard.time_limit == 2.5
    assert hard.iterations == level_settings(geier2, "hard")["iterations"]
    custom = make_bot("ismcts:iterations=77:eps=0.25:depth=30:sel=halving", geier2)
    assert isinstance(custom, ISMCTSBot)
    assert (custom.iterations, custom.rollout_epsilon, custom.max_rollout_steps, custom.selection) == (
        77, 0.25, 30, "halving")
    assert isinstance(make_bot("ismcts:hard", geier2), ISMCTSBot)
    with pytest.raises(UnknownBotError, match="unknown selection 'uct'"):
        make_bot("ismcts:sel=uct", geier2)


def test_heuristic_settings_reach_every_bot_built_on_the_heuristic(geier2) -> None:  # type: ignore[no-untyped-def]
    assert make_bot("heuristic:spread=2", geier2).spread == 2.0  # type: ignore[attr-defined]
    noisy = make_bot("noisy:0.5:spread=1.5", geier2)
    assert isinstance(noisy, NoisyBot) and (noisy.epsilon, noisy.inner.spread) == (0.5, 1.5)  # type: ignore[attr-defined]
    assert noisy.name == "noisy:0.5:spread=1.5"
    search = make_bot("ismcts:hard:h.spread=3", geier2)
    assert isinstance(search, ISMCTSBot) and search.heuristic.spread == 3.0  # type: ignore[attr-defined]
    level = make_bot("hard:h.spread=0.5", geier2)
    assert isinstance(level, ISMCTSBot) and level.heuristic.spread == 0.5  # type: ignore[attr-defined]
    assert make_bot("easy:h.spread=2.5", geier2).inner.spread == 2.5  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "spec",
    [
        "nope",
        "random:1",
        "ismcts:width=3",
        "ismcts:it=x",
        "noisy:2",
        "easy:it=50",
        "hard:eps=1.5",
        "hard:sel=x",
        "hard:c=1.2",
        "ismcts:win=0.3",
        "heuristic:spread=-1",
        "heuristic:width=2",
        "heuristic:2",
        "noisy:0.3:0.5",
        "ismcts:h.width=1",
    ],
)
def test_bad_specs(geier2, spec: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UnknownBotError):
        make_bot(spec, geier2)


def test_a_games_own_bot_is_refused_at_other_games_and_player_counts() -> None:
    with pytest.raises(UnknownBotError, match="'gt' plays geier with 2 players, not 3"):
        make_bot("gt", load_game("geier", players=3))
    with pytest.raises(UnknownBotError, match="unknown bot 'gt' at mice"):
        make_bot("gt", load_game("mice", players=2))


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
    assert level_settings(load_game("mice", players=3), "hard")["iterations"] == 320
    assert level_settings(load_game("mice", players=4), "medium", search=True)["iterations"] == 60
    # a by_players entry may set other settings than the budget, which is then still scaled (Safarü 3, Geier 4-5)
    geier4 = level_settings(load_game("geier", players=4), "hard")
    assert (geier4["iterations"], geier4["rollout_epsilon"]) == (1200, 0.5)
    geier5 = level_settings(load_game("geier", players=5), "hard")
    assert (geier5["iterations"], geier5["rollout_epsilon"], geier5["selection"]) == (960, 0.3, "halving")
    # ... or set the budget itself: Geier 4's medium searches 100, a twelfth of hard, not the scaled 300
    assert level_settings(load_game("geier", players=4), "medium") == {
        "kind": "ismcts", "iterations": 100, "rollout_epsilon": 0.5, "time_limit": 0.3, "compiled_iterations": 1000}
    assert "rollout_epsilon" not in level_settings(load_game("geier", players=3), "hard")
    safaru3 = level_settings(load_game("safaru", players=3), "hard")
    assert (safaru3["iterations"], safaru3["rollout_epsilon"]) == (213, 0.5)
    assert "rollout_epsilon" not in level_settings(load_game("safaru", players=4), "hard")
    # Geier easy: more random moves at 4 seats and mixed bids at 5, where predictable bids collide (tied cards
    # cancel)
    assert level_settings(load_game("geier", players=3), "easy") == {"kind": "noisy", "epsilon": 0.3}
    assert make_bot("easy", load_game("geier", players=4)).epsilon == 0.5  # type: ignore[attr-defined]
    assert level_settings(load_game("geier", players=5), "easy") == {
        "kind": "noisy", "epsilon": 0.3, "heuristic_settings": {"spread": 2}}
    # Safarü easy: more random moves at 3 seats, so that medium's step above it is a real one
    assert level_settings(load_game("safaru", players=3), "easy") == {"kind": "noisy", "epsilon": 0.5}
    assert level_settings(load_game("safaru", players=2), "easy") == {"kind": "noisy", "epsilon": 0.3}
    # cheese: scaled at 3 seats, a measured budget at 4 (by_players)
    assert level_settings(load_game("cheese", players=3), "medium")["iterations"] == 27
    assert level_settings(load_game("cheese", players=4), "hard")["iterations"] == 160
    # ismcts:LEVEL searches with the level's budget for this table
    cheese4 = load_game("cheese", players=4)
    assert make_bot("ismcts:hard", cheese4).iterations == make_bot("hard", cheese4).iterations == 160  # type: ignore[attr-defined]


def test_medium_plays_the_heuristic_where_search_budgets_tied() -> None:
    # at these tables four times medium's search budget only tied with it, so medium is a heuristic between easy
    # and hard there (games/<id>/levels.py); elsewhere it still searches
    for game_id, players in [("mu", 5), ("mice", 3)]:
        game = load_game(game_id, players=players)
        medium = make_bot("medium", game)
        assert isinstance(medium, NoisyBot) and medium.epsilon == 0.0, (game_id, players)
        assert isinstance(make_bot("hard", game), ISMCTSBot), (game_id, players)
    for game_id, players in [("mu", 4), ("cheese", 3), ("rummu", 3), ("safaru", 2), ("mice", 2), ("geier", 4)]:
        assert isinstance(make_bot("medium", load_game(game_id, players=players)), ISMCTSBot), (game_id, players)


def test_geier_5_levels_bid_mixed_and_hard_is_a_best_response() -> None:
    # at 5 seats every level draws its bid around the pot's rank (spread 2),
    # so that look-alike bots do not cancel each other's cards (geier-3); hard is flat Monte Carlo by sequential
    # halving against a table modelled as easy plays (spread 2, 30 % random moves)
    game = load_game("geier", players=5)
    easy, medium, hard = (make_bot(level, game) for level in ("easy", "medium", "hard"))
    assert isinstance(easy, NoisyBot) and (easy.epsilon, easy.inner.spread) == (0.3, 2.0)  # type: ignore[attr-defined]
    assert isinstance(medium, ISMCTSBot) and (medium.selection, medium.heuristic.spread) == ("puct", 2.0)  # type: ignore[attr-defined]
    assert isinstance(hard, ISMCTSBot) and hard.selection == "halving"
    assert (hard.rollout_epsilon, hard.heuristic.spread) == (0.3, 2.0)  # type: ignore[attr-defined]
    assert hard.iterations >= 4 * medium.iterations
    # 2-4 seats keep the fixed bid and the tree search
    for players in (2, 3, 4):
        game = load_game("geier", players=players)
        assert make_bot("easy", game).inner.spread == 0.0  # type: ignore[attr-defined]
        assert make_bot("medium", game).heuristic.spread == 0.0  # type: ignore[attr-defined]
        hard = make_bot("hard", game)
        assert isinstance(hard, ISMCTSBot) and (hard.selection, hard.heuristic.spread) == ("puct", 0.0)  # type: ignore[attr-defined]
    assert make_bot("medium:h.spread=0", load_game("geier", players=5)).heuristic.spread == 0.0  # type: ignore[attr-defined]


def test_a_noisier_ladder_where_the_search_ties_with_its_heuristic() -> None:
    # Safarü 3-4, Cheese 4, Rummü 4-6, MICE solo and 4-5: hard could not be told from the plain heuristic or from
    # the search at medium's budget, so medium is the 30 % heuristic and easy the 50 % one (games/<id>/levels.py)
    for game_id, players in [("safaru", 3), ("safaru", 4), ("cheese", 4), ("rummu", 4), ("rummu", 5), ("rummu", 6),
                             ("mice", 1), ("mice", 4), ("mice", 5)]:
        game = load_game(game_id, players=players)
        easy, medium = make_bot("easy", game), make_bot("medium", game)
        assert isinstance(easy, NoisyBot) and isinstance(medium, NoisyBot), (game_id, players)
        assert (easy.epsilon, medium.epsilon) == (0.5, 0.3), (game_id, players)
        assert isinstance(make_bot("hard", game), ISMCTSBot), (game_id, players)
    # Mü 6: the 50 % heuristic ties with random there, so easy keeps 30 % and medium has 15 %
    mu6 = load_game("mu", players=6)
    assert [make_bot(level, mu6).epsilon for level in ("easy", "medium")] == [0.3, 0.15]  # type: ignore[attr-defined]
    # the tables around them keep the usual 30 % easy
    for game_id, players in [("safaru", 2), ("cheese", 3), ("rummu", 3), ("mu", 6), ("mice", 2)]:
        assert level_settings(load_game(game_id, players=players), "easy") == {"kind": "noisy", "epsilon": 0.3}


def test_ismcts_level_spec_searches_even_where_the_level_plays_a_heuristic() -> None:
    mu5 = load_game("mu", players=5)
    # the heuristic override of medium at 5 seats is skipped; the search settings scale as usual (40 × 3/5)
    assert level_settings(mu5, "medium", search=True) == {
        "kind": "ismcts", "iterations": 24, "max_rollout_steps": 150, "time_limit": 0.3, "compiled_iterations": 240}
    searcher = make_bot("ismcts:medium", mu5)
    assert isinstance(searcher, ISMCTSBot) and searcher.iterations == 24
    assert level_settings(mu5, "medium") == {"kind": "noisy", "epsilon": 0.0}
    # a level that never searches is named as such, not passed on to ISMCTS as unknown settings
    with pytest.raises(UnknownBotError, match="'easy' is not a search"):
        make_bot("ismcts:easy", mu5)


def test_a_heuristic_level_takes_a_time_cap_but_no_search_settings() -> None:
    mu5 = load_game("mu", players=5)
    capped = make_bot("medium:time=2", mu5)  # the same spec works at every table; a heuristic is always in time
    assert isinstance(capped, NoisyBot) and capped.name == "medium:time=2"
    with pytest.raises(UnknownBotError, match="plays a heuristic here; it takes no search settings \\(iterations\\)"):
        make_bot("medium:it=50", mu5)
    with pytest.raises(UnknownBotError, match="no search settings"):
        make_bot("easy:time=1:eps=0.2", mu5)
