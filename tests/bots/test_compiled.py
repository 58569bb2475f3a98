"""The heuristic bots on a compiled state play the compiled heuristic: the Python heuristic's move, no view built."""

from __future__ import annotations

import random

import pytest

from ludotheque.bots.compiled import CompiledHeuristicBot
from ludotheque.bots.registry import make_bot
from ludotheque.core import sample_chance
from ludotheque.core.bot import make_sampler
from ludotheque.core.native import NativeState, use_engine
from ludotheque.games import game_ids, game_type, load_game

COMPILED = [game_id for game_id in game_ids() if "native" in game_type(game_id).optional_parts]


@pytest.mark.parametrize("game_id", COMPILED)
def test_the_compiled_heuristic_plays_the_python_heuristics_move(game_id: str) -> None:
    game = load_game(game_id, players=game_type(game_id).min_players)
    bot = make_bot("heuristic", game)
    assert isinstance(bot, CompiledHeuristicBot) and bot.reads_view is False
    python = game.heuristic_bot_with({})
    rng = random.Random(3)
    decisions = 0
    for _ in range(3):
        state = game.new_initial_state()
        if not isinstance(state, NativeState):
            pytest.skip("the native core is not built")
        for _ in range(80):  # decisions a game at most (a Rummü match between random players is long)
            while state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            if state.is_terminal():
                break
            seat = state.current_players()[0]
            legal = state.legal_actions(seat)
            ours = bot.choose({}, legal, random.Random(decisions), make_sampler(state, seat))
            # where the heuristic draws at random (Calcory's flips, Cheese's ties) the engines draw from their own
            # random numbers: the move must then be legal; where it does not, the compiled move is the same
            theirs = {python.choose(state.view(seat), legal, random.Random(seed)) for seed in range(4)}
            assert ours == theirs.pop() if len(theirs) == 1 else ours in legal
            decisions += 1
            state.apply_action(rng.choice(legal), seat)
    assert decisions > 10


def test_on_the_python_engine_the_python_heuristic_plays_from_the_seats_view() -> None:
    previous = use_engine("python")
    try:
        game = load_game("safaru", players=2)
        state = game.new_initial_state()
        rng = random.Random(1)
        while state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        bot = make_bot("heuristic", game)
        expected = game.heuristic_bot_with({}).choose(state.view(seat), legal, random.Random(2))
        assert bot.choose({}, legal, random.Random(2), make_sampler(state, seat)) == expected
    finally:
        use_engine(previous)


def test_the_python_heuristics_settings_stay_readable() -> None:
    bot = make_bot("heuristic:spread=2", load_game("geier", players=2))
    assert bot.spread == 2.0  # type: ignore[attr-defined]
