"""The examples run (with tiny settings), and OpenSpiel bots play in our bot interface."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("pyspiel")

import ludotheque
import ludotheque.games
from ludotheque.interop import openspiel

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_ismcts_example_runs() -> None:
    from ludotheque.arena import ArenaSpec, run_arena

    example = load_example("openspiel_ismcts_vs_ludotheque")
    game_id = "geier" if "geier" in ludotheque.game_ids() else ludotheque.game_ids()[0]
    assert example.main(["--games", game_id, "--games-per", "2", "--simulations", "3"]) == 0
    spec = ArenaSpec(game_id, 2, {}, ("openspiel-ismcts:3", "heuristic"), games=2, seed=1)
    result = run_arena(spec)
    assert len(result.results) == 2
    assert set(result.summaries) == {"openspiel-ismcts:3", "heuristic"}
    for game in result.results:
        assert sorted(game.seats) == ["heuristic", "openspiel-ismcts:3"]


@pytest.mark.parametrize("game_id", ludotheque.game_ids())
def test_openspiel_bot_in_our_interface(game_id: str) -> None:
    """A uniform-random pyspiel bot plays whole seats through ``OpenSpielBot`` with determinizations only."""
    import pyspiel

    cls = ludotheque.games.game_class(game_id)
    spiel_game = openspiel.load(game_id, cls.min_players, turn_based=True, perfect_recall=False)
    bot = openspiel.OpenSpielBot(spiel_game, pyspiel.make_uniform_random_bot(0, 1))
    state = spiel_game.ludo.new_initial_state()
    rng = random.Random(0)
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(ludotheque.core.sample_chance(state, rng))
            continue
        seat = state.current_players()[0]
        bot.bot = pyspiel.make_uniform_random_bot(seat, rng.randrange(1000))
        action = bot.choose(
            state.view(seat), state.legal_actions(seat), rng, lambda r, s=seat: state.resample(s, r)
        )
        state.apply_action(action, seat)
    spiel_state = openspiel.from_ludotheque(spiel_game, state)
    assert spiel_state.ludo_state.history() == state.history()
