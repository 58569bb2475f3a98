"""A table in play as one actor: the only writer of its row and its state.

A ``LiveTable`` holds the table's row (``row``: seats, status, clocks), its game (``table``), its connections and
one lock.  Everything that changes them is a method of the actor, so that a change is made in one place and under
one lock, whoever asks for it (a connection, the lobby's REST routes, the clock's watcher, the bots' runner).  The
verbs live in files of their own, as module functions taking the actor, with a one-line method here so that the
actor's whole surface reads at once:

* ``moves``: a person's move, and the runner that plays chance and bots;
* ``timing``: the clocks, their timeouts, and a bot for a person who is gone or comes back;
* ``seating``: a waiting table's seats taken, its start, its closing, when it was last opened;
* ``ending``: the end of the game and the rematch.

Every action, whoever makes it, goes through ``commit``: validated against the live state, written to the
database and committed, then applied to the live state, then acknowledged (a person's move), then shown to every
connection.  A crash between the commit and the acknowledgement loses nothing: the action is restored at the next
start, and a client that resends its move gets the original acknowledgement.

What the tables of the process share (the store, the bot pool, the coach's hints, push, the settings) comes as one
``Services`` object at construction (``server/services.py``); the actor reads no module-level state.
"""

from __future__ import annotations

import asyncio
import copy
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy.exc import IntegrityError

from ludotheque.core import CHANCE, Actor, LudothequeError
from ludotheque.games import load_game
from ludotheque.server.clock import Clock
from ludotheque.server.live import ending, moves, seating, timing
from ludotheque.server.live.connection import Connection, ack
from ludotheque.server.schema import CHANCE_ACTOR
from ludotheque.server.store import CLOSED, ActionRow, Fenced, TableRow
from ludotheque.table import Table

if TYPE_CHECKING:
    from ludotheque.server.services import Services

T = TypeVar("T")


class LiveTable:
    def __init__(self, row: TableRow, services: Services, *, fence: int | None = None,
                 on_conflict: Callable[[], None] | None = None,
                 on_idle: Callable[[LiveTable], None] | None = None) -> None:
        self.row = row
        self.services = services
        # the services this actor's verbs use most, by their own names
        self.store = services.store
        self.bots = services.bots
        self.settings = services.settings
        game = load_game(row.game, players=row.players, **row.options)
        self.table = Table(game, [None] * game.players, events=True)
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.client_moves: dict[tuple[int, str], int] = {}  # (seat, client_move_id) -> seq of its action
        self.turn_started = [0] * game.players  # per seat: the seq of the state in which it last became to act
        self.runner: asyncio.Task[None] | None = None  # chance and bots (``moves.kick``)
        self.watcher: asyncio.Task[None] | None = None  # clocks and absent people (``timing.watch``)
        self.changed = asyncio.Event()  # wakes the watcher: a move, a seat taken over, a connection come or gone
        self.clock = Clock.of(row.clock, row.clock_state, game.players)
        #: what the table says besides the game's events: ``{"seq", "kind", "seat"}`` (timeout, takeover, left,
        #: reclaim), kept while the table is in memory
        self.notices: list[dict[str, Any]] = []
        self.due: set[int] = set()  # seats whose time ran out: a bot plays their next move
        self.present = [0] * game.players  # open connections per seat
        self.absent_since = [time.monotonic()] * game.players
        self.rematch: dict[str, Any] | None = None  # {"table_id", "accepted": [seats]} once offered
        #: per seat (``None``: spectators), the view and legal moves last sent, with the (seq, seat, may act) they
        #: were built for
        self._views: dict[int | None, tuple[tuple[int, int | None, bool], Any, list[Any], Any]] = {}
        #: called when another writer committed this table's next action first (a node of a site that lost its
        #: lease without knowing it yet): this copy of the table is stale and must go
        self.on_conflict = on_conflict
        #: the fencing number of this node's lease on the table (a site's node), checked by every commit; None alone
        self.fence = fence
        #: called when the game is over and when its last connection goes: the lobby lets a finished table nobody
        #: watches leave memory (``Lobby.release_later``)
        self.on_idle = on_idle
        #: work a verb started beside the table's own tasks (a chat history read), kept from the garbage collector
        self.side_tasks: set[asyncio.Task[Any]] = set()

    @property
    def id(self) -> str:
        return self.row.id

    # -- restoring -------------------------------------------------------------------------------------

    def replay(self, rows: list[ActionRow]) -> None:
        """Apply the committed actions of the database, in order (at start, or when a table is opened).  They
        were validated when first committed, so they are not validated again (``Table.apply_logged``)."""
        for row in rows:
            actor: Actor = CHANCE if row.actor == CHANCE_ACTOR else row.actor
            if row.seq != self.table.seq + 1:
                raise LudothequeError(f"table {self.id}: action {row.seq} follows {self.table.seq}")
            self.apply(actor, row.action, row.notation)
            if row.client_move_id is not None and actor != CHANCE:
                self.client_moves[(int(actor), row.client_move_id)] = row.seq
        if self.clock is not None:
            self.clock.follow(self.people_to_act())  # the turns begin again: the outage is given back

    async def reload(self) -> None:
        """Read the table's row again after the database changed its seats or status.  A table closed meanwhile
        stays closed: the lobby closes it in memory before the database says so."""
        row = await asyncio.to_thread(self.store.table, self.id)
        if row is not None and self.row.status not in CLOSED:
            self.row = row

    async def write(self, call: Callable[..., T], *args: Any) -> T:
        """Run a write of the store in its writer queue (SQLite's one writer; side by side on PostgreSQL)."""
        return await asyncio.get_running_loop().run_in_executor(self.store.writes, call, *args)

    # -- frames --------------------------------------------------------------------------------------

    def frame(self, connection: Connection) -> dict[str, Any]:
        """The state as ``connection``'s seat sees it, with the events since its last frame."""
        table, seat = self.table, connection.seat
        events = table.events(seat, since=connection.synced)
        connection.synced = table.seq
        notices = self.notices[connection.notices_seen :]
        connection.notices_seen = len(self.notices)
        acts = seat is not None and self.person_acts(seat)
        key = (table.seq, seat, acts)
        seen = self._views.get(seat)
        if seen is None or seen[0] != key:
            # the connections of one seat (every spectator's, a person's tabs) share the view of one state
            legal = table.legal_moves(seat) if seat is not None and acts else []
            help_ = table.game.seat_help(table.state, seat) if seat is not None and acts else None
            seen = self._views[seat] = (key, table.state.view(seat), legal, help_)
        return {
            "type": "state",
            "seq": table.seq,
            "status": self.row.status,
            "view": seen[1],
            "legal": seen[2],
            "help": seen[3],
            "events": events,
            "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "connected": self.present[s.seat] > 0,
                       "away": s.away, "departure": s.departure, "account": s.account} for s in self.row.seats],
            "clock": None if self.clock is None else self.clock.frame(table.game.players),
            "notices": notices,
            "rematch": self.rematch,
            # a finished rated table's rating changes by seat, and whether each rating is still provisional
            "rating_changes": (self.row.result or {}).get("rating_changes") if self.row.rated else None,
            "rating_provisional": (self.row.result or {}).get("rating_provisional") if self.row.rated else None,
        }

    def broadcast(self) -> None:
        for connection in self.connections:
            connection.push_state()

    def notice(self, kind: str, seat: int) -> None:
        self.notices.append({"seq": self.table.seq, "kind": kind, "seat": seat})

    # -- who is here ---------------------------------------------------------------------------------------

    def join(self, connection: Connection) -> None:
        self.connections.add(connection)
        connection.notices_seen = len(self.notices)
        if connection.seat is not None:
            self.present[connection.seat] += 1
            self.presence_changed()

    def leave_connection(self, connection: Connection) -> None:
        self.connections.discard(connection)
        if connection.seat is not None:
            self.present[connection.seat] -= 1
            if not self.present[connection.seat]:
                self.absent_since[connection.seat] = time.monotonic()
            self.presence_changed()
        if not self.connections:
            self.idle()

    def idle(self) -> None:
        """Tell the lobby that a finished table may have nobody left to watch it."""
        if self.row.status == "finished" and self.on_idle is not None:
            self.on_idle(self)

    def presence_changed(self) -> None:
        self.changed.set()
        self.broadcast()

    # -- who acts --------------------------------------------------------------------------------------------

    def people_to_act(self) -> list[int]:
        """The seats to act that a person plays (not bots, not seats a bot took)."""
        seats = self.row.seats
        return [s for s in self.table.state.current_players() if seats[s].kind == "human" and not seats[s].away]

    def person_acts(self, seat: int) -> bool:
        """Whether ``seat``'s person may move now (its frames offer moves): not while a bot plays the seat."""
        return self.row.status == "playing" and not self.bot_plays(seat)

    def bot_plays(self, seat: int) -> bool:
        row = self.row.seats[seat]
        return row.kind == "bot" or row.away or seat in self.due

    # -- the verbs (one file each) ------------------------------------------------------------------------

    async def move(self, connection: Connection, notation: Any, client_move_id: Any, after_seq: Any) -> int:
        """A person's move (``moves.person_move``): committed, acknowledged, then shown; its seq."""
        return await moves.person_move(self, connection, notation, client_move_id, after_seq)

    def kick(self) -> None:
        """Start the table's runner (chance and bots) unless it runs already."""
        moves.kick(self)

    def watch(self) -> None:
        """Start the table's watcher (clocks, absent people) unless it runs already."""
        timing.watch(self)

    async def take_over(self, seat: int, kind: str) -> None:
        """A bot plays ``seat`` for good (``kind``: ``left`` when the person left, ``takeover`` otherwise)."""
        await timing.take_over(self, seat, kind)

    async def give_back(self, seat: int) -> None:
        """The person takes their seat back from the bot."""
        await timing.give_back(self, seat)

    async def opened(self) -> None:
        """Someone opened the waiting table: it expires later (``seating.opened``)."""
        await seating.opened(self)

    async def start(self) -> None:
        """Every seat is taken, or the creator starts: bots fill the open seats and the game begins."""
        await seating.start(self)

    async def let_start(self, seat: int) -> None:
        """``seat`` may start the table (who offered a rematch)."""
        await seating.let_start(self, seat)

    def closing(self, status: str) -> None:
        """The waiting table closes (``expired``, ``cancelled``): shown at once, before the database says so."""
        seating.closing(self, status)

    def not_closed(self) -> None:
        """The closing could not be written: the table waits again."""
        seating.not_closed(self)

    async def finish(self) -> None:
        """The game is over: its status, result and ratings, in one transaction."""
        await ending.finish(self)

    def finish_now(self) -> None:
        """``finish`` as a plain call, for a restored table whose end was not written."""
        ending.finish_now(self)

    def show_rematch(self, rematch: dict[str, Any]) -> None:
        """The rematch as the frames show it: its table and the seats whose people took their place."""
        ending.show_rematch(self, rematch)

    # -- the one path of every action ---------------------------------------------------------------------

    async def commit(
        self, actor: int | None, action: int, client_move_id: str | None = None, mover: Connection | None = None,
        timeout: bool = False,
    ) -> int:
        """Write ``action`` to the database, then apply it, then acknowledge it to ``mover``, then tell every
        connection.  ``timeout``: a bot plays it because the seat's time ran out.  Hold ``self.lock``.  A write that
        fails leaves everything as it stood, the clocks included."""
        state = self.table.state
        who: Actor = CHANCE if actor is None else actor
        notation = state.action_to_string(action, who)
        seq = self.table.seq + 1
        clock_before = copy.deepcopy(self.clock)
        clock_state = timing.clock_after(self, actor, timeout)
        try:
            await self.store.append(self.id, seq, actor, action, notation, client_move_id, clock_state, self.fence)
        except BaseException as error:
            self.clock = clock_before
            if isinstance(error, IntegrityError | Fenced) and self.on_conflict is not None:
                self.on_conflict()
            raise
        self.apply(who, action, notation)
        if client_move_id is not None and actor is not None:
            self.client_moves[(actor, client_move_id)] = seq
            if mover is not None:
                mover.push(ack(client_move_id, seq))
        if timeout and actor is not None:
            self.due.discard(actor)
            self.notice("timeout", actor)
        if self.clock is not None:
            self.clock.follow(self.people_to_act())
        if self.table.is_over():
            await self.finish()
        elif timeout and actor is not None:
            await timing.after_timeout(self, actor)
        self.changed.set()
        self.broadcast()
        return seq

    def on_the_side(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """Run ``work`` as a task of its own, so that the connection that asked goes on being read."""
        task = asyncio.get_running_loop().create_task(work, name=f"table {self.id} {name}")
        self.side_tasks.add(task)
        task.add_done_callback(self.side_tasks.discard)

    def stop(self, code: int, reason: str) -> None:
        """The table leaves this process (another holds it now): its runner and watcher stop, and its connections
        are closed with ``code`` so that their clients reconnect wherever the table is."""
        for task in (self.runner, self.watcher):
            if task is not None:
                task.cancel()
        for connection in list(self.connections):
            connection.close(code, reason)

    def apply(self, actor: Actor, action: int, notation: str) -> None:
        """Apply an action of the table's log to the live state, noting the seq at which each seat became to act
        (a move chosen before it is stale).  Every action reaches the log validated (a person's notation parsed
        into a legal action, a bot's move checked legal, chance drawn from its outcomes), so it is applied as
        logged."""
        before = set(self.table.state.current_players())
        self.table.apply_logged(actor, action, notation)
        for seat in self.table.state.current_players():
            if seat not in before:
                self.turn_started[seat] = self.table.seq
