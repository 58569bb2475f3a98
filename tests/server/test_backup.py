"""Backups while a game is played, restores into a fresh database, and a damaged SQLite file refused at start.

``ludotheque backup`` and ``restore`` run as a host runs them: commands in processes of their own, next to a real
server on a real database (SQLite and PostgreSQL)."""

from __future__ import annotations

import random
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import httpx
import pytest

from ludotheque.server.db import make_engine, migrate
from ludotheque.server.dblock import ADVISORY_KEY, InUse, ServerLock, exclusive
from ludotheque.server.process import ServerProcess, free_port
from ludotheque.server.store import Store

from .client import Client, create_table
from .conftest import _fresh_postgres_database, postgres_admin_url


def ludotheque(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ludotheque.cli.main", *args], capture_output=True, text=True,
                          timeout=timeout)


class Player(threading.Thread):
    """Plays Geier against a random bot, table after table, and keeps every ack: ``(table_id, seq, move id)``."""

    def __init__(self, server: ServerProcess) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.acks: list[tuple[str, int, str]] = []
        self.stopping = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.stopping.is_set():
                self.play_one()
        except BaseException as error:  # reported by the test, not lost in the thread
            self.error = error

    def play_one(self) -> None:
        rng = random.Random(len(self.acks))
        created = create_table(self.server.url, "geier", 2, ["me", "bot:random"])
        table_id = created["table_id"]
        client = Client(self.server.ws_url, table_id, created["token"])
        try:
            state, moved_at = client.hello(0), -1
            while not self.stopping.is_set():
                if state["view"]["terminal"]:
                    return
                if state["legal"] and moved_at != state["seq"]:
                    moved_at = state["seq"]
                    move_id = f"{table_id}-{state['seq']}"
                    client.send({"type": "move", "move": rng.choice(state["legal"])["notation"],
                                 "client_move_id": move_id, "after_seq": state["seq"]})
                with suppress(TimeoutError):
                    message = client.recv(timeout=0.2)
                    if message["type"] == "ack":
                        self.acks.append((table_id, message["seq"], message["client_move_id"]))
                    elif message["type"] == "error":
                        # refused (a bot moved first): choose again, after a pause, so that a run of refusals
                        # stays far below the socket's rate limit
                        moved_at = -1
                        time.sleep(0.2)
                    state = client.state or state
        finally:
            client.close()

    def wait_for(self, count: int, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while len(self.acks) < count:
            assert self.error is None, self.error
            assert time.monotonic() < deadline, f"only {len(self.acks)} moves were acknowledged"
            time.sleep(0.05)


@pytest.fixture
def fresh_db_url(db_url: str, tmp_path: Path) -> Iterator[str]:
    """Another empty database of the same kind as ``db_url``, to restore into."""
    if db_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'restored' / 'ludotheque.db'}"
        return
    admin = postgres_admin_url()
    assert admin is not None
    url, drop = _fresh_postgres_database(admin)
    try:
        yield url
    finally:
        drop()


def test_a_backup_taken_during_play_holds_every_acknowledged_move_and_restores(
    db_url: str, fresh_db_url: str, tmp_path: Path
) -> None:
    server = ServerProcess(db_url, tmp_path).start()
    player = Player(server)
    copy = tmp_path / "backups" / "ludotheque.backup"
    try:
        player.start()
        player.wait_for(8)
        acked_before = list(player.acks)  # every one of these was committed before the backup began
        done = ludotheque("backup", str(copy), "--db", db_url)
        assert done.returncode == 0, done.stderr
        player.wait_for(len(player.acks) + 3)  # play goes on after the backup, on the same server
    finally:
        player.stopping.set()
        player.join(30)
        server.stop()
    assert player.error is None, player.error

    if db_url.startswith("sqlite"):
        with sqlite3.connect(copy) as check:
            assert check.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    done = ludotheque("restore", str(copy), "--db", fresh_db_url)
    assert done.returncode == 0, done.stderr

    store = Store(make_engine(fresh_db_url))
    try:
        for table_id in {table for table, _, _ in acked_before}:
            kept = {(row.seq, row.client_move_id) for row in store.actions(table_id)}
            wanted = {(seq, move_id) for table, seq, move_id in acked_before if table == table_id}
            assert wanted <= kept, f"table {table_id}: acknowledged moves missing from the backup"
    finally:
        store.engine.dispose()

    last_table, last_seq, _ = acked_before[-1]
    restored = ServerProcess(fresh_db_url, tmp_path).start()
    try:
        summary = httpx.get(f"{restored.url}/api/tables/{last_table}", timeout=10)
        assert summary.status_code == 200 and summary.json()["game"] == "geier"
        watcher = Client(restored.ws_url, last_table)
        assert watcher.hello(0)["seq"] >= last_seq
        watcher.close()
    finally:
        restored.stop()


def _full_leaf_page(path: Path) -> tuple[int, int]:
    """A leaf page of table rows whose middle holds data (little unused space), and the page size."""
    with sqlite3.connect(path) as db:
        size = db.execute("PRAGMA page_size").fetchone()[0]
        found = db.execute(
            "SELECT pageno FROM dbstat WHERE name = 'actions' AND pagetype = 'leaf' AND unused < ? "
            "ORDER BY pageno LIMIT 1", (size // 8,)).fetchone()
    assert found is not None, "no full page of actions to damage: play more"
    return int(found[0]), int(size)


def test_a_damaged_sqlite_file_is_refused_at_start_with_how_to_restore(tmp_path: Path) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("the damage is written under a stopped server, on Linux")
    path = tmp_path / "ludotheque.db"
    url = f"sqlite:///{path}"
    server = ServerProcess(url, tmp_path).start()
    try:
        tables = [create_table(server.url, "geier", 2, ["bot:random", "bot:random"])["table_id"] for _ in range(6)]
        for table_id in tables:
            deadline = time.monotonic() + 60
            while httpx.get(f"{server.url}/api/tables/{table_id}", timeout=10).json()["status"] != "finished":
                assert time.monotonic() < deadline, "the bots did not finish their game"
                time.sleep(0.1)
        backup = tmp_path / "good.backup"
        assert ludotheque("backup", str(backup), "--db", url).returncode == 0
    finally:
        server.stop()  # a clean close: the WAL is checkpointed into the file

    page, size = _full_leaf_page(path)
    with path.open("r+b") as file:
        file.seek((page - 1) * size + size // 2)
        file.write(b"\xff" * 96)

    refused = ludotheque("serve", "--db", url, "--port", str(free_port()), "--no-pacing", timeout=60)
    said = " ".join(refused.stderr.split())
    assert refused.returncode != 0
    assert "damaged" in said and f"ludotheque restore BACKUP_FILE --db {url}" in said, said
    assert "Traceback" not in refused.stderr + refused.stdout

    shutil.copy(path, tmp_path / "damaged.db")  # the restore replaces the damaged file whole
    done = ludotheque("restore", str(backup), "--db", url)
    assert done.returncode == 0, done.stderr
    restored = ServerProcess(url, tmp_path).start()  # the good file starts
    try:
        assert httpx.get(f"{restored.url}/api/tables/{tables[-1]}", timeout=10).json()["status"] == "finished"
        assert httpx.get(f"{restored.url}/readyz", timeout=10).status_code == 200
    finally:
        restored.stop()


def test_a_damaged_backup_is_not_restored(tmp_path: Path) -> None:
    backup = tmp_path / "bad.backup"
    backup.write_bytes(b"SQLite format 3\x00" + b"\x10\x00" + bytes(200))
    target = tmp_path / "ludotheque.db"
    done = ludotheque("restore", str(backup), "--db", f"sqlite:///{target}")
    assert done.returncode == 1 and "integrity_check" in " ".join(done.stderr.split())
    assert not target.exists()
    missing = ludotheque("restore", str(tmp_path / "nothing"), "--db", f"sqlite:///{target}")
    assert missing.returncode == 1 and "no backup file" in missing.stderr


def test_restore_refuses_while_a_server_uses_the_database(db_url: str, tmp_path: Path) -> None:
    server = ServerProcess(db_url, tmp_path).start()
    copy = tmp_path / "before.backup"
    try:
        done = ludotheque("backup", str(copy), "--db", db_url)
        assert done.returncode == 0, done.stderr
        after = create_table(server.url, "geier", 2, ["me", "bot:random"])  # made after the backup
        for force in ((), ("--force",)) if db_url.startswith("sqlite") else ((),):
            refused = ludotheque("restore", str(copy), "--db", db_url, *force)
            assert refused.returncode == 1, refused.stdout
            assert "a server is using" in refused.stderr and "stop it first" in refused.stderr
            assert "Traceback" not in refused.stderr
        # nothing was replaced: the table made after the backup is still served
        assert httpx.get(f"{server.url}/api/tables/{after['table_id']}").status_code == 200
    finally:
        server.stop()
    # a server starting while a restore holds the database is refused
    with exclusive(db_url), pytest.raises(InUse, match="a restore is replacing"):
        ServerLock(db_url).take()
    done = ludotheque("restore", str(copy), "--db", db_url)  # the server stopped: restored
    assert done.returncode == 0, done.stderr
    restarted = ServerProcess(db_url, tmp_path).start()
    try:
        assert httpx.get(f"{restarted.url}/api/tables/{after['table_id']}").status_code == 404
    finally:
        restarted.stop()


def test_restore_force_ends_the_sessions_a_stopped_server_left_open(tmp_path: Path) -> None:
    import psycopg

    admin = postgres_admin_url()
    if admin is None:
        pytest.skip("no PostgreSQL")
    url, drop = _fresh_postgres_database(admin)
    try:
        engine = make_engine(url)
        migrate(engine)  # the schema a server makes
        engine.dispose()
        copy = tmp_path / "db.backup"
        assert ludotheque("backup", str(copy), "--db", url).returncode == 0
        # a server whose host died: its lock session is still open in PostgreSQL
        left = psycopg.connect(url, autocommit=True)
        left.execute("SELECT pg_advisory_lock_shared(%s)", (ADVISORY_KEY,))
        refused = ludotheque("restore", str(copy), "--db", url)
        assert refused.returncode == 1 and "--force ends them" in refused.stderr
        forced = ludotheque("restore", str(copy), "--db", url, "--force")
        assert forced.returncode == 0, forced.stderr
        with pytest.raises(psycopg.OperationalError):
            left.execute("SELECT 1")
    finally:
        drop()
