"""Hol's der Geier compiled with Numba: one loop per game, games spread over the cores.

The vectorised NumPy simulator (``fast.py``, next to this file) spends its time writing and reading whole
(games, players) arrays fifteen times a game; a compiled loop keeps a game's few numbers in registers.  Hands
are 16-bit masks, and every game draws from its own SplitMix64 stream seeded by (seed, game index), so the batch
is the same whatever the number of threads and however Numba schedules them.

The rules are those of ``rules.py`` (geier-3 both tie rules, carry-over, geier-4 the lost last pot, geier-5 both
final tie rules), and ``tests/games/geier/test_fast_geier.py`` proves the results equal to the engine's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

CARDS = 15
RANDOM, HEURISTIC = 0, 1  # seat policy codes
POLICY_CODES = {"random": RANDOM, "heuristic": HEURISTIC}
POINTS = np.array((-5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10), dtype=np.int64)


def _compiled(fn: F) -> F:
    """Numba's no-Python mode, cached on disk so that only the first run of a checkout compiles."""
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


def _compiled_parallel(fn: F) -> F:
    return cast(F, numba.njit(cache=True, nogil=True, parallel=True)(fn))


@_compiled
def _next(state: np.ndarray) -> np.uint64:
    """SplitMix64: one 64-bit number from the stream whose state is ``state[0]``."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return np.uint64(z ^ (z >> np.uint64(31)))


@_compiled
def _below(state: np.ndarray, n: int) -> int:
    """A uniform integer in [0, n): Lemire's multiply-and-shift, with rejection so it is exactly uniform.

    The rejection threshold costs a division, so it is computed only in the rare case that may need it."""
    bound = np.uint64(n)
    m = (_next(state) >> np.uint64(32)) * bound
    if (m & np.uint64(0xFFFFFFFF)) < bound:
        threshold = (np.uint64(1 << 32) - bound) % bound
        while (m & np.uint64(0xFFFFFFFF)) < threshold:
            m = (_next(state) >> np.uint64(32)) * bound
    return int(m >> np.uint64(32))


@_compiled
def _count(cards: np.ndarray, players: int, card: int) -> int:
    n = 0
    for seat in range(players):
        if cards[seat] == card:
            n += 1
    return n


@_compiled
def _taker(cards: np.ndarray, players: int, pot_sum: int, cascade: bool) -> int:
    """geier-3: the seat taking the pot, -1 if it stays.  ``cards`` holds this round's card of each seat.

    A pot worth zero or more goes to the highest card played by one seat only, a negative pot to the lowest:
    with ``sign`` the best card is always the highest ``sign * card``.
    """
    sign = 1 if pot_sum >= 0 else -1
    if cascade:  # the best value played by one seat only
        best_seat = -1
        for seat in range(players):
            if _count(cards, players, cards[seat]) == 1 and (
                best_seat < 0 or sign * cards[seat] > sign * cards[best_seat]
            ):
                best_seat = seat
        return best_seat
    # single: the best value if one seat played it, else the next value below it if one seat played that
    top = -100
    second = -100
    for seat in range(players):
        value = sign * cards[seat]
        if value > top:
            second = top
            top = value
        elif top > value > second:
            second = value
    for value in (top, second):
        if value == -100:
            return -1
        for seat in range(players):
            if sign * cards[seat] == value:
                if _count(cards, players, cards[seat]) == 1:
                    return seat
                break
    return -1


@_compiled
def _winners(points: np.ndarray, best_mouse: np.ndarray, players: int, next_best: bool, out: np.ndarray) -> None:
    """geier-5 for one game: ``out[seat]`` set to True for each winning seat."""
    top = points[0]
    for seat in range(players):
        top = max(top, points[seat])
    leaders = 0
    for seat in range(players):
        if points[seat] == top:
            leaders += 1
    if leaders == 1:
        for seat in range(players):
            out[seat] = points[seat] == top
        return
    if next_best:  # the best score held by exactly one seat
        best_seat = -1
        for seat in range(players):
            unique = True
            for other in range(players):
                if other != seat and points[other] == points[seat]:
                    unique = False
            if unique and (best_seat < 0 or points[seat] > points[best_seat]):
                best_seat = seat
        if best_seat >= 0:
            out[best_seat] = True
        return
    highest = 0  # highest mouse among the leaders; nobody wins if none of them won a mouse
    for seat in range(players):
        if points[seat] == top:
            highest = max(highest, best_mouse[seat])
    if highest > 0:
        for seat in range(players):
            out[seat] = points[seat] == top and best_mouse[seat] == highest


@_compiled
def _hand_size(hand: int) -> int:
    """How many cards a hand mask holds."""
    size = 0
    for card in range(1, CARDS + 1):
        size += hand >> card & 1
    return size


@_compiled
def _bid_position(hand: int, pot_sum: int, to_come: int) -> float:
    """The heuristic's position in the hand (0 = the lowest card): the pot's rank among the values still in play,
    scaled to the hand (``GeierHeuristicBot``)."""
    worth = abs(pot_sum)
    below = 0
    equal = 1  # the pot itself is in the field
    size = 1
    for index in range(CARDS):
        if to_come >> index & 1:
            value = abs(POINTS[index])
            size += 1
            if value < worth:
                below += 1
            elif value == worth:
                equal += 1
    fraction = (below + (equal - 1) / 2) / max(1, size - 1)
    return fraction * (_hand_size(hand) - 1)


@_compiled
def _card_at(hand: int, rank: int) -> int:
    """The card of that rank in the hand (0 = the lowest), -1 past the last."""
    for card in range(1, CARDS + 1):
        if hand >> card & 1:
            if rank == 0:
                return card
            rank -= 1
    return -1


@_compiled
def _heuristic_card(hand: int, pot_sum: int, to_come: int) -> int:
    """``GeierHeuristicBot``: the card whose rank in hand matches the pot's rank among the values still in play."""
    return _card_at(hand, round(_bid_position(hand, pot_sum, to_come)))  # half to even, as Python's round()


@_compiled
def _play_game(
    deck: np.ndarray,
    plays: np.ndarray,
    policies: np.ndarray,
    players: int,
    cascade: bool,
    track_mice: bool,
    rng: np.ndarray,
    hands: np.ndarray,
    left: np.ndarray,
    points: np.ndarray,
    best_mouse: np.ndarray,
) -> None:
    """One game.  Seats whose policy is negative replay ``plays`` (rounds × seats); others fill it in.

    ``rng``, ``hands`` and ``left`` are scratch arrays of the caller's, so that a game allocates nothing."""
    for seat in range(players):
        hands[seat] = 0xFFFE  # cards 1..15 as bits 1..15
        for card in range(1, CARDS + 1):  # the same hand as a list, for random picks
            left[seat, card - 1] = card
    to_come = (1 << CARDS) - 1
    pot_sum = 0
    pot_mouse = 0
    for r in range(CARDS):
        value = deck[r]
        pot_sum += value
        pot_mouse = max(pot_mouse, value)
        to_come &= ~(1 << (value + 5 if value < 0 else value + 4))  # POINTS is -5..-1, 1..10
        cards = plays[r]
        for seat in range(players):
            policy = policies[seat]
            if policy == HEURISTIC:
                cards[seat] = _heuristic_card(hands[seat], pot_sum, to_come)
            elif policy == RANDOM:  # a uniform card of those left: swap the drawn one out of the list
                pick = _below(rng, CARDS - r)
                last = CARDS - 1 - r
                cards[seat] = left[seat, pick]
                left[seat, pick] = left[seat, last]
            hands[seat] &= ~(1 << cards[seat])
        seat = _taker(cards, players, pot_sum, cascade)
        if seat >= 0:
            points[seat] += pot_sum
            if track_mice:
                best_mouse[seat] = max(best_mouse[seat], pot_mouse)
            pot_sum = 0
            pot_mouse = 0
    # geier-4: a pot still on the table after the last round is lost (nothing to do)


@_compiled_parallel
def _play_batch(
    decks: np.ndarray, plays: np.ndarray, policies: np.ndarray, seed: int, deal: bool, cascade: bool, next_best: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Play every game of the batch; points and winners.  With ``deal`` the decks are shuffled here first.

    Game ``g`` draws from its own stream seeded by (``seed``, ``g``), so the batch does not depend on threads;
    the games are spread over the threads in chunks, each with its own scratch arrays."""
    games, _, players = plays.shape
    points = np.zeros((games, players), dtype=np.int64)
    winners = np.zeros((games, players), dtype=np.bool_)
    best_mouse = np.zeros((games, players), dtype=np.int64)
    chunks = max(1, min(games, 256))
    for chunk in numba.prange(chunks):
        rng = np.zeros(1, dtype=np.uint64)
        hands = np.empty(players, dtype=np.int64)
        left = np.empty((players, CARDS), dtype=np.int64)
        for g in range(chunk * games // chunks, (chunk + 1) * games // chunks):
            deck = decks[g]
            if deal:
                rng[0] = np.uint64(seed) * np.uint64(0x2545F4914F6CDD1D) + np.uint64(g)
                _next(rng)  # mix the seed in before the first draw
                for index in range(CARDS):  # Fisher-Yates on the point cards
                    deck[index] = POINTS[index]
                for index in range(CARDS - 1, 0, -1):
                    other = _below(rng, index + 1)
                    deck[index], deck[other] = deck[other], deck[index]
            _play_game(
                deck, plays[g], policies, players, cascade, not next_best, rng, hands, left, points[g], best_mouse[g]
            )
            _winners(points[g], best_mouse[g], players, next_best, winners[g])
    return points, winners


def simulate_batch(
    games: int, players: int, policies: np.ndarray, seed: int, cascade: bool, next_best: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Deal and play ``games`` games; returns decks (games, 15), plays (games, 15, players), points, winners."""
    decks = np.empty((games, CARDS), dtype=np.int8)
    plays = np.empty((games, CARDS, players), dtype=np.int8)
    points, winners = _play_batch(decks, plays, policies, seed, True, cascade, next_best)
    return decks, plays, points, winners


def resolve_batch(
    decks: np.ndarray, plays: np.ndarray, cascade: bool, next_best: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Points and winners of given decks (games, 15) and plays (games, 15, players): every seat replays."""
    replay = np.full(plays.shape[2], -1, dtype=np.int64)
    points, winners = _play_batch(decks, plays, replay, 0, False, cascade, next_best)
    return points, winners
