"""Calcory views: no leak of face-down values (all-3, calcory-5), resample, observation tensor, display."""

from __future__ import annotations

import json
import random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

import ludotheque
from ludotheque.core import CHANCE
from ludotheque.games.calcory import rules
from ludotheque.games.calcory.game import DOWN, CalcoryState
from ludotheque.games.calcory.heuristics import CalcoryHeuristicBot, best_path

from .calcory_helpers import dealt_state, play, random_state, replay_history


def hidden_cells(state: CalcoryState) -> list[int]:
    """Cells whose card was never seen: what no seat can know."""
    return [c for c in range(rules.CELLS) if state.status[c] == DOWN and not state.seen[c]]


def swapped_twin(state: CalcoryState, rng: random.Random) -> CalcoryState | None:
    """The same game with two never-seen cards of different values swapped in the deal, replayed from
    scratch; ``None`` if no such pair exists."""
    hidden = hidden_cells(state)
    pairs = [(a, b) for a in hidden for b in hidden if state.card[a] < state.card[b]]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    history = state.history()
    history[a], history[b] = history[b], history[a]  # history entry c dealt cell c
    return replay_history(state.game.players, history)


@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), steps=st.integers(60, 500))
def test_no_leak_views_ignore_hidden_values(players: int, seed: int, steps: int) -> None:
    # DECISIONS all-3 / calcory-5: two states differing only in never-seen face-down cards look the same
    state = random_state(players, seed, steps)
    twin = swapped_twin(state, random.Random(seed))
    if twin is None:
        return
    assert twin.card != state.card
    for seat in [None, *range(players)]:
        assert twin.view(seat) == state.view(seat)
        if seat is not None:
            assert np.array_equal(twin.observation_tensor(seat), state.observation_tensor(seat))
            assert twin.legal_actions(seat) == state.legal_actions(seat)


def test_no_leak_during_the_deal() -> None:
    # DECISIONS all-3: the dealt values never show while the grid is being dealt
    a = ludotheque.load_game("calcory", players=2).new_initial_state()
    b = ludotheque.load_game("calcory", players=2).new_initial_state()
    a.apply_action(9)
    b.apply_action(1)
    assert a.view(0) == b.view(0) and a.view(None) == b.view(None)


@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), steps=st.integers(0, 500))
def test_resample_keeps_the_view_and_replays(players: int, seed: int, steps: int) -> None:
    state = random_state(players, seed, steps)
    rng = random.Random(seed)
    for seat in range(players):
        twin = state.resample(seat, rng)
        assert twin.view(seat) == state.view(seat)
        # the twin's history is a valid history that leads to the same view
        again = replay_history(players, twin.history())
        assert again.view(seat) == state.view(seat) and again.card == twin.card
        # only never-seen cards may differ
        for c in range(rules.CELLS):
            if c not in hidden_cells(state):
                assert twin.card[c] == state.card[c]


def test_resample_actually_varies_the_hidden_cards() -> None:
    state = dealt_state(2)
    rng = random.Random(1)
    cards = {tuple(state.resample(0, rng).card) for _ in range(10)}
    assert len(cards) > 1


def test_view_is_json_and_tensor_has_the_documented_shape() -> None:
    state = random_state(3, seed=5, steps=150)
    for seat in [None, 0, 1, 2]:
        view = state.view(seat)
        assert json.loads(json.dumps(view)) == view
    tensor = state.observation_tensor(1)
    assert tensor.shape == (60 * 17 + 9 + 26,) == state.game.observation_tensor_shape()
    assert tensor.dtype == np.float32


def test_tensor_remembers_a_turned_back_card() -> None:
    # calcory-5: the encoding derives memory from the view's history only
    state = dealt_state(2, {"C1": 8, "C2": 6})
    play(state, "C1", "C2")  # both turned back
    tensor = state.observation_tensor(1)
    per = 14 + 2
    c1 = rules.CELL_INDEX["C1"] * per
    assert tensor[c1 + 2] == 1 and tensor[c1 + 3 + 8] == 1 and tensor[c1 + 1] == 0
    assert tensor[rules.CELL_INDEX["D5"] * per + 1] == 1  # never seen


def test_display_shows_only_face_up_cards() -> None:
    # calcory-5: the terminal shows face-up cards only; a remembered face-down card is "##"
    state = dealt_state(2, {"C1": 8, "C2": 6, "D1": 3, "D2": 2})
    play(state, "C1", "C2")  # seat 0 busts: 8 and 6 go back face down
    play(state, "D1", "D2")  # seat 1 has 3 + 2 face up
    console = Console(width=120, record=True)
    console.print(state.game.render(state.view(0)))
    text = console.export_text()
    grid_rows = [line for line in text.splitlines() if line[:1] in "ABCDEF" and "##" in line]
    row_c = next(line for line in grid_rows if line.startswith("C"))
    row_d = next(line for line in grid_rows if line.startswith("D"))
    assert "8" not in row_c and "6" not in row_c
    assert " 3 " in row_d and " 2 " in row_d
    assert "Flipped: 3 (D1) + 2 (D2)  sum 5" in text


def test_render_every_phase() -> None:
    game = ludotheque.load_game("calcory", players=4)
    state = random_state(4, seed=3, steps=100_000)
    assert state.is_terminal()
    console = Console(width=120, record=True)
    console.print(game.render(state.view(None)))
    assert "Game over" in console.export_text()
    console.print(game.render(ludotheque.load_game("calcory", players=4).new_initial_state().view(2)))
    assert "Dealing the grid" in console.export_text()


def test_heuristic_takes_a_remembered_13() -> None:
    # the heuristic uses the history (calcory-5): after seeing 4 and 9 turned back, it makes 13 with them
    state = dealt_state(2, {"A1": 4, "A2": 5, "A3": 9, "B1": 9})
    play(state, "A1", "A2", "B1")  # seat 0: 4 + 5 + 9 = 18 -> bust, all three remembered
    bot = CalcoryHeuristicBot()
    rng = random.Random(0)
    first = bot.choose(state.view(1), state.legal_actions(1), rng)
    assert first in (rules.CELL_INDEX["A1"], rules.CELL_INDEX["B1"], rules.CELL_INDEX["A2"])
    while state.phase == "flip" and state.current == 1:
        state.apply_action(bot.choose(state.view(1), state.legal_actions(1), rng), 1)
    assert state.phase == "put_back" or len(state.piles[1]) >= 1


def test_best_path() -> None:
    assert best_path([4, 9, 5], 13, 1) == [4, 9]
    assert best_path([1, 3, 9, 0], 13, 1) == [0, 1, 3, 9]
    assert best_path([1, 3, 9, 0], 13, 0) == [1, 3, 9]
    assert best_path([5, 5], 13, 1) is None


def test_heuristic_only_reads_views() -> None:
    game = ludotheque.load_game("calcory", players=3)
    bot = game.heuristic_bot()
    state = random_state(3, seed=8, steps=90)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.legal_actions()[0], CHANCE)
            continue
        seat = state.current_players()[0]
        view = json.loads(json.dumps(state.view(seat)))
        action = bot.choose(view, state.legal_actions(seat), random.Random(1))
        assert action in state.legal_actions(seat)
        state.apply_action(action, seat)
