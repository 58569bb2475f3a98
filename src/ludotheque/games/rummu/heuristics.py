"""A Rummü baseline that lays what it can and keeps connected cards.

- Draw: take the top discard when it completes a combination with the hand (or, once opened, fits a table
  combination); otherwise draw from the pile.
- Lay: find the best combination the hand can lay now (biggest, then most points, respecting the opening
  need and keeping a card to discard) and lay it card by card; the plan is recomputed from the view at each
  step, so it needs no memory.  Once opened, put every card that fits a table combination.
- Discard: the card least connected to the rest of the hand (a yellow joker last, a card that would feed a
  table combination first only if nothing else is loose).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from ludotheque.games.rummu import rules
from ludotheque.games.rummu.notation import ADD, CANCEL, CLOSE, DISCARD, DRAW, PUT, START, SWAP, TAKE, parse_card
from ludotheque.games.rummu.rules import TYPES, YELLOW


def candidate_combos(counts: list[int], partial: list[int]) -> list[list[int]]:
    """Valid combinations made of ``partial`` plus cards of ``counts`` (a hand as counts per type)."""
    avail = [bool(c) for c in counts]
    for card in partial:
        avail[card] = True
    fixed = set(partial)
    out: list[list[int]] = []
    for n in range(10):
        cols = [c for c in range(5) if avail[c * 10 + n]]
        for size in range(3, len(cols) + 1):
            for chosen in combinations(cols, size):
                cards = [c * 10 + n for c in chosen]
                if fixed <= set(cards):
                    out.append(cards)
    for a in range(10):
        for b in range(a + 2, 10):
            numbers = range(a, b + 1)
            for col in (0, 2, 3, 4):  # one-colour runs: naturals where possible, jokers elsewhere
                cards = []
                for n in numbers:
                    natural, joker = col * 10 + n, YELLOW * 10 + n
                    if natural in fixed or (avail[natural] and joker not in fixed):
                        cards.append(natural)
                    elif avail[joker]:
                        cards.append(joker)
                    else:
                        break
                else:
                    if fixed <= set(cards) and rules.is_valid(cards):
                        out.append(cards)
            if b - a < 5:
                mixed = _multicolour(list(numbers), avail, fixed)
                if mixed is not None:
                    out.append(mixed)
    return out


def _multicolour(numbers: list[int], avail: list[bool], fixed: set[int]) -> list[int] | None:
    """A run over ``numbers`` with no colour twice, containing ``fixed`` (first found by backtracking)."""
    chosen: list[int] = []

    def place(i: int, used: set[int]) -> bool:
        if i == len(numbers):
            return True
        n = numbers[i]
        forced = [c for c in fixed if c % 10 == n]
        options = [c // 10 for c in forced] if forced else [c for c in range(5) if avail[c * 10 + n]]
        for col in options:
            if col not in used:
                chosen.append(col * 10 + n)
                if place(i + 1, used | {col}):
                    return True
                chosen.pop()
        return False

    if place(0, set()) and fixed <= set(chosen):
        return chosen
    return None


def best_combo(counts: list[int], partial: list[int], need: int, spare: int) -> list[int] | None:
    """The best combination containing ``partial`` using at most ``spare`` cards of the hand."""
    best: list[int] | None = None
    best_key = (-1, -1, 0)
    for cards in candidate_combos(counts, partial):
        used = len(cards) - len(partial)
        if len(cards) < need or used > spare:
            continue
        key = (len(cards), rules.combo_points(cards), -sum(1 for c in cards if rules.is_joker(c)))
        if key > best_key:
            best, best_key = cards, key
    return best


def connectivity(card: int, counts: list[int]) -> int:
    """How many other hand cards could share a combination with ``card``."""
    n, col = card % 10, card // 10
    score = 0
    for other in range(TYPES):
        if not counts[other] or other == card:
            continue
        m, c = other % 10, other // 10
        if m == n and c != col:
            score += 2
        elif abs(m - n) <= 2 and (c == col or YELLOW in (c, col)):
            score += 2 if abs(m - n) == 1 else 1
    return score


class RummuHeuristicBot:
    name = "heuristic"

    def choose(self, view: dict[str, Any], legal_actions: list[int], rng: random.Random) -> int:
        table = view["table"]
        seat = view["seat"]
        legal = set(legal_actions)
        hand = [parse_card(c) for c in table.get("hand", [])]
        counts = [0] * TYPES
        for card in hand:
            counts[card] += 1
        opened = table["opened"][seat]
        need = 3 if opened else table["needs"][seat]
        combos = [[parse_card(c) for c in combo["cards"]] for combo in table["combos"]]
        if DRAW in legal:
            return self._draw(table, counts, opened, combos, legal)
        partial = [parse_card(c) for c in table["laying"]]
        if partial:
            plan = best_combo(counts, partial, need, len(hand) - 1)
            if plan is not None:
                if len(plan) == len(partial) and CLOSE in legal:
                    return CLOSE
                for card in plan:
                    if card not in partial and ADD + card in legal:
                        return ADD + card
            return CLOSE if CLOSE in legal else CANCEL
        plan = best_combo(counts, [], need, len(hand) - 1)
        if plan is not None and START + plan[0] in legal:
            return START + plan[0]
        puts = [a for a in legal_actions if PUT <= a < SWAP]
        if puts:
            return puts[0]
        swaps = [a for a in legal_actions if a >= SWAP]
        if swaps and len(hand) >= 3:
            return swaps[0]
        discards = [a for a in legal_actions if DISCARD <= a < PUT]
        if not discards:
            return rng.choice(legal_actions)
        fits_table = {c for combo in combos for c in rules.extension_candidates(combo)}

        def keep_value(action: int) -> tuple[int, int, int]:
            card = action - DISCARD
            return (
                1 if rules.is_joker(card) else 0,
                1 if card in fits_table else 0,
                connectivity(card, counts),
            )

        return min(discards, key=keep_value)

    def _draw(self, table: dict[str, Any], counts: list[int], opened: bool, combos: list[list[int]],
              legal: set[int]) -> int:
        if table["discard"] and TAKE in legal:
            top = parse_card(table["discard"][-1])
            with_top = list(counts)
            with_top[top] += 1
            if best_combo(with_top, [top], 3, sum(with_top) - 1) is not None:
                return TAKE
            if opened and any(top in rules.extension_candidates(combo) for combo in combos):
                return TAKE
        return DRAW
