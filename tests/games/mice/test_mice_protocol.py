"""MICE: notation, bad input, records, the golden game, views (no leak), resample, tensors, rendering."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from ludotheque.core import (
    CHANCE,
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    RecordError,
    replay_record,
)
from ludotheque.games import load_game
from ludotheque.games.mice import notation
from ludotheque.games.mice.game import MiceState
from ludotheque.testing import snapshot

GOLDEN = Path(__file__).with_name("golden_mice_3p.json")


def new(players: int, **options: str) -> MiceState:
    state = load_game("mice", players=players, **options).new_initial_state()
    assert isinstance(state, MiceState)
    return state


def play(state: MiceState, *moves: str) -> None:
    for move in moves:
        actor = CHANCE if state.is_chance_node() else state.current_players()[0]
        state.apply_action(state.string_to_action(move, actor), None if actor == CHANCE else actor)


def random_walk(state: MiceState, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))


# -- notation --------------------------------------------------------------------------------------


@given(st.integers(0, 10_000), st.sampled_from([1, 2, 3, 4, 5]), st.integers(0, 400))
def test_notation_round_trips(seed: int, players: int, steps: int) -> None:
    state = new(players)
    random_walk(state, random.Random(seed), steps)
    if state.is_terminal():
        return
    if state.is_chance_node():
        texts = [state.action_to_string(a, CHANCE) for a in state.legal_actions()]
        assert len(set(texts)) == 6
        for action, text in zip(state.legal_actions(), texts, strict=True):
            assert state.string_to_action(text, CHANCE) == action
            assert state.string_to_action(text.lower(), CHANCE) == action
        return
    seat = state.current_players()[0]
    legal = state.legal_actions(seat)
    texts = [state.action_to_string(a, seat) for a in legal]
    assert len(set(texts)) == len(texts)
    for action, text in zip(legal, texts, strict=True):
        assert state.string_to_action(text, seat) == action
        assert state.string_to_action(f"  {text.upper().replace(' ', '')} ", seat) == action  # case, spaces


def test_every_action_has_notation() -> None:
    for action in range(notation.NUM_ACTIONS):
        text = notation.format_action(action, 7)
        parsed, card = notation.parse_action(text)
        assert parsed == action and card in (None, 7)
    with pytest.raises(ValueError):
        notation.format_action(notation.NUM_ACTIONS)


def test_lenient_parsing() -> None:
    state = new(2)
    play(state, "r5", "R3", " y6", "Y3 ", "Y2")
    assert state.string_to_action("use r + y2") == notation.USE + 0b010
    play(state, "USE R+Y2")
    assert state.string_to_action("Cage11") == notation.CAGE + 10


# -- bad input ---------------------------------------------------------------------------------------


def test_illegal_action_leaves_state_unchanged() -> None:
    state = new(2)
    play(state, "R5", "R3", "Y6", "Y3", "Y2", "use R+Y2")
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(notation.CAGE + 7)  # cage 8: the sum is 11
    with pytest.raises(IllegalActionError):
        state.apply_action(notation.NUM_ACTIONS + 3)
    with pytest.raises(IllegalActionError):
        state.apply_action("cage 11")  # type: ignore[arg-type]
    assert snapshot(state) == before


def test_out_of_turn_leaves_state_unchanged() -> None:
    state = new(3)
    play(state, "R5", "R3", "Y6", "Y3", "Y2")
    before = snapshot(state)
    with pytest.raises(NotYourTurnError):
        state.apply_action(notation.FAIL, 1)
    with pytest.raises(NotYourTurnError):
        state.apply_action(notation.FAIL, CHANCE)
    assert state.legal_actions(2) == []
    assert snapshot(state) == before
    play(state, "use R+Y2", "cage 11")  # seat 1 decides now, not seat 2
    with pytest.raises(NotYourTurnError):
        state.apply_action(notation.PAY, 2)
    with pytest.raises(NotYourTurnError):
        state.apply_action(0, 0)


@pytest.mark.parametrize("text", ["hello", "cage 19", "cage 0", "flip 7", "unflip 3", "R3+2", "Y4+1", "use Y1",
                                  "use R+Y2+Y1", "use R+Y1+Y1", "", "take back 40"])
def test_malformed_notation(text: str) -> None:
    state = new(2)
    play(state, "R5", "R3", "Y6", "Y3", "Y2")
    before = snapshot(state)
    with pytest.raises(NotationError):
        state.string_to_action(text)
    assert snapshot(state) == before


def test_notation_that_is_not_legal_here() -> None:
    state = new(2)
    play(state, "R5", "R3", "Y6", "Y3", "Y2", "use R+Y2")
    with pytest.raises(NotationError, match="legal: cage 11"):
        state.string_to_action("cage 8")
    with pytest.raises(NotationError):
        state.string_to_action("R1+1")  # no nut
    with pytest.raises(NotationError, match="no move"):
        state.string_to_action("pass", 1)
    with pytest.raises(NotationError):
        state.string_to_action(11)  # type: ignore[arg-type]


def test_wrong_die_colour_and_take_back_card() -> None:
    state = new(2)
    with pytest.raises(NotationError, match="red"):
        state.string_to_action("Y3")
    play(state, "R1", "R1", "Y1", "Y1", "Y1", "use R+Y1+Y2+Y3", "cage 5")
    play(state, "R1", "R1", "Y1", "Y1", "Y1", "use R+Y1+Y2+Y3", "cage 5")
    play(state, "R1", "R1", "Y1", "Y1", "Y1", "fail")
    assert state.string_to_action("take back 5") == notation.TAKE_BACK
    assert state.string_to_action("take back") == notation.TAKE_BACK
    with pytest.raises(NotationError):
        state.string_to_action("take back 4")  # 5 is on top of the cage
    with pytest.raises(NotationError, match="no die"):
        state.string_to_action("R3", CHANCE)


def test_game_over_rejects_actions() -> None:
    state = new(1)
    state.hands[0] = 1 << 12
    play(state, "R6", "R6", "Y1", "Y1", "Y1", "use R", "cage 12")
    assert state.is_terminal() and state.current_players() == [] and state.legal_actions() == []
    before = snapshot(state)
    with pytest.raises(GameOverError):
        state.apply_action(0)
    assert snapshot(state) == before


@pytest.mark.parametrize(
    ("mutate", "index"),
    [
        (lambda r: r.update(format="nope"), None),
        (lambda r: r.pop("actions"), None),
        (lambda r: r.update(players=7), None),
        (lambda r: r.update(options={"level": "hardest"}), None),
        (lambda r: r["actions"].__setitem__(0, {"by": "chance", "move": "Y3"}), 0),  # the first die is red
        (lambda r: r["actions"].__setitem__(5, {"by": 1, "move": "use R+Y2"}), 5),  # out of turn
        (lambda r: r["actions"].__setitem__(6, {"by": 0, "move": "cage 12"}), 6),  # not the sum
        (lambda r: r["actions"].__setitem__(6, {"by": 0, "move": "banana"}), 6),
        (lambda r: r["actions"].__setitem__(6, {"by": 0}), 6),
        (lambda r: r["actions"].append({"by": "chance", "move": "R1"}), 7),  # seat 1 decides, not chance
    ],
)
def test_malformed_record(mutate: Any, index: int | None) -> None:
    state = new(3)
    play(state, "R5", "R3", "Y6", "Y3", "Y2", "use R+Y2", "cage 11")
    record = state.to_record()
    assert replay_record(record, load_game).history() == state.history()
    mutate(record)
    with pytest.raises(RecordError) as error:
        replay_record(record, load_game)
    assert error.value.index == index


def test_record_that_is_not_json() -> None:
    with pytest.raises(RecordError):
        replay_record("{not json", load_game)


# -- records and the golden game --------------------------------------------------------------------


def test_finished_game_round_trips_through_its_record() -> None:
    game = load_game("mice", players=2)
    state = game.new_initial_state()
    rng = random.Random(11)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    text = json.dumps(state.to_record())
    again = replay_record(text, load_game)
    assert again.history() == state.history()
    assert again.returns() == state.returns() and again.winners() == state.winners()
    assert again.view(None) == state.view(None)


def tally(record: dict[str, Any]) -> tuple[list[int], list[int], list[int]]:
    """Hand totals, face-down dice card counts and nuts, worked out from the record's moves alone (mice-1..7)."""
    n = record["players"]
    hands = [set(range(1, 19)) for _ in range(n)]
    cages: list[list[int]] = [[] for _ in range(n)]
    down = [0] * n
    nuts = [0] * n
    supply = 3 * n
    active = 0
    for entry in record["actions"]:
        by, move = entry["by"], entry["move"]
        if by == "chance":
            continue
        words = move.split()
        if words[0] in ("use", "fail"):
            active = by
        elif words[0] == "cage":
            hands[by].remove(int(words[1]))
            cages[by].append(int(words[1]))
        elif words[0] == "take":
            hands[by].add(cages[by].pop())
        elif words[0] == "flip":
            down[by] += 1
        elif words[0] == "unflip":
            down[by] -= 1
        elif move == "pay":  # mice-6: to the active seat, from the supply while it has nuts
            if supply:
                supply -= 1
            else:
                nuts[by] -= 1
            nuts[active] += 1
        elif move[0] in "RY" and move[-2] in "+-":  # mice-4: a change costs a nut, back to the supply
            nuts[by] -= 1
            supply += 1
    return [sum(h) for h in hands], down, nuts


def test_golden_game() -> None:
    record = json.loads(GOLDEN.read_text())
    state = replay_record(record, load_game)
    assert state.is_terminal()
    totals, down, nuts = tally(record)
    assert totals == [0, 6, 0]  # seats 0 and 2 emptied their hands
    assert down == [1, 0, 4]  # seat 2 flipped its 6 last and ended the game (mice-7)
    assert record["actions"][-1] == {"by": 2, "move": "flip 6"}
    assert state.returns() == [float(t) for t in totals]  # mice-7: the hand totals, lower is better
    # mice-7: seats 0 and 2 tie on 0; seat 2 has more face-down dice cards and wins
    assert state.winners() == [2]
    assert [s["nuts"] for s in state.view(None)["table"]["seats"]] == nuts
    assert state.to_record()["actions"] == record["actions"]


# -- views, no leak, resample -----------------------------------------------------------------------


@given(st.integers(0, 10_000), st.sampled_from([1, 2, 3, 5]), st.integers(0, 300))
def test_views_show_everything_public_and_nothing_else(seed: int, players: int, steps: int) -> None:
    state = new(players)
    rng = random.Random(seed)
    random_walk(state, rng, steps)
    spectator = state.view(None)
    json.dumps(spectator)
    for seat in range(players):
        mine = state.view(seat)
        assert mine["seat"] == seat
        assert mine["table"] == spectator["table"]  # mice-1: nothing is hidden from anyone
        twin = state.resample(seat, rng)
        assert twin.view(seat) == mine and twin.history() == state.history()
        assert replay_record(twin.to_record(), load_game).view(seat) == mine


def test_dice_not_rolled_are_not_in_the_state() -> None:
    # two states that differ only in the dice still to come: identical views, identical states
    state = new(3)
    play(state, "R5", "R3", "Y6")
    one, two = state.clone(), state.clone()
    views = [one.view(s) for s in (None, 0, 1, 2)]
    assert [d["value"] for d in views[0]["table"]["dice"]] == [5, 3, 6, None, None]
    play(one, "Y1")
    play(two, "Y6")
    assert views == [state.view(s) for s in (None, 0, 1, 2)]
    assert one.view(0) != two.view(0)  # once rolled, a die is seen by everyone


def test_clone_is_independent() -> None:
    state = new(2)
    play(state, "R5", "R3", "Y6", "Y3", "Y2", "use R+Y2")
    twin = state.clone()
    play(twin, "cage 11", "pay")
    assert state.view(None)["table"]["seats"][0]["cage"] == []
    assert twin.view(None)["table"]["seats"][0]["cage"] == [11]
    play(state, "cage 11")
    assert state.view(None)["table"]["seats"][0]["cage"] == [11]


# -- tensors and rendering --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 5])
def test_observation_tensor(players: int) -> None:
    game = load_game("mice", players=players)
    state = game.new_initial_state()
    random_walk(state, random.Random(3), 40)
    for seat in range(players):
        tensor = state.observation_tensor(seat)
        assert tensor.shape == game.observation_tensor_shape() == (44 * players + 54,)
        assert tensor[:18].sum() == len(state.view(seat)["table"]["seats"][seat]["hand"])


def render_text(state: MiceState, seat: int | None) -> str:
    console = Console(width=160, record=True)
    console.print(state.game.render(state.view(seat)))
    return console.export_text()


def test_render_shows_the_table() -> None:
    state = new(3)
    play(state, "R5", "R3", "Y6", "Y3", "Y2", "use R+Y2")
    text = render_text(state, 1)
    assert "turn 1" in text and "R1=5" in text and "sum in use: 11" in text and "(you)" in text
    play(state, "cage 11")
    assert "left for the others: Y1+Y3 = 8" in render_text(state, None)


def test_render_shows_the_solo_rating() -> None:
    state = new(1)
    state.hands[0] = 1 << 12
    play(state, "R6", "R6", "Y1", "Y1", "Y1", "use R", "cage 12")
    assert "Génial !" in render_text(state, 0)


@pytest.mark.parametrize("players", [1, 3])
def test_heuristic_bot_plays_legal_moves(players: int) -> None:
    from ludotheque.bots import play_game

    game = load_game("mice", players=players)
    state = play_game(game, [game.heuristic_bot() for _ in range(players)], random.Random(5))
    assert state.is_terminal()
