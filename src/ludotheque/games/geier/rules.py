"""Hol's der Geier rules that do not depend on the state's layout (DECISIONS geier-1..5)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

# geier-1: mice +1..+10 and vultures -1..-5; chance action i turns POINT_CARDS[i].
POINT_CARDS: tuple[int, ...] = (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
POINT_INDEX: dict[int, int] = {value: index for index, value in enumerate(POINT_CARDS)}
HAND_CARDS: tuple[int, ...] = tuple(range(1, 16))
FULL_HAND = sum(1 << card for card in HAND_CARDS)
ALL_POINTS = (1 << len(POINT_CARDS)) - 1
ROUNDS = len(POINT_CARDS)

TIE_RULES = ("cascade", "single")
FINAL_TIES = ("next-best", "highest-mouse")


def pot_taker(played: Sequence[int], pot_sum: int, tie_rule: str) -> int | None:
    """The seat that takes the pot, or ``None`` if it stays (geier-3).

    A pot worth zero or more goes to the highest card played by exactly one seat, a negative pot to the
    lowest.  ``cascade`` looks past every tied value; ``single`` sets aside only the tied best value and gives
    the pot to the next value if that one is unique.
    """
    # at most five cards: list.count beats building a Counter (this runs once a round in every playout)
    best = max(played) if pot_sum >= 0 else min(played)
    if played.count(best) == 1:  # the usual case, whatever the tie rule
        return played.index(best)
    order = sorted(set(played), reverse=pot_sum >= 0)
    if tie_rule == "single":
        order = order[:2]
    for value in order:
        if played.count(value) == 1:
            return played.index(value)
    return None


def best_unique(scores: Sequence[int]) -> int | None:
    """The seat holding the best score held by exactly one seat (geier-5 ``next-best``)."""
    counts = Counter(scores)
    for score in sorted(counts, reverse=True):
        if counts[score] == 1:
            return scores.index(score)
    return None


def final_winners(scores: Sequence[int], won: Sequence[Sequence[int]], final_tie: str) -> list[int]:
    """Winning seats at the end (geier-5); ``[]`` when nobody wins."""
    top = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == top]
    if len(leaders) == 1:
        return leaders
    if final_tie == "next-best":
        seat = best_unique(scores)
        return [] if seat is None else [seat]
    best_mouse = {seat: max((card for card in won[seat] if card > 0), default=0) for seat in leaders}
    highest = max(best_mouse.values())
    if highest == 0:
        return []
    return [seat for seat in leaders if best_mouse[seat] == highest]
