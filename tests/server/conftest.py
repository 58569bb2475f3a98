"""Server tests run against real server processes and real databases: SQLite, and PostgreSQL when one can be had
(``scripts/postgres.sh`` finds or starts the machine's; without one, the PostgreSQL half is skipped loudly)."""

from __future__ import annotations

import subprocess
import uuid
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ludotheque.server.process import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
_pg_url: list[str | None] = []


def postgres_admin_url() -> str | None:
    if not _pg_url:
        found = subprocess.run(["bash", str(ROOT / "scripts" / "postgres.sh")], capture_output=True, text=True)
        _pg_url.append(found.stdout.strip() if found.returncode == 0 else None)
        if found.returncode != 0:
            message = f"NO POSTGRESQL: the PostgreSQL half of the server tests is SKIPPED ({found.stderr.strip()})"
            print(f"\n{'!' * 20} {message} {'!' * 20}")
            warnings.warn(message, stacklevel=1)
    return _pg_url[0]


def _fresh_postgres_database(admin_url: str) -> tuple[str, Callable[[], None]]:
    import psycopg

    name = f"ludotheque_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_url, autocommit=True) as db:
        db.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = admin_url.rpartition("/")

    def drop() -> None:
        with psycopg.connect(admin_url, autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return f"{base}/{name}", drop


@pytest.fixture(params=["sqlite", "postgresql"], scope="module")
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A new, empty database of each kind, for one test module."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'ludotheque.db'}"
        return
    admin = postgres_admin_url()
    if admin is None:
        pytest.skip("no PostgreSQL could be found or started (scripts/postgres.sh)")
    url, drop = _fresh_postgres_database(admin)
    try:
        yield url
    finally:
        drop()


@pytest.fixture(scope="module")
def server(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server on a fresh database, shared by the tests of a module (each makes its own tables)."""
    process = ServerProcess(db_url, tmp_path_factory.mktemp("server")).start()
    try:
        yield process
    finally:
        process.stop()


class PrivateCluster:
    """A PostgreSQL cluster of a test's own (``scripts/private_postgres.sh``), with a database ``ludotheque``:
    stopping and starting it touches no other test's database."""

    def __init__(self, folder: Path, port: int) -> None:
        self.folder = folder
        self.url = f"postgresql://postgres@127.0.0.1:{port}/ludotheque"

    def _run(self, verb: str) -> None:
        subprocess.run(["bash", str(ROOT / "scripts" / "private_postgres.sh"), verb, str(self.folder)], check=True)

    def stop(self) -> None:
        self._run("stop")

    def start(self) -> None:
        self._run("start")


@pytest.fixture
def private_postgres() -> Iterator[PrivateCluster]:
    import os
    import shutil
    import tempfile

    import psycopg

    from ludotheque.server.process import free_port

    folder = Path(tempfile.mkdtemp(prefix="ludotheque-pg-", dir="/tmp"))
    os.chmod(folder, 0o755)
    port = free_port()
    script = ROOT / "scripts" / "private_postgres.sh"
    if subprocess.run(["bash", str(script), "init", str(folder), str(port)], capture_output=True).returncode:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip("no PostgreSQL server binaries for a private cluster")
    cluster = PrivateCluster(folder, port)
    cluster.start()
    try:
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{port}/postgres", autocommit=True) as db:
            db.execute("CREATE DATABASE ludotheque")
        yield cluster
    finally:
        subprocess.run(["bash", str(script), "stop", str(folder)], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
