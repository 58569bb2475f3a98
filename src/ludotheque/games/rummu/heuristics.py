"""A Rummü baseline that lays what it can and keeps connected cards.

- Draw: take the fewest discards whose deepest card can be laid this turn in a combination (meeting the
  opening need), or, once opened, the top discard when it fits a table combination; otherwise draw.
- Lay: find the best combination the hand can lay now (biggest, then most points, respecting the opening
  need and keeping a card to discard) and lay it card by card; the plan is recomputed from the view at each
  step, so it needs no memory.  Once opened, put every card that fits a table combination.  After three
  cancels in a turn it starts nothing more that turn (its own bound: the rules set none, rummu-11).
- Discard: the card least connected to the natural cards of the hand (ties: a card that cannot feed a table
  combination, then the costlier yellow card, then at random, which breaks deterministic cycles).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from ludotheque.core.bot import Sampler
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
    """How many natural cards of the hand could share a combination with ``card`` (jokers need naturals)."""
    n, col = card % 10, card // 10
    score = 0
    for other in range(TYPES):
        if not counts[other] or other == card or rules.is_joker(other):
            continue
        m, c = other % 10, other // 10
        if m == n and c != col:
            score += 2
        elif abs(m - n) <= 2 and col in (c, YELLOW):
            score += 2 if abs(m - n) == 1 else 1
    return score


MAX_RETRIES = 3  # combinations the bot starts again in one turn after cancelling (its plans are deterministic)


class RummuHeuristicBot:
    name = "heuristic"

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
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
            return self._draw(table, counts, need, opened, combos, legal)
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
        # the bot's own bound, not a rule (rummu-11): a plan it had to cancel would be planned again the same way
        if plan is not None and START + plan[0] in legal and table["cancels"] < MAX_RETRIES:
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
            # loose cards first; among equally loose ones, the costlier yellow, and keep cards away from
            # the table combinations that the next players could extend
            return (connectivity(card, counts), 1 if card in fits_table else 0, 0 if rules.is_joker(card) else 1)

        lowest = min(keep_value(a) for a in discards)
        return rng.choice([a for a in discards if keep_value(a) == lowest])  # random ties break cycles

    def _draw(self, table: dict[str, Any], counts: list[int], need: int, opened: bool, combos: list[list[int]],
              legal: set[int]) -> int:
        """Take discards only to lay one of them this very turn (so that two such bots cannot pass cards back
        and forth while the draw pile never shrinks): the fewest top cards that complete a combination, or, once
        opened, the top card when it fits a table combination."""
        discard = [parse_card(c) for c in table["discard"]]
        size = sum(counts)
        for k in range(1, min(len(discard), 10) + 1):
            if TAKE + k - 1 not in legal:
                break
            taken = discard[-k:]
            with_taken = list(counts)
            for card in taken:
                with_taken[card] += 1
            plan = best_combo(with_taken, [], need, size + k - 1)
            if plan is not None and discard[-k] in plan:
                return TAKE + k - 1
        fits = bool(discard) and any(discard[-1] in rules.extension_candidates(c) for c in combos)
        if fits and opened and TAKE in legal:
            return TAKE
        return DRAW
