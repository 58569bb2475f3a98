"""Cheese Rescue protocol: notation, bad input, records, views (no leak), resample, clone, tensor, display."""

from __future__ import annotations

import json
import random

import pytest
from rich.console import Console

from ludotheque.core import (
    CHANCE,
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    RecordError,
    SeatError,
    replay_record,
)
from ludotheque.games import load_game
from ludotheque.games.cheese import notation, rules
from ludotheque.games.cheese.game import CheeseState
from ludotheque.testing import snapshot


def new_state(players: int) -> CheeseState:
    state = load_game("cheese", players=players).new_initial_state()
    assert isinstance(state, CheeseState)
    return state


def play(state: CheeseState, moves: list[str]) -> None:
    for move in moves:
        state.apply_action(state.string_to_action(move))


def random_game(players: int, seed: int, stop: int | None = None) -> CheeseState:
    rng = random.Random(seed)
    state = new_state(players)
    while not state.is_terminal() and (stop is None or len(state.history()) < stop):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


# -- notation ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_notation_round_trips_over_the_whole_action_space(players: int) -> None:
    game = load_game("cheese", players=players)
    frame = 2 * rules.SIDE[players] - 1
    texts = set()
    for action in range(game.num_distinct_actions()):
        text = notation.format_action(action, frame, False)
        texts.add(text)
        assert notation.parse_action(text, frame, False) == action
    assert len(texts) == game.num_distinct_actions()
    for animal in range(game.max_chance_outcomes()):
        assert notation.parse_action(notation.format_action(animal, frame, True), frame, True) == animal


def test_notation_examples_and_leniency() -> None:
    state = new_state(2)
    play(state, ["cat", "dog", "mouse", "dog"])
    action = state.string_to_action("C e4")
    assert state.action_to_string(action) == "C e4"
    for text in ["c e4", "Ce4", "ce4", "cat e4", "C@e4", "  C   E4 "]:
        assert state.string_to_action(text) == action
    assert state.string_to_action("3 f5") == rules.CHEESE3 * 81 + notation.parse_cell("f5", 9)
    assert notation.cell_name(0, 9) == "a9" and notation.cell_name(80, 9) == "i1"


@pytest.mark.parametrize("text", ["", "X e4", "C z9", "C e10", "C e0", "C", "Ce", "C e4 f5", "4 e4", "C 4e"])
def test_malformed_notation(text: str) -> None:
    state = new_state(2)
    play(state, ["cat", "dog", "mouse", "dog"])
    before = snapshot(state)
    with pytest.raises(NotationError):
        state.string_to_action(text)
    assert snapshot(state) == before


def test_malformed_chance_notation() -> None:
    state = new_state(2)
    with pytest.raises(NotationError, match="dog, cat or mouse"):
        state.string_to_action("elephant")
    with pytest.raises(NotationError):
        state.string_to_action(3)  # type: ignore[arg-type]


# -- bad input -----------------------------------------------------------------------------------------------


def test_illegal_actions_leave_state_unchanged() -> None:
    state = new_state(2)
    play(state, ["cat", "dog", "mouse", "dog"])  # seat 0 holds a cat and a mouse
    before = snapshot(state)
    size = 81
    with pytest.raises(IllegalActionError, match="holds no dog"):
        state.apply_action(rules.DOG * size + notation.parse_cell("e4", 9))
    with pytest.raises(NotationError, match="holds no dog"):
        state.string_to_action("D e4")
    with pytest.raises(IllegalActionError, match="taken"):
        state.apply_action(rules.CAT * size + state.centre)
    with pytest.raises(IllegalActionError, match="outside"):
        state.apply_action(6 * size)
    with pytest.raises(IllegalActionError):
        state.apply_action(-1)
    with pytest.raises(IllegalActionError):
        state.apply_action(True)
    assert snapshot(state) == before


def test_out_of_turn_and_bad_seats() -> None:
    state = new_state(3)
    before = snapshot(state)
    with pytest.raises(NotYourTurnError):
        state.apply_action(0, 0)  # chance deals now
    play(state, ["cat"] * 6)
    action = state.string_to_action("C f6")
    before = snapshot(state)
    with pytest.raises(NotYourTurnError):
        state.apply_action(action, 1)
    with pytest.raises(NotYourTurnError):
        state.apply_action(action, CHANCE)
    with pytest.raises(NotationError):
        state.string_to_action("C f6", 2)
    with pytest.raises(NotationError):
        state.string_to_action("cat", CHANCE)  # not a chance node
    with pytest.raises(SeatError):
        state.apply_action(action, 3)
    assert state.legal_actions(1) == []
    assert snapshot(state) == before


def test_no_action_after_the_end() -> None:
    state = random_game(2, 5)
    assert state.is_terminal() and state.legal_actions() == [] and state.current_players() == []
    with pytest.raises(GameOverError):
        state.apply_action(0)


def _record(moves: list[tuple[object, str]]) -> dict[str, object]:
    return {
        "format": "ludotheque-record/1",
        "game": "cheese",
        "players": 2,
        "options": {},
        "actions": [{"by": by, "move": move} for by, move in moves],
    }


@pytest.mark.parametrize(
    ("moves", "index"),
    [
        ([("chance", "cat"), ("chance", "dog"), ("chance", "mouse"), ("chance", "dog"), (0, "D e4")], 4),
        ([("chance", "cat"), ("chance", "dog"), ("chance", "mouse"), ("chance", "dog"), (1, "1 e4")], 4),
        ([("chance", "cat"), (0, "1 e4")], 1),
        ([("chance", "cat"), ("chance", "dog"), ("chance", "mouse"), ("chance", "dog"), ("chance", "cat")], 4),
        ([("chance", "tiger")], 0),
        ([("chance", "cat"), ("chance", "dog"), ("chance", "mouse"), ("chance", "dog"), (0, "1 a1")], 4),
        ([("chance", "cat"), (7, "1 e4")], 1),
    ],
)
def test_bad_records_name_the_move(moves: list[tuple[object, str]], index: int) -> None:
    from ludotheque.games import load_game as load

    with pytest.raises(RecordError) as info:
        replay_record(_record(moves), load)
    assert info.value.index == index


@pytest.mark.parametrize(
    "record",
    [
        "not json",
        {"format": "ludotheque-record/1", "game": "cheese", "players": 2, "options": {}},
        {"format": "ludotheque-record/1", "game": "cheese", "players": 5, "options": {}, "actions": []},
        {"format": "ludotheque-record/1", "game": "cheese", "players": 2, "options": {"x": 1}, "actions": []},
        {"format": "ludotheque-record/1", "game": "cheese", "players": 2, "options": {}, "actions": [{"by": 0}]},
    ],
)
def test_malformed_records(record: object) -> None:
    from ludotheque.games import load_game as load

    with pytest.raises(RecordError):
        replay_record(record, load)  # type: ignore[arg-type]


# -- records -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_finished_game_round_trips_through_its_record(players: int) -> None:
    from ludotheque.games import load_game as load

    state = random_game(players, 100 + players)
    record = json.loads(json.dumps(state.to_record()))
    assert sum(1 for a in record["actions"] if a["by"] != CHANCE) == 12 * players
    again = replay_record(record, load)
    assert again.history() == state.history()
    assert again.returns() == state.returns() and again.winners() == state.winners()
    assert again.view(None) == state.view(None)


# -- views: no leak ------------------------------------------------------------------------------------------


def _twins() -> tuple[CheeseState, CheeseState]:
    """Two 2-player states that differ only in seat 1's animals (and so the pile): seat 0 cannot tell them apart."""
    a, b = new_state(2), new_state(2)
    play(a, ["dog", "cat", "mouse", "mouse"])  # seat 1 holds a cat and a mouse, the pile 2/5/7
    play(b, ["dog", "dog", "mouse", "mouse"])  # seat 1 holds a dog and a mouse, the pile 1/6/7
    return a, b


def test_view_identical_when_only_hidden_cards_differ() -> None:
    # DECISIONS all-3: seat 0 sees neither seat 1's hand nor the pile
    a, b = _twins()
    assert a.view(0) == b.view(0)
    assert a.view(None) == b.view(None)
    assert a.view(1) != b.view(1)
    game = a.game
    assert (game.encode_view(a.view(0)) == game.encode_view(b.view(0))).all()
    # seat 1 places cheeses only, both states draw the same cards: seat 0 still cannot tell
    rng = random.Random(4)
    steps = 0
    while not a.is_terminal():
        steps += 1
        if a.is_chance_node():
            common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
            if not common:
                break  # the piles differ by one dog and one cat: near the end they part
            draw = rng.choice(common)
            a.apply_action(draw)
            b.apply_action(draw)
        else:
            seat = a.current_players()[0]
            legal = [x for x in a.legal_actions() if x in b.legal_actions()]
            if seat == 1:
                legal = [x for x in legal if x // 81 >= rules.CHEESE1] or legal
            move = rng.choice(legal)
            a.apply_action(move)
            b.apply_action(move)
        if a.hands[1][:3] != b.hands[1][:3]:
            assert a.view(0) == b.view(0)
            assert a.view(None)["table"] == b.view(None)["table"]
    assert steps > 20


def test_spectator_sees_no_hand() -> None:
    state = random_game(4, 9, stop=40)
    table = state.view(None)["table"]
    assert "hand" not in table
    assert table["unseen"] == [state.pile[k] + sum(h[k] for h in state.hands) for k in rules.ANIMALS]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_resample_keeps_the_view_and_replays(players: int) -> None:
    from ludotheque.games import load_game as load

    rng = random.Random(players)
    changed = 0
    for seed in range(12):
        state = random_game(players, seed, stop=10 + 7 * seed)
        for seat in range(players):
            twin = state.resample(seat, rng)
            assert twin.view(seat) == state.view(seat)
            assert twin.view(None) == state.view(None)
            assert replay_record(twin.to_record(), load).history() == twin.history()
            changed += twin.hands != state.hands or twin.pile != state.pile
            for other in range(players):
                # placed cards and cheeses stay; only hidden animals move
                assert twin.hands[other][3:] == state.hands[other][3:]
    assert changed > 0


def test_clone_is_independent() -> None:
    state = random_game(3, 2, stop=30)
    twin = state.clone()
    assert twin.view(None) == state.view(None) and twin.history() == state.history()
    while not twin.is_terminal():
        twin.apply_action(twin.legal_actions()[0])
    assert len(state.history()) == 30 and not state.is_terminal()
    assert snapshot(state) == snapshot(random_game(3, 2, stop=30))


# -- tensor and display ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observation_tensor(players: int) -> None:
    game = load_game("cheese", players=players)
    state = random_game(players, 1, stop=25)
    for seat in range(players):
        tensor = state.observation_tensor(seat)
        assert tensor.shape == game.observation_tensor_shape()
        assert tensor.dtype.name == "float32" and tensor.min() >= 0 and tensor.max() <= 1
    frame = 2 * rules.SIDE[players] - 1
    mine = state.observation_tensor(0)
    for cell, kind, _ in state.order:
        if kind in rules.ANIMALS:
            assert mine[(1 + kind) * frame * frame + cell] == 1


def test_render_shows_the_table() -> None:
    game = load_game("cheese", players=2)
    state = random_game(2, 3, stop=20)
    console = Console(width=100, record=True, color_system=None)
    console.print(game.render(state.view(0)))
    text = console.export_text()
    assert "Your hand" in text and "Cheese Rescue" in text and "*" in text
    final = random_game(2, 3)
    console.print(game.render(final.view(None)))
    text = console.export_text()
    assert "Removed" in text and "Winner" in text


@pytest.mark.parametrize("players", [2, 3, 4])
def test_heuristic_bot_plays_legal_moves(players: int) -> None:
    game = load_game("cheese", players=players)
    bot = game.heuristic_bot()
    rng = random.Random(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            seat = state.current_players()[0]
            legal = state.legal_actions(seat)
            action = bot.choose(state.view(seat), legal, rng)
            assert action in legal
            state.apply_action(action, seat)
    assert isinstance(state, CheeseState) and state.placed == [12] * players
