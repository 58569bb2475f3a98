"""A Cheese Rescue baseline: one-ply greedy on an estimate of the final cheese values.

For every legal placement the bot puts the card on a copy of the board, runs the scoring cascade on it as if
the game ended now (cheese-5), and values each cheese on the board by its worth times a survival estimate:
a cheese already eaten is nearly lost (it may be saved if a cat later lands by the mouse), an uneaten one
risks each empty neighbour where a mouse may still come.  The score is the bot's own estimate minus the mean
of the other seats', plus the worth of the bot's cheeses still in hand that it still has turns to place.
It reads only the view and its legal actions.

Speed (the heuristic is the rollout policy of ISMCTS, so it runs thousands of times a move): a placement only
changes the cheeses next to its cell, next to a mouse next to it, and, for a dog, next to a mouse next to a cat
next to it (the dog makes the cat run, so the mouse stays), so ``choose`` values every cheese once on the board
as it is and re-values, for each placement, only those (``_affected``), once per cell and kind of card (the
three cheeses change the others alike).  The sums are taken in the same order as the plain full-board estimate
(``_estimate``, kept as the reference the tests compare with), so the scores and the choices are exactly the
same.
"""

from __future__ import annotations

import random
from typing import Any

from ludotheque.core.bot import Sampler
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


def _cheese_worth(board: dict[int, int], near: tuple[tuple[int, ...], ...], cell: int) -> float:
    """What the cheese at ``cell`` is expected to be worth: ``_estimate``'s term for it, computed locally.

    The loops are spelt out (this runs for every cheese near every placement the rollouts weigh): a mouse
    next to the cheese stays unless a cat next to it stays, which it does unless a dog is next to it."""
    get = board.get
    staying_mice = []
    for j in near[cell]:
        if get(j) != rules.MOUSE:
            continue
        caught = False
        for k in near[j]:
            if get(k) == rules.CAT:
                for d in near[k]:
                    if get(d) == rules.DOG:
                        break
                else:  # no dog: the cat stays and catches the mouse
                    caught = True
                    break
        if not caught:
            staying_mice.append(j)
    if staying_mice:  # eaten if the game ended now; saved only if every such mouse can still be caught
        open_mouse = all(any(m not in board for m in near[j]) for j in staying_mice)
        survival = EATEN if open_mouse else 0.0
    else:
        survival = EXPOSED ** sum(1 for j in near[cell] if j not in board)
    return rules.value_of(board[cell]) * survival


def _affected(board: dict[int, int], near: tuple[tuple[int, ...], ...], cell: int, dog: bool) -> set[int]:
    """The cells whose cheese a card placed on the empty ``cell`` can re-value (``_cheese_worth`` reads nothing
    else): its neighbours (one empty neighbour fewer, or a new mouse or cat next to them); the neighbours of a
    mouse next to it (that mouse loses an open side, or is caught by a new cat); and for a dog, the neighbours
    of a mouse next to a cat next to it (the cat runs, the mouse stays).  All within three steps of ``cell``."""
    out = set(near[cell])
    for j in near[cell]:
        kind = board.get(j)
        if kind == rules.MOUSE:
            out.update(near[j])
        elif dog and kind == rules.CAT:
            for m in near[j]:
                if board.get(m) == rules.MOUSE:
                    out.update(near[m])
    return out


class CheeseHeuristicBot:
    name = "heuristic"

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
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
        worth_now = {cell: _cheese_worth(board, near, cell) for cell in cheeses}
        # The board's cheeses are worth the same whichever of the three cheeses lands on a cell (they only read
        # whether a cell holds a dog, a cat, a mouse or anything), so their sums are kept per cell and per kind
        # of card, a cheese counting as CHEESE1: ``board_worth``.  The cheese placed is then added last, as
        # ``_estimate`` meets it last on the board.
        board_worth: dict[tuple[int, int], list[float]] = {}
        in_hand: dict[int, float] = {}  # per kind placed: the worth of the cheeses kept in hand
        best_score = float("-inf")
        best: list[int] = []
        for action in legal_actions:
            kind, cell = divmod(action, size)
            cheese = rules.CHEESE1 <= kind <= rules.CHEESE3
            key = (cell, rules.CHEESE1 if cheese else kind)
            board[cell] = kind
            summed = board_worth.get(key)
            if summed is None:
                changed = _affected(board, near, cell, kind == rules.DOG)
                summed = board_worth[key] = [0.0] * n
                for c in cheeses:  # the same order as _estimate's sum over the board
                    summed[owners[c]] += _cheese_worth(board, near, c) if c in changed else worth_now[c]
            worth = list(summed)
            if cheese:
                worth[me] += _cheese_worth(board, near, cell)
            del board[cell]
            if kind not in in_hand:
                # cheeses kept in hand: only as many as turns remain can still reach the board
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
        return rng.choice(best)
