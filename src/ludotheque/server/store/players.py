"""The players in the database: guests (a name and a secret token) and accounts, their sessions and one-time
login codes, their preferences.  The players' routes (``server/players.py``) call them, and so does every route
that must know who is asking.

Every secret is kept as its SHA-256 digest (``player_tokens``), like seats' tokens, so a copy of the database lets
nobody in; a password is hashed with argon2.  User names are kept in lower case, so that the column's unique
constraint compares them without regard to case on every database, even for two requests at the same moment.

These are plain synchronous calls on an engine (the routes run them in worker threads); their writes go through
the database's writer (``writer.write``); those that depend on the time take ``now`` so that expiry is tested
without waiting.  A refusal is a ``Refusal``, raised where the problem is found.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ludotheque.server.errors import Refusal
from ludotheque.server.schema import player_tokens, players
from ludotheque.server.store.tokens import new_id, new_token, token_digest
from ludotheque.server.store.writer import write

#: how long a code from "log in on another device" stays valid
LINK_TTL_S = 15 * 60

_hasher = PasswordHasher()


@dataclass(frozen=True)
class PlayerRow:
    id: str
    name: str
    username: str | None
    preferences: dict[str, Any]

    @property
    def guest(self) -> bool:
        return self.username is None


BAD_LOGIN = "the user name or the password is wrong"


def new_guest(engine: Engine, name: str) -> tuple[PlayerRow, str]:
    """A new guest named ``name`` and its session token."""
    player_id, token, now = new_id(), new_token(), time.time()

    def add(db: Connection) -> None:
        db.execute(insert(players).values(id=player_id, name=name, username=None, password_hash=None,
                                          preferences={}, created_at=now))
        db.execute(insert(player_tokens).values(token_hash=token_digest(token), player_id=player_id,
                                                kind="session", created_at=now, expires_at=None))

    write(engine, add)
    return PlayerRow(player_id, name, None, {}), token


def player_by_token(engine: Engine, token: str) -> PlayerRow | None:
    """The player whose session ``token`` is, or ``None``."""
    query = (select(players).join(player_tokens, player_tokens.c.player_id == players.c.id)
             .where(player_tokens.c.token_hash == token_digest(token), player_tokens.c.kind == "session"))
    with engine.connect() as db:
        row = db.execute(query).mappings().first()
    return None if row is None else _player(row)


def player_by_id(engine: Engine, player_id: str) -> PlayerRow | None:
    with engine.connect() as db:
        row = db.execute(select(players).where(players.c.id == player_id)).mappings().first()
    return None if row is None else _player(row)


def _player(row: Any) -> PlayerRow:
    return PlayerRow(row["id"], row["name"], row["username"], dict(row["preferences"] or {}))


def rename(engine: Engine, player_id: str, name: str) -> PlayerRow:
    write(engine, lambda db: db.execute(update(players).where(players.c.id == player_id).values(name=name)))
    return _must(player_by_id(engine, player_id))


def set_preferences(engine: Engine, player_id: str, changes: dict[str, Any]) -> dict[str, Any]:
    """The player's preferences with ``changes`` merged in (the keys not named keep their values)."""

    def merge(db: Connection) -> dict[str, Any]:
        stored = db.execute(select(players.c.preferences).where(players.c.id == player_id)).scalar_one()
        merged = {**(stored or {}), **changes}
        db.execute(update(players).where(players.c.id == player_id).values(preferences=merged))
        return merged

    return write(engine, merge)


def make_account(engine: Engine, player_id: str, username: str, password: str | None) -> tuple[PlayerRow, str]:
    """The guest ``player_id`` becomes the account ``username`` (409 if it is one already or the name is taken),
    with a new session token: the guest's tokens stop working in the same transaction, so that a token seen while
    it was a guest (shared, or left on a borrowed device) does not open the account."""
    key = username.lower()
    digest = _hasher.hash(password) if password is not None else None  # slow on purpose: outside the transaction
    token, now = new_token(), time.time()

    def convert(db: Connection) -> None:
        current = db.execute(select(players.c.username).where(players.c.id == player_id)).scalar_one()
        if current is not None:
            raise Refusal(409, "this player has an account already")
        if db.execute(select(players.c.id).where(players.c.username == key)).first() is not None:
            raise Refusal(409, f"the user name {username!r} is taken")
        db.execute(update(players).where(players.c.id == player_id).values(username=key, password_hash=digest))
        db.execute(delete(player_tokens).where(player_tokens.c.player_id == player_id,
                                               player_tokens.c.kind == "session"))
        db.execute(insert(player_tokens).values(token_hash=token_digest(token), player_id=player_id,
                                                kind="session", created_at=now, expires_at=None))

    try:
        write(engine, convert)
    except IntegrityError:  # the same name taken by another request between the check and the update
        raise Refusal(409, f"the user name {username!r} is taken") from None
    return _must(player_by_id(engine, player_id)), token


def open_session(engine: Engine, player_id: str, now: float | None = None) -> str:
    """A new session token for ``player_id`` (one per device)."""
    token = new_token()
    write(engine, lambda db: db.execute(insert(player_tokens).values(
        token_hash=token_digest(token), player_id=player_id, kind="session",
        created_at=time.time() if now is None else now, expires_at=None)))
    return token


def login(engine: Engine, username: str, password: str) -> tuple[PlayerRow, str]:
    """The account and a new session token; one refusal for an unknown name and a wrong password alike."""
    with engine.connect() as db:
        row = db.execute(select(players).where(players.c.username == username.lower())).mappings().first()
    stored = row["password_hash"] if row is not None else None
    if not _verify(stored, password) or row is None:
        raise Refusal(401, BAD_LOGIN)
    if stored is not None and _hasher.check_needs_rehash(stored):  # the hasher's parameters grew since
        rehashed = _hasher.hash(password)  # slow on purpose: outside the writer
        write(engine, lambda db: db.execute(update(players).where(players.c.id == row["id"])
                                            .values(password_hash=rehashed)))
    return _player(row), open_session(engine, row["id"])


def _verify(stored: str | None, password: str) -> bool:
    # an unknown name (or an account without password) costs the same time as a wrong password: the time an
    # answer takes tells nobody which user names exist
    try:
        return _hasher.verify(stored or _decoy_hash(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


@functools.cache
def _decoy_hash() -> str:
    return _hasher.hash(new_token())


def new_link_code(engine: Engine, player_id: str, ttl_s: float | None = LINK_TTL_S, now: float | None = None) -> str:
    """A one-time login code for ``player_id``, valid ``ttl_s`` seconds (``None``: until it is used)."""
    code, now = new_token(), time.time() if now is None else now

    def add(db: Connection) -> None:
        # the player's codes that expired unused go, so that they do not pile up
        db.execute(delete(player_tokens).where(player_tokens.c.player_id == player_id, player_tokens.c.kind == "link",
                                               player_tokens.c.expires_at < now))
        db.execute(insert(player_tokens).values(token_hash=token_digest(code), player_id=player_id, kind="link",
                                                created_at=now,
                                                expires_at=None if ttl_s is None else now + ttl_s))

    write(engine, add)
    return code


def redeem_link_code(engine: Engine, code: str, now: float | None = None) -> tuple[PlayerRow, str]:
    """The code's player and a new session token; the code is spent (401 if unknown, spent or expired)."""
    now = time.time() if now is None else now
    digest = token_digest(code)
    where = (player_tokens.c.token_hash == digest, player_tokens.c.kind == "link")

    def spend(db: Connection) -> tuple[Any, bool]:
        row = db.execute(select(player_tokens).where(*where)).mappings().first()
        # the row count decides between two requests spending the same code at once: only one deletes it
        return row, row is not None and db.execute(delete(player_tokens).where(*where)).rowcount == 1

    row, spent = write(engine, spend)
    if row is None or not spent or (row["expires_at"] is not None and now >= row["expires_at"]):
        raise Refusal(401, "this login link is unknown, used already or expired")
    return _must(player_by_id(engine, row["player_id"])), open_session(engine, row["player_id"], now)


def revoke(engine: Engine, token: str) -> None:
    """The session ``token`` no longer names anyone (the player's other devices stay logged in)."""
    write(engine, lambda db: db.execute(delete(player_tokens).where(player_tokens.c.token_hash == token_digest(token),
                                                                    player_tokens.c.kind == "session")))


def _must(row: PlayerRow | None) -> PlayerRow:
    if row is None:
        raise Refusal(401, "this player no longer exists")
    return row
