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
from functools import lru_cache
from itertools import combinations, compress
from typing import Any

from ludotheque.core.bot import Sampler
from ludotheque.games.rummu import rules
from ludotheque.games.rummu.notation import ADD, CANCEL, CLOSE, DISCARD, DRAW, PUT, START, SWAP, TAKE, parse_card
from ludotheque.games.rummu.rules import TYPES, YELLOW


def candidate_combos(counts: list[int], partial: list[int]) -> list[list[int]]:
    """Valid combinations made of ``partial`` plus cards of ``counts`` (a hand as counts per type): the sets of
    each number (colours ascending), then for each span of numbers the one-colour runs (red, green, blue, black:
    naturals where possible, jokers elsewhere) and, up to five numbers, the first multicolour run found."""
    avail, fixed = _masks(counts, partial)
    return [list(cards) for cards in _candidates(avail | fixed, fixed)]


def _masks(counts: list[int], partial: list[int]) -> tuple[int, int]:
    """The types a hand holds (counts per type) and the types of ``partial``, as bitmasks."""
    avail = 0
    for card in compress(_TYPE_RANGE, counts):
        avail |= 1 << card
    fixed = 0
    for card in partial:
        fixed |= 1 << card
    return avail, fixed


_TYPE_RANGE = range(TYPES)
_RUN_COLOURS = (0, 2, 3, 4)  # one-colour runs are red, green, blue or black (yellow cards are their jokers)


@lru_cache(maxsize=1 << 12)
def _candidates(avail: int, fixed: int) -> tuple[tuple[int, ...], ...]:
    """``candidate_combos`` on bitmasks of types (``avail`` includes ``fixed``), memoised: a rollout asks for the
    same hand at every laying step and for each number of discards it considers taking."""
    out: list[tuple[int, ...]] = []
    fixed_cards = [card for card in range(TYPES) if fixed >> card & 1]
    fixed_numbers = {card % 10 for card in fixed_cards}
    red, yellow, green, blue, black = (avail >> 10 * c & 1023 for c in range(5))
    column = [  # per number, the colours (bits) available
        (red >> n & 1) | (yellow >> n & 1) << 1 | (green >> n & 1) << 2 | (blue >> n & 1) << 3 | (black >> n & 1) << 4
        for n in range(10)
    ]
    if len(fixed_numbers) <= 1:  # a set holds one number
        for n in range(10):
            if fixed_numbers and n not in fixed_numbers:
                continue
            cols = _COLOURS_OF[column[n]]
            for size in range(3, len(cols) + 1):
                for chosen in combinations(cols, size):
                    cards = tuple(c * 10 + n for c in chosen)
                    if not fixed & ~_mask(cards):
                        out.append(cards)
    # what each colour's run can hold at each number: the natural, else the joker, else nothing (-1)
    fill = (
        [[_run_card(col, n, avail, fixed) for n in range(10)] for col in _RUN_COLOURS]
        if fixed
        else [
            [
                col * 10 + n
                if avail >> (col * 10 + n) & 1
                else YELLOW * 10 + n
                if avail >> (YELLOW * 10 + n) & 1
                else -1
                for n in range(10)
            ]
            for col in _RUN_COLOURS
        ]
    )
    forced = [0] * 10  # per number, the colours (bits) of the fixed cards of that number
    for card in fixed_cards:
        forced[card % 10] |= 1 << (card // 10)
    # a run holds one card of a number, so two fixed cards of one number leave no multicolour run
    multicolour = not any(bits & (bits - 1) for bits in forced)
    options = [forced[n] or column[n] for n in range(10)]
    low_fixed = min(fixed_numbers) if fixed_numbers else 10
    high_fixed = max(fixed_numbers) if fixed_numbers else -1
    # the runs over numbers a..b, gathered by span (key a * 10 + b) in the order they are listed: the colours'
    # one-colour runs, then the multicolour one
    spans: dict[int, list[tuple[int, ...]]] = {}
    for row in fill:
        for a in range(8):
            if row[a] < 0:
                continue
            jokers = 0
            bits = 0  # the run's cards as a bitmask
            for b in range(a, 10):
                card = row[b]
                if card < 0:
                    break
                if YELLOW * 10 <= card < YELLOW * 10 + 10:
                    jokers += 1
                bits |= 1 << card
                if b >= a + 2 and 2 * jokers < b - a + 1 and not fixed & ~bits:
                    spans.setdefault(a * 10 + b, []).append(tuple(row[a : b + 1]))
    if multicolour:
        reach = _stops([bool(bits) for bits in options])  # a multicolour run needs a card of every number
        for a in range(min(8, low_fixed + 1)):
            for b in range(max(a + 2, high_fixed), min(a + 5, reach[a])):
                mixed = _first_multicolour(a, tuple(options[a : b + 1]))
                if mixed is not None:
                    spans.setdefault(a * 10 + b, []).append(mixed)
    for span in sorted(spans):
        out.extend(spans[span])
    return tuple(out)


@lru_cache(maxsize=1 << 12)
def _extension_candidates(cards: tuple[int, ...]) -> tuple[int, ...]:
    """``rules.extension_candidates``, memoised: the table's combinations change rarely between decisions."""
    return tuple(rules.extension_candidates(cards))


def _stops(present: list[bool]) -> list[int]:
    """For each number, the first number from it on with nothing ``present`` (10 when none is missing)."""
    out = [10] * 11
    for n in range(9, -1, -1):
        out[n] = out[n + 1] if present[n] else n
    return out[:10]


_COLOURS_OF = tuple([c for c in range(5) if bits >> c & 1] for bits in range(32))  # the colours of 5 bits


def _mask(cards: tuple[int, ...] | list[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _run_card(col: int, n: int, avail: int, fixed: int) -> int:
    natural, joker = col * 10 + n, YELLOW * 10 + n
    if fixed >> natural & 1 or (avail >> natural & 1 and not fixed >> joker & 1):
        return natural
    if avail >> joker & 1:
        return joker
    return -1


@lru_cache(maxsize=1 << 12)
def _first_multicolour(first: int, options: tuple[int, ...]) -> tuple[int, ...] | None:
    """The first run (colours tried in ascending order, number by number) over the numbers ``first``,
    ``first + 1``, ... with no colour twice, the colours of each number taken from the bits of ``options``."""
    chosen: list[int] = []

    def place(i: int, used: int) -> bool:
        if i == len(options):
            return True
        bits = options[i] & ~used
        for col in range(5):
            if bits >> col & 1:
                chosen.append(col * 10 + first + i)
                if place(i + 1, used | 1 << col):
                    return True
                chosen.pop()
        return False

    return tuple(chosen) if place(0, 0) else None


def best_combo(counts: list[int], partial: list[int], need: int, spare: int) -> list[int] | None:
    """The best combination containing ``partial`` using at most ``spare`` cards of the hand."""
    avail, fixed = _masks(counts, partial)
    best: tuple[int, ...] | None = None
    best_key = (-1, -1, 0)
    laid = len(partial)
    for cards in _candidates(avail | fixed, fixed):
        if len(cards) < need or len(cards) - laid > spare:
            continue
        key = _combo_key(cards)
        if key > best_key:
            best, best_key = cards, key
    return None if best is None else list(best)


@lru_cache(maxsize=1 << 14)
def _combo_key(cards: tuple[int, ...]) -> tuple[int, int, int]:
    """What ``best_combo`` prefers: more cards, then more points, then fewer jokers."""
    return len(cards), rules.combo_points(cards), -sum(1 for c in cards if rules.is_joker(c))


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


_CARDS = {rules.card_str(t): t for t in range(TYPES)}


def _card_list(texts: list[str]) -> list[int]:
    """The cards of the view: their written forms looked up, or else parsed (and refused) by the notation."""
    try:
        return [_CARDS[text] for text in texts]
    except KeyError:
        return [parse_card(text) for text in texts]


MAX_RETRIES = 3  # combinations the bot starts again in one turn after cancelling (its plans are deterministic)


class RummuHeuristicBot:
    name = "heuristic"

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
        table = view["table"]
        seat = view["seat"]
        legal = set(legal_actions)
        hand = _card_list(table.get("hand", []))
        counts = [0] * TYPES
        for card in hand:
            counts[card] += 1
        opened = table["opened"][seat]
        need = 3 if opened else table["needs"][seat]
        combos = [_card_list(combo["cards"]) for combo in table["combos"]]
        if DRAW in legal:
            return self._draw(table, counts, need, opened, combos, legal)
        partial = _card_list(table["laying"])
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
        fits_table = {c for combo in combos for c in _extension_candidates(tuple(combo))}

        def keep_value(action: int) -> tuple[int, int, int]:
            card = action - DISCARD
            # loose cards first; among equally loose ones, the costlier yellow, and keep cards away from
            # the table combinations that the next players could extend
            return (connectivity(card, counts), 1 if card in fits_table else 0, 0 if rules.is_joker(card) else 1)

        lowest = min(keep_value(a) for a in discards)
        return rng.choice([a for a in discards if keep_value(a) == lowest])  # random ties break cycles

    def _draw(
        self,
        table: dict[str, Any],
        counts: list[int],
        need: int,
        opened: bool,
        combos: list[list[int]],
        legal: set[int],
    ) -> int:
        """Take discards only to lay one of them this very turn (so that two such bots cannot pass cards back
        and forth while the draw pile never shrinks): the fewest top cards that complete a combination, or, once
        opened, the top card when it fits a table combination."""
        discard = _card_list(table["discard"])
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
        fits = bool(discard) and any(discard[-1] in _extension_candidates(tuple(c)) for c in combos)
        if fits and opened and TAKE in legal:
            return TAKE
        return DRAW
