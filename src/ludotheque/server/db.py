"""The database: an SQLAlchemy engine for SQLite or PostgreSQL, and the migrations applied at start.

SQLite is the embedded default.  It runs in WAL mode with ``synchronous=FULL`` (a committed transaction survives a
power cut, not only a crash of the process) and every transaction begins ``IMMEDIATE``: it takes the write lock
at once, so two writers queue instead of failing half-way.  A damaged SQLite file is refused at start
(``check_intact``): writes would otherwise go on into the WAL, unnoticed, until the file cannot be read.
PostgreSQL goes through psycopg 3.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DatabaseError

MIGRATIONS = Path(__file__).with_name("migrations")


def normalized_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` mean psycopg 3; SQLite paths get their folder created."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    if parsed.drivername.startswith("sqlite") and parsed.database not in (None, "", ":memory:"):
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    return url


#: How long a write waits for a locked SQLite file before it is refused, unless the caller says (the server:
#: ``Settings.db_wait_s``): a move is then answered "unavailable" and changes nothing, instead of hanging.
DEFAULT_WAIT_S = 10.0


def make_engine(url: str, wait_s: float = DEFAULT_WAIT_S) -> Engine:
    url = normalized_url(url)
    # hide_parameters: an error's text never carries a statement's values (tokens, password hashes) into a log
    if make_url(url).drivername.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": wait_s},
                               hide_parameters=True)
        event.listen(engine, "connect", functools.partial(_sqlite_connect, wait_s))
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5, hide_parameters=True,
                         connect_args={"connect_timeout": max(1, int(wait_s))})


def _sqlite_connect(wait_s: float, dbapi_connection: Any, _record: Any) -> None:
    # hand transactions to SQLAlchemy's "begin" event below instead of pysqlite's own deferred BEGIN
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute(f"PRAGMA busy_timeout={int(wait_s * 1000)}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_begin(connection: Any) -> None:
    connection.exec_driver_sql("BEGIN IMMEDIATE")


class DamagedDatabase(Exception):
    """The SQLite file fails SQLite's own check: the server must not start on it."""


def check_intact(engine: Engine) -> None:
    """Raise ``DamagedDatabase`` when an SQLite file fails ``PRAGMA quick_check`` (a few seconds for a large file:
    every page is read, the cross-check of indexes against tables is left out).  PostgreSQL checks its own pages."""
    url = engine.url
    if not url.drivername.startswith("sqlite") or url.database in (None, "", ":memory:"):
        return
    try:
        with engine.connect() as db:
            problems = [str(row[0]) for row in db.exec_driver_sql("PRAGMA quick_check")]
    except DatabaseError as error:  # "file is not a database", "database disk image is malformed"
        problems = [str(error.orig)]
    if problems != ["ok"]:
        raise DamagedDatabase(damaged_message(str(url.database), problems))


def damaged_message(path: str, problems: list[str]) -> str:
    shown = " ".join(" ".join(problems).split())  # SQLite's report spans lines: one line here
    shown = shown if len(shown) <= 200 else shown[:200] + "..."
    return (f"the database file {path} is damaged ({shown}). Stop here: the server will not start on it. "
            f"Restore the latest backup with `ludotheque restore BACKUP_FILE --db sqlite:///{path}` "
            f"(backups are made by `ludotheque backup`), then start the server again.")


#: PostgreSQL's advisory lock key for the migrations (any number no other program of the database uses)
MIGRATION_LOCK = 0x6C75646F  # "ludo"


def migrate(engine: Engine) -> None:
    """Check an SQLite file (``check_intact``), then apply every migration not yet applied (Alembic,
    ``upgrade head``)."""
    check_intact(engine)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            # the processes of one site may start at the same moment: one migrates, the others wait for it and
            # then find nothing left to do (the lock is the transaction's, released at its end)
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
