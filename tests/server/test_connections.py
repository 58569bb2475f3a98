"""Slowloris and file descriptors (``server/guard.py``): a request's headers have a deadline, one peer address holds
at most ``LUDOTHEQUE_CONNECTIONS_PER_ADDRESS`` connections, the connections in all leave room under the descriptor
limit (a new one takes the place of the oldest still waiting for its headers), "too many open files" is logged in
one JSON line a second at most, and ``/healthz`` answers throughout.

The attackers connect from other loopback addresses (127.0.0.3 and up) than the test's own requests (127.0.0.2):
127.0.0.1 is the trusted proxy of ``--forwarded-allow-ips``' default, never capped.  The database plays no part:
SQLite only.  The waits are deadlines for a hung server, not timed assertions."""

from __future__ import annotations

import json
import os
import resource
import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from ludotheque.server.process import ServerProcess

PARTIAL = b"GET /healthz HTTP/1.1\r\nHost: x\r\n"  # a request whose headers never end


def half_open(server: ServerProcess, source: str) -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.connect((server.host, server.port))
    sock.sendall(PARTIAL)
    return sock


def closed_by_server(sock: socket.socket, wait: float) -> bool:
    """Whether the server closed ``sock`` (within ``wait`` seconds)."""
    sock.settimeout(wait)
    try:
        return sock.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def healthz(server: ServerProcess, source: str = "127.0.0.2") -> int:
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(transport=transport, timeout=10) as client:
        return client.get(f"{server.url}/healthz").status_code


@pytest.fixture
def make_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    started: list[ServerProcess] = []
    yield started
    for server in started:
        server.stop()


def start(started: list[ServerProcess], tmp: pytest.TempPathFactory, env: dict[str, str],
          *extra: str) -> ServerProcess:
    server = ServerProcess(f"sqlite:///{tmp.mktemp('db') / 'ludotheque.db'}", tmp.mktemp("guard"), *extra)
    started.append(server)
    return server.start(env=env)


def test_a_slowloris_is_capped_by_address_and_timed_out(make_server: list[ServerProcess],
                                                        tmp_path_factory: pytest.TempPathFactory) -> None:
    server = start(make_server, tmp_path_factory, {"LUDOTHEQUE_HEADER_TIMEOUT_S": "1",
                                                   "LUDOTHEQUE_CONNECTIONS_PER_ADDRESS": "10"})
    socks = [half_open(server, "127.0.0.3") for _ in range(30)]
    try:
        # past the first ten, each is closed at once; the first ten wait for their headers
        assert sum(closed_by_server(sock, 5) for sock in socks[10:]) == 20
        assert healthz(server) == 200
        # then the deadline closes the first ten, without an answer
        assert all(closed_by_server(sock, 30) for sock in socks[:10])
        assert healthz(server, "127.0.0.3") == 200  # the address may connect again
    finally:
        for sock in socks:
            sock.close()


def test_connections_in_all_leave_room_for_a_new_request(make_server: list[ServerProcess],
                                                         tmp_path_factory: pytest.TempPathFactory) -> None:
    server = start(make_server, tmp_path_factory, {"LUDOTHEQUE_HEADER_TIMEOUT_S": "60",
                                                   "LUDOTHEQUE_CONNECTIONS_PER_ADDRESS": "10",
                                                   "LUDOTHEQUE_MAX_CONNECTIONS": "20"})
    socks = [half_open(server, f"127.0.0.{3 + index // 10}") for index in range(40)]
    try:
        for _ in range(5):
            assert healthz(server) == 200  # each takes the place of the oldest half-open connection
        assert closed_by_server(socks[0], 10)
    finally:
        for sock in socks:
            sock.close()


def test_too_many_open_files_is_one_json_line_a_second(make_server: list[ServerProcess],
                                                       tmp_path_factory: pytest.TempPathFactory) -> None:
    server = start(make_server, tmp_path_factory, {"LUDOTHEQUE_CONNECTIONS_PER_ADDRESS": "1000",
                                                   "LUDOTHEQUE_MAX_CONNECTIONS": "100000",
                                                   "LUDOTHEQUE_HEADER_TIMEOUT_S": "60"},
                   "--log-format", "json")
    assert server.process is not None
    pid = server.process.pid
    in_use = len(os.listdir(f"/proc/{pid}/fd"))
    resource.prlimit(pid, resource.RLIMIT_NOFILE, (in_use + 20, in_use + 20))
    socks: list[socket.socket] = []
    began = time.monotonic()
    try:
        for index in range(120):
            socks.append(half_open(server, f"127.0.0.{3 + index // 40}"))
        time.sleep(3.0)  # the server keeps trying to accept meanwhile: once a second
    finally:
        for sock in socks:
            sock.close()
    deadline = time.monotonic() + 30
    while True:  # the descriptors come back, and so does /healthz
        try:
            if healthz(server) == 200:
                break
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "/healthz did not answer once the connections closed"
        time.sleep(0.2)
    lasted = time.monotonic() - began  # out of descriptors at most this long: one line a second at most
    lines = server.log().splitlines()
    said = [line for line in lines if "out of file descriptors" in line]
    assert 1 <= len(said) <= lasted + 2, (lasted, said)
    for line in lines:
        json.loads(line)  # every line is one JSON object: no traceback
