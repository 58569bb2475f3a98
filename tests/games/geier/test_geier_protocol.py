"""Geier through the engine protocol: notation, bad input, views, resample, records, golden game."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ludotheque
from ludotheque.core import (
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    OptionError,
    PlayerCountError,
    RecordError,
    SeatError,
)
from ludotheque.testing import snapshot

from .helpers import new_state, play_round

GOLDEN = Path(__file__).with_name("golden_2p.json")


def test_notation_contract() -> None:
    # Notation: a seat plays "14"; chance turns "+7" or "-3".
    state = new_state(2)
    assert state.action_to_string(state.string_to_action("+7")) == "+7"
    assert state.action_to_string(state.string_to_action("-3"), "chance") == "-3"
    state.apply_action(state.string_to_action("-3"))
    assert state.string_to_action("14", 0) == 13
    assert state.action_to_string(13, 1) == "14"
    assert state.string_to_action(" 1 ", 1) == 0


@pytest.mark.parametrize("text", ["", "0", "16", "+3", "x", "1.5"])
def test_bad_card_notation(text: str) -> None:
    state = new_state(2)
    state.apply_action(5)
    with pytest.raises(NotationError):
        state.string_to_action(text, 0)


@pytest.mark.parametrize("text", ["7", "+11", "-6", "+0", "++1"])
def test_bad_point_notation(text: str) -> None:
    with pytest.raises(NotationError):
        new_state(2).string_to_action(text)


def test_a_card_already_played_is_illegal_and_changes_nothing() -> None:
    state = new_state(3)
    play_round(state, +5, [4, 9, 2])
    state.apply_action(state.string_to_action("+1"))
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="'4'"):
        state.apply_action(3, 0)
    with pytest.raises(NotationError, match="legal"):
        state.string_to_action("4", 0)
    assert snapshot(state) == before


def test_out_of_turn_and_wrong_actor() -> None:
    state = new_state(3)
    with pytest.raises(NotYourTurnError):
        state.apply_action(0, 1)  # chance's turn
    state.apply_action(0)
    state.apply_action(6, 1)
    before = snapshot(state)
    with pytest.raises(NotYourTurnError, match="seat 1"):
        state.apply_action(7, 1)  # already chose this round
    with pytest.raises(NotYourTurnError, match="name the player"):
        state.apply_action(7)  # two seats act together
    with pytest.raises(NotYourTurnError):
        state.legal_actions()
    with pytest.raises(SeatError):
        state.apply_action(7, 3)
    with pytest.raises(IllegalActionError):
        state.apply_action(15, 0)  # outside the action space
    with pytest.raises(IllegalActionError):
        state.apply_action("7", 0)  # type: ignore[arg-type]
    assert snapshot(state) == before
    assert state.legal_actions(1) == []


def test_no_action_after_the_end() -> None:
    state = ludotheque.replay(json.loads(GOLDEN.read_text()))
    assert state.is_terminal()
    with pytest.raises(GameOverError):
        state.apply_action(0, 0)


def test_load_game_errors_name_what_is_allowed() -> None:
    with pytest.raises(ludotheque.UnknownGameError, match="geier"):
        ludotheque.load_game("chess", players=2)
    with pytest.raises(PlayerCountError, match="2 to 5"):
        ludotheque.load_game("geier", players=6)
    with pytest.raises(OptionError, match="tie_rule"):
        ludotheque.load_game("geier", players=2, tie_rules="single")
    with pytest.raises(OptionError, match="cascade, single"):
        ludotheque.load_game("geier", players=2, tie_rule="double")
    game = ludotheque.load_game("geier", players=2)
    assert game.options == {"tie_rule": "cascade", "final_tie": "next-best"}
    assert {o["name"]: o["default"] for o in game.option_schema()} == game.options
    assert game.num_distinct_actions() == 15 and game.max_chance_outcomes() == 15


def test_golden_playthrough() -> None:
    # Seat 0 plays 1, 2, ..., 15 and seat 1 plays 15, 14, ..., 1 while the point cards come +1..+10, -1..-5.
    # Rounds 1-7: seat 1's card is higher and takes +1..+7 (28).  Round 8: both play 8, the +8 stays.
    # Round 9: the pot +8 +9 = 17 goes to seat 0's 9 against 7; round 10: seat 0's 10 takes +10 (27).
    # Rounds 11-15 are vultures: seat 1's card is the lowest and takes -1..-5 (-15), ending on 13.
    record = json.loads(GOLDEN.read_text())
    state = ludotheque.replay(record)
    assert state.returns() == [27.0, 13.0]
    assert state.winners() == [0]
    assert state.won[0] == [8, 9, 10]
    assert state.to_record() == record


def test_record_errors_name_the_bad_move() -> None:
    record = json.loads(GOLDEN.read_text())
    bad = json.loads(json.dumps(record))
    bad["actions"][4]["move"] = "1"  # seat 0 plays its 1 again in round 2
    with pytest.raises(RecordError, match="action 4") as info:
        ludotheque.replay(bad)
    assert info.value.index == 4
    wrong_actor = json.loads(json.dumps(record))
    wrong_actor["actions"][0]["by"] = 0
    with pytest.raises(RecordError, match="action 0"):
        ludotheque.replay(wrong_actor)
    for broken in (
        "not json",
        [],
        {**record, "format": "ludotheque-record/0"},
        {**record, "game": "chess"},
        {**record, "players": 9},
        {**record, "options": {"tie_rule": "double"}},
        {**record, "actions": [{"by": 0}]},
        {**record, "extra": 1},
    ):
        with pytest.raises(RecordError):
            ludotheque.replay(broken)  # type: ignore[arg-type]


@given(st.integers(2, 5), st.integers(0, 2**32), st.data())
def test_view_hides_pending_choices(players: int, seed: int, data: st.DataObject) -> None:
    # DECISIONS all-3: a seat's view is identical whatever the other seats chose but have not revealed.
    rng = random.Random(seed)
    state = new_state(players)
    for _ in range(data.draw(st.integers(0, 14))):
        state.apply_action(rng.choice(state.legal_actions()))
        for seat in range(players):
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    state.apply_action(rng.choice(state.legal_actions()))
    observer = data.draw(st.integers(0, players - 1))
    others = [seat for seat in range(players) if seat != observer]
    if data.draw(st.booleans()):
        # the observer has chosen too: one other seat must still be thinking, or the round would resolve
        state.apply_action(rng.choice(state.legal_actions(observer)), observer)
        others.remove(data.draw(st.sampled_from(others)))
    other = state.clone()
    for seat in others:
        if data.draw(st.booleans()):
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
            other.apply_action(rng.choice(other.legal_actions(seat)), seat)
    assert state.view(observer) == other.view(observer)
    assert state.view(None) == other.view(None)
    assert (state.observation_tensor(observer) == other.observation_tensor(observer)).all()
    twin = state.resample(observer, rng)
    assert twin.view(observer) == state.view(observer)
    assert [a for a in twin.history() if a[0] == observer] == [a for a in state.history() if a[0] == observer]


def test_resample_redraws_only_what_is_hidden() -> None:
    state = new_state(3)
    state.apply_action(9)
    state.apply_action(14, 0)
    state.apply_action(13, 1)
    draws = {state.resample(2, random.Random(seed)).chosen[0] for seed in range(200)}
    assert draws == set(range(1, 16))  # seat 0's hidden 15 may be any card from seat 2's point of view
    assert {state.resample(0, random.Random(s)).chosen[0] for s in range(50)} == {15}


def test_view_is_json_and_spectator_has_no_hand() -> None:
    state = new_state(2)
    state.apply_action(3)
    state.apply_action(4, 0)
    spectator = state.view(None)
    assert "hand" not in spectator["table"] and spectator["seat"] is None
    mine = state.view(0)
    assert mine["table"]["my_choice"] == 5 and 5 not in mine["table"]["hand"]
    assert state.view(1)["table"]["my_choice"] is None
    json.dumps(mine)
