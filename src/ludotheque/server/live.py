"""Tables in play: their live state, their connections, and the one path by which an action is applied.

Every action, whoever makes it, goes through ``LiveTable._commit``: validated against the live state, written
to the database and committed, then applied to the live state, then acknowledged (a person's move), then shown to
every connection.  A crash between the commit and the acknowledgement loses nothing: the action is restored at
the next start, and a client that resends its move gets the original acknowledgement.

Each connection has one writer task and an outbox, so its messages leave in order; a state frame in the outbox
is built when it is sent, from that connection's seat only (``frame``), and several changes share one frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import os
import secrets
import signal
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from ludotheque.core import CHANCE, Actor, LudothequeError, load_game, sample_chance
from ludotheque.server import ratings
from ludotheque.server.botpool import BotPool, BotRequest, history_of
from ludotheque.server.clock import Clock
from ludotheque.server.config import TIMEOUTS_BEFORE_TAKEOVER, Settings
from ludotheque.server.schema import CHANCE_ACTOR
from ludotheque.server.store import ActionRow, Store, TableRow
from ludotheque.table import Table

log = logging.getLogger("ludotheque.server")

#: A state frame in a connection's outbox: built when it is sent, so that it shows the latest state.
STATE_FRAME: dict[str, Any] = {"type": "state"}

#: Chance is drawn from the operating system's cryptographic source: nobody can predict a deal from earlier ones.
_chance_source = secrets.SystemRandom()


class MoveError(Exception):
    """A move refused; ``code`` is the protocol's error code (``illegal``, ``not_your_turn``...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def frame(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message}


_commits_before_crash: list[int] = []


def crash_after_commit(settings: Settings) -> None:
    """The fault point between a person's committed move and its ack (``LUDOTHEQUE_CRASH_AFTER_COMMIT=N``): the
    process kills itself with SIGKILL after the Nth such commit, as a crash at the worst moment would.  The tests
    use it to show that the client's resend gets the original ack and the move is applied once."""
    if not _commits_before_crash:
        _commits_before_crash.append(settings.crash_after_commit)
    _commits_before_crash[0] -= 1
    if _commits_before_crash[0] <= 0:
        os.kill(os.getpid(), signal.SIGKILL)


def ack(client_move_id: str, seq: int) -> dict[str, Any]:
    return {"type": "ack", "client_move_id": client_move_id, "seq": seq}


class TokenBucket:
    """At most ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float = 20.0, burst: float = 40.0) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


#: WebSocket close codes for a connection the server ends: it fell too far behind reading its messages (1013, "try
#: again later"), or it went on sending far past its rate limit (1008, policy violation).
CLOSE_FALLING_BEHIND = 1013
CLOSE_FLOODING = 1008
#: Messages refused in a row for the rate limit after which the connection is closed (1008).
FLOOD_LIMIT = 200


@dataclass(eq=False)
class Connection:
    """One WebSocket: a seat (``None`` for a spectator) and the messages waiting to be sent to it.

    The outbox is bounded (``limit``): a client that stops reading cannot make the server hold its messages
    without end.  When it is full the connection is closed (``closing``), never blocked on, since the table's
    other connections share the event loop."""

    seat: int | None
    send: Callable[[dict[str, Any]], Awaitable[None]]
    limit: int = 256
    outbox: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    synced: int = 0  # the table's seq up to which this connection has been sent events
    hello: bool = False  # frames start once the client has said which seq it has (``hello``)
    state_queued: bool = False
    bucket: TokenBucket = field(default_factory=TokenBucket)
    refused_in_a_row: int = 0  # messages refused for the rate limit since the last one read
    notices_seen: int = 0  # how many of the table's notices this connection has been sent
    closing: asyncio.Event = field(default_factory=asyncio.Event)
    close_code: int = 1000
    close_reason: str = ""

    def push(self, message: dict[str, Any]) -> None:
        if self.outbox.qsize() >= self.limit:
            self.close(CLOSE_FALLING_BEHIND, "too many messages waiting to be read: reconnect and say hello")
            return
        self.outbox.put_nowait(message)

    def push_state(self) -> None:
        if self.hello and not self.state_queued:
            self.state_queued = True
            self.push(STATE_FRAME)

    def close(self, code: int, reason: str) -> None:
        """Ask the connection's handler to close it (the first reason given is the one sent)."""
        if not self.closing.is_set():
            self.close_code, self.close_reason = code, reason
            self.closing.set()


class LiveTable:
    def __init__(self, row: TableRow, store: Store, bots: BotPool, settings: Settings) -> None:
        self.row = row
        self.store = store
        self.bots = bots
        self.settings = settings
        game = load_game(row.game, players=row.players, **row.options)
        self.table = Table(game, [None] * game.players, events=True)
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.client_moves: dict[tuple[int, str], int] = {}  # (seat, client_move_id) -> seq of its action
        self.turn_started = [0] * game.players  # per seat: the seq of the state in which it last became to act
        self._runner: asyncio.Task[None] | None = None
        self.clock = Clock.of(row.clock, row.clock_state, game.players)
        #: what the table says besides the game's events: ``{"seq", "kind", "seat"}`` (timeout, takeover, left,
        #: reclaim), kept while the table is in memory
        self.notices: list[dict[str, Any]] = []
        self.due: set[int] = set()  # seats whose time ran out: a bot plays their next move
        self.present = [0] * game.players  # open connections per seat
        self.absent_since = [time.monotonic()] * game.players
        self.rematch: dict[str, Any] | None = None  # {"table_id", "accepted": [seats]} once offered
        self._changed = asyncio.Event()
        self._watcher: asyncio.Task[None] | None = None

    @property
    def id(self) -> str:
        return self.row.id

    # -- restoring -------------------------------------------------------------------------------------

    def replay(self, rows: list[ActionRow]) -> None:
        """Apply the committed actions of the database, in order (at start, or when a table is opened).  They
        were validated when first committed, so they are not validated again (``Table.restore_logged``)."""
        for row in rows:
            actor: Actor = CHANCE if row.actor == CHANCE_ACTOR else row.actor
            if row.seq != self.table.seq + 1:
                raise LudothequeError(f"table {self.id}: action {row.seq} follows {self.table.seq}")
            self._apply(actor, row.action, row.notation)
            if row.client_move_id is not None and actor != CHANCE:
                self.client_moves[(int(actor), row.client_move_id)] = row.seq
        if self.clock is not None:
            self.clock.follow(self._people_to_act())  # the turns begin again: the outage is given back

    # -- frames --------------------------------------------------------------------------------------

    def frame(self, connection: Connection) -> dict[str, Any]:
        """The state as ``connection``'s seat sees it, with the events since its last frame."""
        table, seat = self.table, connection.seat
        events = table.events(seat, since=connection.synced)
        connection.synced = table.seq
        notices = self.notices[connection.notices_seen :]
        connection.notices_seen = len(self.notices)
        return {
            "type": "state",
            "seq": table.seq,
            "status": self.row.status,
            "view": table.state.view(seat),
            "legal": table.legal_moves(seat) if seat is not None and self._person_acts(seat) else [],
            "events": events,
            "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "connected": self.present[s.seat] > 0,
                       "away": s.away} for s in self.row.seats],
            "clock": None if self.clock is None else self.clock.frame(table.game.players),
            "notices": notices,
            "rematch": self.rematch,
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
            self._presence_changed()

    def leave_connection(self, connection: Connection) -> None:
        self.connections.discard(connection)
        if connection.seat is not None:
            self.present[connection.seat] -= 1
            if not self.present[connection.seat]:
                self.absent_since[connection.seat] = time.monotonic()
            self._presence_changed()

    def _presence_changed(self) -> None:
        self._changed.set()
        self.broadcast()

    def _people_to_act(self) -> list[int]:
        """The seats to act that a person plays (not bots, not seats a bot took)."""
        seats = self.row.seats
        return [s for s in self.table.state.current_players() if seats[s].kind == "human" and not seats[s].away]

    def _person_acts(self, seat: int) -> bool:
        """Whether ``seat``'s person may move now (its frames offer moves): not while a bot plays the seat."""
        return self.row.status == "playing" and not self._bot_plays(seat)

    def _bot_plays(self, seat: int) -> bool:
        row = self.row.seats[seat]
        return row.kind == "bot" or row.away or seat in self.due

    # -- a bot for a person who is gone ----------------------------------------------------------------------

    async def take_over(self, seat: int, kind: str) -> None:
        """A bot plays ``seat`` for good (``kind``: ``left`` when the person left, ``takeover`` otherwise)."""
        async with self.lock:
            if self.row.seats[seat].away or self.row.status != "playing":
                return
            await asyncio.get_running_loop().run_in_executor(self.store.writes, self.store.set_away, self.id, seat,
                                                             True)
            self.row.seats[seat].away = True
            self.notice(kind, seat)
            if self.clock is not None:
                self.clock.follow(self._people_to_act())
        self._changed.set()
        self.broadcast()
        self.kick()

    async def give_back(self, seat: int) -> None:
        """The person takes their seat back from the bot."""
        async with self.lock:
            if not self.row.seats[seat].away:
                return
            await asyncio.get_running_loop().run_in_executor(self.store.writes, self.store.set_away, self.id, seat,
                                                             False)
            self.row.seats[seat].away = False
            self.due.discard(seat)
            self.notice("reclaim", seat)
            if self.clock is not None:
                self.clock.timeouts[seat] = 0
                self.clock.follow(self._people_to_act())
        self._changed.set()
        self.broadcast()

    def watch(self) -> None:
        """Start the table's watcher (clocks, absent people) unless it runs already."""
        if self.row.status == "playing" and (self._watcher is None or self._watcher.done()):
            self._watcher = asyncio.create_task(self._watch(), name=f"table {self.id} clocks")

    async def _watch(self) -> None:
        while self.row.status == "playing":
            self._changed.clear()
            now = time.monotonic()
            wake = now + 3600.0
            for seat in self._people_to_act():
                if seat in self.due:
                    continue
                if self.clock is not None:
                    deadline = self.clock.deadline(seat)
                    if deadline is not None and deadline <= now:
                        self.due.add(seat)  # a bot plays this one move; the runner says so when it commits
                        self.broadcast()  # the seat's frames stop offering moves
                        self.kick()
                        continue
                elif not self.present[seat]:
                    deadline = self.absent_since[seat] + self.settings.absent_s
                    if deadline <= now:
                        await self.take_over(seat, "takeover")
                        continue
                else:
                    continue
                if deadline is not None:
                    wake = min(wake, deadline)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout=max(0.01, wake - time.monotonic()))

    # -- a person's move -----------------------------------------------------------------------------------

    async def move(self, connection: Connection, notation: Any, client_move_id: Any, after_seq: Any) -> int:
        """Validate, commit and apply the move of ``connection``'s seat, acknowledge it on that connection, then
        show it to every connection; the seq of its action (the first one, for a resent ``client_move_id``).
        ``MoveError`` names a refusal; nothing changes then."""
        seat = connection.seat
        if seat is None:
            raise MoveError("unauthorized", "a spectator cannot move: connect with a seat's token")
        if not isinstance(notation, str) or not isinstance(client_move_id, str) or not 0 < len(client_move_id) <= 64:
            raise MoveError("malformed", "a move is {\"type\": \"move\", \"move\": NOTATION, \"client_move_id\": "
                            "TEXT (1 to 64 characters), \"after_seq\": N}")
        if isinstance(after_seq, bool) or not isinstance(after_seq, int):
            raise MoveError("malformed", "after_seq must be the seq of the state the move was chosen in")
        async with self.lock:
            known = self.client_moves.get((seat, client_move_id))
            if known is not None:
                connection.push(ack(client_move_id, known))  # a resent move: the first ack, never a second action
                return known
            state = self.table.state
            if self.row.status != "playing":
                raise MoveError("not_your_turn", f"the table is {self.row.status}, not playing")
            if seat not in state.current_players():
                acting = ", ".join(str(s) for s in state.current_players()) or "nobody (the game moves on)"
                raise MoveError("not_your_turn", f"seat {seat} does not act now (to act: {acting})")
            if self.row.seats[seat].away:
                raise MoveError("not_your_turn", f"a bot plays seat {seat} now: take the seat back first")
            if seat in self.due:
                raise MoveError("not_your_turn", f"seat {seat}'s time ran out: a bot plays this move")
            if after_seq < self.turn_started[seat] or after_seq > self.table.seq:
                raise MoveError("stale", f"the move was chosen in the state of seq {after_seq}; seat {seat} has "
                                f"been to act since seq {self.turn_started[seat]} (the table is at {self.table.seq})")
            try:
                action = state.string_to_action(notation, seat)
            except LudothequeError as error:
                raise MoveError("illegal", str(error)) from None
            seq = await self._commit(seat, action, client_move_id, connection)
        self.kick()
        return seq

    # -- chance and bots ------------------------------------------------------------------------------------

    def kick(self) -> None:
        """Start the table's runner (chance and bots) unless it runs already."""
        if self._runner is None or self._runner.done():
            self._runner = asyncio.create_task(self._run(), name=f"table {self.id}")

    async def _run(self) -> None:
        delay = 0.5
        while self.row.status == "playing":
            try:
                if not await self._automatic_step():
                    return
                delay = 0.5
            except SQLAlchemyError:
                # the database is away (restarted, locked): nothing was applied; try again, less and less often
                log.warning("table %s: the database is unavailable; retrying in %.1f s", self.id, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)
            except Exception:
                log.exception("table %s: the runner stopped", self.id)
                raise

    async def _automatic_step(self) -> bool:
        """Apply the next chance action or bot move; False when people must act or the game is over."""
        async with self.lock:
            state = self.table.state
            if state.is_terminal():
                return False
            if state.is_chance_node():
                await self._commit(None, sample_chance(state, _chance_source))
                return True
            bot_seats = [s for s in state.current_players() if self._bot_plays(s)]
            if not bot_seats:
                return False  # people must act; their moves start the runner again
            seat = bot_seats[0]
            timeout = seat in self.due
            spec = self.row.seats[seat].bot if self.row.seats[seat].kind == "bot" else self.row.default_bot
            request = BotRequest(
                self.id, self.row.game, self.row.players, self.row.options, history_of(self.table), seat,
                spec or "medium", secrets.randbits(63), self.settings.bot_time_cap_s,
            )
        if self.settings.pacing_s and not timeout:
            await asyncio.sleep(self.settings.pacing_s)
        action = await self.bots.choose(request)
        async with self.lock:
            # people may have moved while the bot thought (a simultaneous decision), or taken their seat back: its
            # move still counts if a bot still plays the seat, the seat still acts and the move is still legal
            state = self.table.state
            if self._bot_plays(seat) and seat in state.current_players() and action in state.legal_actions(seat):
                await self._commit(seat, action, timeout=timeout and seat in self.due)
        return True

    # -- the one path of every action ---------------------------------------------------------------------

    async def _commit(
        self, actor: int | None, action: int, client_move_id: str | None = None, mover: Connection | None = None,
        timeout: bool = False,
    ) -> int:
        """Write ``action`` to the database, then apply it, then acknowledge it to ``mover``, then tell every
        connection.  ``timeout``: a bot plays it because the seat's time ran out.  Hold ``self.lock``."""
        state = self.table.state
        who: Actor = CHANCE if actor is None else actor
        notation = state.action_to_string(action, who)
        seq = self.table.seq + 1
        clock_before = copy.deepcopy(self.clock)
        clock_state = self._clock_after(actor, timeout)
        try:
            await asyncio.get_running_loop().run_in_executor(
                self.store.writes, self.store.append_action, self.id, seq, actor, action, notation, client_move_id,
                clock_state,
            )
        except BaseException:
            self.clock = clock_before  # nothing was written: the clocks stand as they stood
            raise
        if mover is not None and self.settings.crash_after_commit:
            crash_after_commit(self.settings)
        self._apply(who, action)
        if client_move_id is not None and actor is not None:
            self.client_moves[(actor, client_move_id)] = seq
            if mover is not None:
                mover.push(ack(client_move_id, seq))
        if timeout and actor is not None:
            self.due.discard(actor)
            self.notice("timeout", actor)
        if self.clock is not None:
            self.clock.follow(self._people_to_act())
        if self.table.is_over():
            await self.finish()
        elif timeout and actor is not None and self.clock is not None and (
            self.clock.timeouts[actor] >= TIMEOUTS_BEFORE_TAKEOVER and not self.row.seats[actor].away
        ):
            await asyncio.get_running_loop().run_in_executor(self.store.writes, self.store.set_away, self.id, actor,
                                                             True)
            self.row.seats[actor].away = True
            self.notice("takeover", actor)
        self._changed.set()
        self.broadcast()
        return seq

    def _clock_after(self, actor: int | None, timeout: bool) -> dict[str, Any] | None:
        """Update the clocks for ``actor``'s move; what to store with the action (``None`` without a clock)."""
        if self.clock is None:
            return None
        if actor is not None:
            if timeout:
                self.clock.timed_out(actor)
            else:
                self.clock.moved(actor)
        return self.clock.state()

    async def finish(self) -> None:
        """The game is over: its status, result and (rated tables) ratings, in one transaction."""
        await asyncio.get_running_loop().run_in_executor(self.store.writes, self.finish_now)

    def finish_now(self) -> None:
        """``finish``, as a plain call: also run when a restored table's last action was committed and its end was
        not (a crash between the two); the store does it once."""
        self.row.status = "finished"
        state = self.table.state
        returns = list(state.returns())
        result: dict[str, Any] = {"returns": returns, "winners": list(state.winners())}
        lower_wins = self.table.game.score_order() == "lower"

        def rate(db: Any, row: TableRow) -> None:
            ratings.rate_finished(db, row, returns, lower_wins)

        self.store.finish(self.id, result, rate)

    def _apply(self, actor: Actor, action: int, logged: str | None = None) -> None:
        before = set(self.table.state.current_players())
        self.table._apply(actor, action, logged)
        for seat in self.table.state.current_players():
            if seat not in before:
                self.turn_started[seat] = self.table.seq
