"""Faults and foreign pages: a locked database refuses moves plainly and play resumes; another site's page cannot
open a connection."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import PrivateCluster
from websockets.exceptions import ConnectionClosed

from ludotheque.server.db import make_engine
from ludotheque.server.process import ServerProcess
from ludotheque.server.store import Store

from .client import Client, create_table


def test_a_locked_database_refuses_moves_plainly_and_play_resumes(tmp_path: Path) -> None:
    path = tmp_path / "ludotheque.db"
    server = ServerProcess(f"sqlite:///{path}", tmp_path).start({"LUDOTHEQUE_DB_WAIT_S": "0.5"})
    try:
        created = create_table(server.url, "geier", 2, ["me", "bot:random"])
        table_id = created["table_id"]
        me = Client(server.ws_url, table_id, created["token"])
        state = me.hello(0)
        while not state["legal"]:
            state = me.next("state")
        rows_before = len(Store(make_engine(f"sqlite:///{path}")).actions(table_id))
        move: dict[str, Any] = {"type": "move", "move": "15", "client_move_id": "x", "after_seq": state["seq"]}
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN EXCLUSIVE")  # another process holds the file
        try:
            me.send(move)
            refused = me.next("error", timeout=20)
            assert refused["code"] == "unavailable" and "nothing changed" in refused["message"]
            busy = httpx.post(f"{server.url}/api/tables", json={"game": "geier", "players": 2}, timeout=20)
            assert busy.status_code == 503 and "database" in busy.json()["detail"]
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        assert len(Store(make_engine(f"sqlite:///{path}")).actions(table_id)) == rows_before  # nothing half-written
        me.send(move)  # the same move again, once the database answers
        acked = me.next("ack")
        assert acked["client_move_id"] == "x"
        rows = Store(make_engine(f"sqlite:///{path}")).actions(table_id)
        assert [r.client_move_id for r in rows].count("x") == 1
        # play resumes: the next point card is turned and the bot chooses again
        state = me.next("state")
        while not (state["legal"] and state["seq"] >= acked["seq"] + 2):
            state = me.next("state")
        assert state["view"]["table"]["round"] == 2
    finally:
        server.stop()


def test_a_page_of_another_site_cannot_open_a_connection(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'ludotheque.db'}", tmp_path,
                           "--allow-origin", "https://club.example").start()
    try:
        created = create_table(server.url, "geier", 2, ["me", "bot:random"])
        table_id, token = created["table_id"], created["token"]
        with pytest.raises(ConnectionClosed) as closed:
            Client(server.ws_url, table_id, token, origin="https://evil.example").recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        own = Client(server.ws_url, table_id, token, origin=f"http://127.0.0.1:{server.port}")
        assert own.hello(0)["view"]["game"] == "geier"
        allowed = Client(server.ws_url, table_id, None, origin="https://club.example")
        assert allowed.hello(0)["legal"] == []
    finally:
        server.stop()


def test_a_seat_acts_only_for_itself(tmp_path: Path) -> None:
    # the seat comes from the token, never from the message: seat 0's token cannot play seat 1's card
    server = ServerProcess(f"sqlite:///{tmp_path / 'ludotheque.db'}", tmp_path).start()
    try:
        created = create_table(server.url, "geier", 2, ["me", "open"])
        table_id = created["table_id"]
        other = httpx.post(f"{server.url}/api/tables/{table_id}/join", json={"name": "Bo"}).json()
        ana = Client(server.ws_url, table_id, created["token"])
        state = ana.hello(0)
        while not state["legal"]:
            state = ana.next("state")
        ana.send({"type": "move", "move": "15", "client_move_id": "a", "after_seq": state["seq"], "seat": 1})
        ack = ana.next("ack")
        rows = Store(make_engine(f"sqlite:///{tmp_path / 'ludotheque.db'}")).actions(table_id)
        assert [(r.actor, r.notation) for r in rows if r.seq == ack["seq"]] == [(0, "15")]
        ana.send({"type": "move", "move": "14", "client_move_id": "b", "after_seq": ana.next("state")["seq"],
                  "seat": 1})
        assert ana.next("error")["code"] == "not_your_turn"  # seat 1 is to act; seat 0's token cannot
        bo = Client(server.ws_url, table_id, other["token"])
        assert [m["notation"] for m in bo.hello(0)["legal"]][-1] == "15"  # seat 1's hand is untouched
    finally:
        server.stop()


def test_postgresql_stopped_and_started_mid_game(private_postgres: PrivateCluster) -> None:
    url = private_postgres.url
    server = ServerProcess(url, private_postgres.folder).start({"LUDOTHEQUE_DB_WAIT_S": "1"})
    try:
        created = create_table(server.url, "geier", 2, ["me", "bot:random"])
        me = Client(server.ws_url, created["table_id"], created["token"])
        state = me.hello(0)
        while not state["legal"]:
            state = me.next("state")
        move: dict[str, Any] = {"type": "move", "move": "15", "client_move_id": "x", "after_seq": state["seq"]}
        private_postgres.stop()
        me.send(move)
        refused = me.next("error", timeout=30)
        assert refused["code"] == "unavailable"
        busy = httpx.post(f"{server.url}/api/tables", json={"game": "geier", "players": 2}, timeout=30)
        assert busy.status_code == 503
        private_postgres.start()
        me.send(move)
        acked = me.next("ack", timeout=30)
        rows = Store(make_engine(url)).actions(created["table_id"])
        assert [(r.seq, r.notation) for r in rows if r.client_move_id == "x"] == [(acked["seq"], "15")]
        state = me.next("state")
        while not (state["legal"] and state["seq"] >= acked["seq"] + 2):
            state = me.next("state", timeout=30)
        assert state["view"]["table"]["round"] == 2  # chance and the bot went on once the database came back
    finally:
        server.stop()
