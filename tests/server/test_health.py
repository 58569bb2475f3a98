"""What a host watches: ``/healthz``, ``/readyz`` (503 while the database does not answer), ``/metrics`` in
Prometheus text format, JSON log lines without any token, and the client's address as the proxy forwards it."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from tests.server.conftest import PrivateCluster

from ludotheque.server.logs import redact
from ludotheque.server.process import ServerProcess

from .client import Client, create_table


def scrape(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """``/metrics`` as ``{(sample name, sorted labels): value}``, parsed by Prometheus's own parser."""
    answer = httpx.get(f"{url}/metrics", timeout=10)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(answer.text) for sample in family.samples}


def wait_finished(url: str, table_id: str) -> None:
    deadline = time.monotonic() + 60
    while httpx.get(f"{url}/api/tables/{table_id}", timeout=10).json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.1)


def test_health_readiness_and_metrics(server: ServerProcess) -> None:
    assert httpx.get(f"{server.url}/healthz", timeout=10).status_code == 200
    assert httpx.get(f"{server.url}/readyz", timeout=10).status_code == 200
    wait_finished(server.url, create_table(server.url, "geier", 2, ["bot:random", "bot:random"])["table_id"])
    created = create_table(server.url, "geier", 2, ["me", "bot:random"])
    me = Client(server.ws_url, created["table_id"], created["token"])
    try:
        state = me.hello(0)
        while not state["legal"]:
            state = me.next("state")
        me.send("not json")
        assert me.next("error")["code"] == "malformed"
        assert httpx.get(f"{server.url}/api/tables/nope", timeout=10).status_code == 404
        metrics = scrape(server.url)  # the table waits for my move: nothing commits meanwhile
        committed = metrics[("ludotheque_actions_committed_total", ())]
        assert committed >= 45  # a whole game of Geier: 15 point cards, each bid by two bots
        assert metrics[("ludotheque_commit_seconds_count", ())] == committed
        assert metrics[("ludotheque_bot_move_seconds_count", (("level", "random"),))] >= 30
        assert metrics[("ludotheque_websocket_connections", ())] == 1
        assert metrics[("ludotheque_tables_in_memory", (("status", "playing"),))] >= 1
        assert metrics[("ludotheque_refusals_total", (("code", "malformed"), ("kind", "websocket")))] == 1
        assert metrics[("ludotheque_refusals_total", (("code", "404"), ("kind", "http")))] >= 1
    finally:
        me.close()
    deadline = time.monotonic() + 10
    while scrape(server.url)[("ludotheque_websocket_connections", ())] != 0:
        assert time.monotonic() < deadline, "a closed connection is still counted"
        time.sleep(0.05)
    old = httpx.get(f"{server.url}/api/metrics", timeout=10).json()  # the load benchmark reads this one
    assert old["commits"] >= 45 and "random" in old["bots"]


def test_readyz_answers_503_while_sqlite_is_locked(tmp_path: Path) -> None:
    path = tmp_path / "ludotheque.db"
    server = ServerProcess(f"sqlite:///{path}", tmp_path).start({"LUDOTHEQUE_DB_WAIT_S": "0.5"})
    try:
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN EXCLUSIVE")  # another process holds the file: no write can be made
        try:
            assert httpx.get(f"{server.url}/readyz", timeout=20).status_code == 503
            assert httpx.get(f"{server.url}/healthz", timeout=20).status_code == 200
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        assert httpx.get(f"{server.url}/readyz", timeout=20).status_code == 200
    finally:
        server.stop()


def test_readyz_answers_503_while_postgresql_is_down(private_postgres: PrivateCluster) -> None:
    server = ServerProcess(private_postgres.url, private_postgres.folder).start({"LUDOTHEQUE_DB_WAIT_S": "1"})
    try:
        assert httpx.get(f"{server.url}/readyz", timeout=30).status_code == 200
        private_postgres.stop()
        assert httpx.get(f"{server.url}/readyz", timeout=30).status_code == 503
        assert httpx.get(f"{server.url}/healthz", timeout=30).status_code == 200
        private_postgres.start()
        assert httpx.get(f"{server.url}/readyz", timeout=30).status_code == 200
    finally:
        server.stop()


def json_lines(server: ServerProcess) -> list[dict[str, str]]:
    lines = [line for line in server.log().splitlines() if line.strip()]
    parsed = [json.loads(line) for line in lines]  # every line is one JSON object
    for line in parsed:
        assert {"time", "level", "logger", "message"} <= line.keys()
    return parsed


def test_json_logs_carry_no_token_and_show_the_forwarded_address(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'ludotheque.db'}", tmp_path,
                           "--log-format", "json", "--proxy-headers").start()
    try:
        created = create_table(server.url, "geier", 2, ["me", "open"], private=True)
        token, invite = created["token"], created["invite_url"].rpartition("invite=")[2]
        me = Client(server.ws_url, created["table_id"], token)
        me.hello(0)
        me.close()
        httpx.get(f"{server.url}/tables/{created['table_id']}?invite={invite}", timeout=10)
        forwarded = httpx.get(f"{server.url}/healthz", headers={"X-Forwarded-For": "203.0.113.9"}, timeout=10)
        assert forwarded.status_code == 200
    finally:
        server.stop()
    lines = json_lines(server)
    text = server.log()
    assert token not in text and invite not in text
    handshake = [line["message"] for line in lines if "WebSocket /ws/tables/" in line["message"]]
    assert handshake and all("token=[redacted]" in message for message in handshake)
    assert any("invite=[redacted]" in line["message"] for line in lines)
    access = [line["message"] for line in lines if line["logger"] == "uvicorn.access" and "/healthz" in line["message"]]
    assert len(access) == 1 and access[0].startswith("203.0.113.9:")


def test_without_proxy_headers_a_forwarded_address_is_not_believed(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'ludotheque.db'}", tmp_path, "--log-format", "json").start()
    try:
        httpx.get(f"{server.url}/healthz", headers={"X-Forwarded-For": "203.0.113.9"}, timeout=10)
    finally:
        server.stop()
    access = [line["message"] for line in json_lines(server) if "/healthz" in line["message"]]
    assert len(access) == 1 and access[0].startswith("127.0.0.1:")


def test_redact_hides_query_secrets_and_bearer_tokens() -> None:
    line = '127.0.0.1:5 - "WebSocket /ws/tables/abc?token=s3cr3t&x=1" [accepted] Authorization: Bearer t0k3n'
    assert redact(line) == ('127.0.0.1:5 - "WebSocket /ws/tables/abc?token=[redacted]&x=1" [accepted] '
                            "Authorization: Bearer [redacted]")
    assert redact("/tables/x?a=1&invite=CODE9 HTTP/1.1") == "/tables/x?a=1&invite=[redacted] HTTP/1.1"
    assert redact("/api/players?player_token=abc") == "/api/players?player_token=[redacted]"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A file system of 8 MiB of its own (tmpfs), to be filled; mounting one needs root."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(disk)], capture_output=True).returncode:
        pytest.skip("mounting a small file system needs root")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def test_readyz_answers_503_while_the_disk_is_full(small_disk: Path, tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{small_disk / 'ludotheque.db'}", tmp_path).start({"LUDOTHEQUE_DB_WAIT_S": "1"})
    try:
        assert httpx.get(f"{server.url}/readyz", timeout=20).status_code == 200
        filler = small_disk / "filler"
        with filler.open("wb") as handle, contextlib.suppress(OSError):
            while True:  # until the file system has no block left
                handle.write(b"\0" * 65536)
                handle.flush()
        ready = httpx.get(f"{server.url}/readyz", timeout=20)
        assert ready.status_code == 503, ready.text
        assert httpx.get(f"{server.url}/healthz", timeout=20).status_code == 200
        filler.unlink()
        assert httpx.get(f"{server.url}/readyz", timeout=20).status_code == 200
        assert httpx.post(f"{server.url}/api/players", json={"name": "Ana"}, timeout=20).status_code == 201
    finally:
        server.stop()
