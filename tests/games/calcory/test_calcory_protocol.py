"""Calcory notation, bad input, records and the golden playthrough."""

from __future__ import annotations

import json

import pytest

import ludotheque
from ludotheque.core import (
    CHANCE,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    RecordError,
    replay_record,
)
from ludotheque.games import load_game
from ludotheque.games.calcory import notation, rules

from .calcory_helpers import arrange, dealt_state, play, random_state, snapshot


def test_notation_examples() -> None:
    assert notation.format_action(0) == "A1"
    assert notation.format_action(59) == "F10"
    assert notation.format_action(rules.STOP) == "stop"
    assert notation.format_action(rules.PASS) == "pass"
    assert notation.format_action(rules.put_action(7, rules.CELL_INDEX["C4"])) == "7@C4"
    assert notation.parse_action(" c4 ") == rules.CELL_INDEX["C4"]
    assert notation.parse_action("Stop") == rules.STOP
    assert notation.parse_action("7 @ c4") == rules.put_action(7, 23)
    assert notation.format_deal(0, 7) == "A1=7"
    assert notation.parse_deal("a1=7", 0) == 7 and notation.parse_deal("7", 0) == 7


def test_every_action_round_trips() -> None:
    for action in range(rules.NUM_ACTIONS):
        assert notation.parse_action(notation.format_action(action)) == action
    for cell in range(rules.CELLS):
        for value in range(10):
            assert notation.parse_deal(notation.format_deal(cell, value), cell) == value


@pytest.mark.parametrize("text", ["Z9", "A11", "A0", "G1", "11", "7@", "@C4", "10@C4", "7@Z1", "", "stop now", "x"])
def test_malformed_notation(text: str) -> None:
    state = dealt_state(2)
    before = snapshot(state)
    with pytest.raises(NotationError):
        state.string_to_action(text)
    assert snapshot(state) == before


def test_wrong_deal_cell_and_bad_value() -> None:
    state = ludotheque.load_game("calcory", players=2).new_initial_state()
    with pytest.raises(NotationError, match="wrong cell"):
        state.string_to_action("B1=3", CHANCE)
    with pytest.raises(NotationError):
        state.string_to_action("A1=12", CHANCE)
    assert state.string_to_action("A1=3", CHANCE) == 3
    dealt = dealt_state(2)
    with pytest.raises(NotationError, match="chance does not act"):
        dealt.string_to_action("7", CHANCE)


def test_illegal_actions_leave_the_state_unchanged() -> None:
    state = dealt_state(3, {"B1": 5, "B2": 3, "C1": 4, "C2": 9})
    play(state, "B1", "B2", "stop")  # B1, B2 marked by seat 0
    before = snapshot(state)
    for bad in (rules.CELL_INDEX["B1"], rules.PASS, rules.put_action(3, 0), rules.NUM_ACTIONS, -1):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad, 1)
    with pytest.raises(IllegalActionError):  # stop with no card flipped
        state.apply_action(rules.STOP, 1)
    with pytest.raises(NotationError, match="not a legal move"):
        state.string_to_action("B1", 1)
    with pytest.raises(IllegalActionError):
        state.apply_action("C1", 1)  # type: ignore[arg-type]
    assert snapshot(state) == before


def test_out_of_turn() -> None:
    state = dealt_state(3)
    before = snapshot(state)
    with pytest.raises(NotYourTurnError):
        state.apply_action(0, 1)
    with pytest.raises(NotYourTurnError):
        state.apply_action(0, CHANCE)
    assert state.legal_actions(2) == []
    assert snapshot(state) == before
    fresh = ludotheque.load_game("calcory", players=3).new_initial_state()
    with pytest.raises(NotYourTurnError):
        fresh.apply_action(0, 0)  # the deal is chance's


def test_malformed_records() -> None:
    state = random_state(2, seed=4, steps=120)
    record = state.to_record()
    broken = json.loads(json.dumps(record))
    broken["actions"][70]["move"] = "Q7"
    with pytest.raises(RecordError) as info:
        replay_record(broken, load_game)
    assert info.value.index == 70
    broken = json.loads(json.dumps(record))
    broken["actions"][3]["move"] = "B1=3"  # the fourth card dealt lies on A4
    with pytest.raises(RecordError) as info:
        replay_record(broken, load_game)
    assert info.value.index == 3
    broken = json.loads(json.dumps(record))
    seat = broken["actions"][65]["by"]
    assert seat in (0, 1)  # after the 60 deal actions, a seat acts
    broken["actions"][65]["by"] = 1 - seat  # out of turn
    with pytest.raises(RecordError):
        replay_record(broken, load_game)
    with pytest.raises(RecordError):
        replay_record(
            {"format": "ludotheque-record/1", "game": "calcory", "players": 5, "options": {}, "actions": []}, load_game
        )
    with pytest.raises(RecordError):
        replay_record("{not json", load_game)


def test_record_round_trip_by_hand() -> None:
    state = random_state(3, seed=11, steps=100_000)
    assert state.is_terminal()
    record = json.loads(json.dumps(state.to_record()))
    assert record["game"] == "calcory" and record["actions"][0]["move"].startswith("A1=")
    again = ludotheque.replay(record)
    assert again.history() == state.history()
    assert again.returns() == state.returns() and again.winners() == state.winners()
    assert again.view(None) == state.view(None)


# A golden playthrough derived by hand from the rules (2 players).  The deal puts 4, 9 on A1, A2;
# 6, 7 on B1, B2; 9 on A3; 5, 3 on B3, B4; the rest of the deck follows in ascending order.
GOLDEN_MOVES = [
    (0, "A1"),
    (0, "A2"),  # 4 + 9 = 13 (calcory-2): seat 0 takes both...
    (0, "4@A1"),  # ...puts the 4 back on A1 and keeps the 9
    (1, "B1"),
    (1, "B2"),  # 6 + 7 = 13: seat 1 takes both
    (1, "6@B1"),  # keeps the 7
    (0, "A3"),
    (0, "stop"),  # seat 0 has won a card, so one flip may stop: a single 9 is marked
    (1, "B3"),
    (1, "B4"),
    (1, "stop"),  # 5 + 3 = 8 < 9: stopping fails (calcory-3), cards turn back
    # seat 0's turn: the single marked 9 survived a full round -> seat 0 keeps it, game over (calcory-4)
]


def test_golden_playthrough() -> None:
    deal = arrange({"A1": 4, "A2": 9, "B1": 6, "B2": 7, "A3": 9, "B3": 5, "B4": 3})
    record = {
        "format": "ludotheque-record/1",
        "game": "calcory",
        "players": 2,
        "options": {},
        "actions": [{"by": "chance", "move": f"{rules.CELL_NAMES[c]}={v}"} for c, v in enumerate(deal)]
        + [{"by": seat, "move": move} for seat, move in GOLDEN_MOVES],
    }
    state = ludotheque.replay(record)
    assert state.is_terminal()
    # by hand: seat 0 won the 9 (13) and the single marked 9; seat 1 won the 7
    assert state.returns() == [2.0, 1.0]
    assert state.winners() == [0]
    assert state.to_record() == record
