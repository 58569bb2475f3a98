"""Safarü rules that do not depend on the state's layout (DECISIONS safaru-1..8, mu-1).

Cards are handled by *kind* (colour, number): the two red 7s are interchangeable, so a hand, the table, the
pile and each catch pile are count vectors over the 50 kinds.  Kind ``k`` is colour ``k // 10`` and number
``k % 10``.  A chance deal draws a kind with probability (copies left in the pile) / (cards in the pile), which
is exactly "the next card, uniform over the cards left" (DECISIONS all-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import compress
from operator import add, mul
from typing import Any

# mu-1: five colours, each 0, 1, 1, 2, 3, 4, 5, 6, 7, 7, 8, 9 (60 cards).  Letters used by the notation.
COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "black")
LETTERS: tuple[str, ...] = ("R", "Y", "G", "B", "K")
YELLOW = 1  # safaru-1: hedgehogs
BLUE = 3  # safaru-1: unicorns
NUMBERS_PER_COLOUR: tuple[int, ...] = (0, 1, 1, 2, 3, 4, 5, 6, 7, 7, 8, 9)
KINDS = 50
COPIES: tuple[int, ...] = tuple(NUMBERS_PER_COLOUR.count(k % 10) for k in range(KINDS))
DECK_SIZE = sum(COPIES)  # 60
# mu-1 triangles by number
TRIANGLES: tuple[int, ...] = (1, 0, 1, 1, 1, 1, 2, 2, 1, 0)

HAND_SIZE = 4  # safaru-2 and safaru-5
TABLE_DEAL = 4
TABLE = -1  # deal destination: the table

# methods of safaru-3
ADD, SEVENTEEN, PAIR = 0, 1, 2
METHOD_NAMES: tuple[str, ...] = ("add", "17", "pair")

# scoring (safaru-6, safaru-7)
UNICORN_BONUS = 24
HEDGEHOG_MALUS = -12
BABY_MALUS = -5
REVERSE_MOST_CARDS = 24
REVERSE_HEDGEHOGS = 18

MAX_GAMES = 100  # the most games a match may have: the `games` option's bound and a `target` match's safety net


def colour(kind: int) -> int:
    return kind // 10


def number(kind: int) -> int:
    return kind % 10


def card_name(kind: int) -> str:
    return f"{LETTERS[kind // 10]}{kind % 10}"


NAMES: tuple[str, ...] = tuple(card_name(k) for k in range(KINDS))


def kinds_of(counts: Sequence[int]) -> list[int]:
    """The kinds in a count vector, one entry per copy, in kind order."""
    return [k for k in range(KINDS) for _ in range(counts[k])]


def names(counts: Sequence[int]) -> list[str]:
    """The card names in a count vector, one per copy, in kind order (a new list)."""
    return list(_names(tuple(counts)))


@lru_cache(maxsize=1 << 12)
def _names(counts: tuple[int, ...]) -> tuple[str, ...]:
    """``names``, memoised: every view names the table and each seat's catch, which a search meets again and
    again (a catch changes a few times a game)."""
    out: list[str] = []
    for k in compress(range(KINDS), counts):  # only the kinds present: a hand or the table is mostly zeros
        out += [NAMES[k]] * counts[k]
    return tuple(out)


def numbers_available(counts: Sequence[int]) -> list[int]:
    """How many cards of each number 0..9 a count vector holds."""
    return [sum(counts[v::10]) for v in range(10)]


def method_target(method: int, played: int) -> tuple[int, int]:
    """(sum the caught table cards must reach, minimum number of caught cards) for adding or seventeen."""
    if method == ADD:
        return played, 2
    return 17 - played, 1


def completable(avail: Sequence[int], need: int, size: int, has_zero: bool, min_size: int, zero_required: bool) -> bool:
    """Can a set already holding ``size`` cards (``has_zero``) be completed from ``avail`` (counts by number)
    to a set whose remaining sum is ``need``, with at least ``min_size`` cards and, when ``zero_required``, a 0?

    Zeros never change the sum, so taking every available 0 only helps both conditions; what remains is a
    bounded knapsack over the numbers 1..9 tracking (sum, size capped at 2), here as bitsets of the sums
    reachable with one non-zero card and with two or more (``completable_by_table`` is the same as a table).
    """
    if need < 0:
        return False
    zeros = avail[0]
    if zero_required and not has_zero and zeros == 0:
        return False
    short = min_size - size - zeros  # non-zero cards still needed for the size
    window = (2 << need) - 1
    one = more = 0
    for value in range(1, min(9, need) + 1):
        for _ in range(min(avail[value], need // value)):
            one, more = (one | 1 << value) & window, (more | (one | more) << value) & window
    if short <= 0:
        return bool((1 | one | more) >> need & 1)
    if short == 1:
        return bool((one | more) >> need & 1)
    return short == 2 and bool(more >> need & 1)  # the count is capped at 2 (callers need at most 2)


def completable_by_table(
    avail: Sequence[int], need: int, size: int, has_zero: bool, min_size: int, zero_required: bool
) -> bool:
    """``completable`` as a table of the largest capped count reaching each sum: the reference it is tested
    against.

    Can a set already holding ``size`` cards (``has_zero``) be completed from ``avail`` (counts by number)
    to a set whose remaining sum is ``need``, with at least ``min_size`` cards and, when ``zero_required``, a 0?

    Zeros never change the sum, so taking every available 0 only helps both conditions; what remains is a
    bounded knapsack over the numbers 1..9 tracking (sum, size capped at 2).
    """
    if need < 0:
        return False
    zeros = avail[0]
    if zero_required and not has_zero and zeros == 0:
        return False
    short = max(0, min_size - size - zeros)  # non-zero cards still needed for the size
    # reachable[s] = largest capped count of non-zero cards reaching sum s
    reachable = [-1] * (need + 1)
    reachable[0] = 0
    for value in range(1, 10):
        for _ in range(min(avail[value], need // value)):
            for s in range(need, value - 1, -1):
                if reachable[s - value] >= 0:
                    reachable[s] = max(reachable[s], min(2, reachable[s - value] + 1))
    return reachable[need] >= short


def catch_methods(played: int, avail: Sequence[int], zero_required: bool) -> tuple[int, ...]:
    """The methods, in the order ADD, SEVENTEEN, PAIR, by which the played number can catch on a table given as
    counts by number (memoised on one key for the three: asked several times a turn)."""
    key = (played, zero_required, *avail)
    hit = _METHODS.get(key)
    if hit is None:
        methods = (ADD, SEVENTEEN, PAIR)
        hit = _METHODS[key] = tuple(m for m in methods if method_available_by_number(m, played, avail, zero_required))
    return hit


_METHODS: dict[tuple[int | bool, ...], tuple[int, ...]] = {}


def method_available(method: int, played: int, table: Sequence[int], zero_required: bool) -> bool:
    """Can the played number catch by ``method`` on a table (counts by kind)?  safaru-3."""
    return method_available_by_number(method, played, numbers_available(table), zero_required)


def method_available_by_number(method: int, played: int, avail: Sequence[int], zero_required: bool) -> bool:
    """``method_available`` on a table given as counts by number."""
    if method == PAIR:
        return avail[played] > 0
    key = (method, played, zero_required, *avail)
    hit = _AVAILABLE.get(key)
    if hit is None:
        need, min_size = method_target(method, played)
        hit = _AVAILABLE[key] = completable(avail, need, 0, False, min_size, zero_required)
    return hit


def takeable(
    avail: Sequence[int], need: int, size: int, has_zero: bool, min_size: int, zero_required: bool
) -> frozenset[int]:
    """The numbers of the table (``avail``, counts by number) that a catch being built may take next: those
    after which the catch can still be completed (``need`` is what its sum still lacks)."""
    key = (need, min(size, 2), has_zero, min_size, zero_required, *avail)
    hit = _TAKEABLE.get(key)
    if hit is None:
        left = list(avail)
        ok = set()
        for value in range(min(9, need) + 1):
            if left[value]:
                left[value] -= 1
                if completable(left, need - value, size + 1, has_zero or value == 0, min_size, zero_required):
                    ok.add(value)
                left[value] += 1
        hit = _TAKEABLE[key] = frozenset(ok)
    return hit


_TAKEABLE: dict[tuple[int | bool, ...], frozenset[int]] = {}

# memo of method_available for adding/seventeen: (method, played, zero_required, counts by number) -> bool
_AVAILABLE: dict[tuple[int | bool, ...], bool] = {}


def available_methods(played: int, table: Sequence[int]) -> list[int]:
    zero_required = any(table[k] for k in range(0, KINDS, 10))
    return [m for m in (ADD, SEVENTEEN, PAIR) if method_available(m, played, table, zero_required)]


def side_of(seat: int, players: int, partners: bool = True) -> int:
    """safaru-2: with 4 players opposite seats are partners (sides 0 and 1); otherwise one side per seat.
    ``partners=False`` is renversé's individual play at 4 players (safaru-7)."""
    return seat % 2 if partners and players == 4 else seat


def sides(players: int, partners: bool = True) -> int:
    return 2 if partners and players == 4 else players


def side_seats(players: int, partners: bool = True) -> list[list[int]]:
    """The seats of each side, side by side: ``[[0, 2], [1, 3]]`` for partners, else one seat each."""
    seats: list[list[int]] = [[] for _ in range(sides(players, partners))]
    for seat in range(players):
        seats[side_of(seat, players, partners)].append(seat)
    return seats


def _shares(values: Sequence[int], prize: float) -> list[float]:
    """The prize split equally among the sides holding the most; safaru-8: nothing when nobody holds any."""
    top = max(values)
    if top <= 0:
        return [0.0] * len(values)
    winners = [i for i, v in enumerate(values) if v == top]
    return [prize / len(winners) if i in winners else 0.0 for i in range(len(values))]


def _pool(caught: Sequence[Sequence[int]], players: int, partners: bool) -> list[list[int]]:
    """Each side's caught cards (safaru-6: partners pool theirs)."""
    if partners and players == 4:  # sides 0 and 1: seats 0 + 2 and 1 + 3
        return [list(map(add, caught[0], caught[2])), list(map(add, caught[1], caught[3]))]
    return [list(caught[seat]) for seat in range(players)]


#: ``_TRIANGLE_WEIGHTS[k]``: the triangles of kind ``k``, so that a side's triangles are one ``sum(map(mul))``
_TRIANGLE_WEIGHTS: tuple[int, ...] = tuple(TRIANGLES[k % 10] for k in range(KINDS))


def side_scores(
    caught: Sequence[Sequence[int]], players: int, reverse: bool, partners: bool = True
) -> list[float]:
    """One game's score per side from each seat's caught cards (safaru-6, or safaru-7 when ``reverse``)."""
    pooled = _pool(caught, players, partners)
    n_sides = len(pooled)
    hedgehogs = [sum(p[YELLOW * 10 : YELLOW * 10 + 10]) for p in pooled]
    triangles = [sum(map(mul, p, _TRIANGLE_WEIGHTS)) for p in pooled]
    if reverse:
        cards = [sum(p) for p in pooled]
        most = _shares(cards, REVERSE_MOST_CARDS)
        prickly = _shares(hedgehogs, REVERSE_HEDGEHOGS)
        return [most[i] + prickly[i] + triangles[i] for i in range(n_sides)]
    unicorns = [sum(p[BLUE * 10 : BLUE * 10 + 10]) for p in pooled]
    babies = [sum(p[0:KINDS:10]) for p in pooled]
    most = _shares(unicorns, UNICORN_BONUS)
    prickly = _shares(hedgehogs, HEDGEHOG_MALUS)
    return [most[i] + prickly[i] + BABY_MALUS * babies[i] + triangles[i] for i in range(n_sides)]


def seat_scores(
    caught: Sequence[Sequence[int]], players: int, reverse: bool, partners: bool = True
) -> list[float]:
    return list(_seat_scores(tuple(map(tuple, caught)), players, reverse, partners))


@lru_cache(maxsize=1 << 12)
def _seat_scores(caught: tuple[tuple[int, ...], ...], players: int, reverse: bool, partners: bool) -> tuple[float, ...]:
    """``seat_scores``, memoised: every view shows the running scores, which change only with a catch."""
    by_side = side_scores(caught, players, reverse, partners)
    return tuple(by_side[side_of(seat, players, partners)] for seat in range(players))


def breakdown(
    caught: Sequence[Sequence[int]], players: int, reverse: bool, partners: bool = True
) -> list[dict[str, Any]]:
    """One game's scoring per side as the rules count it: the counts (cards, unicorns, hedgehogs, babies,
    triangles), the points of each scoring item and the side's score (``side_scores`` gives the same scores).

    Safarü (safaru-6): ``most_unicorns``, ``most_hedgehogs``, ``babies``, ``triangles``; renversé (safaru-7):
    ``most_cards``, ``most_hedgehogs``, ``triangles``.  A prize nobody can claim goes to nobody (safaru-8)."""
    pooled = _pool(caught, players, partners)
    counts = [
        {
            "cards": sum(p),
            "unicorns": sum(p[BLUE * 10 : BLUE * 10 + 10]),
            "hedgehogs": sum(p[YELLOW * 10 : YELLOW * 10 + 10]),
            "babies": sum(p[k] for k in range(0, KINDS, 10)),
            "triangles": sum(p[k] * TRIANGLES[k % 10] for k in range(KINDS)),
        }
        for p in pooled
    ]
    if reverse:
        most = _shares([c["cards"] for c in counts], REVERSE_MOST_CARDS)
        prickly = _shares([c["hedgehogs"] for c in counts], REVERSE_HEDGEHOGS)
        points = [
            {"most_cards": most[i], "most_hedgehogs": prickly[i], "triangles": float(c["triangles"])}
            for i, c in enumerate(counts)
        ]
    else:
        most = _shares([c["unicorns"] for c in counts], UNICORN_BONUS)
        prickly = _shares([c["hedgehogs"] for c in counts], HEDGEHOG_MALUS)
        points = [
            {
                "most_unicorns": most[i],
                "most_hedgehogs": prickly[i],
                "babies": float(BABY_MALUS * c["babies"]),
                "triangles": float(c["triangles"]),
            }
            for i, c in enumerate(counts)
        ]
    seats = side_seats(players, partners)
    return [
        {"seats": seats[i], **counts[i], "points": points[i], "score": sum(points[i].values())}
        for i in range(len(pooled))
    ]


def best_seats(scores: Sequence[float], reverse: bool, among: Sequence[int] | None = None) -> list[int]:
    """The seats with the best score (highest, or lowest in renverse), ties shared."""
    pool = list(range(len(scores))) if among is None else list(among)
    if not pool:
        return []
    pick = min if reverse else max
    best = pick(scores[s] for s in pool)
    return [s for s in pool if scores[s] == best]
