"""Rummü rules that do not depend on the state's layout (seed 004, DECISIONS rummu-1..10).

A card *type* is ``colour * 10 + number`` (0..49).  Identical cards (the two 1s and the two 7s of a colour) are
fungible, so the engine works with types and multiset counts; the deck holds 60 physical cards of 50 types.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise

# rummu-1 / mu-1: five colours, each 0, 1, 1, 2, 3, 4, 5, 6, 7, 7, 8, 9.  Yellow cards are always jokers.
COLOURS = ("R", "Y", "G", "B", "K")  # red, yellow (jokers), green, blue, black
COLOUR_NAMES = ("red", "yellow", "green", "blue", "black")
YELLOW = 1
NUMBERS = tuple(range(10))
TYPES = 50
DECK_COUNTS: tuple[int, ...] = tuple(2 if t % 10 in (1, 7) else 1 for t in range(TYPES))
DECK_SIZE = sum(DECK_COUNTS)  # 60

# rummu-2: cards dealt per player.
HAND_SIZE = {3: 9, 4: 8, 5: 8, 6: 7}

# rummu-8: the bonus for going out.
OUT_BONUS = 10

# rummu-10 (all-4): the rulebook targets.
TARGET_SINGLE = 200
TARGET_TEAM = 500


def colour(card: int) -> int:
    return card // 10


def number(card: int) -> int:
    return card % 10


def is_joker(card: int) -> bool:
    return card // 10 == YELLOW


CARD_STRS: tuple[str, ...] = tuple(f"{COLOURS[t // 10]}{t % 10}" for t in range(TYPES))


def card_str(card: int) -> str:
    return CARD_STRS[card]


def count_list(counts: Sequence[int]) -> list[int]:
    """The card types of a multiset given as counts per type, in type order."""
    out: list[int] = []
    if any(counts):
        for t, c in enumerate(counts):
            if c:
                out.extend((t,) * c)
    return out


def is_valid(cards: Sequence[int]) -> bool:
    """rummu-4: 3+ cards, all of one number (a set) or of consecutive numbers (a run), and either one colour
    (jokers aside) with more natural cards than jokers, or several colours with no colour twice (yellow counting
    as a colour, hence at most one joker).  No two identical cards."""
    return len(cards) >= 3 and _colour_rule(cards) and (_is_set(cards) or _is_run(cards))


@lru_cache(maxsize=1 << 16)
def is_valid_sorted(cards: tuple[int, ...]) -> bool:
    """``is_valid`` of sorted cards (its answer does not depend on the order), memoised: the laying step asks it
    at every step of a combination long enough to close."""
    return is_valid(cards)


def _is_set(cards: Sequence[int]) -> bool:
    n = cards[0] % 10
    return all(c % 10 == n for c in cards)


def _is_run(cards: Sequence[int]) -> bool:
    nums = sorted(c % 10 for c in cards)
    return all(b == a + 1 for a, b in pairwise(nums))


def _colour_rule(cards: Sequence[int]) -> bool:
    if len(set(cards)) != len(cards):
        return False  # two identical cards
    cols = [c // 10 for c in cards]
    if len(set(cols)) == len(cols):
        return True  # several colours, none twice
    naturals = {c for c in cols if c != YELLOW}
    jokers = cols.count(YELLOW)
    return len(naturals) == 1 and len(cols) - jokers > jokers  # one colour, more naturals than jokers


def is_set(cards: Sequence[int]) -> bool:
    """For a valid combination: a set (all one number); otherwise it is a run."""
    return _is_set(cards)


def is_pure(cards: Sequence[int]) -> bool:
    """rummu-8: a set without joker, or a one-colour run without joker."""
    if any(is_joker(c) for c in cards):
        return False
    return _is_set(cards) or len({c // 10 for c in cards}) == 1


def extendable(cards: Sequence[int], min_size: int) -> bool:
    """Whether some valid combination of at least ``min_size`` cards contains ``cards`` (partial build check).

    Hand-independent on purpose: the legality of a public laying step must not depend on hidden cards.
    The answer does not depend on the cards' order; it is memoised on the sorted cards, as it is asked for
    every type in hand at every step of a combination being laid (a third of random play before the memo).
    """
    if not cards:
        return True
    return _extendable(tuple(sorted(cards)), min_size)


@lru_cache(maxsize=1 << 16)
def _extendable(cards: tuple[int, ...], min_size: int) -> bool:
    """``extendable`` on sorted, non-empty cards."""
    if len(set(cards)) != len(cards):
        return False
    need = max(3, min_size)
    nums = [c % 10 for c in cards]
    cols = [c // 10 for c in cards]
    distinct_cols = len(set(cols)) == len(cols)
    if len(set(nums)) == 1 and distinct_cols and need <= len(COLOURS):
        return True  # a set can take one card of each colour
    if len(set(nums)) != len(nums):
        return False
    span = max(nums) - min(nums) + 1
    if span > 10 or need > 10:
        return False
    naturals = {c for c in cols if c != YELLOW}
    jokers = cols.count(YELLOW)
    if len(naturals) <= 1 and 10 - jokers > jokers:
        return True  # one-colour run: fill every other number 0..9 with naturals
    return distinct_cols and max(span, need) <= len(COLOURS)


@lru_cache(maxsize=1 << 16)
def addable_types(cards: tuple[int, ...], min_size: int) -> int:
    """The types ``t`` with ``extendable([*cards, t], min_size)``, as a bitmask (``cards`` sorted, non-empty):
    ``extending_types`` worked out on bitmasks of colours and numbers instead of type by type, and memoised, as
    random play and search begin the same combinations again and again."""
    need = max(3, min_size)
    if need > 10 or len(set(cards)) != len(cards):
        return 0  # too long for any combination, or two identical cards already
    nums = [c % 10 for c in cards]
    cols = [c // 10 for c in cards]
    num_set, col_set = set(nums), set(cols)
    free_cols = _ALL_COLOURS & ~sum(1 << k for k in col_set)  # the colours not in the cards yet
    cols_distinct = len(col_set) == len(cols)
    mask = 0
    if len(num_set) == 1 and cols_distinct and need <= len(COLOURS):
        mask |= _spread(free_cols, 1 << nums[0])  # a set can take one card of each colour
    if len(num_set) != len(nums):
        return mask  # two cards of one number: no run
    free_numbers = _ALL_NUMBERS & ~sum(1 << n for n in num_set)  # a run takes a number it does not hold
    naturals = col_set - {YELLOW}
    jokers = cols.count(YELLOW)
    one_colour = 0  # the colours whose card keeps a one-colour run (its naturals outnumbering its jokers)
    if len(naturals) <= 1 and 10 - (jokers + 1) > jokers + 1:
        one_colour |= 1 << YELLOW
    if 10 - jokers > jokers:
        if not naturals:
            one_colour |= _ALL_COLOURS & ~(1 << YELLOW)
        elif len(naturals) == 1:
            one_colour |= 1 << next(iter(naturals))
    mask |= _spread(one_colour, free_numbers)
    low, high = min(nums), max(nums)
    if cols_distinct and need <= len(COLOURS) and high - low < len(COLOURS):
        # a multicolour run: a new colour, and a number keeping the run within five numbers
        near = _ALL_NUMBERS & ((1 << (low + 5)) - 1) & ~((1 << max(0, high - 4)) - 1)
        mask |= _spread(free_cols & ~one_colour, free_numbers & near)
    return mask


_ALL_COLOURS = (1 << len(COLOURS)) - 1
_ALL_NUMBERS = (1 << 10) - 1


def _spread(colours: int, numbers: int) -> int:
    """The types with a colour among the bits of ``colours`` and a number among the bits of ``numbers``."""
    mask = 0
    for k in range(len(COLOURS)):
        if colours >> k & 1:
            mask |= numbers << (10 * k)
    return mask


def extending_types(cards: Sequence[int], min_size: int, types: Sequence[int]) -> list[int]:
    """``[t for t in types if extendable([*cards, t], min_size)]`` for non-empty ``cards``, with what the
    cards share worked out once: the laying step asks it of every type in hand at every step, and the
    combinations random play begins are too many for a memo to meet them again."""
    need = max(3, min_size)
    if need > 10:
        return []
    nums = [c % 10 for c in cards]
    cols = [c // 10 for c in cards]
    held = set(cards)
    num_set, col_set = set(nums), set(cols)
    if len(held) != len(cards):
        return []  # two identical cards already
    one_number = nums[0] if len(num_set) == 1 else -1
    cols_distinct = len(col_set) == len(cols)
    nums_distinct = len(num_set) == len(nums)
    low, high = min(nums), max(nums)
    naturals = col_set - {YELLOW}
    jokers = cols.count(YELLOW)
    set_fits = need <= len(COLOURS)
    out = []
    for t in types:
        if t in held:
            continue
        n, k = t % 10, t // 10
        distinct = cols_distinct and k not in col_set
        if n == one_number and distinct and set_fits:
            out.append(t)  # a set can take one card of each colour
            continue
        if not nums_distinct or n in num_set:
            continue
        span = (n if n > high else high) - (n if n < low else low) + 1
        if span > 10:
            continue
        if k == YELLOW:
            if len(naturals) <= 1 and 10 - (jokers + 1) > jokers + 1:
                out.append(t)  # one-colour run
                continue
        elif (len(naturals) == 0 or (len(naturals) == 1 and k in naturals)) and 10 - jokers > jokers:
            out.append(t)
            continue
        if distinct and max(span, need) <= len(COLOURS):
            out.append(t)
    return out


def combo_points(cards: Sequence[int]) -> int:
    """rummu-8: what a combination on the table is worth to its owner."""
    size = len(cards)
    pure = is_pure(cards)
    if _is_set(cards):
        if size == 3:
            points = 0
        elif size == 4:
            points = 30 if pure else 10
        else:
            points = 50
        if cards[0] % 10 in (1, 7):
            points //= 2  # sets of 1s or 7s: half
        return points
    if size == 3:
        return 10 if pure else 0
    if size == 4:
        return 20 if pure else 10
    return (40 if pure else 20) + 10 * (size - 5)


def hand_penalty(cards: Sequence[int]) -> int:
    """rummu-8: -10 per yellow card, -5 per other card left in hand."""
    return sum(-10 if is_joker(c) else -5 for c in cards)


def opening_threshold(total: int | None, team: bool) -> int:
    """rummu-5: cards the opening combination needs; ``total`` is ``None`` in the first hand."""
    if total is None:
        return 4
    if total < 0:
        return 3
    if total < (200 if team else 100):
        return 4
    if total < (400 if team else 150):
        return 5
    return 6


def extension_candidates(cards: Sequence[int]) -> list[int]:
    """Card types that can be added to a valid combination (at an end of a run, or a new colour of a set)."""
    nums = [c % 10 for c in cards]
    if _is_set(cards):
        targets = [c * 10 + nums[0] for c in range(len(COLOURS))]
    else:
        targets = []
        for n in (min(nums) - 1, max(nums) + 1):
            if 0 <= n <= 9:
                targets.extend(c * 10 + n for c in range(len(COLOURS)))
    return sorted(t for t in targets if is_valid([*cards, t]))


def swap_candidates(cards: Sequence[int]) -> list[int]:
    """Natural cards that can replace a joker of their own number in a valid combination (rummu-6)."""
    out = []
    for joker in cards:
        if not is_joker(joker):
            continue
        rest = [c for c in cards if c != joker]
        for col in range(len(COLOURS)):
            natural = col * 10 + joker % 10
            if col != YELLOW and is_valid([*rest, natural]):
                out.append(natural)
    return sorted(out)


def winners_of(totals: Sequence[int]) -> list[int]:
    """rummu-10: the highest total wins; seats sharing it share the win."""
    top = max(totals)
    return [seat for seat, total in enumerate(totals) if total == top]
