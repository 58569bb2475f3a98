"""A client that sends without reading cannot grow the server's memory: each connection's outbox is bounded, and
a connection far past the rate limit is closed (1008), one that falls too far behind too (1013)."""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import struct
from pathlib import Path

import pytest
from tests.server.client import create_table

from ludotheque.server.live import CLOSE_FALLING_BEHIND, CLOSE_FLOODING, FLOOD_LIMIT, STATE_FRAME, Connection
from ludotheque.server.process import ServerProcess


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def open_raw_websocket(port: int, path: str) -> socket.socket:
    """A WebSocket opened by hand on a socket with a small receive buffer, so that a client that never reads
    stops the server's writes at once, as a stalled phone would."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)  # byte by byte: nothing past the handshake is read
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return sock


def text_frame(payload: bytes) -> bytes:
    mask = os.urandom(4)
    masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + masked


def close_code_in(data: bytes) -> int | None:
    """The code of the first close frame among the server's (unmasked) frames in ``data``."""
    at = 0
    while at + 2 <= len(data):
        opcode, length = data[at] & 0x0F, data[at + 1] & 0x7F
        at += 2
        if length == 126:
            length, at = struct.unpack("!H", data[at : at + 2])[0], at + 2
        elif length == 127:
            length, at = struct.unpack("!Q", data[at : at + 8])[0], at + 8
        if opcode == 0x8:
            return int(struct.unpack("!H", data[at : at + 2])[0])
        at += length
    return None


#: The outbox and the flood limit live in the server's memory: the database plays no part in them.
SQLITE_ONLY = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True, scope="module")


@SQLITE_ONLY
def test_a_flood_that_is_never_read_is_closed_and_memory_stays_flat(server: ServerProcess) -> None:
    table_id = create_table(server.url, "geier", 2, ["me", "open"])["table_id"]
    assert server.process is not None
    before = rss_kib(server.process.pid)
    sock = open_raw_websocket(server.port, f"/ws/tables/{table_id}")
    try:
        frame = text_frame(b"x")
        for _ in range(100_000):
            sock.sendall(frame)
    except OSError:
        pass  # the server closed the connection
    after = rss_kib(server.process.pid)
    sock.settimeout(5)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except OSError:
        pass
    sock.close()
    assert close_code_in(data) == CLOSE_FLOODING
    assert after - before < 20_000, f"the server grew by {after - before} KiB"
    # and the server goes on serving that table
    assert create_table(server.url, "geier", 2, ["me", "open"])["table_id"]


def test_a_full_outbox_closes_the_connection_instead_of_growing() -> None:
    async def scenario() -> None:
        async def never(_message: object) -> None:
            await asyncio.Event().wait()

        connection = Connection(None, never, limit=8)
        for index in range(8):
            connection.push({"type": "error", "code": "malformed", "message": str(index)})
        assert not connection.closing.is_set()
        connection.push({"type": "error", "code": "malformed", "message": "one too many"})
        assert connection.closing.is_set() and connection.close_code == CLOSE_FALLING_BEHIND
        for _ in range(1000):
            connection.push({"type": "error", "code": "malformed", "message": "more"})
            connection.hello, connection.state_queued = True, False
            connection.push_state()
        assert connection.outbox.qsize() == 8
        assert STATE_FRAME not in list(connection.outbox._queue)  # type: ignore[attr-defined]

    asyncio.run(scenario())


@SQLITE_ONLY
def test_a_burst_past_the_limit_is_answered_then_the_connection_plays_on(server: ServerProcess) -> None:
    """Short of the flood limit, every refusal is answered and the connection stays open."""
    from tests.server.client import Client

    created = create_table(server.url, "geier", 2, ["me", "open"])
    watcher = Client(server.ws_url, created["table_id"])
    for index in range(FLOOD_LIMIT // 2):
        watcher.send({"type": "hello", "last_seq": index})
    codes = set()
    for _ in range(FLOOD_LIMIT // 2):
        message = watcher.recv()
        codes.add(message.get("code", message["type"]))
    assert "rate_limited" in codes and "state" in codes
    watcher.close()
