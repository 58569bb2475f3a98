"""The coach's lanes are shared: a seat has one hint under way however many sockets it opens, the tables of one
creator ``LUDOTHEQUE_HINTS_PER_CREATOR`` hints at once, and one requester (a player, else an address)
``LUDOTHEQUE_REVIEWS_PER_REQUESTER`` reviews queued or running.  The counts live in the server's memory: SQLite
only.  The coach's answers are slowed (hints of a second, reviews of several) so that each request surely comes
while the first ones are under way; nothing is timed."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from ludotheque.server.process import ServerProcess

from .client import Client, create_table, guest
from .test_review import ask, finished

ENV = {"LUDOTHEQUE_HINT_SECONDS": "1.5", "LUDOTHEQUE_HINTS_PER_CREATOR": "2", "LUDOTHEQUE_REVIEW_SECONDS": "5",
       "LUDOTHEQUE_REVIEW_PLAYOUTS": "100000000", "LUDOTHEQUE_REVIEWS_PER_REQUESTER": "2"}


@pytest.fixture(scope="module")
def coach(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("coach-limits")
    process = ServerProcess(f"sqlite:///{folder / 'ludotheque.db'}", folder).start(ENV)
    try:
        yield process
    finally:
        process.stop()


def seated(server: ServerProcess, player: str | None = None) -> tuple[str, str]:
    """A started two-person Geier table with hints (the creator's seat 0 acts at once): its id and seat 0's
    token."""
    created = httpx.post(f"{server.url}/api/tables", headers={"X-Player-Token": player} if player else {},
                         json={"game": "geier", "players": 2, "seats": ["me", "open"], "hints": True}).json()
    joined = httpx.post(f"{server.url}/api/tables/{created['table_id']}/join", json={"name": "other"})
    assert joined.status_code == 200, joined.text
    return created["table_id"], created["token"]


def ready(client: Client) -> None:
    frame = client.hello()
    while not frame["legal"]:
        frame = client.next("state")


def answers(client: Client) -> str:
    """``hint``, or the code of the error that answered the hint asked."""
    while True:
        message = client.recv()
        if message["type"] == "hint":
            return "hint"
        if message["type"] == "error":
            return str(message["code"])


def test_one_seat_with_many_sockets_has_one_hint_at_a_time(coach: ServerProcess) -> None:
    table_id, token = seated(coach)
    sockets = [Client(coach.ws_url, table_id, token) for _ in range(4)]
    try:
        for client in sockets:
            ready(client)
        for client in sockets:
            client.send({"type": "hint"})
        assert sorted(answers(client) for client in sockets) == ["hint", "rate_limited", "rate_limited",
                                                                 "rate_limited"]
    finally:
        for client in sockets:
            client.close()


def test_the_tables_of_one_creator_share_their_hints(coach: ServerProcess) -> None:
    ana = guest(coach.url, "Ana")
    tables = [seated(coach, ana) for _ in range(3)]
    other = seated(coach)  # another creator's table is not held back
    sockets = [Client(coach.ws_url, table_id, token) for table_id, token in [*tables, other]]
    try:
        for client in sockets:
            ready(client)
        for client in sockets:
            client.send({"type": "hint"})
        got = [answers(client) for client in sockets]
        assert sorted(got[:3]) == ["hint", "hint", "rate_limited"] and got[3] == "hint"
    finally:
        for client in sockets:
            client.close()


def test_one_requester_cannot_hold_the_review_queue(coach: ServerProcess) -> None:
    table_id = finished(coach.url, players=4)
    assert ask(coach.url, table_id, 0).status_code == 202
    assert ask(coach.url, table_id, 1).status_code == 202
    refused = ask(coach.url, table_id, 2)
    assert refused.status_code == 429 and "Retry-After" in refused.headers
    # another requester (a player's token) still gets its review queued
    other = httpx.post(f"{coach.url}/api/tables/{table_id}/review", json={"seat": 2},
                       headers={"X-Player-Token": guest(coach.url)})
    assert other.status_code == 202, other.text
    assert create_table(coach.url, "geier", 2, ["me", "open"])  # the server serves on
