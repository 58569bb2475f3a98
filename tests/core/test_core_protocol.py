"""The engine protocol itself: options, registry, records, chance sampling, bots runner."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ludotheque
import ludotheque.games
from ludotheque.bots import RandomBot, UnknownBotError, parse_bots, play_game
from ludotheque.core import OptionError, OptionSpec, RecordError, parse_record, sample_chance
from ludotheque.core.options import resolve_options

SPECS = (
    OptionSpec("rule", "a", "doc", choices=("a", "b")),
    OptionSpec("target", 200, "doc", minimum=1),
    OptionSpec("teams", False, "doc"),
)


def test_options_resolve_defaults_and_coerce_strings() -> None:
    assert resolve_options("g", SPECS, {}) == {"rule": "a", "target": 200, "teams": False}
    assert resolve_options("g", SPECS, {"rule": "b", "target": "50", "teams": "yes"}) == {
        "rule": "b",
        "target": 50,
        "teams": True,
    }


@pytest.mark.parametrize(
    ("given_options", "message"),
    [
        ({"rules": "a"}, "no option 'rules'"),
        ({"rule": "c"}, "one of a, b"),
        ({"target": "many"}, r"integer in \[1, inf\]"),
        ({"target": 0}, "integer"),
        ({"target": True}, "integer"),
        ({"teams": "perhaps"}, "true or false"),
        ({"rule": 3}, "one of a, b"),
    ],
)
def test_bad_options_name_what_is_allowed(given_options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        resolve_options("g", SPECS, given_options)


def test_errors_are_value_errors() -> None:
    for error in (ludotheque.UnknownGameError, OptionError, RecordError, ludotheque.IllegalActionError):
        assert issubclass(error, ValueError)
    assert issubclass(ludotheque.NotationError, ludotheque.IllegalActionError)


def test_registry() -> None:
    ids = ludotheque.game_ids()
    assert ids == sorted(ids) and "geier" in ids
    for game_id in ids:
        game = ludotheque.load_game(game_id, players=ludotheque.games.game_class(game_id).min_players)
        assert game.id == game_id
        assert game.new_initial_state().view(None)["game"] == game_id


def test_parse_record_rejects_bad_shapes() -> None:
    good = {"format": "ludotheque-record/1", "game": "geier", "players": 2, "options": {}, "actions": []}
    assert parse_record(json.dumps(good)) == good
    assert parse_record({**good, "meta": {"event": "club night"}})["meta"] == {"event": "club night"}
    with pytest.raises(RecordError, match="lacks 'actions'"):
        parse_record({k: v for k, v in good.items() if k != "actions"})
    with pytest.raises(RecordError, match="action 0"):
        parse_record({**good, "actions": [{"by": "someone", "move": "1"}]})
    with pytest.raises(RecordError, match="action 1"):
        parse_record({**good, "actions": [{"by": "chance", "move": "+1"}, {"by": 0, "move": 3}]})


def test_unfinished_records_replay_too() -> None:
    state = ludotheque.load_game("geier", players=3).new_initial_state()
    state.apply_action(4)
    state.apply_action(2, 1)
    again = ludotheque.replay(state.to_record())
    assert again.history() == state.history() and not again.is_terminal()
    assert again.current_players() == [0, 2]


@given(st.integers(0, 2**32))
def test_chance_sampling_follows_the_outcomes(seed: int) -> None:
    state = ludotheque.load_game("geier", players=2).new_initial_state()
    action = sample_chance(state, random.Random(seed))
    assert action in dict(state.chance_outcomes())


class _ChanceOnly:
    """Just enough of a state for sample_chance: a chance node with given outcomes."""

    def __init__(self, outcomes: list[tuple[int, float]]) -> None:
        self.outcomes = outcomes

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.outcomes


@given(
    st.lists(st.floats(min_value=1e-6, max_value=1.0), min_size=1, max_size=60),
    st.integers(0, 2**32),
)
def test_chance_sampling_draws_exactly_as_random_choices(weights: list[float], seed: int) -> None:
    # sample_chance is a leaner random.choices: the same draws, so seeds (fuzzing, arenas) replay as before
    total = sum(weights)
    outcomes = [(10 + i, w / total) for i, w in enumerate(weights)]
    mine, theirs = random.Random(seed), random.Random(seed)
    for _ in range(5):
        expected = theirs.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        assert sample_chance(_ChanceOnly(outcomes), mine) == expected
    assert mine.getstate() == theirs.getstate()


def test_chance_sampling_refuses_a_zero_total() -> None:
    with pytest.raises(ValueError, match="positive finite total"):
        sample_chance(_ChanceOnly([(0, 0.0), (1, 0.0)]), random.Random(1))


def test_runner_is_deterministic_for_seeds() -> None:
    game = ludotheque.load_game("geier", players=3)
    bots = parse_bots("heuristic,random,random", game, 3)
    first = play_game(game, bots, random.Random(5), random.Random(6))
    second = play_game(game, bots, random.Random(5), random.Random(6))
    assert first.history() == second.history()
    with pytest.raises(UnknownBotError, match="bots: random, heuristic"):
        parse_bots("random,genius,random", game, 3)
    with pytest.raises(UnknownBotError, match="3 bots are needed"):
        parse_bots("random,random", game, 3)
    assert isinstance(parse_bots("random", game, 3)[2], RandomBot)


def test_chance_notation_only_at_chance_nodes() -> None:
    state = ludotheque.load_game("geier", players=2).new_initial_state()
    state.apply_action(3)
    with pytest.raises(ludotheque.NotationError, match="chance does not act here"):
        state.string_to_action("+5", "chance")


def test_option_specs_describe_what_is_allowed() -> None:
    assert SPECS[0].allowed() == "a, b"
    assert SPECS[1].allowed() == "an integer in [1, inf]"
    assert SPECS[2].allowed() == "true or false"
    assert SPECS[2].to_json() == {"name": "teams", "type": "bool", "default": False, "doc": "doc"}
