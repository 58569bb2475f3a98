"""A Cheese Rescue baseline: one-ply greedy on an estimate of the final cheese values.

For every legal placement the bot puts the card on a copy of the board, runs the scoring cascade on it as if
the game ended now (cheese-5), and values each cheese on the board by its worth times a survival estimate:
a cheese already eaten is nearly lost (it may be saved if a cat later lands by the mouse), an uneaten one
risks each empty neighbour where a mouse may still come.  The score is the bot's own estimate minus the mean
of the other seats', plus the worth of the bot's cheeses still in hand that it still has turns to place.
It reads only the view and its legal actions.
"""

from __future__ import annotations

import random
from typing import Any

from ludotheque.games.cheese import rules

EXPOSED = 0.72  # survival factor per empty neighbour of a cheese
EATEN = 0.12  # survival of a cheese next to a surviving mouse that can still be caught
IN_HAND = 0.45  # worth of a cheese in hand (it may still be placed somewhere safe)


def _cascade(board: dict[int, int], near: tuple[tuple[int, ...], ...]) -> tuple[set[int], set[int]]:
    """Removed mice and cheeses if the game ended now (cats removed only matter through the mice)."""
    cats_out = {c for c, k in board.items() if k == rules.CAT and any(board.get(j) == rules.DOG for j in near[c])}
    mice_out = {
        c
        for c, k in board.items()
        if k == rules.MOUSE and any(board.get(j) == rules.CAT and j not in cats_out for j in near[c])
    }
    eaten = {
        c
        for c, k in board.items()
        if rules.CHEESE1 <= k <= rules.CHEESE3
        and any(board.get(j) == rules.MOUSE and j not in mice_out for j in near[c])
    }
    return mice_out, eaten


def _estimate(
    board: dict[int, int], owners: dict[int, int], near: tuple[tuple[int, ...], ...], players: int
) -> list[float]:
    mice_out, eaten = _cascade(board, near)
    worth = [0.0] * players
    for cell, kind in board.items():
        if not rules.CHEESE1 <= kind <= rules.CHEESE3:
            continue
        empty = sum(1 for j in near[cell] if j not in board)
        if cell in eaten:
            open_mouse = all(
                any(m not in board for m in near[j])
                for j in near[cell]
                if board.get(j) == rules.MOUSE and j not in mice_out
            )
            survival = EATEN if open_mouse else 0.0
        else:
            survival = EXPOSED**empty
        worth[owners[cell]] += rules.value_of(kind) * survival
    return worth


class CheeseHeuristicBot:
    name = "heuristic"

    def choose(self, view: dict[str, Any], legal_actions: list[int], rng: random.Random) -> int:
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
        best_score = float("-inf")
        best: list[int] = []
        for action in legal_actions:
            kind, cell = divmod(action, size)
            board[cell] = kind
            owners[cell] = me
            worth = _estimate(board, owners, near, n)
            del board[cell]
            del owners[cell]
            # cheeses kept in hand: only as many as turns remain can still reach the board
            kept = sorted(
                (rules.value_of(k) for k in rules.CHEESES for _ in range(hand[k] - (k == kind))), reverse=True
            )
            score = worth[me] + IN_HAND * sum(kept[: max(0, turns_after)])
            others = [worth[s] for s in range(n) if s != me]
            score -= sum(others) / len(others)
            if score > best_score + 1e-9:
                best_score, best = score, [action]
            elif abs(score - best_score) <= 1e-9:
                best.append(action)
        return rng.choice(best)
