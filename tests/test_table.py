"""The table loop: seats, chance, bots, submit/advance, the append-only log, records and restore."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludotheque.bots import RandomBot, make_bot
from ludotheque.core import (
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    RecordError,
    SeatError,
    replay_record,
)
from ludotheque.core.native import NativeState
from ludotheque.games import load_game
from ludotheque.table import Table, play_game


def geier(players: int = 2) -> Table:
    return Table(load_game("geier", players=players), [None] * players, chance_rng=random.Random(1), events=True)


def test_advance_runs_chance_and_bots_until_a_person_must_act() -> None:
    game = load_game("geier", players=3)
    table = Table(game, [None, RandomBot(), RandomBot()], chance_rng=random.Random(3))
    applied = table.advance()
    # the point card, then both bots' face-down cards: the person at seat 0 is the only one left to choose
    assert [entry.actor for entry in applied] == ["chance", 1, 2]
    assert table.waiting_for() == [0]
    assert table.advance() == []  # nothing moves until seat 0 does
    table.submit(0, "15")
    assert table.log[-1].actor == 0 and table.log[-1].notation == "15"
    assert table.advance()[0].actor == "chance"  # the next round's card


def test_the_log_is_the_record() -> None:
    table = Table(load_game("geier", players=2), [RandomBot(), RandomBot()], chance_rng=random.Random(5))
    state = table.play_out()
    record = table.record({"seed": 5})
    assert [entry.seq for entry in table.log] == list(range(1, len(state.history()) + 1))
    assert [(a["by"], a["action"]) for a in record["actions"]] == state.history()
    assert record["meta"] == {"seed": 5}
    again = replay_record(json.dumps(record), load_game)
    assert again.history() == state.history() and again.returns() == state.returns()
    restored = Table.restore(record)
    assert restored.state.history() == state.history() and restored.is_over()
    # the record the state rebuilds by replay says the same moves
    assert [a["move"] for a in state.to_record()["actions"]] == [a["move"] for a in record["actions"]]


def test_restore_refuses_a_raw_action_that_contradicts_its_notation() -> None:
    table = geier()
    table.advance()
    table.submit(0, "15")
    record = table.record()
    record["actions"][1]["action"] = 3  # says card 4, written "15"
    with pytest.raises(RecordError, match=r"action 1 .* written '4'"):
        Table.restore(record)
    record["actions"][1]["action"] = 999
    with pytest.raises(RecordError, match=r"action 1 .* not '15'"):
        Table.restore(record)
    record["actions"][1]["action"] = True
    with pytest.raises(RecordError, match="'action' must be an integer"):
        Table.restore(record)


def test_bad_submissions_name_the_problem_and_change_nothing() -> None:
    table = geier()
    table.advance()  # the point card: both seats choose now
    before = (table.state.history(), len(table.log))
    with pytest.raises(NotationError, match="not a card"):
        table.submit(0, "sixteen")
    with pytest.raises(IllegalActionError):
        table.submit(0, 40)
    with pytest.raises(SeatError):
        table.submit(7, "3")
    table.submit(0, "3")
    with pytest.raises(NotYourTurnError, match="seat 0 does not act now"):
        table.submit(0, "4")
    assert len(table.log) == before[1] + 1
    table.submit(1, "9")
    with pytest.raises(NotYourTurnError, match="to act: chance"):
        table.submit(0, "5")


def test_a_finished_table_refuses_moves() -> None:
    table = Table(load_game("geier", players=2), [RandomBot(), RandomBot()], chance_rng=random.Random(2))
    table.play_out()
    with pytest.raises(GameOverError):
        table.submit(0, "1")


def test_events_are_kept_only_when_asked() -> None:
    table = Table(load_game("geier", players=2), [RandomBot(), RandomBot()], chance_rng=random.Random(2))
    table.play_out()
    assert all(entry.events == () for entry in table.log)
    with pytest.raises(ValueError, match="events=True"):
        table.events(0)


def test_events_since_an_index_and_for_a_spectator() -> None:
    table = geier()
    table.advance()
    table.submit(1, "2")
    table.submit(0, "14")
    everything = table.events(0)
    assert [e["seq"] for e in everything] == [1, 2, 3, 3]
    assert table.events(0, since=2) == everything[2:]
    assert table.events(None, since=1)[0] == {"seq": 2, "type": "choose", "seat": 1}
    with pytest.raises(SeatError):
        table.events(5)


def test_play_game_needs_a_bot_in_every_seat_and_chance() -> None:
    game = load_game("geier", players=2)
    with pytest.raises(ValueError, match="bot in every seat"):
        play_game(game, [RandomBot(), None], random.Random(1))  # type: ignore[list-item]
    with pytest.raises(ValueError, match="chance"):
        play_game(game, [RandomBot(), RandomBot()])
    with pytest.raises(ValueError, match="2 bots"):
        play_game(game, [RandomBot()], random.Random(1))


def test_same_seeds_same_game() -> None:
    game = load_game("geier", players=3)
    first = play_game(game, [RandomBot()] * 3, random.Random(5), random.Random(6))
    second = play_game(game, [RandomBot()] * 3, random.Random(5), random.Random(6))
    assert first.history() == second.history()


def test_a_table_restores_from_its_own_log_without_validating_again() -> None:
    # what a server does at start: its log's actions were validated when first applied
    table = Table(load_game("mu", players=4), [RandomBot()] * 4, chance_rng=random.Random(8))
    for _ in range(120):
        table.step()
    logged = [(entry.actor, entry.action, entry.notation) for entry in table.log]
    again = Table.restore_logged(table.game, logged, events=True)
    assert again.state.history() == table.state.history()
    assert all(again.state.view(s) == table.state.view(s) for s in range(4))
    assert again.record() == table.record()
    assert again.events(1) and again.legal_moves(again.state.current_players()[0])


# -- the server's API: its own log applied again, forks, the one turn check --------------------------------------

GAMES = st.sampled_from([("geier", 2), ("geier", 3), ("mice", 2), ("cheese", 3), ("safaru", 2)])


def bots_game(game_id: str, players: int, seed: int, steps: int = 400) -> Table:
    table = Table(load_game(game_id, players=players), [RandomBot()] * players, chance_rng=random.Random(seed),
                  events=True)
    for _ in range(steps):
        if table.step() is None:
            break
    return table


def same_position(one: Table, other: Table) -> None:
    assert one.state.history() == other.state.history()
    assert one.log == other.log
    for seat in [None, *range(one.game.players)]:
        assert one.state.view(seat) == other.state.view(seat)
        assert one.events(seat) == other.events(seat)


@settings(max_examples=25, deadline=None)
@given(GAMES, st.integers(0, 2**32))
def test_a_log_applied_again_through_extend_logged_is_the_same_game(game: tuple[str, int], seed: int) -> None:
    table = bots_game(*game, seed)
    again = Table(table.game, [None] * table.game.players, events=True)
    applied = again.extend_logged((e.actor, e.action, e.notation) for e in table.log)
    assert applied == table.log
    same_position(again, table)
    assert again.record() == table.record() and again.is_over() == table.is_over()


@settings(max_examples=25, deadline=None)
@given(GAMES, st.integers(0, 2**32), st.floats(0, 1))
def test_a_fork_at_k_is_the_table_after_k_actions_and_moves_on_alone(
    game: tuple[str, int], seed: int, where: float,
) -> None:
    table = bots_game(*game, seed)
    k = int(where * table.seq)
    after_k = Table(table.game, [None] * table.game.players, events=True)
    for entry in table.log[:k]:
        after_k.apply_logged(entry.actor, entry.action, entry.notation)
    fork = table.fork(k)
    same_position(fork, after_k)
    whole = table.fork()
    same_position(whole, table)
    # the fork goes on: the original stands where it was
    history = table.state.history()
    if not fork.is_over():
        if fork.state.is_chance_node():
            fork.step()  # chance from the fork's own source
        else:
            seat = fork.state.current_players()[0]
            fork.submit(seat, fork.state.legal_actions(seat)[0])
        assert fork.seq == k + 1
    assert table.state.history() == history and table.seq == len(history)


def test_a_fork_is_taken_within_the_log() -> None:
    table = bots_game("geier", 2, 4, steps=5)
    with pytest.raises(ValueError, match=r"0\.\.5"):
        table.fork(6)
    with pytest.raises(ValueError):
        table.fork(-1)


def test_check_turn_is_the_turn_check_of_submit() -> None:
    table = geier()
    with pytest.raises(NotYourTurnError, match="to act: chance"):
        table.check_turn(0)  # the point card is turned first
    table.advance()
    table.check_turn(0)
    table.check_turn(1)
    with pytest.raises(SeatError):
        table.check_turn(2)
    table.submit(0, "3")
    with pytest.raises(NotYourTurnError, match="seat 0 does not act now"):
        table.check_turn(0)
    over = bots_game("geier", 2, 1)
    assert over.is_over()
    with pytest.raises(GameOverError):
        over.check_turn(0)


def test_parse_reads_a_move_as_the_acting_seats_after_the_turn_check() -> None:
    table = geier()
    with pytest.raises(NotYourTurnError):
        table.parse(0, "3")  # chance turns the point card first: no seat's notation is read
    table.advance()
    assert table.parse(0, "3") == 2 and table.parse(1, 7) == 7
    with pytest.raises(NotationError):
        table.parse(1, "16")
    seq = table.seq
    table.submit(0, "3")
    with pytest.raises(NotYourTurnError):
        table.parse(0, "4")  # seat 0 has chosen this round
    assert table.seq == seq + 1 and table.state.legal_actions(0) == []


# -- notation and structured moves, written when a reader asks -----------------------------------------------------


def random_people_game(table: Table, rng: random.Random, actions: int) -> None:
    """Random moves submitted as raw actions by people's seats, chance by ``step``."""
    for _ in range(actions):
        state = table.state
        if state.is_terminal():
            return
        if state.is_chance_node():
            table.step()
        else:
            seat = rng.choice(state.current_players())
            table.submit(seat, rng.choice(state.legal_actions(seat)))


@settings(max_examples=25, deadline=None)
@given(GAMES, st.integers(0, 2**32), st.floats(0, 1), st.permutations(range(3)))
def test_entries_read_late_say_what_entries_written_at_once_say(
    game: tuple[str, int], seed: int, where: float, order: list[int]
) -> None:
    # a table without events writes an entry's notation and move when first read, from a replay of its log;
    # whatever is read first (a fork's entry, the last, the first), it must match a table that wrote them at once
    game_id, players = game
    eager = bots_game(game_id, players, seed)  # events=True: written as applied
    lazy = Table(eager.game, [None] * players)
    lazy.extend_logged((e.actor, e.action, e.notation) for e in eager.log[: eager.seq // 2])  # notation given
    for entry in eager.log[eager.seq // 2 :]:
        if entry.actor == "chance":
            lazy.chance = lambda _, action=entry.action: action  # type: ignore[misc]
            lazy.step()
        else:
            lazy.submit(int(entry.actor), entry.action)  # raw action: notation left unwritten
    fork = lazy.fork(int(where * lazy.seq))
    random_people_game(fork, random.Random(seed), 30)
    twin = Table(fork.game, [None] * players, events=True)
    twin.extend_logged((e.actor, e.action, e.notation) for e in fork.log)
    readers = [lambda: lazy.log[-1].move, lambda: fork.log[-1].notation if fork.log else "", lambda: lazy.record()]
    for index in order:
        readers[index]()
    assert [(e.notation, e.move) for e in lazy.log] == [(e.notation, e.move) for e in eager.log]
    assert lazy.record() == eager.record()
    assert [(e.notation, e.move) for e in fork.log] == [(e.notation, e.move) for e in twin.log]


def test_random_play_without_events_writes_no_notation_until_read(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_game("geier", players=3)
    state_class = type(game.new_initial_state())
    written: list[int] = []
    original = state_class.action_to_string

    def counted(self: object, action: int, player: object = None) -> str:
        written.append(action)
        return original(self, action, player)  # type: ignore[arg-type]

    monkeypatch.setattr(state_class, "action_to_string", counted)
    table = Table(game, [RandomBot()] * 3, chance_rng=random.Random(4))
    table.play_out()
    assert written == [] and table.seq == 60
    assert table.log[29].notation  # one read writes the log up to it, once
    assert len(written) == 30
    table.record()
    assert len(written) == 60


def test_a_random_bot_is_asked_without_building_a_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """The uniform random bot reads no view (``reads_view = False``): random play builds none; a bot that reads
    one still gets the seat's real view; the heuristic on a compiled state plays the compiled one, which needs
    none."""
    game = load_game("geier", players=3)
    state_class = type(game.new_initial_state())
    built: list[object] = []
    original = state_class.view

    def counted(self: object, seat: object) -> object:
        built.append(seat)
        return original(self, seat)  # type: ignore[arg-type]

    monkeypatch.setattr(state_class, "view", counted)
    Table(game, [RandomBot()] * 3, chance_rng=random.Random(4)).play_out()
    assert built == []
    python_heuristic = game.heuristic_bot_with({})
    Table(game, [RandomBot(), RandomBot(), python_heuristic], chance_rng=random.Random(4)).play_out()
    assert built and set(built) == {2}
    built.clear()
    Table(game, [RandomBot(), make_bot("heuristic", game), RandomBot()], chance_rng=random.Random(4)).play_out()
    if issubclass(state_class, NativeState):
        assert built == []
    else:
        assert set(built) == {1}


@settings(max_examples=25, deadline=None)
@given(GAMES, st.integers(0, 2**32), st.lists(st.booleans(), min_size=5, max_size=5), st.booleans())
def test_advance_makes_the_moves_of_step_after_step(
    game: tuple[str, int], seed: int, people: list[bool], events: bool
) -> None:
    """``advance`` is ``step`` written as one loop: the same entries, the same stopping place, with people in any
    seats (where it must stop for them) and with or without events."""
    game_id, players = game
    seats: list[RandomBot | None] = [None if person else RandomBot() for person in people[:players]]
    stepped = Table(load_game(game_id, players=players), seats, chance_rng=random.Random(seed), events=events)
    advanced = Table(stepped.game, seats, chance_rng=random.Random(seed), events=events)
    seen: list[int] = []
    rng = random.Random(seed + 1)
    for _ in range(30):  # a person's move between runs of the bots, until the game ends
        while stepped.step() is not None:
            pass
        applied = advanced.advance(lambda entry: seen.append(entry.seq))
        assert [(e.actor, e.action) for e in stepped.log] == [(e.actor, e.action) for e in advanced.log]
        assert seen == [entry.seq for entry in advanced.log]
        assert applied == advanced.log[len(advanced.log) - len(applied) :]
        if stepped.is_over():
            break
        seat = stepped.waiting_for()[0]
        move = rng.choice(stepped.state.legal_actions(seat))
        stepped.submit(seat, move)
        advanced.submit(seat, move)
        seen.append(advanced.seq)
    assert stepped.log == advanced.log
