"""Hostile frames (hypothesis): arbitrary text, binary, non-JSON, deeply nested JSON, moves with any fields,
oversize and invalid UTF-8.  Each gets an error frame or a close code, never a crash: the connection that sent a
readable frame stays open, and another table plays on throughout."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from ludotheque.server.process import ServerProcess

from .client import Client, create_table

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=30,
)
MOVE = st.fixed_dictionaries(
    {"type": st.just("move")},
    optional={"move": JSON, "client_move_id": JSON, "after_seq": JSON, "seat": JSON},
)
NESTED = st.integers(min_value=50, max_value=5000).map(lambda depth: "[" * depth + "]" * depth)
FRAMES = st.one_of(
    st.text(max_size=200),
    st.binary(max_size=200),
    JSON.map(json.dumps),
    MOVE.map(json.dumps),
    NESTED,
    st.just(json.dumps({"type": "hello", "last_seq": 0, "pad": "x" * 70_000})),  # over 64 KiB
)


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("fuzz")
    server = ServerProcess(f"sqlite:///{folder / 'ludotheque.db'}", folder).start()
    target = create_table(server.url, "mu", 3, ["me", "bot:random", "bot:random"], options={"target": 30})
    other = create_table(server.url, "geier", 2, ["me", "bot:random"])
    try:
        yield {"server": server, "target": target, "other": other, "client": None, "frames": 0, "closed": 0}
    finally:
        server.stop()


def connection(box: dict[str, Any]) -> Client:
    if box["client"] is None:
        server, target = box["server"], box["target"]
        box["client"] = Client(server.ws_url, target["table_id"], target["token"])
        box["client"].hello(0)
    client: Client = box["client"]
    return client


@pytest.mark.fuzz
@settings(deadline=None, suppress_health_check=list(HealthCheck))  # examples: the profile's (conftest.py)
@given(frame=FRAMES)
def test_hostile_frames_get_an_error_or_a_close_code(fuzzed: dict[str, Any], frame: str | bytes) -> None:
    client = connection(fuzzed)
    fuzzed["frames"] += 1
    try:
        client.send(frame)
        message = client.recv(timeout=10)
        while message["type"] == "state":  # a frame after a change the bots made meanwhile
            message = client.recv(timeout=10)
        assert message["type"] in ("error", "ack"), message
        if message["type"] == "error":
            assert message["code"] in ("malformed", "not_your_turn", "illegal", "stale", "rate_limited")
    except ConnectionClosed as closed:
        assert closed.rcvd is not None and closed.rcvd.code in (1009, 1007), closed  # too big, or not UTF-8
        fuzzed["closed"] += 1
        fuzzed["client"] = None
    except TimeoutError:
        # a hello whose state was merged with a frame already sent: the connection must still answer
        fuzzed["client"] = None


def test_invalid_utf8_is_closed_and_another_table_plays_on(fuzzed: dict[str, Any], tmp_path: Path) -> None:
    server = fuzzed["server"]
    client = Client(server.ws_url, fuzzed["target"]["table_id"], fuzzed["target"]["token"])
    with client.ws.protocol_mutex:  # a text frame whose bytes are not UTF-8, below the client's own checks
        client.ws.protocol.send_text(b"\xff\xfe not utf-8")
        client.ws.send_data()
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(20):
            client.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
    other = Client(server.ws_url, fuzzed["other"]["table_id"], fuzzed["other"]["token"])
    state = other.hello(0)
    while not state["legal"]:
        state = other.next("state")
    other.send({"type": "move", "move": state["legal"][0]["notation"], "client_move_id": "ok",
                "after_seq": state["seq"]})
    assert other.next("ack")["client_move_id"] == "ok"
