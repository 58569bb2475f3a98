"""``ludotheque backup`` and ``ludotheque restore``: a consistent copy of the database, taken while the server runs,
and putting it back.

SQLite: SQLite's online backup API copies the pages as of one read transaction; the server goes on writing into the
WAL meanwhile.  The copy is checked (``PRAGMA integrity_check``) before it replaces ``FILE``.  PostgreSQL:
``pg_dump`` in its custom format (one consistent snapshot), ``pg_restore --clean`` to put it back; the tools are the
server's major version or newer (``/usr/lib/postgresql/N/bin`` first, then the ``PATH``).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from sqlalchemy import URL
from sqlalchemy.engine import make_url

from ludotheque.cli.common import console, fail
from ludotheque.server.config import default_db_url
from ludotheque.server.dblock import InUse, exclusive

DbOption = Annotated[
    str | None, typer.Option("--db", help="database URL (default: LUDOTHEQUE_DB, or data/ludotheque.db)")
]
#: The first bytes of a ``pg_dump --format=custom`` file; anything else is read as plain SQL (``psql``).
PG_CUSTOM_MAGIC = b"PGDMP"


class BackupError(Exception):
    pass


def backup(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="where the copy is written (replaced if it exists)")],
    db: DbOption = None,
) -> None:
    """Copy the database to FILE, consistently, while the server runs."""
    url = make_url(db or default_db_url())
    try:
        if url.drivername.startswith("sqlite"):
            pages = sqlite_backup(_sqlite_path(url), file)
            console.print(f"backed up {pages} pages to {escape(str(file))} (integrity_check: ok)")
        else:
            pg_backup(url, file)
            console.print(f"backed up the PostgreSQL database {escape(str(url.database))} to {escape(str(file))}")
    except BackupError as error:
        fail(escape(str(error)), code=1)


def restore(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="a copy made by `ludotheque backup`")],
    db: DbOption = None,
    force: Annotated[
        bool, typer.Option("--force", help="PostgreSQL: end the database sessions a stopped server left open (its "
                           "host died); never for a server that runs")
    ] = False,
) -> None:
    """Put a backup back into the database.  Refused while a server uses it (it keeps live tables in memory and
    would undo the restore): stop the server first."""
    url = make_url(db or default_db_url())
    try:
        if not file.is_file():
            raise BackupError(f"no backup file at {file}")
        with exclusive(url.render_as_string(hide_password=False), force=force):
            if url.drivername.startswith("sqlite"):
                sqlite_restore(file, _sqlite_path(url))
            else:
                pg_restore(file, url)
    except InUse as error:
        # plain, never wrapped: the commands in the message are copied as they are
        print(f"error: {error}", file=sys.stderr)
        raise typer.Exit(1) from None
    except BackupError as error:
        fail(escape(str(error)), code=1)
    console.print(f"restored {escape(str(file))} into {escape(url.render_as_string(hide_password=True))}")


def register(app: typer.Typer) -> None:
    app.command("backup")(backup)
    app.command("restore")(restore)


# -- SQLite ----------------------------------------------------------------------------------------------------


def _sqlite_path(url: URL) -> Path:
    if url.database in (None, "", ":memory:"):
        raise BackupError("an in-memory SQLite database has nothing to back up or restore")
    return Path(str(url.database))


def sqlite_backup(source: Path, target: Path) -> int:
    """Copy ``source`` into ``target`` with the online backup API; returns the pages copied."""
    if not source.is_file():
        raise BackupError(f"no database file at {source}")
    # read-only: a backup never creates or changes the server's file (nor its WAL, beyond a reader's mark)
    with _sqlite(f"{source.resolve().as_uri()}?mode=ro", uri=True) as origin:
        return _copy_checked(origin, target)


def sqlite_restore(backup_file: Path, target: Path) -> None:
    """Replace ``target`` by the backup.  The copy is made beside it and renamed over it, so a damaged ``target``
    (unreadable by SQLite) is replaced as well, and a failure half-way leaves it as it was."""
    with _sqlite(f"{backup_file.resolve().as_uri()}?mode=ro", uri=True) as origin:
        _check(origin, backup_file)
        target.parent.mkdir(parents=True, exist_ok=True)
        _copy_checked(origin, target)
    # the old file's WAL and shared memory belong to the old pages: left there, SQLite would apply them to the new
    for suffix in ("-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)


def _copy_checked(origin: sqlite3.Connection, target: Path) -> int:
    with partial_beside(target) as partial:
        try:
            with _sqlite(str(partial)) as copy:
                origin.backup(copy)  # every page in one step: one read transaction, one consistent state
                copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no WAL beside it
                _check(copy, target)
                pages = int(copy.execute("PRAGMA page_count").fetchone()[0])
        except sqlite3.Error as error:
            raise BackupError(f"the copy failed: {error}") from None
        partial.replace(target)
        return pages


@contextlib.contextmanager
def partial_beside(target: Path) -> Iterator[Path]:
    """``.TARGET.PID.partial`` beside ``target``, locked (``flock``) while the copy is written, removed if it was
    not renamed into place.  A copy killed half-way leaves its file unlocked: every backup or restore first
    removes the unlocked ``.*.partial`` files of its folder (``remove_stale_partials``), never another copy's that
    is still being written."""
    import fcntl  # POSIX only: the CLI imports this module everywhere

    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_partials(target.parent)
    partial = target.parent / f".{target.name}.{os.getpid()}.partial"
    with partial.open("wb") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield partial
        finally:
            partial.unlink(missing_ok=True)


def remove_stale_partials(folder: Path) -> list[Path]:
    """The ``.*.partial`` files of ``folder`` that no running copy holds, removed; the ones removed."""
    import fcntl  # POSIX only: the CLI imports this module everywhere

    removed = []
    for path in folder.glob(".*.partial"):
        try:
            with path.open("rb") as handle:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)  # taken: whoever wrote it is gone
                path.unlink(missing_ok=True)
                removed.append(path)
        except (BlockingIOError, FileNotFoundError, IsADirectoryError, PermissionError):
            continue
    return removed


def _check(db: sqlite3.Connection, path: Path) -> None:
    try:
        problems = [str(row[0]) for row in db.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as error:
        problems = [str(error)]
    if problems != ["ok"]:
        raise BackupError(f"{path} fails SQLite's integrity_check: {' '.join(' '.join(problems[:3]).split())}")


class _sqlite:
    """A connection closed on exit (``sqlite3.Connection``'s own context manager only commits)."""

    def __init__(self, database: str, uri: bool = False) -> None:
        self.connection = sqlite3.connect(database, uri=uri, isolation_level=None)

    def __enter__(self) -> sqlite3.Connection:
        return self.connection

    def __exit__(self, *_: object) -> None:
        self.connection.close()


# -- PostgreSQL ------------------------------------------------------------------------------------------------


def pg_backup(url: URL, target: Path) -> None:
    tool = pg_tool("pg_dump", url)
    with partial_beside(target) as partial:
        _run([tool, "--format=custom", "--no-owner", f"--file={partial}", f"--dbname={_libpq_url(url)}"], url)
        partial.replace(target)


def pg_restore(backup_file: Path, url: URL) -> None:
    with backup_file.open("rb") as handle:
        custom = handle.read(len(PG_CUSTOM_MAGIC)) == PG_CUSTOM_MAGIC
    if custom:
        # --clean --if-exists: the tables of the target are dropped first, so an empty or an old database both do;
        # one transaction: a failure leaves the database as it was
        _run([pg_tool("pg_restore", url), "--clean", "--if-exists", "--no-owner", "--single-transaction",
              "--exit-on-error", f"--dbname={_libpq_url(url)}", str(backup_file)], url)
    else:
        _run([pg_tool("psql", url), "--quiet", "--set=ON_ERROR_STOP=1", "--single-transaction",
              f"--file={backup_file}", f"--dbname={_libpq_url(url)}"], url)


def pg_tool(name: str, url: URL) -> str:
    """``name`` of the server's major version (``pg_dump`` refuses a newer server), or the newest one found."""
    major = _server_major(url)
    candidates = [Path(f"/usr/lib/postgresql/{major}/bin/{name}")] if major else []
    candidates += sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), key=_version_of_path, reverse=True)
    on_path = shutil.which(name)
    candidates += [Path(on_path)] if on_path else []
    for candidate in candidates:
        if candidate.is_file() and (major is None or _version_of_path(candidate) in (0, major)
                                    or _version_of_path(candidate) > major):
            return str(candidate)
    wanted = f" {major} or newer" if major else ""
    raise BackupError(f"{name}{wanted} is not installed (Debian: apt install postgresql-client-{major or 'N'})")


def _version_of_path(path: Path) -> int:
    found = re.search(r"/postgresql/(\d+)/", str(path))
    return int(found.group(1)) if found else 0


def _server_major(url: URL) -> int | None:
    import psycopg

    try:
        with psycopg.connect(_libpq_url(url), password=url.password or None, connect_timeout=10) as db:
            row = db.execute("SHOW server_version_num").fetchone()
    except psycopg.Error as error:
        raise BackupError(f"cannot reach the database: {' '.join(str(error).split())}") from None
    return int(row[0]) // 10_000 if row else None


def _libpq_url(url: URL) -> str:
    """The URL as libpq reads it, without the password (a command line is visible to every user of the
    machine): the password goes through ``PGPASSWORD``."""
    return url.set(drivername="postgresql", password=None).render_as_string(hide_password=False)


def _run(command: list[str], url: URL) -> None:
    env = {**os.environ, **({"PGPASSWORD": url.password} if url.password else {})}
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {done.stderr.strip() or done.returncode}")
