"""What the server keeps in its database, as plain synchronous calls (the server runs them in worker threads).

Every write is one transaction; ``append_action`` is the only way a game moves forward.  A seat's token is kept
as its SHA-256 digest, so a copy of the database does not let anyone act for a seat.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import deque
from collections.abc import Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ludotheque.server.schema import CHANCE_ACTOR, actions, game_tables, seats


def new_id() -> str:
    return secrets.token_urlsafe(9)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class SeatRow:
    seat: int
    kind: str  # open, human, bot
    name: str | None
    token_hash: str | None
    bot: str | None

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


class SeatTaken(Exception):
    """No open seat is left."""


class Store:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # SQLite has one writer at a time: writes wait in one thread's queue instead of contending for the file's
        # lock (whose retries sleep); PostgreSQL takes them side by side
        sqlite = engine.dialect.name == "sqlite"
        self.writes: Executor = ThreadPoolExecutor(1 if sqlite else 8, thread_name_prefix="ludotheque-db")
        self.commits = 0
        self.commit_seconds: deque[float] = deque(maxlen=10_000)  # the latest commits of actions, for /api/metrics

    # -- tables ----------------------------------------------------------------------------------------

    def create_table(
        self,
        *,
        game: str,
        players: int,
        options: dict[str, Any],
        name: str,
        private: bool,
        default_bot: str,
        seat_specs: Sequence[tuple[str, str | None, str | None]],  # (kind, name, bot) per seat
        creator_seat: int | None,
    ) -> tuple[str, str | None, str | None]:
        """A new table; returns its id, its invite code (private tables) and the creator's token."""
        table_id = new_id()
        invite = secrets.token_urlsafe(12) if private else None
        token = new_token() if creator_seat is not None else None
        with self.engine.begin() as db:
            db.execute(
                insert(game_tables).values(
                    id=table_id, game=game, players=players, options=options, name=name, private=private,
                    invite=invite, status="waiting", default_bot=default_bot, creator_seat=creator_seat,
                    created_at=time.time(),
                )
            )
            for seat, (kind, seat_name, bot) in enumerate(seat_specs):
                digest = token_digest(token) if token is not None and seat == creator_seat else None
                db.execute(
                    insert(seats).values(
                        table_id=table_id, seat=seat, kind=kind, name=seat_name, token_hash=digest, bot=bot
                    )
                )
        return table_id, invite, token

    def table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as db:
            row = db.execute(select(game_tables).where(game_tables.c.id == table_id)).mappings().first()
            if row is None:
                return None
            seat_rows = db.execute(
                select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat)
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
                select(seats).where(seats.c.table_id.in_(ids)).order_by(seats.c.table_id, seats.c.seat)
            ).mappings().all() if ids else []
        by_table: dict[str, list[Any]] = {}
        for seat_row in seat_rows:
            by_table.setdefault(seat_row["table_id"], []).append(seat_row)
        return [_table_row(row, by_table.get(row["id"], [])) for row in rows]

    def take_open_seat(self, table_id: str, name: str) -> tuple[int, str]:
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
                    .values(kind="human", name=name, token_hash=token_digest(token))
                ).rowcount
                if taken:
                    return seat, token
        raise SeatTaken(f"table {table_id} has no open seat")

    def fill_open_seats(self, table_id: str, bot: str) -> None:
        with self.engine.begin() as db:
            db.execute(
                update(seats)
                .where(and_(seats.c.table_id == table_id, seats.c.kind == "open"))
                .values(kind="bot", name=bot, bot=bot)
            )

    def set_status(self, table_id: str, status: str) -> None:
        with self.engine.begin() as db:
            db.execute(update(game_tables).where(game_tables.c.id == table_id).values(status=status))

    # -- the log -----------------------------------------------------------------------------------------

    def append_action(
        self, table_id: str, seq: int, actor: int | None, action: int, notation: str,
        client_move_id: str | None = None,
    ) -> None:
        """Commit one action (``actor`` ``None`` for chance) as row ``seq``.  ``IntegrityError`` if the row exists
        (two servers writing one table)."""
        started = time.perf_counter()
        with self.engine.begin() as db:
            db.execute(
                insert(actions).values(
                    table_id=table_id, seq=seq, actor=CHANCE_ACTOR if actor is None else actor, action=action,
                    notation=notation, client_move_id=client_move_id, created_at=time.time(),
                )
            )
        self.commits += 1
        self.commit_seconds.append(time.perf_counter() - started)

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


def _table_row(row: Any, seat_rows: Sequence[Any]) -> TableRow:
    return TableRow(
        id=row["id"], game=row["game"], players=row["players"], options=dict(row["options"]), name=row["name"],
        private=bool(row["private"]), invite=row["invite"], status=row["status"], default_bot=row["default_bot"],
        creator_seat=row["creator_seat"], created_at=row["created_at"],
        seats=[SeatRow(s["seat"], s["kind"], s["name"], s["token_hash"], s["bot"]) for s in seat_rows],
    )


__all__ = ["ActionRow", "IntegrityError", "SeatRow", "SeatTaken", "Store", "TableRow", "token_digest"]
