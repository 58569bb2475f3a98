"""The compiled rollouts of the round-equilibrium bot: its heuristic is the engine's, its values are the rules'."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque.fast.geier_round import heuristic_probabilities, response_values
from ludotheque.games.geier.heuristics import GeierHeuristicBot
from ludotheque.games.geier.rules import FINAL_TIES, POINT_CARDS, POINT_INDEX, TIE_RULES, final_winners, pot_taker


def mask(cards: list[int]) -> int:
    return sum(1 << card for card in cards)


def to_come_mask(values: list[int]) -> int:
    return sum(1 << POINT_INDEX[value] for value in values)


positions = st.tuples(
    st.lists(st.integers(1, 15), min_size=1, max_size=15, unique=True),
    st.lists(st.sampled_from(POINT_CARDS), max_size=14, unique=True),
    st.integers(-15, 40),
)


@settings(max_examples=200, deadline=None)
@given(positions, st.sampled_from([0.0, 0.5, 2.0]), st.sampled_from([0.0, 0.3, 1.0]))
def test_heuristic_probabilities_are_a_strategy_over_the_hand(position: tuple[list[int], list[int], int],
                                                              spread: float, epsilon: float) -> None:
    hand, to_come, pot = position
    p = heuristic_probabilities(mask(hand), pot, to_come_mask(to_come), spread, epsilon)
    assert p.sum() == pytest.approx(1.0)
    assert all(p[card - 1] == 0 for card in range(1, 16) if card not in hand)
    if epsilon > 0:
        assert all(p[card - 1] >= epsilon / len(hand) - 1e-12 for card in hand)


@settings(max_examples=200, deadline=None)
@given(positions)
def test_without_spread_or_noise_the_strategy_is_the_heuristics_card(
    position: tuple[list[int], list[int], int],
) -> None:
    hand, to_come, pot = position
    view = {"table": {"hand": sorted(hand), "pot_sum": pot, "points_to_come": to_come}}
    card = GeierHeuristicBot().choose(view, [c - 1 for c in hand], random.Random(0)) + 1
    p = heuristic_probabilities(mask(hand), pot, to_come_mask(to_come), 0.0, 0.0)
    assert p[card - 1] == 1.0


def test_the_spread_matches_the_engines_heuristic() -> None:
    """The spread bid's probabilities are those the engine's ``GeierHeuristicBot(spread)`` draws with."""
    hand, to_come, pot = [2, 3, 5, 8, 9, 11, 14], [-3, 1, 4, 7, 10], 6
    p = heuristic_probabilities(mask(hand), pot, to_come_mask(to_come), 2.0, 0.0)
    bot = GeierHeuristicBot(spread=2.0)
    view = {"table": {"hand": hand, "pot_sum": pot, "points_to_come": to_come}}
    rng = random.Random(1)
    draws = 20000
    counts = np.zeros(15)
    for _ in range(draws):
        counts[bot.choose(view, [c - 1 for c in hand], rng)] += 1
    assert np.abs(counts / draws - p).max() < 0.015


def last_round_values(players: int, tie_rule: str, final_tie: str) -> None:
    """In the last round nothing is left to roll out: each card's value is exact, computed here from the rules."""
    rng = random.Random(players)
    hands = [rng.sample(range(1, 16), 2) for _ in range(players)]
    points = [rng.randrange(0, 12) for _ in range(players)]
    won = [[rng.choice([0, 3, 7])] for _ in range(players)]
    pot_cards = [rng.choice([-4, 2, 5, 9])]
    pot = sum(pot_cards)
    strategies = np.zeros((players, 15))
    for seat in range(1, players):
        a, b = hands[seat]
        strategies[seat, a - 1], strategies[seat, b - 1] = 0.25, 0.75
    values = response_values(
        np.array([mask(h) for h in hands], dtype=np.int64), pot, max(0, *pot_cards), np.zeros(0, dtype=np.int64),
        np.array(points, dtype=np.int64), np.array([max(w) for w in won], dtype=np.int64), strategies, 0, 4000, 7,
        2.0, 0.3, tie_rule == "cascade", final_tie == "next-best", 0.0,
    )
    for card in range(1, 16):
        if card not in hands[0]:
            assert values[card - 1] == 0
            continue
        expected = 0.0
        for others in itertools.product(*hands[1:]):
            chance = float(np.prod([strategies[s + 1, c - 1] for s, c in enumerate(others)]))
            played = [card, *others]
            score = list(points)
            mice = [list(w) for w in won]
            taker = pot_taker(played, pot, tie_rule)
            if taker is not None:
                score[taker] += pot
                mice[taker] += [v for v in pot_cards if v > 0]
            winners = final_winners(score, mice, final_tie)
            expected += chance * (1 / len(winners) if 0 in winners else 0.0)
        assert values[card - 1] == pytest.approx(expected, abs=0.03)


@pytest.mark.parametrize(("players", "tie_rule", "final_tie"), list(itertools.product(range(2, 6), TIE_RULES,
                                                                                          FINAL_TIES)))
def test_last_round_values_are_the_rules(players: int, tie_rule: str, final_tie: str) -> None:
    last_round_values(players, tie_rule, final_tie)


def engine_value(players: int, history: list[tuple[int | None, int]], card: int, others: list[int],
                 order: list[int]) -> float:
    """Seat 0's win share when it plays ``card`` and the others ``others``, then the point cards come in ``order``
    and everyone plays the engine's heuristic."""
    state = ludotheque.load_game("geier", players=players).new_initial_state()
    for actor, action in history:
        state.apply_action(action, actor)
    for seat, choice in enumerate([card, *others]):
        state.apply_action(choice - 1, seat)
    bot = GeierHeuristicBot()
    to_come = iter(order)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(POINT_INDEX[next(to_come)])
            continue
        for seat in state.current_players():
            state.apply_action(bot.choose(state.view(seat), state.legal_actions(seat), random.Random(0)), seat)
    winners = state.winners()
    return 1 / len(winners) if 0 in winners else 0.0


@pytest.mark.parametrize("players", [3, 4, 5])
def test_values_three_rounds_from_the_end_equal_the_engines(players: int) -> None:
    """Two point cards to come, no spread, no noise: a rollout is one of two deterministic games, the engine's.

    Random games are checked until one where seat 0's choice matters (some card wins, another loses)."""
    deciding = 0
    for seed in range(40):
        deciding += check_three_rounds_from_the_end(players, seed)
        if deciding:
            break
    assert deciding


def check_three_rounds_from_the_end(players: int, seed: int) -> bool:
    rng = random.Random(seed)
    order = rng.sample(POINT_CARDS, len(POINT_CARDS))
    hands = [rng.sample(range(1, 16), 15) for _ in range(players)]
    history: list[tuple[int | None, int]] = []
    for r in range(12):
        history.append((None, POINT_INDEX[order[r]]))
        history += [(seat, hands[seat][r] - 1) for seat in range(players)]
    history.append((None, POINT_INDEX[order[12]]))
    state = ludotheque.load_game("geier", players=players).new_initial_state()
    for actor, action in history:
        state.apply_action(action, actor)
    table = state.view(0)["table"]
    left = [h[12:] for h in hands]
    others = [h[0] for h in left[1:]]  # each other seat surely plays its first card left
    strategies = np.zeros((players, 15))
    for seat, card in enumerate(others, start=1):
        strategies[seat, card - 1] = 1.0
    values = response_values(
        np.array([mask(h) for h in left], dtype=np.int64), table["pot_sum"],
        max((v for v in table["pot"] if v > 0), default=0), np.array(table["points_to_come"], dtype=np.int64),
        np.array(table["points"], dtype=np.int64),
        np.array([max((v for v in w if v > 0), default=0) for w in table["won"]], dtype=np.int64), strategies, 0,
        4000, 11, 0.0, 0.0, True, True, 0.0,
    )
    rest = table["points_to_come"]
    exact = {}
    for card in left[0]:
        games = [engine_value(players, history, card, others, list(o)) for o in itertools.permutations(rest)]
        exact[card] = sum(games) / len(games)
        assert values[card - 1] == pytest.approx(exact[card], abs=0.05)
    return max(exact.values()) - min(exact.values()) >= 0.5


def test_same_seed_same_values_and_cards_not_held_are_zero() -> None:
    hands = np.array([mask([1, 5, 9, 15]), mask([2, 3, 4, 6]), mask([7, 8, 10, 11])], dtype=np.int64)
    strategies = np.array([heuristic_probabilities(int(h), 4, to_come_mask([-2, 6, 10]), 2.0, 0.3) for h in hands])
    args = (hands, 4, 4, np.array([-2, 6, 10], dtype=np.int64), np.zeros(3, dtype=np.int64),
            np.zeros(3, dtype=np.int64), strategies, 0, 200)
    rest = (2.0, 0.3, True, True, 0.002)
    first = response_values(*args, 5, *rest)
    assert np.array_equal(first, response_values(*args, 5, *rest))
    assert not np.array_equal(first, response_values(*args, 6, *rest))
    assert all(first[c - 1] == 0 for c in range(1, 16) if c not in (1, 5, 9, 15))
    assert all(0 < first[c - 1] < 1 for c in (1, 5, 9, 15))
