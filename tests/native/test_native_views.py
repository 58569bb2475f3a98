"""What every compiled engine owes its views: a view handed out is the caller's, and stays what it was while the
game goes on (a server keeps a frame's view, a test keeps one per seq)."""

from __future__ import annotations

import copy
import random

import pytest

from ludotheque.core import sample_chance
from ludotheque.core.native import NativeState, use_engine
from ludotheque.games import REGISTRY, game_type, load_game

COMPILED = [
    g
    for g in sorted(REGISTRY)
    if "native" in game_type(g).optional_parts and game_type(g).part("native").state_class() is not None
]


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


@pytest.mark.parametrize("game_id", COMPILED)
def test_a_clone_moves_on_alone(game_id: str) -> None:
    """A clone and its original, each moved its own way, see their own games (nothing the compiled side keeps
    for views is shared between them): both views equal the reference's at their histories."""
    previous = use_engine("native")
    try:
        game = load_game(game_id, players=game_type(game_id).min_players)
        state = game.new_initial_state()
        rng = random.Random(4)

        def step(target: NativeState) -> None:
            if target.is_chance_node():
                target.apply_action(sample_chance(target, rng))
            else:
                seat = target.current_players()[0]
                target.apply_action(rng.choice(target.legal_actions(seat)), seat)

        def reference_of(target: NativeState) -> dict:
            replayed = game.new_reference_state()
            for actor, action in target.history():
                replayed.apply_logged(actor, action)
            return replayed.view(None)

        for _ in range(60):
            if state.is_terminal():
                break
            state.view(None)  # the compiled side keeps what a view needs from here on
            twin = state.clone()
            for _ in range(3):
                if not twin.is_terminal():
                    step(twin)
                    twin.view(None)
            assert twin.view(None) == reference_of(twin)
            assert state.view(None) == reference_of(state)
            step(state)
    finally:
        use_engine(previous)
