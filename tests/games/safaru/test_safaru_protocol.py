"""Protocol behaviour of Safarü: notation, records, bad input, views (no leak), resample, golden game."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ludotheque
from ludotheque.bots import play_game
from ludotheque.core import (
    CHANCE,
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    RecordError,
)
from ludotheque.games.safaru import notation, rules
from ludotheque.games.safaru.game import SafaruState
from ludotheque.testing import snapshot

from .safaru_helpers import dealt, legal_texts, new_state, play

GOLDEN = Path(__file__).with_name("golden_2p.json")


def random_state(players: int, seed: int, steps: int, **options: object) -> SafaruState:
    state = new_state(players, **options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


# -- notation -------------------------------------------------------------------------------------


def test_every_action_round_trips_through_notation() -> None:
    for action in range(notation.NUM_ACTIONS):
        text = notation.format_action(action, False)
        assert notation.parse_action(text, False) == action
        assert notation.parse_action(text.lower(), False) == action
    for kind in range(rules.KINDS):
        assert notation.parse_action(notation.format_action(kind, True), True) == kind


def test_notation_examples() -> None:
    assert notation.format_action(notation.PLAY + 37, False) == "B7"
    assert notation.format_action(notation.TAKE + 3, False) == "+R3"
    assert notation.format_action(notation.PAIR_WITH + 17, False) == "=Y7"
    assert [notation.format_action(notation.BEGIN_ADD + i, False) for i in range(7)] == [
        "add",
        "17",
        "ok",
        "done",
        "pick add",
        "pick 17",
        "pick pair",
    ]
    assert notation.parse_action("  Pick   ADD ", False) == notation.CHOOSE + rules.ADD


@pytest.mark.parametrize("text", ["Z9", "B", "B10", "+", "=Q1", "pick foo", "", "play B7", "7"])
def test_malformed_notation_is_rejected(text: str) -> None:
    state = dealt(2, [["B8", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["Y8", "G3", "G5", "K9"])
    before = snapshot(state)
    with pytest.raises(NotationError):
        state.string_to_action(text)
    assert snapshot(state) == before


def test_well_formed_but_illegal_notation_lists_the_legal_moves() -> None:
    state = dealt(2, [["B8", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["Y8", "G3", "G5", "K9"])
    with pytest.raises(NotationError, match="legal: R1, R2, R3, B8"):
        state.string_to_action("+K9")
    with pytest.raises(NotationError):
        state.string_to_action("G1")  # seat 1's card
    with pytest.raises(NotationError):
        state.string_to_action("R1", CHANCE)


# -- bad input ------------------------------------------------------------------------------------


def test_illegal_and_out_of_turn_actions_leave_the_state_unchanged() -> None:
    state = dealt(2, [["B8", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["Y8", "G3", "G5", "K9"])
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(notation.PLAY + 49, 0)  # K9 is on the table, not in the hand
    with pytest.raises(IllegalActionError):
        state.apply_action(notation.DONE, 0)
    with pytest.raises(IllegalActionError):
        state.apply_action(notation.NUM_ACTIONS, 0)
    with pytest.raises(NotYourTurnError):
        state.apply_action(notation.PLAY + 21, 1)  # G1 is seat 1's, but it is seat 0's turn
    with pytest.raises(NotYourTurnError):
        state.apply_action(0, CHANCE)
    assert snapshot(state) == before
    play(state, "B8", "add")
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(notation.CLOSE, 0)  # nothing taken yet
    with pytest.raises(IllegalActionError):
        state.apply_action(notation.TAKE + 18, 0)  # the 8 cannot be part of an adding to 8
    assert snapshot(state) == before


def test_chance_cannot_deal_a_card_that_is_not_in_the_pile() -> None:
    state = new_state(2)
    state.apply_action(state.string_to_action("B9", CHANCE))
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(39)  # the only blue 9 is dealt
    with pytest.raises(NotationError):
        state.string_to_action("B9", CHANCE)
    assert snapshot(state) == before


def test_no_action_after_the_end() -> None:
    game = ludotheque.load_game("safaru", players=2)
    state = play_game(game, [game.heuristic_bot()] * 2, random.Random(1))
    assert state.is_terminal() and state.legal_actions() == [] and state.current_players() == []
    with pytest.raises(GameOverError):
        state.apply_action(0)


def test_malformed_records_are_rejected() -> None:
    record = json.loads(GOLDEN.read_text())
    with pytest.raises(RecordError):
        ludotheque.replay("{not json")
    with pytest.raises(RecordError):
        ludotheque.replay({k: v for k, v in record.items() if k != "actions"})
    bad = json.loads(json.dumps(record))
    bad["actions"][25]["move"] = "Z9"
    with pytest.raises(RecordError) as info:
        ludotheque.replay(bad)
    assert info.value.index == 25
    bad = json.loads(json.dumps(record))
    first = next(i for i, a in enumerate(bad["actions"]) if a["by"] != CHANCE)
    assert first == 12  # 4 cards to each of 2 seats and 4 to the table
    bad["actions"][first]["by"] = 1  # seat 0 plays first
    with pytest.raises(RecordError) as info:
        ludotheque.replay(bad)
    assert info.value.index == first
    bad = json.loads(json.dumps(record))
    bad["actions"][first]["by"] = CHANCE
    with pytest.raises(RecordError):
        ludotheque.replay(bad)
    bad = json.loads(json.dumps(record))
    bad["options"] = {"renverse": "sometimes"}
    with pytest.raises(RecordError):
        ludotheque.replay(bad)


# -- records --------------------------------------------------------------------------------------


def test_golden_playthrough() -> None:
    # a full 2-player game (heuristic vs heuristic); the scores below are counted by hand from the catches
    record = json.loads(GOLDEN.read_text())
    state = ludotheque.replay(record)
    assert isinstance(state, SafaruState) and state.is_terminal()
    seat0 = [
        "R0",
        "R1",
        "R4",
        "R7",
        "Y2",
        "Y6",
        "Y7",
        "Y7",
        "G1",
        "G1",
        "G2",
        "G3",
        "G7",
        "G8",
        "G9",
        "B1",
        "B3",
        "B5",
        "B6",
        "B7",
        "B7",
        "K1",
        "K1",
        "K2",
        "K7",
        "K7",
        "K8",
    ]
    seat1 = [
        "R1",
        "R2",
        "R3",
        "R5",
        "R6",
        "R7",
        "R8",
        "R9",
        "Y0",
        "Y1",
        "Y3",
        "Y4",
        "Y5",
        "Y8",
        "Y9",
        "G0",
        "G4",
        "G5",
        "G6",
        "G7",
        "B0",
        "B1",
        "B2",
        "B4",
        "B9",
        "K0",
        "K4",
        "K5",
        "K6",
        "K9",
    ]
    assert rules.names(state.caught[0]) == seat0 and rules.names(state.caught[1]) == seat1
    assert rules.names(state.table) == ["Y1", "B8", "K3"]  # left on the table: not scored
    # seat 0: 6 unicorns (most: +24), 4 hedgehogs, 1 baby (-5), 30 triangles -> 49
    # seat 1: 5 unicorns, 7 hedgehogs (most: -12), 4 babies (-20), 28 triangles -> -4
    assert state.returns() == [49.0, -4.0]
    assert state.winners() == [0]
    again = state.to_record()
    assert again["actions"] == record["actions"]


def test_record_round_trip_by_hand_mid_turn() -> None:
    state = dealt(2, [["B8", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["Y8", "G3", "G5", "K9"], renverse=True)
    play(state, "B8", "pick add", "+G3")
    record = json.loads(json.dumps(state.to_record()))
    assert [a["move"] for a in record["actions"][-3:]] == ["B8", "pick add", "+G3"]
    assert [a["by"] for a in record["actions"][-3:]] == [0, 1, 0]
    again = ludotheque.replay(record)
    assert again.history() == state.history()
    assert again.view(0) == state.view(0) and again.view(None) == state.view(None)


# -- views ----------------------------------------------------------------------------------------


def test_no_leak_other_hands_and_pile() -> None:
    # DECISIONS all-3: two deals that differ only in seat 1's hand and the pile look the same to seat 0
    one = dealt(2, [["B8", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["Y8", "G3", "G5", "K9"])
    two = dealt(2, [["B8", "R1", "R2", "R3"], ["Y9", "R9", "B9", "K1"]], ["Y8", "G3", "G5", "K9"])
    assert one.view(0) == two.view(0) and one.view(None) == two.view(None)
    assert one.view(1) != two.view(1)
    assert one.observation_tensor(0).tolist() == two.observation_tensor(0).tolist()
    # R2 is released; K1 is in both of seat 1's hands: once played it is public (it catches 8+3+5 by 17)
    for state in (one, two):
        play(state, "R2", "K1", "17", "+Y8", "+G3", "+G5", "ok")
    assert one.view(0) == two.view(0) and one.view(None) == two.view(None)


def test_spectator_sees_no_hand() -> None:
    state = random_state(3, 4, 40)
    view = state.view(None)
    assert view["seat"] is None and "hand" not in view["table"]
    text = json.dumps(view)
    for seat in range(3):
        assert json.dumps(state.view(seat)["table"]["hand"]) in json.dumps(state.view(seat))
    assert "pile_cards" not in text


@given(
    players=st.integers(2, 4),
    renverse=st.booleans(),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 400),
)
def test_resample_keeps_the_view_and_replays(players: int, renverse: bool, seed: int, steps: int) -> None:
    state = random_state(players, seed, steps, renverse=renverse)
    rng = random.Random(seed)
    for seat in range(players):
        twin = state.resample(seat, rng)
        assert twin.view(seat) == state.view(seat)
        assert twin.view(None) == state.view(None)
        assert twin.current_players() == state.current_players()
        assert [sum(h) for h in twin.hands] == [sum(h) for h in state.hands]
        again = ludotheque.replay(twin.to_record())
        assert again.view(seat) == state.view(seat)


def test_resample_changes_hidden_cards() -> None:
    state = dealt(2, [["B8", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["Y8", "G3", "G5", "K9"])
    rng = random.Random(0)
    hands = {tuple(rules.names(state.resample(0, rng).hands[1])) for _ in range(20)}
    assert len(hands) > 1  # seat 1's hand is redrawn from the unseen cards
    assert all(tuple(rules.names(state.resample(1, rng).hands[1])) == ("G1", "G2", "K1", "K2") for _ in range(5))


def test_observation_tensor_shape() -> None:
    for players in (2, 3, 4):
        state = random_state(players, players, 60)
        game = state.game
        for seat in range(players):
            tensor = state.observation_tensor(seat)
            assert tensor.shape == game.observation_tensor_shape() == (4 * 50 + 53 * players + 11,)


# -- engine against a brute force -----------------------------------------------------------------


@given(
    table=st.lists(st.sampled_from([k for k in range(rules.KINDS) for _ in range(rules.COPIES[k])]), max_size=9),
    played=st.integers(0, 9),
)
def test_available_methods_match_a_brute_force(table: list[int], played: int) -> None:
    # DECISIONS safaru-3: adding (2+ cards, sum = played), seventeen (1+ cards, sum + played = 17), pairing;
    # with a 0 on the table adding and seventeen must include one
    counts = [0] * rules.KINDS
    for kind in table:
        counts[kind] += 1
    numbers = [k % 10 for k in range(rules.KINDS) for _ in range(counts[k])]
    zero = 0 in numbers
    subsets = [[numbers[i] for i in range(len(numbers)) if mask >> i & 1] for mask in range(1, 1 << len(numbers))]
    expected = []
    if any(len(s) >= 2 and sum(s) == played and (0 in s or not zero) for s in subsets):
        expected.append(rules.ADD)
    if any(sum(s) + played == 17 and (0 in s or not zero) for s in subsets):
        expected.append(rules.SEVENTEEN)
    if played in numbers:
        expected.append(rules.PAIR)
    assert rules.available_methods(played, counts) == expected


# -- bots and display -----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "renverse"), [(2, False), (3, True), (4, False), (4, True)])
def test_heuristic_bot_plays_legal_moves(players: int, renverse: bool) -> None:
    game = ludotheque.load_game("safaru", players=players, renverse=renverse)
    state = play_game(game, [game.heuristic_bot()] * players, random.Random(players))
    assert state.is_terminal() and state.winners()


def test_render_shows_the_table() -> None:
    from rich.console import Console

    state = dealt(2, [["B8", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["Y8", "G3", "G5", "K9"])
    play(state, "B8", "add", "+G3")
    console = Console(width=120, record=True)
    console.print(state.game.render(state.view(0)))
    text = console.export_text()
    assert "Table: Y8 G5 K9" in text
    assert "Your hand: R1 R2 R3" in text
    assert "building add: G3" in text
    assert legal_texts(state) == ["+G5"]
