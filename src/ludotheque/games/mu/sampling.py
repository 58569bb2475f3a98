"""Drawing hidden hands for ``resample``: split unseen cards among seats, respecting the suits each seat is
known to lack (a seat that did not follow a led suit holds none of it: mu-7)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations


def split_cards(
    pool: Sequence[int],
    sizes: dict[int, int],
    forbidden: dict[int, set[int]],
    category: Callable[[int], int],
    rng: random.Random,
) -> dict[int, list[int]]:
    """Give each seat ``sizes[seat]`` cards of ``pool`` (kinds), never a card whose category the seat is known
    to lack.  Cards beyond the sizes stay in the undealt deck (key ``-1``, unconstrained).  The draw is
    uniform when there is no constraint; with constraints it tries plain shuffles first, then assigns card by
    card keeping the rest feasible (Hall's condition over categories)."""
    cards = list(pool)
    slots = dict(sizes)
    slots[-1] = len(cards) - sum(sizes.values())
    bans = {seat: forbidden.get(seat, set()) for seat in slots}
    if not any(bans.values()):
        return _deal_in_order(cards, slots, rng)
    for _ in range(30):
        result = _deal_in_order(cards, slots, rng)
        if all(category(card) not in bans[seat] for seat, held in result.items() for card in held):
            return result
    return _deal_with_hall(cards, slots, bans, category, rng)


def _deal_in_order(cards: list[int], slots: dict[int, int], rng: random.Random) -> dict[int, list[int]]:
    rng.shuffle(cards)
    out: dict[int, list[int]] = {}
    start = 0
    for seat, size in slots.items():
        out[seat] = cards[start : start + size]
        start += size
    return out


def _feasible(counts: dict[int, int], capacity: dict[int, int], bans: dict[int, set[int]]) -> bool:
    groups = [g for g, m in counts.items() if m > 0]
    for size in range(1, len(groups) + 1):
        for subset in combinations(groups, size):
            need = sum(counts[g] for g in subset)
            room = sum(cap for seat, cap in capacity.items() if any(g not in bans[seat] for g in subset))
            if need > room:
                return False
    return True


def _deal_with_hall(
    cards: list[int],
    slots: dict[int, int],
    bans: dict[int, set[int]],
    category: Callable[[int], int],
    rng: random.Random,
) -> dict[int, list[int]]:
    rng.shuffle(cards)
    counts: dict[int, int] = {}
    for card in cards:
        counts[category(card)] = counts.get(category(card), 0) + 1
    capacity = dict(slots)
    out: dict[int, list[int]] = {seat: [] for seat in slots}
    for card in cards:
        group = category(card)
        counts[group] -= 1
        seats = [seat for seat in capacity if capacity[seat] > 0 and group not in bans[seat]]
        rng.shuffle(seats)
        for seat in seats:
            capacity[seat] -= 1
            if _feasible(counts, capacity, bans):
                out[seat].append(card)
                break
            capacity[seat] += 1
        else:  # the true deal satisfies every constraint, so some seat always fits
            raise AssertionError("mu: no consistent deal found")
    return out
