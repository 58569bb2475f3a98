"""Nothing acknowledged is lost: the server is killed with SIGKILL mid-game and restarted on the same database.

Scripted clients play several tables at once while the server process is killed at random moments.  After each
restart they reconnect with ``hello`` and the last seq they had, and play on.  At the end: every acknowledged
move is in the database exactly once, at the seq its ack named; every table replays; every frame any client ever
received (before or after a crash) equals the seat's view at that seq in the replayed game; every game finished.
``make fuzz`` plays more tables and kills more often.
"""

from __future__ import annotations

import contextlib
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

import ludotheque
from ludotheque.server.db import make_engine
from ludotheque.server.process import ServerProcess
from ludotheque.server.store import Store
from ludotheque.testing import fuzz_games

from .client import Client, create_table
from .test_play import check_frames

GAMES = [("geier", 2, {}), ("mu", 3, {"target": 20}), ("safaru", 2, {}), ("geier", 3, {})]


class Player:
    """One person's seat across crashes: reconnects after each restart, keeps every message received."""

    def __init__(self, server: ServerProcess, table_id: str, token: str, seat: int) -> None:
        self.server, self.table_id, self.token, self.seat = server, table_id, token, seat
        self.acks: dict[str, int] = {}
        self.sessions: list[tuple[Client, int]] = []  # each connection and the seq its hello named
        self.client: Client | None = None
        self.seq = 0
        self.moved_at = -1
        self.counter = 0
        self.done = False

    def connect(self) -> None:
        self.moved_at = -1  # a move sent before the crash may not have been committed: choose again
        self.client = Client(self.server.ws_url, self.table_id, self.token)
        self.sessions.append((self.client, self.seq))
        self.client.hello(self.seq)

    def step(self, rng: random.Random) -> None:
        assert self.client is not None
        try:
            message = self.client.recv(timeout=0.05)
        except TimeoutError:
            message = None
        if message is not None and message["type"] == "ack":
            self.acks[message["client_move_id"]] = message["seq"]
        state = self.client.state
        if state is None:
            return
        self.seq = state["seq"]
        self.done = state["view"]["terminal"]
        if state["legal"] and self.moved_at != state["seq"]:
            self.moved_at = state["seq"]
            self.counter += 1
            move = rng.choice(state["legal"])["notation"]
            self.client.send({"type": "move", "move": move, "client_move_id": f"s{self.seat}-{self.counter}",
                              "after_seq": state["seq"]})


def run(server: ServerProcess, players: list[Player], rng: random.Random, kills: int, seconds: float) -> int:
    """Play until every game ends, killing the server ``kills`` times at random moments; the kills done."""
    done_kills = 0
    deadline = time.monotonic() + seconds
    next_kill = time.monotonic() + rng.uniform(0.3, 1.5)
    for player in players:
        player.connect()
    while time.monotonic() < deadline and not all(p.done for p in players):
        if done_kills < kills and time.monotonic() >= next_kill:
            server.kill()
            done_kills += 1
            server.start()
            for player in players:
                player.connect()  # a new connection, hello with the last seq it had
            next_kill = time.monotonic() + rng.uniform(0.3, 1.5)
            continue
        for player in players:
            with contextlib.suppress(ConnectionClosed):  # the server died under it: the restart reconnects it
                player.step(rng)
    assert all(p.done for p in players), "every game finished"
    return done_kills


@pytest.mark.fuzz
def test_kill_minus_nine_loses_no_acknowledged_move(db_url: str, tmp_path: Path) -> None:
    rng = random.Random(11)
    server = ServerProcess(db_url, tmp_path).start()
    try:
        players = []
        for game, count, options in GAMES * fuzz_games(1, 4):
            created = create_table(server.url, game, count, ["me"] + ["bot:random"] * (count - 1), options=options)
            players.append(Player(server, created["table_id"], created["token"], created["seat"]))
        kills = run(server, players, rng, kills=fuzz_games(3, 25), seconds=fuzz_games(150, 1200))
        assert kills >= 1
        records = {p.table_id: httpx.get(f"{server.url}/api/tables/{p.table_id}/record").json() for p in players}
    finally:
        server.stop()
    store = Store(make_engine(db_url))
    for player in players:
        rows = store.actions(player.table_id)
        by_id = [row for row in rows if row.client_move_id is not None]
        ids = [row.client_move_id for row in by_id]
        assert len(ids) == len(set(ids)), "no move was applied twice"
        at = {row.client_move_id: row.seq for row in by_id}
        for client_move_id, seq in player.acks.items():
            assert at.get(client_move_id) == seq, f"acknowledged move {client_move_id} is at seq {seq}"
        record = records[player.table_id]
        assert [a["action"] for a in record["actions"]] == [row.action for row in rows]
        assert ludotheque.replay(record).is_terminal()
        for session, since in player.sessions:
            check_frames(record, session, player.seat, since)
    store.engine.dispose()


def test_a_crash_between_commit_and_ack_then_a_resend_gets_the_original_ack(db_url: str, tmp_path: Path) -> None:
    server = ServerProcess(db_url, tmp_path).start({"LUDOTHEQUE_CRASH_AFTER_COMMIT": "1"})
    try:
        created = create_table(server.url, "geier", 2, ["me", "bot:random"])
        client = Client(server.ws_url, created["table_id"], created["token"])
        state = client.hello(0)
        while not state["legal"]:
            state = client.next("state")
        move: dict[str, Any] = {"type": "move", "move": state["legal"][-1]["notation"], "client_move_id": "only",
                                "after_seq": state["seq"]}
        client.send(move)
        with pytest.raises((ConnectionClosed, TimeoutError)):
            client.next("ack", timeout=10)  # the server died after the commit, before the ack
        server.process.wait(10)  # type: ignore[union-attr]
        server.start({"LUDOTHEQUE_CRASH_AFTER_COMMIT": "0"})
        again = Client(server.ws_url, created["table_id"], created["token"])
        again.hello(0)
        again.send(move)
        ack = again.next("ack")
        rows = Store(make_engine(db_url)).actions(created["table_id"])
        mine = [row for row in rows if row.client_move_id == "only"]
        assert len(mine) == 1 and ack["seq"] == mine[0].seq and mine[0].notation == move["move"]
    finally:
        server.stop()
