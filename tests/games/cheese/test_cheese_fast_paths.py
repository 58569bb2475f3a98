"""The Cheese Rescue heuristic against the one it replaced: the same moves at every node of random games.

The previous ``choose`` (``_reference_choice``) re-valued, for every placement, every cheese within three steps of
it.  The heuristic now re-values only those a card there can change (``_affected``), once per cell and kind of card
(the three cheeses count as one), with ``_cheese_worth``'s helpers spelt out.  A cheese left out keeps its value
on the board as it is, so the scores, and the choices, must be exactly the same, from the same view and random
state.  (``test_cheese_heuristic_local.py`` compares with the full-board estimate.)
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque.core import sample_chance
from ludotheque.games.cheese import rules
from ludotheque.games.cheese.heuristics import EATEN, EXPOSED, IN_HAND, CheeseHeuristicBot, _affected, _cheese_worth


@cache
def _reference_within_three(frame: int) -> tuple[frozenset[int], ...]:
    near = rules.neighbours(frame)
    out = []
    for cell in range(frame * frame):
        reached = {cell}
        edge = {cell}
        for _ in range(3):
            edge = {j for c in edge for j in near[c]} - reached
            reached |= edge
        out.append(frozenset(reached))
    return tuple(out)


def _reference_cat_out(board: dict[int, int], near: tuple[tuple[int, ...], ...], cell: int) -> bool:
    return any(board.get(j) == rules.DOG for j in near[cell])


def _reference_mouse_out(board: dict[int, int], near: tuple[tuple[int, ...], ...], cell: int) -> bool:
    return any(board.get(j) == rules.CAT and not _reference_cat_out(board, near, j) for j in near[cell])


def _reference_cheese_worth(board: dict[int, int], near: tuple[tuple[int, ...], ...], cell: int) -> float:
    staying_mice = [j for j in near[cell] if board.get(j) == rules.MOUSE and not _reference_mouse_out(board, near, j)]
    if staying_mice:
        open_mouse = all(any(m not in board for m in near[j]) for j in staying_mice)
        survival = EATEN if open_mouse else 0.0
    else:
        survival = EXPOSED ** sum(1 for j in near[cell] if j not in board)
    return rules.value_of(board[cell]) * survival


def _reference_choice(view: dict[str, Any], legal_actions: list[int], seed: int) -> int:
    """The previous ``choose``: every cheese within three steps of a placement re-valued, for every action."""
    table = view["table"]
    me: int = view["seat"]
    n: int = view["players"]
    frame: int = table["frame"]
    size = frame * frame
    near = rules.neighbours(frame)
    board: dict[int, int] = {cell: kind for cell, kind, _ in table["placed"]}
    owners: dict[int, int] = {cell: seat for cell, _, seat in table["placed"]}
    if table["start"] is not None:
        board[table["start"]] = rules.START
        owners[table["start"]] = -1
    hand: list[int] = table["hand"]
    turns_after = rules.PLACEMENTS - table["placed_count"][me] - 1
    cheeses = [cell for cell, kind in board.items() if rules.CHEESE1 <= kind <= rules.CHEESE3]
    worth_now = {cell: _reference_cheese_worth(board, near, cell) for cell in cheeses}
    within = _reference_within_three(frame)
    in_hand: dict[int, float] = {}
    best_score = float("-inf")
    best: list[int] = []
    for action in legal_actions:
        kind, cell = divmod(action, size)
        board[cell] = kind
        changed = within[cell]
        worth = [0.0] * n
        for c in cheeses:
            worth[owners[c]] += _reference_cheese_worth(board, near, c) if c in changed else worth_now[c]
        if rules.CHEESE1 <= kind <= rules.CHEESE3:
            worth[me] += _reference_cheese_worth(board, near, cell)
        del board[cell]
        if kind not in in_hand:
            kept = sorted(
                (rules.value_of(k) for k in rules.CHEESES for _ in range(hand[k] - (k == kind))), reverse=True
            )
            in_hand[kind] = IN_HAND * sum(kept[: max(0, turns_after)])
        score = worth[me] + in_hand[kind]
        others = [worth[s] for s in range(n) if s != me]
        score -= sum(others) / len(others)
        if score > best_score + 1e-9:
            best_score, best = score, [action]
        elif abs(score - best_score) <= 1e-9:
            best.append(action)
    return random.Random(seed).choice(best)


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_heuristic_choices_equal_the_reference(players: int, seed: int) -> None:
    state = ludotheque.load_game("cheese", players=players).new_initial_state()
    rng = random.Random(seed)
    bot = CheeseHeuristicBot()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        view = state.view(seat)
        choice_seed = rng.randrange(2**32)
        choice = bot.choose(view, legal, random.Random(choice_seed))
        assert choice == _reference_choice(view, legal, choice_seed)
        state.apply_action(choice if rng.random() < 0.7 else rng.choice(legal), seat)


@settings(max_examples=60, deadline=None)
@given(frame=st.sampled_from([9, 11, 13]), fill=st.floats(0.2, 0.8), seed=st.integers(0, 2**32 - 1))
def test_a_placement_changes_no_cheese_outside_the_affected_cells(frame: int, fill: float, seed: int) -> None:
    """On any board: a card of any kind on any empty cell leaves the worth of every cheese it is not said to
    affect exactly as it was, and the affected cells lie within three steps (the bound the reference used)."""
    rng = random.Random(seed)
    near = rules.neighbours(frame)
    board = {c: rng.choice([*range(rules.KINDS), rules.START]) for c in range(frame * frame) if rng.random() < fill}
    cheeses = [c for c, k in board.items() if rules.CHEESE1 <= k <= rules.CHEESE3]
    before = {c: _cheese_worth(board, near, c) for c in cheeses}
    assert before == {c: _reference_cheese_worth(board, near, c) for c in cheeses}
    for cell in [c for c in range(frame * frame) if c not in board]:
        for kind in range(rules.KINDS):
            affected = _affected(board, near, cell, kind == rules.DOG)
            assert affected <= _reference_within_three(frame)[cell]
            board[cell] = kind
            for c in cheeses:
                after = _cheese_worth(board, near, c)
                assert after == _reference_cheese_worth(board, near, c)
                if c not in affected:
                    assert after == before[c]
            del board[cell]
