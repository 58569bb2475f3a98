"""The game tables in the database: their rows, seats and logged actions, and ``Store``, the calls that read and
write them (plain synchronous calls; the server runs them in worker threads).

Every write is one transaction, run by the database's writer (``writer.py``), whoever calls it; ``append_action``
is the only way a game moves forward, and ``append`` commits the actions of many tables together.  A seat's token
is kept as its SHA-256 digest (``tokens.py``), so a copy of the database does not let anyone act for a seat.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import Connection, Engine, Select, and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ludotheque.server.errors import Refusal
from ludotheque.server.limits import LimitReached
from ludotheque.server.schema import CHANCE_ACTOR, actions, game_tables, players, seats, table_fences
from ludotheque.server.store.tokens import new_id, new_token, token_digest
from ludotheque.server.store.writer import writer_of, written

T = TypeVar("T")
P = ParamSpec("P")


@dataclass
class SeatRow:
    seat: int
    kind: str  # open, invited (kept for a person offered a rematch), declined (they said no), human, bot
    name: str | None
    token_hash: str | None
    bot: str | None
    player_id: str | None = None
    away: bool = False  # a bot plays this person's seat for good
    #: how the person left it then: ``resigned``, ``left`` or ``timeout``
    departure: str | None = None
    #: the user name of the account holding the seat (its page is ``/players/NAME``); ``None`` for a guest
    account: str | None = None

    def holds(self, token: str) -> bool:
        return self.token_hash is not None and hmac.compare_digest(self.token_hash, token_digest(token))


@dataclass
class TableRow:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    name: str
    private: bool
    invite: str | None
    status: str
    default_bot: str
    creator_seat: int | None
    created_at: float
    seats: list[SeatRow]
    clock: dict[str, Any] | None = None
    clock_state: dict[str, Any] | None = None
    rated: bool = False
    reclaim: bool = True
    rematch_of: str | None = None
    rematch: str | None = None
    finished_at: float | None = None
    result: dict[str, Any] | None = None
    #: when a waiting table was last opened (``None``: never since its creation)
    opened_at: float | None = None
    #: the coach answers its seats' hints (never rated)
    hints: bool = False
    #: who created it (``player:ID`` or ``address:IP``; ``None`` for tables older than the column): the bot pool
    #: shares its work between creators
    created_by: str | None = None

    @property
    def last_opened(self) -> float:
        return self.created_at if self.opened_at is None else self.opened_at

    def seat_of(self, token: str) -> int | None:
        """The seat ``token`` belongs to, or ``None``."""
        for row in self.seats:
            if row.holds(token):
                return row.seat
        return None


@dataclass(frozen=True)
class ActionRow:
    seq: int
    actor: int  # CHANCE_ACTOR for chance
    action: int
    notation: str
    client_move_id: str | None


class SeatTaken(Refusal):
    """409: the seat asked for is not open (any more)."""

    def __init__(self, message: str) -> None:
        super().__init__(409, message)


class RematchExists(Exception):
    """The table has a rematch already (offered by someone else at the same moment)."""


class TooManyWaiting(LimitReached):
    """429: the creator has ``waiting_tables_per_player`` tables waiting already."""


class TooManyTables(LimitReached):
    """429: the creator has ``tables_per_creator`` tables waiting or in play already."""


#: The statuses of a table that waits no more and was never played: nobody opened it in time, or its creator
#: cancelled it.  Its rows stay (a rematch or a link may name it); it is no longer listed, joined or started.
CLOSED = ("expired", "cancelled")


#: The seat of a new table: its kind, its name, its bot's spec, the player who holds it.
SeatSpec = tuple[str, str | None, str | None, str | None]

#: Called inside the transaction that marks a table finished (the ratings' update); what it returns is added to the
#: table's result.
FinishHook = Callable[[Connection, "TableRow"], "dict[str, Any] | None"]


#: One action as ``append_action`` takes it: table, seq, actor, action, notation, client_move_id, clock_state,
#: fence (``None``: a server alone).
ActionValues = tuple[str, int, "int | None", int, str, "str | None", "dict[str, Any] | None", "int | None"]


class Fenced(Exception):
    """A commit of a table's log by a node whose fencing number is no longer the table's: another node took the
    table (this one was frozen or cut off past its lease).  Nothing was written."""


def _settle(done: asyncio.Future[None], outcome: BaseException | None) -> None:
    if not done.done():  # its caller may have gone (a cancelled task): the action is committed all the same
        if outcome is None:
            done.set_result(None)
        else:
            done.set_exception(outcome)


class Store:
    def __init__(self, engine: Engine, on_commit: Callable[[float], None] | None = None) -> None:
        self.engine = engine
        self.writer = writer_of(engine)
        #: the writer's threads, for a caller in the event loop (``loop.run_in_executor(store.writes, ...)``)
        self.writes: Executor = self.writer.executor
        self.commits = 0
        self.commit_seconds: deque[float] = deque(maxlen=10_000)  # the latest commits of actions, for /api/metrics
        #: told each action's commit time too (``/metrics``' histogram)
        self.on_commit = on_commit
        self._batch: list[tuple[ActionValues, asyncio.Future[None]]] = []  # actions waiting for the next commit
        self._batch_lock = threading.Lock()
        self._flushing = False  # a commit of the batch is queued or running in the writer

    async def in_writer(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``call`` (a write: a method of this store, or a function of its own) run by the writer, awaited from the
        event loop."""
        return await asyncio.get_running_loop().run_in_executor(
            self.writes, functools.partial(call, *args, **kwargs))

    # -- tables ----------------------------------------------------------------------------------------

    @written
    def create_table(
        self,
        *,
        game: str,
        players: int,
        options: dict[str, Any],
        name: str,
        private: bool,
        default_bot: str,
        seat_specs: Sequence[SeatSpec],
        creator_seat: int | None,
        clock: dict[str, Any] | None = None,
        rated: bool = False,
        reclaim: bool = True,
        rematch_of: str | None = None,
        waiting_limit: int | None = None,
        hints: bool = False,
        created_by: str | None = None,
        creator_limit: int | None = None,
    ) -> tuple[str, str | None, str | None]:
        """A new table; returns its id, its invite code (private tables) and the creator's token.  A rematch
        (``rematch_of``) is recorded on the old table in the same transaction; ``RematchExists`` if another was.
        With ``waiting_limit``, ``TooManyWaiting`` if the creator's player has that many tables waiting; with
        ``creator_limit``, ``TooManyTables`` if ``created_by`` has that many tables waiting or in play."""
        table_id = new_id()
        invite = secrets.token_urlsafe(12) if private else None
        token = new_token() if creator_seat is not None else None
        creator = seat_specs[creator_seat][3] if creator_seat is not None else None
        now = time.time()
        with self.engine.begin() as db:
            if waiting_limit is not None and creator is not None:
                self._check_waiting(db, creator, waiting_limit)
            if creator_limit is not None and created_by is not None:
                self._check_created(db, created_by, creator_limit)
            db.execute(
                insert(game_tables).values(
                    id=table_id, game=game, players=players, options=options, name=name, private=private,
                    invite=invite, status="waiting", default_bot=default_bot, creator_seat=creator_seat,
                    created_at=now, opened_at=now, clock=clock, rated=rated, reclaim=reclaim,
                    rematch_of=rematch_of, hints=hints, created_by=created_by,
                )
            )
            for seat, (kind, seat_name, bot, player_id) in enumerate(seat_specs):
                digest = token_digest(token) if token is not None and seat == creator_seat else None
                db.execute(
                    insert(seats).values(
                        table_id=table_id, seat=seat, kind=kind, name=seat_name, token_hash=digest, bot=bot,
                        player_id=player_id, away=False,
                    )
                )
            if rematch_of is not None:
                # two people asking at once get one rematch: the second transaction finds it set and rolls back
                marked = db.execute(
                    update(game_tables)
                    .where(and_(game_tables.c.id == rematch_of, game_tables.c.rematch.is_(None)))
                    .values(rematch=table_id)
                ).rowcount
                if not marked:
                    raise RematchExists(rematch_of)
        return table_id, invite, token

    @staticmethod
    def _check_waiting(db: Connection, player_id: str, limit: int) -> None:
        # the player's row is locked first (PostgreSQL; SQLite's transactions take the write lock at their start),
        # so that two creations at the same moment are counted one after the other
        db.execute(select(players.c.id).where(players.c.id == player_id).with_for_update()).first()
        waiting = db.execute(
            select(func.count()).select_from(game_tables.join(seats, seats.c.table_id == game_tables.c.id))
            .where(game_tables.c.status == "waiting", seats.c.seat == game_tables.c.creator_seat,
                   seats.c.player_id == player_id)
        ).scalar_one()
        if waiting >= limit:
            raise TooManyWaiting(f"at most {limit} tables may wait for people at once: start, or cancel, one of "
                                 f"yours first")

    @staticmethod
    def _check_created(db: Connection, created_by: str, limit: int) -> None:
        # two creations of one creator at the same moment are counted one after the other: PostgreSQL takes a lock
        # on the creator's name for the transaction; SQLite's transactions take the write lock at their start
        if db.dialect.name == "postgresql":
            db.execute(select(func.pg_advisory_xact_lock(func.hashtext(created_by))))
        count = db.execute(
            select(func.count()).select_from(game_tables)
            .where(game_tables.c.created_by == created_by, game_tables.c.status.in_(("waiting", "playing")))
        ).scalar_one()
        if count >= limit:
            raise TooManyTables(f"at most {limit} tables created by one player (or, without a player, one address) "
                                "may be waiting or in play at once: finish, leave or cancel one first")

    @written
    def close_waiting(self, table_ids: Sequence[str], status: str) -> list[str]:
        """The tables among ``table_ids`` still waiting take ``status`` (one of ``CLOSED``); those changed."""
        assert status in CLOSED
        if not table_ids:
            return []
        where = and_(game_tables.c.id.in_(list(table_ids)), game_tables.c.status == "waiting")
        with self.engine.begin() as db:
            changed = db.execute(select(game_tables.c.id).where(where)).scalars().all()
            db.execute(update(game_tables).where(where).values(status=status))
        return list(changed)

    def unopened_waiting(self, before: float) -> list[str]:
        """The tables waiting that nobody opened since ``before``."""
        with self.engine.connect() as db:
            return list(db.execute(
                select(game_tables.c.id).where(
                    game_tables.c.status == "waiting",
                    func.coalesce(game_tables.c.opened_at, game_tables.c.created_at) < before)
            ).scalars().all())

    @written
    def mark_opened(self, table_id: str, when: float) -> None:
        with self.engine.begin() as db:
            db.execute(update(game_tables).where(game_tables.c.id == table_id).values(opened_at=when))

    def table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as db:
            return self._read(db, table_id)

    @staticmethod
    def _read(db: Connection, table_id: str) -> TableRow | None:
        row = db.execute(select(game_tables).where(game_tables.c.id == table_id)).mappings().first()
        if row is None:
            return None
        seat_rows = db.execute(
            _seats_with_accounts().where(seats.c.table_id == table_id).order_by(seats.c.seat)
        ).mappings().all()
        return _table_row(row, seat_rows)

    def tables(self, status: Sequence[str], public_only: bool = False, limit: int = 200) -> list[TableRow]:
        query = select(game_tables).where(game_tables.c.status.in_(list(status)))
        if public_only:
            query = query.where(game_tables.c.private.is_(False))
        query = query.order_by(game_tables.c.created_at.desc()).limit(limit)
        with self.engine.connect() as db:
            rows = db.execute(query).mappings().all()
            ids = [row["id"] for row in rows]
            seat_rows = db.execute(
                _seats_with_accounts().where(seats.c.table_id.in_(ids)).order_by(seats.c.table_id, seats.c.seat)
            ).mappings().all() if ids else []
        by_table: dict[str, list[Any]] = {}
        for seat_row in seat_rows:
            by_table.setdefault(seat_row["table_id"], []).append(seat_row)
        return [_table_row(row, by_table.get(row["id"], [])) for row in rows]

    def table_ids(self, status: Sequence[str]) -> list[str]:
        """The ids of every table in one of ``status``."""
        with self.engine.connect() as db:
            return list(db.execute(select(game_tables.c.id).where(game_tables.c.status.in_(status))).scalars())

    @written
    def take_open_seat(self, table_id: str, name: str, player_id: str | None = None) -> tuple[int, str]:
        """The first open seat for a person named ``name``; its number and token.  ``SeatTaken`` if none."""
        token = new_token()
        with self.engine.begin() as db:
            open_seats = db.execute(
                select(seats.c.seat)
                .where(and_(seats.c.table_id == table_id, seats.c.kind == "open"))
                .order_by(seats.c.seat)
            ).scalars().all()
            for seat in open_seats:
                # the WHERE on kind makes two joiners racing for one seat get one each or a refusal, never both
                taken = db.execute(
                    update(seats)
                    .where(and_(seats.c.table_id == table_id, seats.c.seat == seat, seats.c.kind == "open"))
                    .values(kind="human", name=name, token_hash=token_digest(token), player_id=player_id)
                ).rowcount
                if taken:
                    return seat, token
        raise SeatTaken(f"table {table_id} has no open seat")

    @written
    def accept_invited_seat(self, table_id: str, seat: int) -> str:
        """The token of ``seat``, kept for its person (a rematch), who now takes it.  ``SeatTaken`` if it is not
        kept any more (taken already, or given to a bot when the game started)."""
        token = new_token()
        with self.engine.begin() as db:
            taken = db.execute(
                update(seats)
                .where(and_(seats.c.table_id == table_id, seats.c.seat == seat, seats.c.kind == "invited"))
                .values(kind="human", token_hash=token_digest(token))
            ).rowcount
        if not taken:
            raise SeatTaken(f"seat {seat} of table {table_id} is no longer kept for you")
        return token

    @written
    def decline_invited_seat(self, table_id: str, seat: int) -> None:
        """The person ``seat`` was kept for declines the rematch: the seat stays ``declined`` until a bot takes it
        when the game starts.  ``SeatTaken`` if it is not kept any more."""
        with self.engine.begin() as db:
            declined = db.execute(
                update(seats)
                .where(and_(seats.c.table_id == table_id, seats.c.seat == seat, seats.c.kind == "invited"))
                .values(kind="declined")
            ).rowcount
        if not declined:
            raise SeatTaken(f"seat {seat} of table {table_id} is no longer kept for you")

    @written
    def fill_open_seats(self, table_id: str, bot: str) -> None:
        with self.engine.begin() as db:
            db.execute(
                update(seats)
                .where(and_(seats.c.table_id == table_id, seats.c.kind.in_(["open", "invited", "declined"])))
                .values(kind="bot", name=bot, bot=bot, player_id=None)
            )

    @written
    def set_away(self, table_id: str, seat: int, away: bool, departure: str | None = None) -> None:
        """A bot plays ``seat`` for good (``away``, and how its person left: ``departure``), or no longer."""
        with self.engine.begin() as db:
            db.execute(update(seats).where(and_(seats.c.table_id == table_id, seats.c.seat == seat))
                       .values(away=away, departure=departure if away else None))

    @written
    def finish(self, table_id: str, result: dict[str, Any], hook: FinishHook | None = None,
               at: float | None = None) -> bool:
        """Mark the table finished (``at``, default now) with its result, and run ``hook`` (the ratings) in the same
        transaction, once: False when it was finished already (a restart that mends a crash after the last
        action)."""
        with self.engine.begin() as db:
            changed = db.execute(
                update(game_tables)
                .where(and_(game_tables.c.id == table_id, game_tables.c.finished_at.is_(None)))
                .values(status="finished", finished_at=time.time() if at is None else at, result=result)
            ).rowcount
            if not changed:
                return False
            if hook is not None:
                row = self._read(db, table_id)
                assert row is not None
                more = hook(db, row)
                if more:  # what the hook adds to the result (the rating changes)
                    db.execute(update(game_tables).where(game_tables.c.id == table_id)
                               .values(result={**result, **more}))
        return True

    @written
    def set_creator(self, table_id: str, seat: int) -> None:
        with self.engine.begin() as db:
            db.execute(update(game_tables).where(game_tables.c.id == table_id).values(creator_seat=seat))

    @written
    def set_status(self, table_id: str, status: str) -> None:
        with self.engine.begin() as db:
            db.execute(update(game_tables).where(game_tables.c.id == table_id).values(status=status))

    # -- the log -----------------------------------------------------------------------------------------

    @written
    def take_fence(self, table_id: str) -> int:
        """The table's next fencing number, for the node that just took its lease: from now on a commit with an
        older number (the node that held it before) writes nothing.  Taken before the table is read back from the
        log, it waits for a commit of the old holder under way, whose action is then read."""
        for _ in range(3):
            try:
                with self.engine.begin() as db:
                    fence = db.execute(update(table_fences).where(table_fences.c.table_id == table_id)
                                       .values(fence=table_fences.c.fence + 1)
                                       .returning(table_fences.c.fence)).scalar()
                    if fence is None:
                        db.execute(insert(table_fences).values(table_id=table_id, fence=1))
                        fence = 1
                    return int(fence)
            except IntegrityError:  # another node inserted the first number at the same moment: count on it
                continue
        raise Fenced(f"table {table_id}: its fencing number could not be taken")

    @written
    def append_action(
        self, table_id: str, seq: int, actor: int | None, action: int, notation: str,
        client_move_id: str | None = None,
        clock_state: dict[str, Any] | None = None, fence: int | None = None,
    ) -> None:
        """Commit one action (``actor`` ``None`` for chance) as row ``seq``, with the clocks as they stand after it
        (tables with a clock).  ``IntegrityError`` if the row exists (two servers writing one table); ``Fenced``
        if ``fence`` is no longer the table's (another node holds it)."""
        self._commit_actions([(table_id, seq, actor, action, notation, client_move_id, clock_state, fence)])

    async def append(
        self, table_id: str, seq: int, actor: int | None, action: int, notation: str,
        client_move_id: str | None = None,
        clock_state: dict[str, Any] | None = None, fence: int | None = None,
    ) -> None:
        """``append_action`` from the event loop, committed together with the actions other tables append at the
        same moment (a group commit): one transaction and one sync to disk for all of them, each caller resumed
        once its own action is durable.  Alone, an action is committed at once; under load, the actions that
        arrive while one commit runs share the next.  A batch that fails is committed again action by action, so
        that each caller gets its own answer (the row another server wrote first, say)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        with self._batch_lock:
            self._batch.append(((table_id, seq, actor, action, notation, client_move_id, clock_state, fence), done))
            start, self._flushing = not self._flushing, True
        if start:
            self.writes.submit(self._flush, loop)
        await done

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        """Commit the actions waiting, in the writer; then hand the writer back (other writes wait in its queue
        too) and come again if more arrived meanwhile."""
        with self._batch_lock:
            batch, self._batch = self._batch, []
        outcomes: list[BaseException | None]
        try:
            self._commit_actions([row for row, _ in batch])
            outcomes = [None] * len(batch)
        except Exception as error:
            if len(batch) == 1:
                outcomes = [error]
            else:
                outcomes = []
                for row, _ in batch:
                    try:
                        self._commit_actions([row])
                        outcomes.append(None)
                    except Exception as alone:
                        outcomes.append(alone)
        for (_, done), outcome in zip(batch, outcomes, strict=True):
            loop.call_soon_threadsafe(_settle, done, outcome)
        with self._batch_lock:
            if self._batch:
                self.writes.submit(self._flush, loop)
            else:
                self._flushing = False

    def _commit_actions(self, rows: list[ActionValues]) -> None:
        started = time.perf_counter()
        now = time.time()
        with self.engine.begin() as db:
            db.execute(insert(actions), [
                {"table_id": table_id, "seq": seq, "actor": CHANCE_ACTOR if actor is None else actor,
                 "action": action, "notation": notation, "client_move_id": client_move_id, "created_at": now}
                for table_id, seq, actor, action, notation, client_move_id, _, _ in rows
            ])
            for table_id, _, _, _, _, _, clock_state, _ in rows:
                if clock_state is not None:
                    db.execute(update(game_tables).where(game_tables.c.id == table_id).values(clock_state=clock_state))
            for table_id, *_, fence in rows:
                # last, in the same transaction, however long the writes before it waited: the fence's row stays
                # locked until the commit, so a node that takes the table meanwhile waits, then reads this action
                # back; a node that took it before makes this commit write nothing
                if fence is not None and db.execute(
                        update(table_fences).where(and_(table_fences.c.table_id == table_id,
                                                        table_fences.c.fence == fence))
                        .values(fence=fence)).rowcount != 1:
                    raise Fenced(f"table {table_id}: another node holds it now")
        self.commits += len(rows)
        seconds = time.perf_counter() - started
        for _ in rows:
            self.commit_seconds.append(seconds)
            if self.on_commit is not None:
                self.on_commit(seconds)

    def actions(self, table_id: str) -> list[ActionRow]:
        with self.engine.connect() as db:
            rows = db.execute(
                select(actions).where(actions.c.table_id == table_id).order_by(actions.c.seq)
            ).mappings().all()
        return [ActionRow(r["seq"], r["actor"], r["action"], r["notation"], r["client_move_id"]) for r in rows]

    def action_count(self, table_id: str) -> int:
        with self.engine.connect() as db:
            count = db.execute(select(func.count()).where(actions.c.table_id == table_id)).scalar_one()
        return int(count)


def _seats_with_accounts() -> Select[Any]:
    """Seats with the user name of the account that holds each (``None``: a guest, a bot, nobody), for the links
    to player pages."""
    return (select(seats, players.c.username.label("account"))
            .join(players, players.c.id == seats.c.player_id, isouter=True))


def _table_row(row: Any, seat_rows: Sequence[Any]) -> TableRow:
    return TableRow(
        id=row["id"], game=row["game"], players=row["players"], options=dict(row["options"]), name=row["name"],
        private=bool(row["private"]), invite=row["invite"], status=row["status"], default_bot=row["default_bot"],
        creator_seat=row["creator_seat"], created_at=row["created_at"],
        seats=[SeatRow(s["seat"], s["kind"], s["name"], s["token_hash"], s["bot"], s["player_id"], bool(s["away"]),
                       s["departure"], s["account"])
               for s in seat_rows],
        clock=row["clock"], clock_state=row["clock_state"], rated=bool(row["rated"]), reclaim=bool(row["reclaim"]),
        rematch_of=row["rematch_of"], rematch=row["rematch"], finished_at=row["finished_at"], result=row["result"],
        opened_at=row["opened_at"], hints=bool(row["hints"]), created_by=row["created_by"],
    )

