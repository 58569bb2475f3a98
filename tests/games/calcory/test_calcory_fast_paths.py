"""Calcory's view and heuristic against the references they replaced, at every node of random games.

The view reads each cell through a table of what a status shows; the heuristic fills ``best_path``'s
subset-sum table once per set of remembered values (memoised, all targets at once) and ``memory`` builds its dict
in one call.  ``_reference_...`` below are the previous code: the views must be equal (``==``, every seat and a
spectator, determinizations included), and the heuristic must choose the same move from the same view and
random state; ``best_path`` and ``_p13`` must answer as before on any remembered values.
"""

from __future__ import annotations

import random
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque.core import sample_chance
from ludotheque.games.calcory import heuristics, rules
from ludotheque.games.calcory.game import CalcoryState
from ludotheque.games.calcory.heuristics import CalcoryHeuristicBot, _p13, best_path
from ludotheque.games.calcory.view import memory, table_view


def _reference_cells(state: CalcoryState) -> list[Any]:
    cells: list[Any] = []
    for c in range(rules.CELLS):
        status = state.status[c]
        if status == 1:  # face down
            cells.append("down")
        elif status in (2, 3):  # face up, marked
            cells.append(state.card[c])
        else:
            cells.append(None)
    return cells


def _reference_memory(table: dict[str, Any]) -> dict[int, int]:
    last: dict[int, int] = {}
    log = table["log"]
    for cell, value in zip(log["cell"], log["value"], strict=True):
        last[rules.CELL_INDEX[cell]] = value
    cells = table["cells"]
    return {c: v for c, v in last.items() if cells[c] == "down"}


def _reference_best_path(known: list[int], target: int, zeros_allowed: int) -> list[int] | None:
    if target <= 0:
        return None
    best: list[list[int] | None] = [None] * (target + 1)
    best[0] = []
    for value in sorted(v for v in known if v > 0):
        for total in range(target, value - 1, -1):
            before = best[total - value]
            if before is not None and (best[total] is None or len(before) + 1 > len(best[total] or [])):
                best[total] = [*before, value]
    path = best[target]
    if path is None:
        return None
    zeros = min(zeros_allowed, sum(1 for v in known if v == 0))
    return [0] * zeros + path


def _reference_p13(total: int, zeros: int, known: list[int], unseen: list[int]) -> tuple[float, float]:
    size = sum(unseen)
    if size == 0:
        return 0.0, 0.0
    good = bad = 0
    for u, count in enumerate(unseen):
        if not count:
            continue
        new_total, new_zeros = total + u, zeros + (u == 0)
        if rules.busts(new_total, new_zeros):
            bad += count
        elif new_total == rules.TARGET or _reference_best_path(known, rules.TARGET - new_total, 1 - new_zeros):
            good += count
    return good / size, bad / size


def _reference_choice(view: dict[str, Any], legal: list[int], seed: int) -> int:
    with (
        mock.patch.object(heuristics, "memory", _reference_memory),
        mock.patch.object(heuristics, "best_path", _reference_best_path),
        mock.patch.object(heuristics, "_p13", _reference_p13),
    ):
        return CalcoryHeuristicBot().choose(view, legal, random.Random(seed))


def _check_views(state: CalcoryState) -> None:
    for player in (None, *range(state.game.players)):
        table = table_view(state, player)
        assert table["cells"] == _reference_cells(state)
        assert memory(table) == _reference_memory(table)


VALUES = st.lists(st.integers(0, 9), max_size=14)


@settings(max_examples=300, deadline=None)
@given(known=VALUES, target=st.integers(-2, 20), zeros_allowed=st.integers(0, 1))
def test_best_path_answers_as_the_reference(known: list[int], target: int, zeros_allowed: int) -> None:
    assert best_path(known, target, zeros_allowed) == _reference_best_path(known, target, zeros_allowed)


@settings(max_examples=200, deadline=None)
@given(total=st.integers(0, 13), zeros=st.integers(0, 1), known=VALUES,
       unseen=st.lists(st.integers(0, 10), min_size=10, max_size=10))
def test_p13_answers_as_the_reference(total: int, zeros: int, known: list[int], unseen: list[int]) -> None:
    assert _p13(total, zeros, known, unseen) == _reference_p13(total, zeros, known, unseen)


@settings(max_examples=6, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_views_and_heuristic_choices_equal_the_references(players: int, seed: int) -> None:
    state = ludotheque.load_game("calcory", players=players).new_initial_state()
    assert isinstance(state, CalcoryState)
    rng = random.Random(seed)
    bot = CalcoryHeuristicBot()
    while not state.is_terminal():
        _check_views(state)
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        view = state.view(seat)
        choice_seed = rng.randrange(2**32)
        choice = bot.choose(view, legal, random.Random(choice_seed))
        assert choice == _reference_choice(view, legal, choice_seed)
        _check_views(state.resample(seat, rng))
        state.apply_action(choice if rng.random() < 0.8 else rng.choice(legal), seat)
    _check_views(state)
