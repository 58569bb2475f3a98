"""Compiled rollouts that value one Geier seat's cards for this round (used by ``bots/geier_qre.py``).

A position is what every seat sees between two reveals: the hands (16-bit masks, bit ``c`` for card ``c``), the
pot's sum and its highest mouse, the point cards still to come, the points and the highest mouse each seat won.
``response_values`` estimates, for one seat, what each card in its hand is worth when the other seats draw this
round's card from given mixed strategies and then everybody plays the rest of the game with the heuristic's bid
drawn around the pot's rank (``spread`` cards wide, ``GeierHeuristicBot``) and a share ``epsilon`` of uniform cards.

Every card of the seat is tried on the same rollouts (common random numbers): the same order of the point cards,
the same cards of the others this round and the same later draws.  The differences between two cards, which are
what a choice depends on, are then far less noisy than the values themselves.

The rules are those of ``games/geier/rules.py`` through ``fast.geier_kernel``'s ``_taker`` and ``_winners``
(geier-3 both tie rules, carry-over, geier-4 the lost last pot, geier-5 both final tie rules).
"""

from __future__ import annotations

import math

import numpy as np

from ludotheque.fast.geier_kernel import (
    CARDS,
    _below,
    _bid_position,
    _card_at,
    _compiled,
    _hand_size,
    _next,
    _taker,
    _winners,
)

_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@_compiled
def _uniform(rng: np.ndarray) -> float:
    """A float in [0, 1) from the stream ``rng``."""
    return float(_next(rng) >> np.uint64(11)) * _TO_UNIT


@_compiled
def _point_bit(value: int) -> int:
    """The bit of a point card in a to-come mask (indexed like ``POINT_CARDS``: -5..-1 then 1..10)."""
    return 1 << (value + 5 if value < 0 else value + 4)


@_compiled
def _spread_weights(hand: int, position: float, spread: float, out: np.ndarray) -> float:
    """The spread bid's weight of each rank in the hand, ``out[rank]`` (a normal curve ``spread`` cards wide around
    ``position``; without spread, all on the rounded position); their sum."""
    total = 0.0
    for rank in range(_hand_size(hand)):
        if spread > 0:
            out[rank] = math.exp(-0.5 * ((rank - position) / spread) ** 2)
        else:
            out[rank] = 1.0 if rank == round(position) else 0.0  # half to even, as Python's round()
        total += out[rank]
    return total


@_compiled
def heuristic_probabilities(hand: int, pot_sum: int, to_come: int, spread: float, epsilon: float) -> np.ndarray:
    """The chance of each card (index ``card - 1``) under the spread heuristic with ``epsilon`` uniform cards."""
    weights = np.zeros(CARDS)
    total = _spread_weights(hand, _bid_position(hand, pot_sum, to_come), spread, weights)
    in_hand = _hand_size(hand)
    out = np.zeros(CARDS)
    rank = 0
    for card in range(1, CARDS + 1):
        if hand >> card & 1:
            out[card - 1] = (1 - epsilon) * weights[rank] / total + epsilon / in_hand
            rank += 1
    return out


@_compiled
def _spread_card(
    hand: int, pot_sum: int, to_come: int, spread: float, epsilon: float, rng: np.ndarray, weights: np.ndarray
) -> int:
    """A card drawn like ``heuristic_probabilities`` (this runs in every rollout: ``weights`` is a scratch array)."""
    in_hand = _hand_size(hand)
    if epsilon > 0 and _uniform(rng) < epsilon:
        index = _below(rng, in_hand)
    else:
        position = _bid_position(hand, pot_sum, to_come)
        if spread > 0:
            total = _spread_weights(hand, position, spread, weights)
            target = _uniform(rng) * total
            index = in_hand - 1
            for rank in range(in_hand):
                target -= weights[rank]
                if target < 0:
                    index = rank
                    break
        else:
            index = round(position)  # half to even, as Python's round()
    return _card_at(hand, index)


@_compiled
def _draw(probabilities: np.ndarray, rng: np.ndarray) -> int:
    """A card (1..15) drawn from a mixed strategy over cards (index ``card - 1``)."""
    total = 0.0
    for index in range(CARDS):
        total += probabilities[index]
    target = _uniform(rng) * total
    last = -1
    for index in range(CARDS):
        if probabilities[index] > 0:
            last = index + 1
            target -= probabilities[index]
            if target < 0:
                return index + 1
    return last


@_compiled
def _settle(
    cards: np.ndarray, players: int, pot: int, pot_best: int, cascade: bool, score: np.ndarray, mouse: np.ndarray
) -> tuple[int, int]:
    """The round's pot to its taker, if any (geier-3); the pot's sum and highest mouse left on the table."""
    taker = _taker(cards, players, pot, cascade)
    if taker < 0:
        return pot, pot_best
    score[taker] += pot
    mouse[taker] = max(mouse[taker], pot_best)
    return 0, 0


@_compiled
def _utility(
    points: np.ndarray, best_mouse: np.ndarray, players: int, next_best: bool, seat: int, margin: float,
    winners: np.ndarray,
) -> float:
    """The seat's share of the win (geier-5; a shared win is split) plus ``margin`` × its lead over the others' mean."""
    for other in range(players):
        winners[other] = False
    _winners(points, best_mouse, players, next_best, winners)
    count = 0
    others = 0.0
    for other in range(players):
        count += winners[other]
        if other != seat:
            others += points[other]
    share = 1.0 / count if winners[seat] else 0.0
    return float(share + margin * (points[seat] - others / (players - 1)))


@_compiled
def response_values(
    hands: np.ndarray,
    pot_sum: int,
    pot_mouse: int,
    to_come: np.ndarray,
    points: np.ndarray,
    best_mouse: np.ndarray,
    strategies: np.ndarray,
    seat: int,
    rollouts: int,
    seed: int,
    spread: float,
    epsilon: float,
    cascade: bool,
    next_best: bool,
    margin: float,
) -> np.ndarray:
    """The mean utility of each of ``seat``'s cards (index ``card - 1``; 0 for cards it does not hold).

    ``hands``: (players,) masks; ``to_come``: the values of the point cards not yet turned; ``strategies``:
    (players, 15) mixed strategies this round (the row of ``seat`` is not read).  Rollout ``r`` draws from its
    own stream seeded by (``seed``, ``r``)."""
    players = hands.shape[0]
    rounds = to_come.shape[0]
    order = np.empty(rounds, dtype=np.int64)
    stream = np.zeros(1, dtype=np.uint64)
    rng = np.zeros(1, dtype=np.uint64)
    bids = np.zeros(players, dtype=np.int64)
    cards = np.zeros(players, dtype=np.int64)
    hand = np.zeros(players, dtype=np.int64)
    score = np.zeros(players, dtype=np.int64)
    mouse = np.zeros(players, dtype=np.int64)
    winners = np.zeros(players, dtype=np.bool_)
    weights = np.zeros(CARDS)
    totals = np.zeros(CARDS)
    full_mask = 0  # the point cards to come, whatever their order
    for index in range(rounds):
        full_mask |= _point_bit(to_come[index])
    for r in range(rollouts):
        stream[0] = np.uint64(seed) * np.uint64(0x2545F4914F6CDD1D) + np.uint64(r)
        _next(stream)
        for index in range(rounds):
            order[index] = to_come[index]
        for index in range(rounds - 1, 0, -1):  # Fisher-Yates: the order the point cards will come in
            other = _below(stream, index + 1)
            order[index], order[other] = order[other], order[index]
        for other in range(players):
            if other != seat:
                bids[other] = _draw(strategies[other], stream)
        later = _next(stream)  # the later rounds' draws: the same for every card tried
        for card in range(1, CARDS + 1):
            if not hands[seat] >> card & 1:
                continue
            bids[seat] = card
            for other in range(players):
                hand[other] = hands[other] & ~(1 << bids[other])
                score[other] = points[other]
                mouse[other] = best_mouse[other]
            pot, pot_best = _settle(bids, players, pot_sum, pot_mouse, cascade, score, mouse)
            rng[0] = later
            mask = full_mask
            for index in range(rounds):
                value = order[index]
                pot += value
                pot_best = max(pot_best, value)
                mask &= ~_point_bit(value)
                for other in range(players):
                    cards[other] = _spread_card(hand[other], pot, mask, spread, epsilon, rng, weights)
                    hand[other] &= ~(1 << cards[other])
                pot, pot_best = _settle(cards, players, pot, pot_best, cascade, score, mouse)
            # geier-4: a pot still on the table after the last round is lost
            totals[card - 1] += _utility(score, mouse, players, next_best, seat, margin, winners)
    return totals / max(1, rollouts)
