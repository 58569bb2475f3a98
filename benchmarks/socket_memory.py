"""Memory of sockets that never read: what do ``--sockets`` WebSockets cost that say ``hello`` again and again at a
table whose chat is full, and never read a byte?

``python -m benchmarks.socket_memory [--sockets 60] [--hellos 100]``

It starts ``ludotheque serve`` on a fresh SQLite file (the per-address limits raised: every socket comes from
loopback), fills one table's spectators' room with 100 messages of 300 characters (the history a connection is
sent), reads the server's RSS (``/proc``), opens ``--sockets`` WebSockets by hand on sockets with a 4 KiB receive
buffer (a stalled phone), each sending ``--hellos`` hellos at once, waits three seconds, reads the RSS again and
prints one JSON object: the RSS before and after, the growth, and how many sockets the server closed (their outbox
full: 1013).  Target: under 100 MB in all for 60 sockets.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import socket
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from benchmarks.table_memory import rss_kib
from ludotheque.server.process import ServerProcess


def raw_websocket(port: int, path: str) -> socket.socket:
    """A WebSocket opened by hand on a socket with a small receive buffer; nothing past the handshake is read."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)
    if not answer.startswith(b"HTTP/1.1 101"):
        raise RuntimeError(answer.decode(errors="replace"))
    return sock


def text_frame(payload: bytes) -> bytes:
    mask = os.urandom(4)
    masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + masked


def closed(sock: socket.socket) -> bool:
    """Whether the server closed ``sock`` (its data ends, or the connection was reset)."""
    sock.settimeout(0.5)
    try:
        while chunk := sock.recv(65536):
            del chunk
        return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="ludotheque-sockets-"))
    server = ServerProcess(f"sqlite:///{folder / 'sockets.db'}", folder).start()
    socks: list[socket.socket] = []
    try:
        created = httpx.post(f"{server.url}/api/tables", json={"game": "geier", "players": 2,
                                                               "seats": ["me", "open"]}).json()
        path = f"/ws/tables/{created['table_id']}"
        for index in range(100):  # one message a connection: the chat's pace is one a second per connection
            with connect(f"{server.ws_url}{path}") as speaker:
                speaker.send(json.dumps({"type": "hello", "last_seq": 0}))
                speaker.send(json.dumps({"type": "chat", "text": f"{index:03d} " + "x" * 296}))
                while json.loads(speaker.recv(timeout=30))["type"] != "chat":
                    pass
        time.sleep(1.0)
        before = rss_kib(server)
        hello = text_frame(b'{"type": "hello", "last_seq": 0}')
        for _ in range(args.sockets):
            sock = raw_websocket(server.port, path)
            sock.sendall(hello * args.hellos)
            socks.append(sock)
        time.sleep(3.0)
        after = rss_kib(server)
        shut = sum(closed(sock) for sock in socks)
    finally:
        for sock in socks:
            sock.close()
        server.stop()
    return {"sockets": args.sockets, "hellos": args.hellos, "rss_before_mib": round(before / 1024, 1),
            "rss_after_mib": round(after / 1024, 1), "rss_growth_mib": round((after - before) / 1024, 1),
            "closed_by_server": shut}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=60)
    parser.add_argument("--hellos", type=int, default=100)
    print(json.dumps(run(parser.parse_args())))


if __name__ == "__main__":
    main()
