"""One test per DECISIONS entry of Calcory (calcory-1..5, all-1..4) and the seed's narrated situations."""

from __future__ import annotations

from collections import Counter

import pytest

import ludotheque
from ludotheque.core import CHANCE, OptionError
from ludotheque.games.calcory import rules
from ludotheque.games.calcory.game import DOWN, MARKED, CalcoryState

from .calcory_helpers import dealt_state, play


def down(state: CalcoryState, name: str) -> bool:
    return state.status[rules.CELL_INDEX[name]] == DOWN


# -- calcory-1 ------------------------------------------------------------------------------------


def test_grid_of_60_face_down_cards_and_six_markers() -> None:
    # DECISIONS calcory-1
    state = dealt_state(3)
    assert state.dealt == 60 and all(s == DOWN for s in state.status)
    assert Counter(state.card) == Counter({v: c for v, c in enumerate(rules.DECK_COUNTS)})
    assert sum(rules.DECK_COUNTS) == 60 and rules.DECK_COUNTS[1] == 10 and rules.DECK_COUNTS[7] == 10
    assert state.markers == [6, 6, 6]
    view = state.view(0)["table"]
    assert view["cells"] == ["down"] * 60 and view["markers"] == [6, 6, 6]
    assert rules.CELL_NAMES[0] == "A1" and rules.CELL_NAMES[9] == "A10" and rules.CELL_NAMES[59] == "F10"


def test_no_options() -> None:
    # DECISIONS calcory-1..5 define no option: the game takes none
    assert ludotheque.load_game("calcory", players=2).options == {}
    with pytest.raises(OptionError):
        ludotheque.load_game("calcory", players=2, target=14)


# -- all-1, all-2 ---------------------------------------------------------------------------------


def test_deal_is_chance_card_by_card() -> None:
    # DECISIONS all-1: the deal is 60 chance actions, "the next card is a v" weighted by the cards left
    state = ludotheque.load_game("calcory", players=2).new_initial_state()
    assert state.is_chance_node() and state.current_players() == []
    assert state.chance_outcomes() == [(v, c / 60) for v, c in enumerate(rules.DECK_COUNTS)]
    assert state.action_to_string(7) == "A1=7"
    state.apply_action(7)
    outcomes = dict(state.chance_outcomes())
    assert outcomes[7] == pytest.approx(9 / 59) and outcomes[0] == pytest.approx(5 / 59)
    assert state.action_to_string(3) == "A2=3"
    assert all(actor == CHANCE for actor, _ in state.history())


def test_exhausted_value_is_no_longer_dealt() -> None:
    # DECISIONS all-1: chance draws from the cards left
    state = ludotheque.load_game("calcory", players=2).new_initial_state()
    for _ in range(5):
        state.apply_action(9)
    assert 9 not in dict(state.chance_outcomes())
    with pytest.raises(ludotheque.core.IllegalActionError):
        state.apply_action(9)


def test_seat_zero_starts_and_play_goes_clockwise() -> None:
    # DECISIONS all-2
    state = dealt_state(3, {"A1": 9, "A2": 9, "A3": 9, "A4": 9})
    assert state.current_players() == [0]
    play(state, "A1", "A2")  # 18: bust
    assert state.current_players() == [1]
    play(state, "A3", "A4")
    assert state.current_players() == [2]


def test_single_game_not_a_match() -> None:
    # DECISIONS all-4 concerns games played as hands to a target; Calcory is one game: the end of calcory-4
    # finishes the whole game at once.
    state = dealt_state(2, {"A1": 4, "A2": 9, "B1": 9})
    play(state, "A1", "A2", "4@A1")  # seat 0 wins a 9
    play(state, "A1", "B1")  # seat 1: 4 + 9 = 13
    play(state, "4@A1")
    play(state, "A3", "stop")  # seat 0 marks a single card (A3 is a 0 in this arrangement)
    play(state, "A1", "A4", "stop")  # seat 1: 4 + 0 = 4 with two cards beats 0 with one
    assert state.marked_owner == 1
    assert not state.is_terminal()


# -- calcory-2 ------------------------------------------------------------------------------------


def test_flipping_keeps_the_sum() -> None:
    # DECISIONS calcory-2
    state = dealt_state(2, {"C1": 3, "C2": 5})
    play(state, "C1")
    assert state.total == 3 and state.view(1)["table"]["flipped"] == [["C1", 3]]
    play(state, "C2")
    assert state.total == 8 and state.view(None)["table"]["sum"] == 8
    assert state.current_players() == [0]


def test_over_13_fails_and_cards_turn_back() -> None:
    # DECISIONS calcory-2: over 13, the turn fails and the cards are turned back
    state = dealt_state(2, {"C1": 8, "C2": 6})
    play(state, "C1", "C2")
    assert down(state, "C1") and down(state, "C2")
    assert state.current_players() == [1] and state.piles == [[], []]
    assert state.last_turn is not None and state.last_turn["outcome"] == "bust"
    assert state.face_down == 60


def test_second_zero_fails() -> None:
    # DECISIONS calcory-2: a second 0 fails the turn, whatever the sum
    state = dealt_state(2, {"C1": 0, "C2": 2, "C3": 0})
    play(state, "C1", "C2")
    assert state.current_players() == [0]
    play(state, "C3")
    assert state.current_players() == [1]
    assert all(down(state, c) for c in ("C1", "C2", "C3"))
    assert state.last_turn is not None and state.last_turn["outcome"] == "bust"


def test_exactly_13_takes_cards_and_puts_one_back() -> None:
    # DECISIONS calcory-2: exactly 13 takes the flipped cards; one goes back face down on any empty cell
    state = dealt_state(2, {"D1": 2, "D2": 5, "D3": 6})
    play(state, "D1", "D2", "D3")
    assert state.phase == "put_back" and sorted(state.holding) == [2, 5, 6]
    legal = state.legal_actions()
    # any held value on any empty cell; the only empty cells are the three just emptied
    assert [state.action_to_string(a) for a in legal] == [f"{v}@{c}" for v in (2, 5, 6) for c in ("D1", "D2", "D3")]
    play(state, "5@D3")
    assert sorted(state.piles[0]) == [2, 6]
    assert down(state, "D3") and state.card[rules.CELL_INDEX["D3"]] == 5
    assert state.status[rules.CELL_INDEX["D1"]] == 0 and state.status[rules.CELL_INDEX["D2"]] == 0
    assert state.current_players() == [1]


def test_put_back_on_an_older_empty_cell() -> None:
    # DECISIONS calcory-2: "any empty cell", not only the ones just emptied
    state = dealt_state(2, {"D1": 4, "D2": 9, "E1": 6, "E2": 7})
    play(state, "D1", "D2", "9@D2")  # D1 stays empty
    play(state, "E1", "E2")
    assert state.string_to_action("7@D1") in state.legal_actions()
    play(state, "7@D1")
    assert down(state, "D1") and state.card[rules.CELL_INDEX["D1"]] == 7


def test_no_card_won_needs_two_flips_to_stop() -> None:
    # DECISIONS calcory-2: a player who has won no card yet must have flipped at least 2
    state = dealt_state(2, {"A1": 4, "A2": 9, "B1": 5, "B2": 3, "B3": 2})
    play(state, "B1")
    assert rules.STOP not in state.legal_actions()
    with pytest.raises(ludotheque.core.IllegalActionError):
        play(state, "stop")
    play(state, "B2")
    assert rules.STOP in state.legal_actions()


def test_player_with_cards_may_stop_after_one() -> None:
    # DECISIONS calcory-2: once a card is won, one flip is enough to stop
    state = dealt_state(2, {"A1": 4, "A2": 9, "B1": 9, "B2": 9})
    play(state, "A1", "A2", "4@A1")
    play(state, "B1", "B2")  # seat 1 busts
    play(state, "A1")
    assert rules.STOP in state.legal_actions()


# -- calcory-3 ------------------------------------------------------------------------------------


def test_stop_marks_the_flipped_cards() -> None:
    # DECISIONS calcory-3: with nothing marked, stopping marks the flipped cards (face up, markers on them)
    state = dealt_state(2, {"B1": 5, "B2": 3})
    play(state, "B1", "B2", "stop")
    assert state.marked_owner == 0 and state.marked == [10, 11]
    assert state.status[10] == MARKED and state.markers == [4, 6]
    assert state.view(1)["table"]["marked"] == {"seat": 0, "cells": ["B1", "B2"], "sum": 8, "count": 2}
    assert state.view(1)["table"]["cells"][10] == 5


def test_marked_cards_cannot_be_flipped() -> None:
    # DECISIONS calcory-3
    state = dealt_state(2, {"B1": 5, "B2": 3})
    play(state, "B1", "B2", "stop")
    assert 10 not in state.legal_actions() and 11 not in state.legal_actions()
    with pytest.raises(ludotheque.core.NotationError):
        play(state, "B1")


def test_higher_sum_beats_the_marks() -> None:
    # DECISIONS calcory-3: a higher sum beats them: old cards back down, markers home, new cards marked
    state = dealt_state(2, {"B1": 5, "B2": 3, "C1": 6, "C2": 3})
    play(state, "B1", "B2", "stop")
    play(state, "C1", "C2", "stop")  # 9 > 8
    assert state.marked_owner == 1 and state.marked == [20, 21]
    assert down(state, "B1") and down(state, "B2")
    assert state.markers == [6, 4]
    assert state.last_turn is not None and state.last_turn["outcome"] == "beat"


def test_equal_sum_with_more_cards_beats() -> None:
    # DECISIONS calcory-3: equal sum with more cards beats
    state = dealt_state(2, {"B1": 5, "B2": 3, "C1": 2, "C2": 3, "C3": 3})
    play(state, "B1", "B2", "stop")
    play(state, "C1", "C2", "C3", "stop")  # 8 with 3 cards > 8 with 2
    assert state.marked_owner == 1 and state.markers == [6, 3]


@pytest.mark.parametrize(("cells", "values"), [(("C1", "C2"), (4, 4)), (("C1", "C2"), (2, 3))])
def test_equal_or_lower_without_more_cards_fails(cells: tuple[str, str], values: tuple[int, int]) -> None:
    # DECISIONS calcory-3: stopping without beating them fails; the cards turn back
    placed = {"B1": 5, "B2": 3, cells[0]: values[0], cells[1]: values[1]}
    state = dealt_state(3, placed)
    play(state, "B1", "B2", "stop")
    play(state, *cells, "stop")
    assert state.marked_owner == 0 and state.markers == [4, 6, 6]
    assert down(state, cells[0]) and down(state, cells[1])
    assert state.last_turn is not None and state.last_turn["outcome"] == "fail"
    assert state.current_players() == [2]


def test_at_most_as_many_marked_cards_as_markers() -> None:
    # DECISIONS calcory-3: a player can mark at most as many cards as they have markers (6)
    placed = {"A1": 0, "A2": 1, "A3": 1, "A4": 1, "A5": 1, "A6": 1, "A7": 1, "A8": 1}
    state = dealt_state(2, placed)
    play(state, "A1", "A2", "A3", "A4", "A5", "A6")
    assert rules.STOP in state.legal_actions()  # 6 cards: allowed
    play(state, "A7")
    assert rules.STOP not in state.legal_actions()  # 7 cards: no longer
    play(state, "A8")  # 7 = 0+1*7... still under 13: flipping on is the only way
    assert state.total == 7 and state.current_players() == [0]


def test_thirteen_leaves_other_marks_in_place() -> None:
    # DECISIONS calcory-3: "Making exactly 13 neither beats nor clears other players' marked cards: they stay
    # marked, to be beaten or collected as usual."
    state = dealt_state(3, {"B1": 5, "B2": 3, "C1": 4, "C2": 9})
    play(state, "B1", "B2", "stop")
    play(state, "C1", "C2", "9@C2")
    assert state.marked_owner == 0 and state.marked == [10, 11] and state.markers == [4, 6, 6]
    assert state.piles[1] == [4] and state.status[10] == state.status[11] == MARKED


def test_marks_left_by_a_thirteen_can_still_be_beaten() -> None:
    # DECISIONS calcory-3: after a 13 the marks stay, "to be beaten ... as usual"
    state = dealt_state(3, {"B1": 5, "B2": 3, "C1": 4, "C2": 9, "D1": 6, "D2": 3})
    play(state, "B1", "B2", "stop")  # seat 0 marks 8
    play(state, "C1", "C2", "9@C2")  # seat 1 makes 13
    play(state, "D1", "D2", "stop")  # seat 2: 9 > 8 beats them
    assert state.marked_owner == 2 and state.markers == [6, 6, 4]
    assert down(state, "B1") and down(state, "B2")


def test_marks_left_by_a_thirteen_are_still_collected() -> None:
    # DECISIONS calcory-3 ("... or collected as usual") and calcory-4
    state = dealt_state(2, {"B1": 5, "B2": 3, "C1": 4, "C2": 9})
    play(state, "B1", "B2", "stop")  # seat 0 marks 8
    play(state, "C1", "C2", "9@C2")  # seat 1 makes 13 with the marks on the table
    assert state.current == 0 and state.phase == "put_back" and sorted(state.holding) == [3, 5]


# -- calcory-4 ------------------------------------------------------------------------------------


def test_surviving_marks_are_collected_one_goes_back() -> None:
    # DECISIONS calcory-4: a player whose markers are still on the table when their turn comes takes those
    # cards, puts one back face down on any empty cell, and their turn ends
    state = dealt_state(2, {"B1": 5, "B2": 3, "C1": 9, "C2": 9})
    play(state, "B1", "B2", "stop")
    play(state, "C1", "C2")  # seat 1 busts
    assert state.current_players() == [0] and state.phase == "put_back"
    assert sorted(state.holding) == [3, 5] and state.markers == [6, 6] and state.marked_owner == -1
    play(state, "3@B2")
    assert state.piles[0] == [5] and down(state, "B2")
    assert state.current_players() == [1] and state.phase == "flip"
    assert state.last_turn is not None and state.last_turn["outcome"] == "collect"


def test_single_surviving_card_ends_the_game() -> None:
    # DECISIONS calcory-4: "If that was a single card, they keep it and the game ends." (seed, FIN DU JEU)
    state = dealt_state(2, {"A1": 4, "A2": 9, "B1": 6, "B2": 7, "A3": 9, "B3": 5, "B4": 3})
    play(state, "A1", "A2", "4@A1")  # seat 0: 13, keeps the 9
    play(state, "B1", "B2", "6@B1")  # seat 1: 13, keeps the 7
    play(state, "A3", "stop")  # seat 0 marks a single 9
    play(state, "B3", "B4", "stop")  # seat 1: 8 < 9 fails
    assert state.is_terminal()
    assert state.piles == [[9, 9], [7]]
    assert state.returns() == [2.0, 1.0] and state.winners() == [0]
    assert state.ending == {"turn": 5, "seat": 0, "cell": "A3", "value": 9}
    assert state.last_turn is not None and state.last_turn["outcome"] == "fail"  # seat 1's turn, the last played


def test_nothing_to_flip_passes() -> None:
    # DECISIONS calcory-4: "A player with nothing to flip passes." (every card on the table is marked)
    state = dealt_state(2)
    # build the position directly: one card left on the grid, marked by seat 0; seat 1 to act
    for c in range(1, 60):
        state._remove(c)
    state.face_down = 0
    state.status[0] = MARKED
    state.marked, state.marked_owner, state.markers[0] = [0], 0, 5
    state.piles = [[1] * 30, [1] * 29]
    state.current, state.phase = 1, "pass"
    assert state.legal_actions() == [rules.PASS]
    play(state, "pass")
    assert state.is_terminal() and state.winners() == [0]


def test_most_cards_wins_and_ties_share() -> None:
    # DECISIONS calcory-4: "Most cards wins; players tied for most cards share the win."
    assert rules.winners([3, 5, 2]) == [1]
    assert rules.winners([5, 5, 2]) == [0, 1]


def test_a_finished_game_with_tied_piles_is_a_shared_win() -> None:
    # DECISIONS calcory-4: players tied for most cards share the win
    state = dealt_state(2, {"A1": 4, "A2": 9, "B1": 2, "B2": 4, "B3": 7, "A3": 9, "B4": 5})
    play(state, "A1", "A2", "4@A1")  # seat 0: 13, keeps the 9 (1 card)
    play(state, "B1", "B2", "B3", "2@B1")  # seat 1: 13 with three cards, keeps 4 and 7 (2 cards)
    play(state, "A3", "stop")  # seat 0 marks a single 9
    play(state, "B4", "stop")  # seat 1: a single 5 does not beat it
    assert state.is_terminal() and state.piles == [[9, 9], [4, 7]]
    assert state.returns() == [2.0, 2.0] and state.winners() == [0, 1]


def test_stuck_when_nothing_flips_and_stop_is_not_allowed() -> None:
    # DECISIONS calcory-2/4: a player who flipped one card, has won none and finds nothing else to flip can
    # neither flip nor stop; "pass" is then the only move and the turn fails like a bust.
    state = dealt_state(2)
    for c in range(1, 60):
        state._remove(c)
    state.face_down = 1
    play(state, "A1")
    assert state.legal_actions() == [rules.PASS]
    play(state, "pass")
    assert down(state, "A1") and state.last_turn is not None and state.last_turn["outcome"] == "stuck"


# -- calcory-5, all-3 -----------------------------------------------------------------------------


def test_view_never_shows_a_face_down_value_but_keeps_the_history() -> None:
    # DECISIONS calcory-5 / all-3: face-down cards are "down"; the log says which cell was revealed, when,
    # by whom and what it showed; every seat (and a spectator) sees the same public history
    state = dealt_state(3, {"C1": 8, "C2": 6})
    play(state, "C1", "C2")  # bust: both turned back
    for seat in (None, 0, 1, 2):
        table = state.view(seat)["table"]
        assert table["cells"][20] == "down" and table["cells"][21] == "down"
        assert table["log"] == {
            "turn": [1, 1],
            "seat": [0, 0],
            "kind": ["flip", "flip"],
            "cell": ["C1", "C2"],
            "value": [8, 6],
        }
    assert state.view(1)["table"] == state.view(None)["table"]


def test_put_back_card_stays_known() -> None:
    # DECISIONS calcory-5 and the issue: a card put back after being seen stays known to every seat
    state = dealt_state(2, {"D1": 4, "D2": 9})
    play(state, "D1", "D2", "4@D2")
    table = state.view(1)["table"]
    assert table["cells"][rules.CELL_INDEX["D2"]] == "down"
    assert [table["log"][key][-1] for key in ("turn", "seat", "kind", "cell", "value")] == [1, 0, "back", "D2", 4]


# -- the seed's narrated situations (the Calcory rules have no numeric worked example) ------------


def test_seed_augmenter_chain() -> None:
    # Seed, AUGMENTER: marks are raised in turn; a 13 takes the cards; the marks survive and are collected
    # (DECISIONS calcory-3: a 13 neither beats nor clears the marks; calcory-4: their owner collects them)
    state = dealt_state(3, {"A1": 2, "A2": 4, "B1": 3, "B2": 4, "C1": 6, "C2": 7, "D1": 9, "D2": 9})
    play(state, "A1", "A2", "stop")  # seat 0 marks 6
    play(state, "B1", "B2", "stop")  # seat 1: 7 > 6 -> beats
    assert state.marked_owner == 1 and state.markers == [6, 4, 6]
    play(state, "C1", "C2", "6@C1")  # seat 2: exactly 13, keeps one card
    assert state.piles[2] == [7]
    play(state, "D1", "D2")  # seat 0 busts
    assert state.phase == "put_back" and state.current == 1  # seat 1's marks survived a full round
    play(state, "3@B1")
    assert state.piles[1] == [4] and state.current == 2
