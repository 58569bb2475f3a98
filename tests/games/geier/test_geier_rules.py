"""Hol's der Geier rules, one test per decision and per worked example of the seeds."""

from __future__ import annotations

import random

import pytest

import ludotheque
from ludotheque.core import sample_chance
from ludotheque.games.geier import rules

from .helpers import new_state, play_round


def test_deck_and_hands() -> None:
    # DECISIONS geier-1: mice +1..+10, vultures -1..-5 (sum +40); every seat holds 1..15.
    assert sorted(rules.POINT_CARDS) == [-5, -4, -3, -2, -1, *range(1, 11)]
    assert sum(rules.POINT_CARDS) == 40
    state = new_state(4)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 15 and all(p == pytest.approx(1 / 15) for _, p in outcomes)
    state.apply_action(0)
    for seat in range(4):
        assert state.view(seat)["table"]["hand"] == list(range(1, 16))


def test_round_is_simultaneous() -> None:
    # DECISIONS geier-2: a point card is turned, then every seat chooses secretly; all are revealed together.
    state = new_state(3)
    assert state.is_chance_node() and state.current_players() == []
    state.apply_action(state.string_to_action("+5"))
    assert state.current_players() == [0, 1, 2]
    state.apply_action(13, 1)
    assert state.current_players() == [0, 2]
    table = state.view(0)["table"]
    assert table["chosen"] == [False, True, False]
    assert table["rounds"] == []  # nothing revealed yet
    state.apply_action(2, 0)
    state.apply_action(5, 2)
    assert state.view(0)["table"]["rounds"][0]["played"] == [3, 14, 6]


def test_seed_000_highest_card_takes_a_mouse() -> None:
    # Seed 000: Léo's 14 is the highest card and takes the +8 mouse (DECISIONS geier-3).
    state = new_state(4)
    play_round(state, +8, [9, 14, 3, 11])
    assert state.points == [0, 8, 0, 0]


def test_seed_000_lowest_card_takes_a_vulture() -> None:
    # Seed 000: Alex's 5 is the lowest card and takes the -2 vulture (DECISIONS geier-3).
    state = new_state(4)
    play_round(state, -2, [5, 12, 8, 15])
    assert state.points == [-2, 0, 0, 0]


def test_seed_000_tie_skips_to_the_next_card() -> None:
    # Seed 000: Alex and Dario both play 14, so Carla's 12 takes the +7 (DECISIONS geier-3).
    state = new_state(3)
    play_round(state, +7, [14, 12, 14])
    assert state.points == [0, 7, 0]


def test_seed_000_all_ties_carry_into_a_positive_sum() -> None:
    # Seed 000: all tie on a mouse; the next round plays for both cards, summing +3: highest card wins both.
    state = new_state(4)
    play_round(state, +6, [10, 10, 4, 4])
    assert state.points == [0, 0, 0, 0] and state.pot == [6]
    play_round(state, -3, [2, 13, 7, 5])
    assert state.points == [0, 3, 0, 0] and state.pot == []
    assert state.won[1] == [6, -3]


@pytest.mark.parametrize(
    ("point", "cards", "taker"),
    [
        (+7, [14, 14, 12], 2),  # mouse, 14-14-12 -> 12
        (+7, [14, 14, 12, 12, 9], 4),  # mouse, 14-14-12-12-9 -> 9
        (-3, [3, 3, 5], 2),  # vulture, 3-3-5 -> 5
    ],
)
def test_decision_examples_cascade(point: int, cards: list[int], taker: int) -> None:
    # DECISIONS geier-3 examples, tie_rule=cascade (the default).
    state = new_state(len(cards))
    play_round(state, point, cards)
    expected = [0] * len(cards)
    expected[taker] = point
    assert state.points == expected


def test_zero_pot_counts_as_a_mouse() -> None:
    # DECISIONS geier-3: a pot summing to 0 goes to the highest unique card, as both seeds say.
    state = new_state(2)
    play_round(state, +2, [8, 8])
    play_round(state, -2, [3, 11])
    assert state.points == [0, 0] and state.won[1] == [2, -2]


def test_no_unique_card_keeps_the_pot() -> None:
    # DECISIONS geier-3: nobody unique -> the pot stays; the played cards still go to the open piles.
    state = new_state(4)
    play_round(state, +4, [9, 9, 2, 2])
    assert state.pot == [4]
    assert state.view(None)["table"]["unrevealed"][0] == [c for c in range(1, 16) if c != 9]


def test_single_tie_rule() -> None:
    # DECISIONS geier-3 option tie_rule=single: only the tied best value is set aside.
    state = new_state(5, tie_rule="single")
    play_round(state, +7, [14, 14, 12, 12, 9])
    assert state.points == [0] * 5 and state.pot == [7]  # cascade would give it to the 9
    state = new_state(3, tie_rule="single")
    play_round(state, +7, [14, 14, 12])
    assert state.points == [0, 0, 7]
    assert rules.pot_taker([5, 5, 5], 3, "single") is None
    assert rules.pot_taker([2, 9, 4], -1, "single") == 0


def test_pot_taker_cascade_and_single_agree_when_the_best_is_unique() -> None:
    # DECISIONS geier-3: both readings give the pot to a unique best card.
    for played, pot in ([3, 8, 1], 5), ([3, 8, 1], -5), ([6, 6, 2, 11], 1):
        assert rules.pot_taker(played, pot, "cascade") == rules.pot_taker(played, pot, "single")


def test_last_pot_nobody_takes_is_lost() -> None:
    # DECISIONS geier-4 (seed 000): if nobody wins the last round, the pot is lost.
    state = new_state(2)
    values = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, -1, -2, -3, -4, -5]
    for card, value in enumerate(values, start=1):
        play_round(state, value, [card, card])
    assert state.is_terminal()
    assert state.points == [0, 0]
    assert sorted(state.lost) == sorted(values)
    assert state.view(0)["table"]["lost"] == state.lost
    assert state.winners() == []  # geier-5: nobody holds a unique score


@pytest.mark.parametrize(
    ("scores", "winners"),
    [
        ([10, 4, 7], [0]),
        ([10, 10, 7], [2]),  # the tied leaders lose to the next best score
        ([10, 10, 7, 7], []),  # no unique score: drawn
        ([10, 10, 7, 7, 3], [4]),
        ([5, 5], []),
    ],
)
def test_final_tie_next_best(scores: list[int], winners: list[int]) -> None:
    # DECISIONS geier-5 option final_tie=next-best (the default).
    won: list[list[int]] = [[] for _ in scores]
    assert rules.final_winners(scores, won, "next-best") == winners


def test_final_tie_highest_mouse() -> None:
    # DECISIONS geier-5 option final_tie=highest-mouse: among the tied leaders, the highest mouse won.
    assert rules.final_winners([12, 12, 3], [[10, 2], [9, 3], [3]], "highest-mouse") == [0]
    assert rules.final_winners([12, 12, 3], [[9, 3], [10, 2], [3]], "highest-mouse") == [1]
    assert rules.final_winners([12, 3], [[10, 2], [3]], "highest-mouse") == [0]
    # no tied leader won a mouse card: nobody wins
    assert rules.final_winners([0, 0, -3], [[], [], [-3]], "highest-mouse") == []


def _tied_two_player_record() -> dict[str, object]:
    """A finished 2-player game whose two seats end on the same score (found by seeded random play)."""
    rng = random.Random(7)
    while True:
        state = new_state(2)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                for seat in state.current_players():
                    state.apply_action(rng.choice(state.legal_actions(seat)), seat)
        if state.points[0] == state.points[1] and any(c > 0 for w in state.won for c in w):
            return state.to_record()


def test_final_tie_options_through_the_engine() -> None:
    # DECISIONS geier-5: the same tied game ends differently under the two options.
    record = _tied_two_player_record()
    drawn = ludotheque.replay(record)
    assert drawn.game.options["final_tie"] == "next-best"
    assert drawn.winners() == []  # two seats on one score: no score is held by exactly one seat
    record = {**record, "options": {**record["options"], "final_tie": "highest-mouse"}}  # type: ignore[dict-item]
    decided = ludotheque.replay(record)
    best = [max((c for c in won if c > 0), default=0) for won in decided.won]
    assert decided.winners() == [best.index(max(best))]
