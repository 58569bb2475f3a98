"""``ludotheque backup`` and ``restore`` on SQLite files, and the refusals a host may meet (the copy during play, on
SQLite and PostgreSQL, is in tests/server/test_backup.py)."""

from __future__ import annotations

import fnmatch
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from ludotheque.cli.main import app

runner = CliRunner()


def make_database(path: Path, rows: int) -> None:
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE moves (id INTEGER PRIMARY KEY, notation TEXT)")
        db.executemany("INSERT INTO moves (notation) VALUES (?)", [(f"move {i}",) for i in range(rows)])
    sqlite3.connect(path).close()


def test_backup_then_restore_over_an_existing_file_gives_back_the_copy(tmp_path: Path) -> None:
    source, copy = tmp_path / "live.db", tmp_path / "backups" / "copy.db"
    make_database(source, 500)
    done = runner.invoke(app, ["backup", str(copy), "--db", f"sqlite:///{source}"])
    assert done.exit_code == 0, done.output
    with sqlite3.connect(source) as db:
        db.execute("DELETE FROM moves WHERE id > 10")  # changes made after the backup are undone by the restore
    done = runner.invoke(app, ["restore", str(copy), "--db", f"sqlite:///{source}"])
    assert done.exit_code == 0, done.output
    with sqlite3.connect(source) as db:
        assert db.execute("SELECT count(*) FROM moves").fetchone() == (500,)
        assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # the server sets WAL again at start
    assert not Path(f"{source}-wal").exists()


def test_backup_of_a_missing_file_says_so(tmp_path: Path) -> None:
    done = runner.invoke(app, ["backup", str(tmp_path / "copy.db"), "--db", f"sqlite:///{tmp_path / 'none.db'}"])
    assert done.exit_code == 1 and "no database file" in done.output
    assert not (tmp_path / "copy.db").exists()


def test_serve_refuses_an_unknown_log_format(tmp_path: Path) -> None:
    done = runner.invoke(app, ["serve", "--db", f"sqlite:///{tmp_path / 'x.db'}", "--log-format", "xml"])
    assert done.exit_code == 2 and "--log-format" in done.output


def _copy_in_progress(target: Path) -> subprocess.Popen[str]:
    """A process in the middle of a copy to ``target`` (its partial file written and locked), as a backup is."""
    code = ("import sys, time; from pathlib import Path; from ludotheque.cli.backup import partial_beside\n"
            "with partial_beside(Path(sys.argv[1])) as p:\n    p.write_bytes(b'x' * 4096); print(p, flush=True)"
            "; time.sleep(600)")
    process = subprocess.Popen([sys.executable, "-c", code, str(target)], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    process.stdout.readline()
    return process


def test_a_killed_backup_leaves_a_partial_file_the_next_backup_removes(tmp_path: Path) -> None:
    source, backups = tmp_path / "live.db", tmp_path / "backups"
    make_database(source, 50)
    running = _copy_in_progress(backups / "ludotheque-2.backup")  # a copy still being written
    try:
        killed = _copy_in_progress(backups / "ludotheque-1.backup")
        killed.send_signal(signal.SIGKILL)
        killed.wait()
        left = {p.name for p in backups.iterdir()}
        assert left == {f".ludotheque-1.backup.{killed.pid}.partial", f".ludotheque-2.backup.{running.pid}.partial"}
        assert all(fnmatch.fnmatch(name, ".*.partial") for name in left)  # what docs/deploy.md's clean-up names
        done = runner.invoke(app, ["backup", str(backups / "ludotheque-3.backup"), "--db", f"sqlite:///{source}"])
        assert done.exit_code == 0, done.output
        # the killed copy's file is gone, the running copy's kept
        assert {p.name for p in backups.iterdir()} == {"ludotheque-3.backup",
                                                       f".ludotheque-2.backup.{running.pid}.partial"}
    finally:
        running.kill()
        running.wait()
