"""A running server's mark on its database, so that ``ludotheque restore`` never replaces it under the server.

A server keeps its tables in memory and writes their moves as they are played: a restore under it would be undone,
or mixed with moves made after the backup, at the next write or stop.  Each server process holds a *shared* lock
for as long as it runs; ``restore`` takes the same lock *exclusively*, without waiting, and holds it while it
restores (a server that starts meanwhile is refused).  Both locks die with their process, so a killed server
leaves none behind:

* SQLite: ``flock`` on ``FILE.lock`` beside the database (the kernel drops it when the process ends);
* PostgreSQL: an advisory lock (``pg_advisory_lock_shared``) of a session of its own, named
  ``ludotheque serve`` in ``pg_stat_activity``.  A host that died without closing its connection leaves the session
  open until PostgreSQL notices: ``restore --force`` ends those sessions, once the operator knows that the server is
  stopped.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from sqlalchemy.engine import URL, make_url

log = logging.getLogger("ludotheque.server")

#: the advisory lock's key (any 64-bit number of the project's own)
ADVISORY_KEY = 0x6C75_646F_7365_7276  # "ludoserv"
#: ``application_name`` of the server's lock session
APPLICATION = "ludotheque serve"
#: what an operator reads when the database is in use
HOW_TO_STOP = ("stop it first (systemctl stop ludotheque, or Ctrl-C where `ludotheque serve` runs; every process "
               "of a site), then run restore again")


class InUse(Exception):
    """The database is used by a server (or by a restore, for a server that starts)."""


def _sqlite_lock_path(url: URL) -> Path | None:
    if url.database in (None, "", ":memory:"):
        return None
    return Path(f"{url.database}.lock")


def _libpq(url: URL) -> str:
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class ServerLock:
    """The shared lock of one server process, held until ``release``."""

    def __init__(self, db_url: str) -> None:
        self.url = make_url(db_url)
        self._file: IO[bytes] | None = None
        self._session: Any = None

    def take(self) -> ServerLock:
        """Hold the lock (``InUse`` while a restore holds it)."""
        import fcntl  # POSIX only: the CLI imports this module everywhere
        if self.url.drivername.startswith("sqlite"):
            path = _sqlite_lock_path(self.url)
            if path is None:
                return self
            path.parent.mkdir(parents=True, exist_ok=True)
            handle = path.open("ab")
            try:
                fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                handle.close()
                raise InUse(f"a restore is replacing {self.url.database}: start the server once it is done") from None
            self._file = handle
        else:
            self._connect()
        return self

    def _connect(self) -> None:
        import psycopg

        session = psycopg.connect(_libpq(self.url), autocommit=True, application_name=APPLICATION,
                                  connect_timeout=10)
        row = session.execute("SELECT pg_try_advisory_lock_shared(%s)", (ADVISORY_KEY,)).fetchone()
        if not (row and row[0]):
            session.close()
            raise InUse("a restore is replacing the database: start the server once it is done")
        self._session = session

    def keep(self) -> None:
        """Take the lock again when the database's restart ended its session (PostgreSQL; called every few
        seconds)."""
        if self._file is not None or self.url.drivername.startswith("sqlite"):
            return
        if self._session is not None:
            try:
                self._session.execute("SELECT 1")
                return
            except Exception:
                with contextlib.suppress(Exception):
                    self._session.close()
                self._session = None
        try:
            self._connect()
            log.info("the server's database lock is held again")
        except Exception as error:  # the database is still away, or a restore holds it: tried again later
            log.warning("the server's database lock could not be taken again (%s)", type(error).__name__)

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing the last descriptor drops the flock
            self._file = None
        if self._session is not None:
            with contextlib.suppress(Exception):
                self._session.close()
            self._session = None


def _holders(session: Any) -> list[str]:
    rows = session.execute(
        "SELECT a.pid, coalesce(host(a.client_addr), 'local'), a.backend_start FROM pg_locks l "
        "JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted "
        "AND ((l.classid::bigint << 32) | l.objid::bigint) = %s AND a.pid <> pg_backend_pid()",
        (ADVISORY_KEY,)).fetchall()
    return [f"session {pid} from {address}, since {str(start)[:19]}" for pid, address, start in rows]


@contextlib.contextmanager
def exclusive(db_url: str, force: bool = False) -> Iterator[None]:
    """Hold the database alone for a restore: ``InUse`` (saying how to stop the server) while a server holds it.
    ``force`` (PostgreSQL): first end the sessions of servers that are stopped but whose connections stayed open."""
    import fcntl  # POSIX only: the CLI imports this module everywhere
    url = make_url(db_url)
    if url.drivername.startswith("sqlite"):
        path = _sqlite_lock_path(url)
        if path is None:
            yield
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("ab") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                extra = (" (--force cannot help here: the lock is held by a process alive on this machine)"
                         if force else "")
                raise InUse(f"a server is using {url.database} (a process holds {path}): "
                            f"{HOW_TO_STOP}{extra}") from None
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
        return
    import psycopg

    with psycopg.connect(_libpq(url), autocommit=True, connect_timeout=10) as session:
        if force:
            session.execute(
                "SELECT pg_terminate_backend(a.pid) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                "WHERE l.locktype = 'advisory' AND ((l.classid::bigint << 32) | l.objid::bigint) = %s "
                "AND a.pid <> pg_backend_pid()", (ADVISORY_KEY,))
        # an ended session lets its locks go a moment later: with --force, the lock is tried for a few seconds
        deadline = time.monotonic() + (5.0 if force else 0.0)
        while True:
            row = session.execute("SELECT pg_try_advisory_lock(%s)", (ADVISORY_KEY,)).fetchone()
            if (row and row[0]) or time.monotonic() >= deadline:
                break
            time.sleep(0.1)
        if not (row and row[0]):
            who = "; ".join(_holders(session)) or "a session"
            raise InUse(f"a server is using the database {url.database} ({who}): {HOW_TO_STOP}; if it is stopped "
                        "and its sessions stayed open (its host died), --force ends them")
        try:
            yield
        finally:
            session.execute("SELECT pg_advisory_unlock(%s)", (ADVISORY_KEY,))

