"""Rummü's heuristic and view, written for speed, against the plain versions they replaced (kept here as the
reference): the same combinations in the same order, the same best plan, the same view (compared exactly,
pickled bytes included, since a search keys its nodes by them) and the same choice from the same view and rng."""

from __future__ import annotations

import random
from contextlib import ExitStack
from itertools import combinations
from unittest import mock

from hypothesis import given
from hypothesis import strategies as st

from ludotheque.games import load_game
from ludotheque.games.rummu import heuristics, rules, view
from ludotheque.games.rummu.heuristics import RummuHeuristicBot, best_combo, candidate_combos
from ludotheque.games.rummu.notation import parse_card
from ludotheque.games.rummu.rules import CARD_STRS, TYPES, YELLOW
from ludotheque.testing import check_against_references


def reference_candidate_combos(counts: list[int], partial: list[int]) -> list[list[int]]:
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
            for col in (0, 2, 3, 4):
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
                mixed = reference_multicolour(list(numbers), avail, fixed)
                if mixed is not None:
                    out.append(mixed)
    return out


def reference_multicolour(numbers: list[int], avail: list[bool], fixed: set[int]) -> list[int] | None:
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


def reference_best_combo(counts: list[int], partial: list[int], need: int, spare: int) -> list[int] | None:
    best: list[int] | None = None
    best_key = (-1, -1, 0)
    for cards in reference_candidate_combos(counts, partial):
        used = len(cards) - len(partial)
        if len(cards) < need or used > spare:
            continue
        key = (len(cards), rules.combo_points(cards), -sum(1 for c in cards if rules.is_joker(c)))
        if key > best_key:
            best, best_key = cards, key
    return best


# hands as random play holds them (a few cards, duplicates possible), and partial combinations as a seat lays
# them: any cards, runs (one colour or several, jokers among them) and sets
_HANDS = st.lists(st.integers(0, TYPES - 1), max_size=16).map(lambda cards: [cards.count(t) for t in range(TYPES)])
_RUNS = st.builds(
    lambda colour, start, length, colours, joker: [
        YELLOW * 10 + (start + i) % 10 if i == joker else (colours[i % len(colours)] if colours else colour) * 10
        + (start + i) % 10
        for i in range(length)
    ],
    st.integers(0, 4), st.integers(0, 9), st.integers(1, 5), st.lists(st.integers(0, 4), max_size=3),
    st.integers(-1, 4),
)
_SETS = st.builds(lambda number, colours: [c * 10 + number for c in colours], st.integers(0, 9),
                  st.lists(st.integers(0, 4), min_size=1, max_size=4, unique=True))
_PARTIALS = st.one_of(st.just([]), st.lists(st.integers(0, TYPES - 1), max_size=4), _RUNS, _SETS)


@given(_HANDS, _PARTIALS, st.randoms(use_true_random=False), st.integers(3, 6), st.integers(0, 12))
def test_combinations_and_plans_are_the_reference_ones(
    counts: list[int], partial: list[int], order: random.Random, need: int, spare: int
) -> None:
    order.shuffle(partial)  # the order cards were laid in
    assert candidate_combos(counts, partial) == reference_candidate_combos(counts, partial)
    assert best_combo(counts, partial, need, spare) == reference_best_combo(counts, partial, need, spare)


def _reference_cards(counts: list[int]) -> list[str]:
    return [CARD_STRS[t] for t in rules.count_list(counts)]


def references(stack: ExitStack) -> None:
    """Put the reference versions in place until ``stack`` closes."""
    stack.enter_context(mock.patch.object(heuristics, "best_combo", reference_best_combo))
    stack.enter_context(mock.patch.object(heuristics, "_extension_candidates", rules.extension_candidates))
    stack.enter_context(mock.patch.object(heuristics, "_card_list", lambda texts: [parse_card(t) for t in texts]))
    stack.enter_context(mock.patch.object(view, "_cards", _reference_cards))
    stack.enter_context(mock.patch.object(view, "_combo_points", rules.combo_points))


def test_views_and_choices_are_the_reference_ones() -> None:
    bot = RummuHeuristicBot()
    decisions = 0
    for players, seed in ((3, 0), (4, 1), (6, 2)):
        state = load_game("rummu", players=players, hands=1).new_initial_state()
        decisions += check_against_references(state, bot, references, random.Random(seed), limit=400 * players)
    assert decisions > 300
