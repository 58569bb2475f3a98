"""Mü through the engine protocol: notation, bad input, records, views (no leak), resample, golden record."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

import ludotheque
from ludotheque.core import (
    CHANCE,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    RecordError,
    replay_record,
    sample_chance,
)
from ludotheque.games import load_game
from ludotheque.games.mu import notation as nt
from ludotheque.games.mu.game import MuState
from ludotheque.games.mu.heuristics import MuHeuristicBot
from ludotheque.testing import snapshot

from .mu_helpers import deal, new_state, play

GOLDEN = Path(__file__).with_name("golden_mu_3p.json")


def random_state(players: int, seed: int, steps: int, pass_bias: float = 0.6) -> MuState:
    """A state after ``steps`` random actions (passing often, so that hands get played)."""
    rng = random.Random(seed)
    state = new_state(players, target=60)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        if nt.PASS in legal and rng.random() < pass_bias:
            state.apply_action(nt.PASS, seat)
        else:
            state.apply_action(rng.choice(legal), seat)
    return state


# -- notation ---------------------------------------------------------------------------------------


@given(st.integers(3, 6), st.integers(0, 10_000), st.integers(0, 250))
def test_every_legal_action_and_chance_outcome_round_trips(players: int, seed: int, steps: int) -> None:
    state = random_state(players, seed, steps)
    if state.is_terminal():
        return
    if state.is_chance_node():
        for action, _ in state.chance_outcomes():
            assert state.string_to_action(state.action_to_string(action, CHANCE), CHANCE) == action
        return
    seat = state.current_players()[0]
    texts = [state.action_to_string(a, seat) for a in state.legal_actions(seat)]
    assert len(set(texts)) == len(texts)
    assert [state.string_to_action(t, seat) for t in texts] == state.legal_actions(seat)


def test_notation_examples() -> None:
    assert nt.format_action(nt.FROM_HAND + 7) == "R7" and nt.format_action(nt.FROM_TABLE + 27) == "G7*"
    assert nt.format_action(nt.TRUMP_COLOUR + 4) == "trump K" and nt.format_action(nt.TRUMP_NUMBER + 5) == "trump 5"
    assert nt.format_action(nt.NO_TRUMP_ACTION) == "no trump" and nt.format_action(nt.PARTNER + 3) == "partner 3"
    assert nt.format_chance(nt.REMOVE + 2) == "out G" and nt.format_chance(43) == "K3"
    assert nt.parse_action("  Trump   g ") == nt.TRUMP_COLOUR + 2 and nt.parse_action("b7*") == nt.FROM_TABLE + 37


def test_a_card_named_without_star_is_taken_from_the_table_when_the_hand_has_none() -> None:
    state = deal(new_state(4), {0: ["R5", "R6"], 1: ["G1", "G2"]})
    play(state, "0:R5, 1:G1, 1:G2, 2:pass, 3:pass, 0:pass, 1:pass, 0:trump R, 1:trump G, 1:partner 2")
    assert state.string_to_action("G2", 1) == nt.FROM_TABLE + 22
    assert state.string_to_action("G1*", 1) == nt.FROM_TABLE + 21


# -- bad input ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "Z9", "R10", "trump X", "trump 12", "partner 9", "lay", "R7**", "no"])
def test_malformed_notation_is_rejected(text: str) -> None:
    state = deal(new_state(4), {})
    before = snapshot(state)
    with pytest.raises(NotationError):
        state.string_to_action(text, 0)
    assert snapshot(state) == before


def test_illegal_and_out_of_turn_actions_leave_the_state_unchanged() -> None:
    state = deal(new_state(4), {0: ["R5"]})
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(nt.DONE, 0)  # done before laying
    with pytest.raises(IllegalActionError):
        state.apply_action(nt.FROM_TABLE + 5, 0)  # nothing on the table yet
    with pytest.raises(NotationError):
        state.string_to_action("K9", 0)  # a card seat 0 does not hold
    with pytest.raises(NotYourTurnError):
        state.apply_action(nt.PASS, 2)
    with pytest.raises(NotYourTurnError):
        state.apply_action(nt.PASS, CHANCE)
    assert snapshot(state) == before


def test_malformed_records_are_rejected() -> None:
    record = json.loads(GOLDEN.read_text())
    bad_move = json.loads(json.dumps(record))
    bad_move["actions"][40]["move"] = "trump Q"
    with pytest.raises(RecordError) as info:
        replay_record(bad_move, load_game)
    assert info.value.index == 40
    wrong_seat = json.loads(json.dumps(record))
    wrong_seat["actions"][40]["by"] = (wrong_seat["actions"][40]["by"] + 1) % 3
    with pytest.raises(RecordError):
        replay_record(wrong_seat, load_game)
    with pytest.raises(RecordError):
        replay_record({**record, "options": {"target": 0}}, load_game)
    with pytest.raises(RecordError):
        replay_record({**record, "actions": [{"by": "chance", "move": "R7"}]}, load_game)  # 3 players: remove first
    with pytest.raises(RecordError):
        replay_record("{not json", load_game)


# -- records ----------------------------------------------------------------------------------------


def test_golden_record_three_players() -> None:
    """Seat 2 opened; seat 1 became chief with 12 cards and yellow trump (3 players: no vice, no partner).
    By hand from the record's 12 tricks: seat 0 won R3-R7-R0 (4), R8-R5-R4 (3), G8-G1-G3 (2) = 9 triangles;
    seat 1 won Y9-Y1-Y6 (2), G0-G1-G9 (1), G7-Y0-G4 (4), Y4-Y3-G5 (3), Y2-R6-G6 (5), Y1-R7-G7 (4) = 19;
    seat 2 won Y7-Y8-R1 (3), R9-R2-R1 (1), Y5-Y7-G2 (4) = 8.  mu-8: the contract is 10 + 2*12 = 34; 19 makes a bid
    of 4 (18) but not 5 (20), so k = 4: the chief loses 10*(12-4) = 80, each opponent gains 5*8 = 40.
    Totals 9+40 = 49, 19-80 = -61, 8+40 = 48: with target 1 the match ends after this hand, seat 0 wins."""
    state = ludotheque.replay(json.loads(GOLDEN.read_text()))
    assert state.is_terminal()
    summary = state.log[-1]
    assert (summary["chief"], summary["bids"][1], summary["chief_trump"]) == (1, 12, "Y")
    assert summary["triangles"] == [9, 19, 8]
    assert state.returns() == [49.0, -61.0, 48.0] and state.winners() == [0]
    again = ludotheque.replay(state.to_record())
    assert again.history() == state.history()


def test_a_bot_match_round_trips_through_its_record() -> None:
    game = load_game("mu", players=5, target=60)
    bot, rng = MuHeuristicBot(), random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            seat = state.current_players()[0]
            state.apply_action(bot.choose(state.view(seat), state.legal_actions(seat), rng), seat)
    record = json.loads(json.dumps(state.to_record()))
    again = replay_record(record, load_game)
    assert again.history() == state.history() and again.returns() == state.returns()
    assert again.winners() == state.winners() and again.view(None) == state.view(None)


# -- views: no leak --------------------------------------------------------------------------------


def swapped_pair(players: int, seed: int) -> tuple[MuState, MuState]:
    """Two deals identical for seat 0 that differ in which of seats 1 and 2 holds some cards."""
    rng = random.Random(seed)
    first = new_state(players)
    second = new_state(players)
    if players == 3:
        for state in (first, second):
            state.apply_action(state.string_to_action("out Y", CHANCE))
            state.apply_action(state.string_to_action("out K", CHANCE))
    deck = [kind for kind in range(50) for _ in range(first.deck[kind])]
    rng.shuffle(deck)
    per = len(deck) // players
    hands = [deck[i * per : (i + 1) * per] for i in range(players)]
    other = [list(h) for h in hands]
    swaps = rng.randint(1, per)
    other[1][:swaps], other[2][:swaps] = hands[2][:swaps], hands[1][:swaps]
    for state, layout in ((first, hands), (second, other)):
        deal(state, {seat: [nt.card_name(k) for k in layout[seat]] for seat in range(players)})
    return first, second


@given(st.integers(3, 6), st.integers(0, 10_000))
def test_a_seat_cannot_see_other_hands(players: int, seed: int) -> None:
    # DECISIONS all-3
    first, second = swapped_pair(players, seed)
    assert first.view(0) == second.view(0) and first.view(None) == second.view(None)
    assert first.observation_tensor(0).tolist() == second.observation_tensor(0).tolist()
    if first.hands[1] != second.hands[1]:
        assert first.view(1) != second.view(1)
    # the same public moves keep it so: seat 0 leads the auction and everyone else passes
    for state in (first, second):
        seat = state.current_players()[0]
        while seat != 0:
            state.apply_action(nt.PASS, seat)
            seat = state.current_players()[0]
        state.apply_action(state.legal_actions(0)[0], 0)
        while state.phase == "auction":
            state.apply_action(nt.PASS, state.current_players()[0])
        state.apply_action(state.legal_actions(0)[0], 0)  # the chief names a trump
        if players >= 4:
            state.apply_action(state.legal_actions(0)[0], 0)
        state.apply_action(state.legal_actions(0)[0], 0)  # the chief leads
    assert first.view(0) == second.view(0) and first.view(None) == second.view(None)


def test_spectator_sees_no_hand() -> None:
    state = deal(new_state(4), {})
    assert "hand" not in state.view(None)["table"] and len(state.view(2)["table"]["hand"]) == 15


# -- resample ---------------------------------------------------------------------------------------


@given(st.integers(3, 6), st.integers(0, 10_000), st.integers(0, 400))
def test_resample_keeps_the_view_and_replays(players: int, seed: int, steps: int) -> None:
    state = random_state(players, seed, steps)
    if state.is_terminal():
        return
    rng = random.Random(seed)
    for seat in range(players):
        twin = state.resample(seat, rng)
        assert twin.view(seat) == state.view(seat)
        assert twin.current_players() == state.current_players()
        again = replay_record(twin.to_record(), load_game)
        assert again.view(seat) == state.view(seat)


def test_resample_respects_shown_voids() -> None:
    # mu-7: red is trump; a seat that did not follow the red lead holds no trump; resample must keep it so
    state = deal(new_state(4), {0: ["R9", "R8"], 1: ["G0", "G1", "G2", "G3", "B0", "B1", "B2", "B3", "K0", "K1",
                                                       "K2", "K3", "Y0", "Y1", "Y2"]})
    play(state, "0:R9, 1:pass, 2:pass, 3:pass, 0:pass, 0:trump R, 0:partner 2, 0:R8")
    for _ in range(3):
        seat = state.current_players()[0]
        state.apply_action(state.legal_actions(seat)[0], seat)
    voids = state.voids()
    assert voids[1] == {5}  # seat 1 had no trump (category 5)
    rng = random.Random(1)
    for _ in range(30):
        twin = state.resample(2, rng)
        assert twin.view(2) == state.view(2)
        for seat in (1, 3):
            for kind in range(50):
                if twin.hands[seat][kind] and twin._category(kind) in voids[seat]:
                    raise AssertionError(f"seat {seat} got {nt.card_name(kind)} despite its void")


# -- observation and display -----------------------------------------------------------------------


def test_observation_and_render_in_every_phase() -> None:
    state = random_state(4, 5, 0)
    seen = set()
    rng = random.Random(5)
    console = Console(record=True, width=120)
    while not state.is_terminal():
        seen.add(state.phase)
        for seat in (None, 0):
            console.print(state.game.render(state.view(seat)))
        tensor = state.observation_tensor(1)
        assert tensor.shape == state.game.observation_tensor_shape()
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            seat = state.current_players()[0]
            legal = state.legal_actions(seat)
            state.apply_action(nt.PASS if nt.PASS in legal and rng.random() < 0.7 else rng.choice(legal), seat)
    console.print(state.game.render(state.view(0)))
    assert {"deal", "auction", "play"} <= seen
    assert "Match over" in console.export_text()


class NoFallback(random.Random):
    """An RNG whose ``choice`` fails: the heuristic must always find a legal move by its own rules."""

    def choice(self, seq: object) -> object:  # type: ignore[override]
        raise AssertionError("the heuristic fell back to a random move")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_heuristic_always_chooses_a_legal_move_by_its_rules(players: int) -> None:
    game = load_game("mu", players=players, target=40)
    bot = MuHeuristicBot()
    chance = random.Random(players)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, chance))
                continue
            seat = state.current_players()[0]
            legal = state.legal_actions(seat)
            action = bot.choose(state.view(seat), legal, NoFallback())
            assert action in legal
            state.apply_action(action, seat)
