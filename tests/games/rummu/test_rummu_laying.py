"""The laying help (games/rummu/laying.py): which cards of a hand keep a combination finishable, as a page offers
them, against the definition itself (every subset of the hand), and what a combination lacks."""

from __future__ import annotations

import itertools
import random

from ludotheque.core import CHANCE
from ludotheque.games import load_game
from ludotheque.games.rummu import laying, rules
from ludotheque.games.rummu.notation import parse_card


def cards(*names: str) -> tuple[int, ...]:
    return tuple(sorted(parse_card(name) for name in names))


def by_subsets(laid: tuple[int, ...], need: int, held: tuple[int, ...], spare: int) -> int | None:
    """The fewest held cards making ``laid`` a valid combination of ``need`` cards or more, trying every subset."""
    for k in range(min(spare, len(held)) + 1):
        for extra in itertools.combinations(held, k):
            combo = tuple(sorted(laid + extra))
            if len(combo) >= max(3, need) and rules.is_valid_sorted(combo):
                return k
    return None


def test_completion_agrees_with_every_subset_of_the_hand() -> None:
    rng, checked, finishable = random.Random(7), 0, 0
    for _ in range(2500):
        a = rng.randint(0, 6)
        laid = rng.choice([
            [rng.choice((0, 2, 3, 4)) * 10 + n for n in range(a, a + rng.randint(1, 3))],  # a run begun
            [c * 10 + a for c in rng.sample(range(5), rng.randint(1, 2))],  # a set begun
            [rng.randrange(50), 10 + rng.randrange(10)],  # a card and a joker
        ])
        start = tuple(sorted(set(laid)))
        held = tuple(sorted(set(rng.sample(range(50), rng.randint(3, 11))) - set(start)))
        need, spare = rng.choice((3, 4, 5, 6)), rng.randint(1, 8)
        if not rules.extendable(start, need):
            continue
        checked += 1
        found = laying.completion(start, need, set(held), spare)
        expected = by_subsets(start, need, held, spare)
        finishable += expected is not None
        assert (None if found is None else len(found)) == expected, (start, need, held, spare, found)
    assert checked > 1500 and finishable > 250  # both answers are tested, many times


def test_after_one_two_three_the_joker_five_is_not_offered_without_a_four() -> None:
    hand = cards("R0", "R1", "R2", "R3", "Y5", "G7", "B2", "K9", "G8")
    laid = cards("R1", "R2", "R3")
    rest = tuple(t for t in hand if t not in laid)
    assert rules.addable_types(laid, 4) >> parse_card("Y5") & 1  # the rule allows the step: a red 4 would finish it
    assert laying.finishable(laid, 4, rest, len(rest) - 1) == [parse_card("R0")]
    assert laying.missing(cards("R1", "R2", "R3", "Y5"), 4) == [parse_card("R4")]
    assert parse_card("G7") not in laying.startable(4, hand, len(hand) - 1)
    assert parse_card("R1") in laying.startable(4, hand, len(hand) - 1)


def test_the_help_is_for_the_acting_seat_in_its_play_phase_only() -> None:
    game = load_game("rummu", players=3, hands=1)
    state, rng, seen = game.new_initial_state(), random.Random(3), 0
    while not state.is_terminal() and seen < 200:
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0], CHANCE)
            continue
        seat = state.current_players()[0]
        for other in range(3):
            help_ = game.seat_help(state, other)
            if other != seat or state.phase != "play":
                assert help_ is None
            else:
                seen += 1
                assert help_ is not None and set(help_) <= {"startable", "finishable", "missing"}
                legal = {state.action_to_string(a, seat) for a in state.legal_actions(seat)}
                key = "finishable" if state.partial else "startable"
                verb = "add" if state.partial else "start"
                assert {f"{verb} {card}" for card in help_[key]} <= legal  # only legal steps are ever offered
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    assert seen > 50
