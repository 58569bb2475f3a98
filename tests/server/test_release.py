"""A finished table leaves memory once nobody watches it (after ``LUDOTHEQUE_FINISHED_GRACE_S``, 0 here), however
it came to be unwatched: a table of bots nobody ever opened, a table whose person left, a spectator who closes the
last socket.  Its summary, record and replay are read from the database afterwards (SQLite and PostgreSQL).

The live-table registry is read from ``/api/metrics`` (``live_tables``) of a server of this module's own."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from ludotheque.server.process import ServerProcess

from .client import Client, create_table


@pytest.fixture(scope="module")
def quick(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(db_url, tmp_path_factory.mktemp("release"))
    server.start(env={"LUDOTHEQUE_FINISHED_GRACE_S": "0"})
    try:
        yield server
    finally:
        server.stop()


def live_tables(server: ServerProcess) -> int:
    count: int = httpx.get(f"{server.url}/api/metrics").json()["live_tables"]
    return count


def until(check: object, what: str, timeout: float = 60.0) -> None:
    """Wait for ``check()`` (a deadline for a hung server, not a timed assertion)."""
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def status(server: ServerProcess, table_id: str) -> str:
    found: str = httpx.get(f"{server.url}/api/tables/{table_id}").json()["status"]
    return found


def test_a_table_of_bots_nobody_watches_leaves_memory_and_replays(quick: ServerProcess) -> None:
    table_ids = [create_table(quick.url, "geier", 2, ["bot:random", "bot:random"])["table_id"] for _ in range(3)]
    for table_id in table_ids:
        until(lambda table_id=table_id: status(quick, table_id) == "finished", "the bots did not finish")
    until(lambda: live_tables(quick) == 0, "finished tables nobody watches stayed in memory")
    for table_id in table_ids:
        replay = httpx.get(f"{quick.url}/api/tables/{table_id}/replay")
        assert replay.status_code == 200 and replay.json()["view"]["terminal"]
        assert httpx.get(f"{quick.url}/api/tables/{table_id}/record").json()["actions"]
    # a spectator opens one again: it is read from the database, kept while watched, and released after
    watcher = Client(quick.ws_url, table_ids[0])
    try:
        assert watcher.hello()["status"] == "finished"
        assert live_tables(quick) == 1
    finally:
        watcher.close()
    until(lambda: live_tables(quick) == 0, "the table stayed in memory after its last socket closed")


def test_a_table_its_person_left_leaves_memory_once_the_bots_finish(quick: ServerProcess) -> None:
    created = create_table(quick.url, "geier", 2, ["me", "bot:random"])
    table_id = created["table_id"]
    person = Client(quick.ws_url, table_id, created["token"])
    person.hello()
    person.close()
    left = httpx.post(f"{quick.url}/api/tables/{table_id}/leave",
                      headers={"Authorization": f"Bearer {created['token']}"})
    assert left.status_code == 200, left.text
    until(lambda: status(quick, table_id) == "finished", "the bot did not finish the person's game")
    until(lambda: live_tables(quick) == 0, "a finished table its person left stayed in memory")
    assert httpx.get(f"{quick.url}/api/tables/{table_id}/replay").status_code == 200
