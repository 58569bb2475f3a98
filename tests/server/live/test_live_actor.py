"""A live table driven in-process, with an in-memory store: the order of commit, ack and frame, the refusals that
write nothing, a database that fails, chance and bots to the end, a clock that runs out.  (The same contract is
tested over real sockets and databases in test_play.py and test_life.py; here each step is seen as it happens.)"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from ludotheque.server.botpool import BotPool
from ludotheque.server.config import Settings
from ludotheque.server.errors import Refusal
from ludotheque.server.live import Connection, LiveTable, MoveError
from ludotheque.server.services import Services
from ludotheque.server.store import ActionRow, FinishHook, SeatRow, TableRow


class FakeStore:
    """The ``Store`` methods a live table calls, in memory.  ``seen`` is shared with the connections, so that a test
    reads the order in which the store and the connections saw things; ``fail`` makes the next write raise."""

    def __init__(self, row: TableRow, seen: list[tuple[Any, ...]]) -> None:
        self.row = copy.deepcopy(row)
        self.seen = seen
        self.writes = ThreadPoolExecutor(1)
        self.actions: list[ActionRow] = []
        self.clock_state: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.fail: Exception | None = None

    def _write(self) -> None:
        if self.fail is not None:
            error, self.fail = self.fail, None
            raise error

    def append_action(self, table_id: str, seq: int, actor: int | None, action: int, notation: str,
                      client_move_id: str | None = None, clock_state: dict[str, Any] | None = None,
                      fence: int | None = None) -> None:
        self._write()
        assert table_id == self.row.id and fence is None  # a server alone: no fence and seq == len(self.actions) + 1
        self.actions.append(ActionRow(seq, -1 if actor is None else actor, action, notation, client_move_id))
        self.clock_state = clock_state
        self.seen.append(("commit", seq))

    async def append(self, *args: Any) -> None:
        await asyncio.get_running_loop().run_in_executor(self.writes, self.append_action, *args)

    def set_away(self, table_id: str, seat: int, away: bool) -> None:
        self._write()
        self.row.seats[seat].away = away

    def finish(self, table_id: str, result: dict[str, Any], hook: FinishHook | None = None,
               at: float | None = None) -> bool:
        self._write()
        self.row.status, self.result = "finished", result
        return True

    def table(self, table_id: str) -> TableRow | None:
        return copy.deepcopy(self.row)

    def fill_open_seats(self, table_id: str, bot: str) -> None:
        self._write()
        for seat in self.row.seats:
            if seat.kind in ("open", "invited"):
                seat.kind, seat.name, seat.bot = "bot", bot, bot

    def set_status(self, table_id: str, status: str) -> None:
        self._write()
        self.row.status = status


class SeenConnection(Connection):
    """A connection that notes in ``seen`` what is pushed to it (its outbox is never read)."""

    seen: list[tuple[Any, ...]]

    def push(self, message: dict[str, Any]) -> None:
        self.seen.append((message["type"], message.get("seq")))
        super().push(message)


def table_row(kinds: Sequence[str], game: str = "geier", clock: dict[str, Any] | None = None) -> TableRow:
    seats = [SeatRow(i, kind, kind, None, "random" if kind == "bot" else None) for i, kind in enumerate(kinds)]
    return TableRow("t1", game, len(kinds), {}, "a table", False, None, "waiting", "random", 0, 0.0, seats,
                    clock=clock)


def run(kinds: Sequence[str], scenario: Callable[[LiveTable, FakeStore, list[tuple[Any, ...]]], Awaitable[None]],
        clock: dict[str, Any] | None = None) -> None:
    """Start a table of ``kinds`` of seats on a fake store (no pacing, bots in a thread) and run ``scenario``."""

    async def main() -> None:
        seen: list[tuple[Any, ...]] = []
        row = table_row(kinds, clock=clock)
        store = FakeStore(row, seen)
        bots = BotPool(0)
        live = LiveTable(row, Services(Settings(pacing_s=0, step_pacing_s=0), store, bots))  # type: ignore[arg-type]
        try:
            await live.start()
            assert live.runner is not None
            await live.runner  # chance deals; the runner stops where people must act
            await scenario(live, store, seen)
        finally:
            for task in (live.runner, live.watcher):
                if task is not None:
                    task.cancel()
            bots.close()
            store.writes.shutdown()

    asyncio.run(main())


def seat_connection(live: LiveTable, seat: int | None, seen: list[tuple[Any, ...]]) -> SeenConnection:
    connection = SeenConnection(seat, send=lambda _: asyncio.sleep(0))
    connection.seen = seen
    connection.hello = True
    live.join(connection)
    return connection


def test_a_persons_move_is_committed_then_acked_then_shown() -> None:
    async def scenario(live: LiveTable, store: FakeStore, seen: list[tuple[Any, ...]]) -> None:
        me = seat_connection(live, 0, seen)
        watcher = seat_connection(live, None, seen)
        me.state_queued = watcher.state_queued = False
        seen.clear()
        seq = await live.move(me, "15", "m1", live.table.seq)
        assert seen == [("commit", seq), ("ack", seq), ("state", None), ("state", None)]
        assert store.actions[-1] == ActionRow(seq, 0, store.actions[-1].action, "15", "m1")
        assert live.table.seq == seq and live.table.log[-1].notation == "15"

    run(["human", "human"], scenario)


def test_a_resent_move_gets_the_first_ack_and_writes_nothing() -> None:
    async def scenario(live: LiveTable, store: FakeStore, seen: list[tuple[Any, ...]]) -> None:
        me = seat_connection(live, 0, seen)
        first = await live.move(me, "15", "m1", live.table.seq)
        written = list(store.actions)
        seen.clear()
        again = await live.move(me, "14", "m1", 0)  # whatever the resend says, the first move stands
        assert again == first
        assert seen == [("ack", first)]
        assert store.actions == written and live.table.seq == first

    run(["human", "human"], scenario)


@pytest.mark.parametrize(("move", "after", "code"), [
    ("sixteen", 0, "illegal"),
    ("15", 1, "stale"),  # chosen in a state the table has not reached
    ("15", -1, "stale"),  # chosen before the seat's turn began
    ("15", None, "malformed"),
])
def test_a_refused_move_writes_nothing(move: str, after: int | None, code: str) -> None:
    async def scenario(live: LiveTable, store: FakeStore, seen: list[tuple[Any, ...]]) -> None:
        me = seat_connection(live, 0, seen)
        seq = live.table.seq
        after_seq = None if after is None else seq + after
        with pytest.raises(MoveError) as refused:
            await live.move(me, move, "m1", after_seq)
        assert refused.value.code == code and isinstance(refused.value, Refusal)
        assert refused.value.frame() == {"type": "error", "code": code, "message": refused.value.message}
        assert len(store.actions) == live.table.seq == seq and not live.client_moves

    run(["human", "human"], scenario)


def test_a_move_out_of_turn_or_from_a_spectator_writes_nothing() -> None:
    async def scenario(live: LiveTable, store: FakeStore, seen: list[tuple[Any, ...]]) -> None:
        me, spectator = seat_connection(live, 0, seen), seat_connection(live, None, seen)
        await live.move(me, "15", "m1", live.table.seq)
        seq = live.table.seq
        with pytest.raises(MoveError) as refused:
            await live.move(me, "14", "m2", seq)  # seat 0 chose its card; seat 1 is to act
        assert refused.value.code == "not_your_turn" and refused.value.status == 409
        with pytest.raises(MoveError) as refused:
            await live.move(spectator, "14", "m3", seq)
        assert refused.value.code == "unauthorized"
        assert len(store.actions) == live.table.seq == seq

    run(["human", "human"], scenario)


def test_a_store_that_fails_leaves_the_live_table_as_it_stood() -> None:
    async def scenario(live: LiveTable, store: FakeStore, seen: list[tuple[Any, ...]]) -> None:
        me = seat_connection(live, 0, seen)
        assert live.clock is not None
        seq, clock = live.table.seq, copy.deepcopy(live.clock)
        me.state_queued = False
        seen.clear()
        store.fail = OperationalError("INSERT INTO actions", {}, Exception("the database is away"))
        with pytest.raises(OperationalError):
            await live.move(me, "15", "m1", seq)
        assert live.table.seq == seq and len(store.actions) == seq and not live.client_moves
        assert live.clock == clock and seen == []  # no ack, no frame, the clocks as they stood
        assert await live.move(me, "15", "m1", seq) == seq + 1  # the same move, sent again, goes through

    run(["human", "human"], scenario, clock={"move": 600, "reserve": 600})


def test_chance_and_bots_play_a_game_to_its_end() -> None:
    async def scenario(live: LiveTable, store: FakeStore, seen: list[tuple[Any, ...]]) -> None:
        assert live.table.is_over() and live.row.status == "finished"
        assert store.result is not None and store.result["returns"] == list(live.table.state.returns())
        logged = [(e.action, e.notation) for e in live.table.log]
        assert [(a.action, a.notation) for a in store.actions] == logged

    run(["bot", "open"], scenario)  # the open seat is given to the default bot at the start


def test_a_seat_out_of_time_gets_one_bot_move() -> None:
    async def scenario(live: LiveTable, store: FakeStore, seen: list[tuple[Any, ...]]) -> None:
        for _ in range(400):  # the watcher sees the deadline pass, the runner's bot moves for the seat
            if live.notices:
                break
            await asyncio.sleep(0.01)
        assert live.notices == [{"seq": live.notices[0]["seq"], "kind": "timeout", "seat": 0}]
        assert live.watcher is not None
        live.watcher.cancel()  # no more timeouts: seat 0's next turn is left to it
        timed_out = store.actions[live.notices[0]["seq"] - 1]
        assert timed_out.actor == 0 and timed_out.client_move_id is None
        assert live.clock is not None and live.clock.timeouts[0] == 1
        assert not live.row.seats[0].away and 0 not in live.due
        assert store.clock_state is not None and store.clock_state["timeouts"][0] == 1

    run(["human", "bot"], scenario, clock={"move": 0.05, "reserve": 0})
