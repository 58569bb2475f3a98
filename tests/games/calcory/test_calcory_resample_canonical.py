"""Calcory's ``resample`` draws from the hidden cards in a canonical order: two states that differ only in cards
hidden from a seat give that seat the same determinizations from the same seed (the face-down cards nobody has seen are
shuffled, so the rng stream carries nothing the seat does not know; the coach's honesty rests on it, docs/coach.md)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from ludotheque.core import State, load_game, sample_chance

PLAYERS = 2
OPTIONS: dict[str, Any] = {}


def random_state(seed: int, steps: int) -> State:
    """A random game stopped after ``steps`` actions (chance included), or at its end."""
    rng = random.Random(seed)
    state = load_game("calcory", players=PLAYERS, **OPTIONS).new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            seat = state.current_players()[0]
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    return state


@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120), seat=st.integers(0, PLAYERS - 1),
       other=st.integers(0, 10_000), k=st.integers(0, 10_000))
def test_hidden_cards_do_not_reach_the_determinization(seed: int, steps: int, seat: int, other: int, k: int) -> None:
    state = random_state(seed, steps)
    twin = state.resample(seat, random.Random(other))  # the same view for ``seat``, other hidden cards
    assert twin.view(seat) == state.view(seat)
    first = state.resample(seat, random.Random(k))
    second = twin.resample(seat, random.Random(k))
    assert first.to_record() == second.to_record()
    assert [first.view(s) for s in range(PLAYERS)] == [second.view(s) for s in range(PLAYERS)]


def test_the_twin_states_do_differ() -> None:
    # the property above is not vacuous: the redealt state shows other seats other cards
    state = random_state(seed=1, steps=12)
    twins = [state.resample(0, random.Random(k)) for k in range(4)]
    assert any(twin.to_record() != state.to_record() for twin in twins)
