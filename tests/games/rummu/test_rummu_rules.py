"""Rummü pure rules and notation: combinations (rummu-4), scoring table (rummu-8), thresholds (rummu-5)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ludotheque.core import NotationError
from ludotheque.games.rummu import notation, rules
from ludotheque.games.rummu.notation import parse_card

# the seed's colour names: Rouge R, Jaune Y, Vert G, Bleu B, Noir K
FR = {"Rouge": "R", "Jaune": "Y", "Vert": "G", "Bleu": "B", "Noir": "K"}


def seed_cards(text: str) -> list[int]:
    """'Rouge 5, Jaune 6, Rouge 7' -> card types."""
    out = []
    for part in text.split(","):
        name, num = part.split()
        out.append(parse_card(FR[name] + num))
    return out


def cards(text: str) -> list[int]:
    return [parse_card(w) for w in text.split()]


# -- rummu-4: the seed's five examples, verbatim ------------------------------------------------------------


def test_seed_example_one_colour_run_with_joker() -> None:
    # DECISIONS rummu-4: "Rouge 5, Jaune 6, Rouge 7 est une suite simple (de même couleur) avec un joker."
    combo = seed_cards("Rouge 5, Jaune 6, Rouge 7")
    assert rules.is_valid(combo)
    assert not rules.is_set(combo) and not rules.is_pure(combo)


def test_seed_example_set_of_five() -> None:
    # DECISIONS rummu-4: "Rouge 5, Jaune 5, Bleu 5, Noir 5, Vert 5 est une combinaison simple de 5 cartes."
    combo = seed_cards("Rouge 5, Jaune 5, Bleu 5, Noir 5, Vert 5")
    assert rules.is_valid(combo) and rules.is_set(combo)


def test_seed_example_two_blues_impossible() -> None:
    # DECISIONS rummu-4: "Bleu 6, Jaune 7, Bleu 8, Rouge 9 est impossible, car il ne peut y avoir 2 cartes bleues."
    assert not rules.is_valid(seed_cards("Bleu 6, Jaune 7, Bleu 8, Rouge 9"))


def test_seed_example_seven_red_run() -> None:
    # DECISIONS rummu-4:
    # "Rouge 2, Rouge 3, Jaune 4, Rouge 5, Rouge 6, Jaune 7, Jaune 8 est une suite de 7 cartes rouges."
    assert rules.is_valid(seed_cards("Rouge 2, Rouge 3, Jaune 4, Rouge 5, Rouge 6, Jaune 7, Jaune 8"))


def test_seed_example_too_many_jokers() -> None:
    # DECISIONS rummu-4: "Jaune 3, Jaune 4, Jaune 5 est impossible car il y a trop de jokers."
    assert not rules.is_valid(seed_cards("Jaune 3, Jaune 4, Jaune 5"))


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("R5 B5 G5", True),  # set, several colours
        ("R5 B5", False),  # too short
        ("R1 R1 B1", False),  # two identical cards
        ("R3 R4 R5", True),  # pure run
        ("R3 B4 G5", True),  # several colours
        ("R3 B4 R5", False),  # red twice in a mixed run
        ("R3 Y4 Y5 R6", False),  # one colour needs more naturals than jokers
        ("R3 Y4 R5 R6", True),
        ("R3 Y4 B5", True),  # several colours, one joker
        ("R3 R5 R6", False),  # not consecutive
        ("R8 R9 R0", False),  # no wrap-around
        ("R5 B5 G5 K5 Y5", True),
        ("R2 B3 G4 K5 Y6", True),  # five colours in a run
        ("R5 Y8 R7", False),  # a joker keeps its own number (rummu-1)
    ],
)
def test_combination_rules(text: str, valid: bool) -> None:
    # DECISIONS rummu-4
    assert rules.is_valid(cards(text)) is valid


def test_yellow_always_joker_and_deck() -> None:
    # DECISIONS rummu-1: 60 cards, 5 colours of 0,1,1,2,...,7,7,8,9; yellow cards are always jokers
    assert rules.DECK_SIZE == 60 and sum(rules.DECK_COUNTS[10:20]) == 12
    assert all(rules.is_joker(c) for c in cards("Y0 Y5 Y9")) and not rules.is_joker(parse_card("R5"))
    assert not rules.is_pure(cards("R5 Y5 B5"))  # a yellow card in a set is a joker
    assert rules.is_pure(cards("R5 G5 B5"))


# -- rummu-8: each line of the scoring table -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "points", "line"),
    [
        ("R5 B5 G5", 0, "set of 3: 0"),
        ("R5 B5 G5 K5", 30, "set of 4 pure: 30"),
        ("R5 B5 G5 Y5", 10, "set of 4 with a joker: 10"),
        ("R5 B5 G5 K5 Y5", 50, "set of 5: 50"),
        ("R1 B1 G1 K1", 15, "sets of 1s: half"),
        ("R7 B7 G7 Y7", 5, "sets of 7s: half"),
        ("R7 B7 G7 K7 Y7", 25, "set of five 7s: half"),
        ("R3 R4 R5", 10, "run of 3 pure: 10"),
        ("R3 Y4 R5", 0, "run of 3 mixed (joker): 0"),
        ("R3 B4 G5", 0, "run of 3 mixed (colours): 0"),
        ("R3 R4 R5 R6", 20, "run of 4 pure: 20"),
        ("R3 B4 G5 K6", 10, "run of 4 mixed: 10"),
        ("R3 R4 R5 R6 R7", 40, "run of 5 pure: 40"),
        ("R3 R4 Y5 R6 R7", 20, "run of 5 mixed: 20"),
        ("R3 R4 R5 R6 R7 R8", 50, "+10 per card beyond 5 (pure)"),
        ("R2 R3 Y4 R5 R6 Y7 Y8", 40, "+10 per card beyond 5 (mixed, the seed's 7-card run)"),
    ],
)
def test_scoring_table(text: str, points: int, line: str) -> None:
    # DECISIONS rummu-8
    combo = cards(text)
    assert rules.is_valid(combo), line
    assert rules.combo_points(combo) == points, line


def test_hand_penalty() -> None:
    # DECISIONS rummu-8: -10 per yellow card, -5 per other card left in hand
    assert rules.hand_penalty(cards("Y3 R4 K9")) == -20
    assert rules.hand_penalty([]) == 0


@pytest.mark.parametrize(
    ("total", "team", "need"),
    [
        (None, False, 4), (None, True, 4),
        (-5, False, 3), (0, False, 4), (99, False, 4), (100, False, 5), (149, False, 5), (150, False, 6),
        (-1, True, 3), (0, True, 4), (199, True, 4), (200, True, 5), (399, True, 5), (400, True, 6),
    ],
)
def test_opening_threshold(total: int | None, team: bool, need: int) -> None:
    # DECISIONS rummu-5: K=4 in the first hand, then by the player's (team's) total
    assert rules.opening_threshold(total, team) == need


def test_winners_share_ties() -> None:
    # DECISIONS rummu-10: highest total wins; a tie is a shared win (our reading)
    assert rules.winners_of([10, 30, 30]) == [1, 2]
    assert rules.winners_of([50, 30, 30]) == [0]


def test_extension_and_swap_candidates() -> None:
    # DECISIONS rummu-6: add at the ends of a run / a new colour to a set; a natural replaces the joker it stands for
    assert rules.extension_candidates(cards("R3 R4 R5")) == sorted(cards("R2 Y2 R6 Y6"))
    assert rules.extension_candidates(cards("R5 B5 G5")) == sorted(cards("Y5 K5"))
    assert rules.swap_candidates(cards("R3 Y4 R5")) == cards("R4")
    assert rules.swap_candidates(cards("R5 Y5 B5")) == sorted(cards("G5 K5"))
    assert rules.swap_candidates(cards("R5 Y5 B5 G5 K5")) == []


# -- extendable (the hand-independent check for a combination being laid) ----------------------------------


@given(st.lists(st.integers(0, 49), min_size=1, max_size=6, unique=True), st.integers(3, 6))
def test_extendable_agrees_with_brute_force(partial: list[int], need: int) -> None:
    """extendable(P) is true exactly when some valid combination of >= need cards of the deck contains P."""
    nums = {c % 10 for c in partial}
    found = False
    for n in range(10):  # sets
        if nums == {n}:
            cols = {c // 10 for c in partial}
            found |= len(cols) == len(partial) and need <= 5
    for a in range(10):  # runs: try one-colour fills and, for short windows, every colour assignment
        for b in range(a + max(need, 3) - 1, 10):
            window = range(a, b + 1)
            if not nums <= set(window) or len(nums) != len(partial):
                continue
            for col in (0, 2, 3, 4):
                fill = {c % 10: c for c in partial}
                combo = [fill.get(n, col * 10 + n) for n in window]
                found |= rules.is_valid(combo)
            if b - a < 5:
                found |= _multi_fill(list(window), partial)
    assert rules.extendable(partial, need) is found


def _multi_fill(window: list[int], partial: list[int]) -> bool:
    fixed = {c % 10: c for c in partial}

    def go(i: int, chosen: list[int]) -> bool:
        if i == len(window):
            return rules.is_valid(chosen)
        n = window[i]
        options = [fixed[n]] if n in fixed else [c * 10 + n for c in range(5)]
        return any(go(i + 1, [*chosen, o]) for o in options)

    return go(0, [])


# -- notation ---------------------------------------------------------------------------------------------------


def test_notation_round_trip_every_action() -> None:
    for action in range(notation.NUM_ACTIONS):
        text = notation.format_action(action)
        assert notation.parse_action(text) == action, text
        assert notation.parse_action(text.lower()) == action
    for card in range(rules.TYPES):
        assert notation.parse_chance(notation.format_chance(card)) == card


def test_notation_examples() -> None:
    assert notation.format_action(notation.DRAW) == "draw"
    assert notation.parse_action("take 3") == notation.TAKE + 2
    assert notation.parse_action("start R5") == notation.START + 5
    assert notation.parse_action("put R8 2") == notation.PUT + 50 + 8
    assert notation.parse_action("swap B6 1") == notation.SWAP + 36
    assert notation.parse_action("  discard k3 ") == notation.DISCARD + 43


@pytest.mark.parametrize("text", ["", "foo", "take 0", "take 61", "take x", "start", "start Z5", "start R10",
                                  "put R5", "put R5 0", "put R5 21", "swap R5 x", "close now", "discard R5 R6"])
def test_malformed_notation(text: str) -> None:
    with pytest.raises(NotationError):
        notation.parse_action(text)


def test_malformed_card() -> None:
    with pytest.raises(NotationError, match="not a card"):
        notation.parse_chance("X1")
