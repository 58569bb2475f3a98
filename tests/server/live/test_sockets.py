"""What one client's WebSockets may cost: at most ``LUDOTHEQUE_SOCKETS_PER_ADDRESS`` open at once per client address
(the forwarded one behind ``--proxy-headers``), an outbox bounded in bytes as well as in messages, and a room's chat
history sent once a connection, not at every ``hello``.  They live in the server's memory: SQLite only."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from ludotheque.server.live import CLOSE_FALLING_BEHIND, Connection
from ludotheque.server.process import ServerProcess

from ..client import Client, create_table

SOCKETS = 4
SQLITE_ONLY = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True, scope="module")


@pytest.fixture(scope="module")
def capped(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(db_url, tmp_path_factory.mktemp("sockets"), "--proxy-headers", "--forwarded-allow-ips",
                           "127.0.0.1")
    server.start(env={"LUDOTHEQUE_SOCKETS_PER_ADDRESS": str(SOCKETS)})
    try:
        yield server
    finally:
        server.stop()


def close_code(server: ServerProcess, table_id: str, source: str) -> int | None:
    """The code the server closes a new socket from ``source`` with before it says anything, or None when it
    answers ``hello``."""
    with connect(f"{server.ws_url}/ws/tables/{table_id}", additional_headers={"X-Forwarded-For": source},
                 open_timeout=10) as socket:
        try:
            socket.send('{"type": "hello", "last_seq": 0}')  # the server may have closed it already
            socket.recv(timeout=10)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None
        return None


@SQLITE_ONLY
def test_sockets_per_address_are_capped_by_the_forwarded_address(capped: ServerProcess) -> None:
    table_id = create_table(capped.url, "geier", 2, ["me", "open"])["table_id"]
    with ExitStack() as stack:
        for _ in range(SOCKETS):
            socket = stack.enter_context(connect(f"{capped.ws_url}/ws/tables/{table_id}",
                                                 additional_headers={"X-Forwarded-For": "203.0.113.7"}))
            socket.send('{"type": "hello", "last_seq": 0}')
            assert '"state"' in str(socket.recv(timeout=10))
        assert close_code(capped, table_id, "203.0.113.7") == 4429
        assert close_code(capped, table_id, "203.0.113.8") is None  # another visitor behind the same proxy
    # the sockets closed: the address may connect again
    deadline_tries = 50
    while close_code(capped, table_id, "203.0.113.7") is not None:
        deadline_tries -= 1
        assert deadline_tries, "the closed sockets were still counted"


@SQLITE_ONLY
def test_the_chat_history_comes_once_a_connection(capped: ServerProcess) -> None:
    created = create_table(capped.url, "geier", 2, ["me", "open"])
    speaker = Client(capped.ws_url, created["table_id"], created["token"])
    try:
        speaker.hello()
        speaker.send({"type": "chat", "text": "bonjour"})
        speaker.next("chat")
        for index in range(5):  # a client that says hello again and again
            speaker.send({"type": "hello", "last_seq": index})
        speaker.send({"type": "settle"})
        speaker.next("error")
    finally:
        speaker.close()
    reader = Client(capped.ws_url, created["table_id"], created["token"])
    try:
        for index in range(5):
            reader.send({"type": "hello", "last_seq": index})
        reader.next("chat_history")
        reader.send({"type": "settle"})
        reader.next("error")
    finally:
        reader.close()
    # at most one history a connection, however many hellos: the speaker's own may or may not hold its message (its
    # first hello's history is read while the message is being written), the reader's does
    spoken = [m for m in speaker.received if m["type"] == "chat_history"]
    read = [m for m in reader.received if m["type"] == "chat_history"]
    assert len(spoken) <= 1 and len(read) == 1 and read[0]["messages"][0]["text"] == "bonjour"


def test_the_outbox_is_bounded_in_bytes() -> None:
    async def scenario() -> None:
        async def never(_message: object) -> None:
            await asyncio.Event().wait()

        connection = Connection(None, never, limit=256, byte_limit=10_000)
        long = {"type": "chat", "text": "x" * 2_000}
        for _ in range(4):
            connection.push(long)
        assert not connection.closing.is_set() and 8_000 < connection.queued_bytes <= 10_000
        connection.push(long)  # five messages are 256 short of the count, past the bytes
        assert connection.closing.is_set() and connection.close_code == CLOSE_FALLING_BEHIND
        assert connection.outbox.qsize() == 4
        await connection.next()
        assert connection.outbox.qsize() == 3 and connection.queued_bytes < 8_000

    asyncio.run(scenario())
