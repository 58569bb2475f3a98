"""Mü's trump tables, view and heuristic, written for speed, against the plain versions they replaced (kept here as
the reference): the same answers for every card and trump, the same views (compared exactly, pickled bytes
included, since a search keys its nodes by them) and the same choices from the same view and rng."""

from __future__ import annotations

import random
from contextlib import ExitStack
from unittest import mock

from ludotheque.games import load_game
from ludotheque.games.mu import heuristics, rules, view
from ludotheque.games.mu.heuristics import MuHeuristicBot
from ludotheque.games.mu.rules import COLOURS, KINDS, NO_TRUMP
from ludotheque.games.mu.view import NAMES
from ludotheque.testing import check_against_references

TRUMPS = (NO_TRUMP, *range(5), *range(10, 20))


def reference_in_trump(kind: int, trump: int) -> bool:
    if rules.is_colour_trump(trump):
        return kind // 10 == trump
    if rules.is_number_trump(trump):
        return kind % 10 == trump - 10
    return False


def reference_category(kind: int, chief_trump: int, vice_trump: int) -> int:
    if reference_in_trump(kind, chief_trump) or reference_in_trump(kind, vice_trump):
        return 5
    return kind // 10


def reference_strength(kind: int, chief_trump: int, vice_trump: int, led_category: int) -> int:
    chief = reference_in_trump(kind, chief_trump)
    vice = reference_in_trump(kind, vice_trump)
    number = kind % 10
    if chief and vice:
        rank = number if rules.is_colour_trump(chief_trump) and rules.is_colour_trump(vice_trump) else 0
        return 300 + rank
    if chief:
        return 200 + (number if rules.is_colour_trump(chief_trump) else 0)
    if vice:
        return 100 + (number if rules.is_colour_trump(vice_trump) else 0)
    if kind // 10 == led_category:
        return number
    return -1


def test_trump_tables_are_the_reference_for_every_card() -> None:
    for chief in TRUMPS:
        for vice in TRUMPS:
            for kind in range(KINDS):
                assert rules.in_trump(kind, chief) == reference_in_trump(kind, chief)
                assert rules.category(kind, chief, vice) == reference_category(kind, chief, vice)
                for led in range(6):
                    assert rules.strength(kind, chief, vice, led) == reference_strength(kind, chief, vice, led)


def reference_trump_value(trump: int, held: list[int]) -> float:
    value = 0.0
    for kind in held:
        if reference_in_trump(kind, trump):
            value += 1.0 + (kind % 10) / 9.0 if rules.is_colour_trump(trump) else 1.4
    return value


def test_trump_values_are_the_reference_ones() -> None:
    rng = random.Random(4)
    for _ in range(300):
        held = [rng.randrange(KINDS) for _ in range(rng.randint(0, 20))]
        for trump in TRUMPS:
            assert heuristics._trump_value(trump, held) == reference_trump_value(trump, held)


def reference_kind(name: str) -> int:
    return COLOURS.index(name[0]) * 10 + int(name[1])


def _reference_cards(counts: list[int]) -> list[str]:
    out: list[str] = []
    for kind, count in enumerate(counts):
        if count:
            out.append(NAMES[kind])
            if count > 1:
                out.append(NAMES[kind])
    return out


def references(stack: ExitStack) -> None:
    """Put the reference versions in place until ``stack`` closes."""
    stack.enter_context(mock.patch.object(rules, "in_trump", reference_in_trump))
    stack.enter_context(mock.patch.object(rules, "category", reference_category))
    stack.enter_context(mock.patch.object(rules, "strength", reference_strength))
    stack.enter_context(mock.patch.object(heuristics, "_trump_value", reference_trump_value))
    stack.enter_context(mock.patch.object(heuristics, "_kind", reference_kind))
    stack.enter_context(mock.patch.object(view, "_cards", _reference_cards))


def test_views_and_choices_are_the_reference_ones() -> None:
    bot = MuHeuristicBot()
    decisions = 0
    for players, seed in ((3, 0), (3, 1), (4, 2), (5, 3), (6, 4)):
        state = load_game("mu", players=players, target=1).new_initial_state()
        decisions += check_against_references(state, bot, references, random.Random(seed))
    assert decisions > 100
