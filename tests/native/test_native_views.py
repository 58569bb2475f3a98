"""What every compiled engine owes its views: a view handed out is the caller's, and stays what it was while the
game goes on (a server keeps a frame's view, a test keeps one per seq)."""

from __future__ import annotations

import copy
import random

import pytest

from ludotheque.core import sample_chance
from ludotheque.core.native import NativeState, use_engine
from ludotheque.games import REGISTRY, game_type, load_game

COMPILED = [g for g in sorted(REGISTRY) if "native" in game_type(g).optional_parts
            and game_type(g).part("native").state_class() is not None]


@pytest.mark.parametrize("game_id", COMPILED)
def test_a_view_handed_out_does_not_change_as_the_game_goes_on(game_id: str) -> None:
    previous = use_engine("native")
    try:
        game = load_game(game_id, players=game_type(game_id).min_players)
        state = game.new_initial_state()
        assert isinstance(state, NativeState)
        rng = random.Random(2)
        kept: list[tuple[dict, dict]] = []
        for _ in range(200):
            if state.is_terminal():
                break
            for seat in (None, *range(game.players)):
                view = state.view(seat)
                kept.append((view, copy.deepcopy(view)))
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                seat = state.current_players()[0]
                state.apply_action(rng.choice(state.legal_actions(seat)), seat)
        assert all(view == snapshot for view, snapshot in kept)
    finally:
        use_engine(previous)


