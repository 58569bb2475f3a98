"""Live play over real WebSockets: every game to its end against bots, people at one table, spectators,
reconnecting, resent moves, and every error code, on SQLite and PostgreSQL.

Hidden information: every frame a connection received is compared with what the engine shows that seat (its view,
its legal moves and its events, computed again from the finished game's record): a frame that carried anything
more would differ (DECISIONS all-3).
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from ludotheque.server.process import ServerProcess
from ludotheque.table import Table

from .client import Client, create_table, play_to_end

#: One short configuration per game (caps where a match is a series of hands).
GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("geier", 3, {}),
    ("cheese", 2, {}),
    ("mice", 2, {}),
    ("mu", 3, {"target": 30}),
    ("rummu", 3, {"hands": 1}),
    ("calcory", 2, {}),
    ("safaru", 2, {}),
]


def check_frames(record: dict[str, Any], client: Client, seat: int | None, since: int = 0) -> None:
    """Every frame ``client`` received equals the engine's view, legal moves and events of ``seat`` then
    (``since``: the seq its hello named, after which its events start)."""
    table = Table.restore({**record, "actions": []}, events=True)
    by_seq: dict[int, tuple[dict[str, Any], list[Any]]] = {}

    def remember() -> None:
        legal = table.legal_moves(seat) if seat is not None else []
        by_seq[table.seq] = (table.state.view(seat), legal)

    remember()
    for item in record["actions"]:
        table._restore_one(item["by"], item["move"], item["action"])
        remember()
    received_events: list[dict[str, Any]] = []
    for frame in client.frames():
        view, legal = by_seq[frame["seq"]]
        assert frame["view"] == view, f"seat {seat}'s frame at seq {frame['seq']} is not its view"
        if frame["status"] == "playing":
            assert frame["legal"] == legal
        else:
            assert frame["legal"] == []
        received_events.extend(frame["events"])
    assert received_events == table.events(seat, since=since)[: len(received_events)]


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_every_game_plays_to_its_end_against_bots(
    server: ServerProcess, game: str, players: int, options: dict[str, Any]
) -> None:
    created = create_table(server.url, game, players, ["me"] + ["bot:heuristic"] * (players - 1), options=options)
    me = Client(server.ws_url, created["table_id"], created["token"])
    watcher = Client(server.ws_url, created["table_id"])
    me.hello(0)
    watcher.hello(0)
    final = play_to_end([me, watcher], random.Random(players))
    assert final["status"] == "finished" and final["view"]["terminal"]
    record = httpx.get(f"{server.url}/api/tables/{created['table_id']}/record").json()
    assert record["actions"] and record["meta"]["seats"][0] == "player"
    again = Table.restore(record)
    assert again.is_over() and again.state.returns() == final["view"]["returns"]
    check_frames(record, me, 0)
    check_frames(record, watcher, None)
    assert me.frames()[-1]["events"] or len(me.frames()) > 1, "the client saw something happen"
    acked = [m for m in me.received if m["type"] == "ack"]
    assert acked and all(record["actions"][m["seq"] - 1]["by"] == 0 for m in acked)
    me.close()
    watcher.close()


def test_two_people_at_one_table_and_a_spectator(server: ServerProcess) -> None:
    created = create_table(server.url, "geier", 3, ["me", "open", "bot:random"])
    table_id = created["table_id"]
    other = httpx.post(f"{server.url}/api/tables/{table_id}/join", json={"name": "Bo"}).json()
    ana, bo = Client(server.ws_url, table_id, created["token"]), Client(server.ws_url, table_id, other["token"])
    watcher = Client(server.ws_url, table_id)
    for client in (ana, bo, watcher):
        client.hello(0)
    play_to_end([ana, bo, watcher], random.Random(7))
    record = httpx.get(f"{server.url}/api/tables/{table_id}/record").json()
    check_frames(record, ana, 0)
    check_frames(record, bo, 1)
    check_frames(record, watcher, None)
    assert all(frame["legal"] == [] for frame in watcher.frames())


def test_reconnect_with_last_seq_gets_the_events_since(server: ServerProcess) -> None:
    created = create_table(server.url, "geier", 2, ["me", "bot:heuristic"])
    table_id, token = created["table_id"], created["token"]
    first = Client(server.ws_url, table_id, token)
    state = first.hello(0)
    while not state["legal"]:
        state = first.next("state")
    move = state["legal"][0]["notation"]
    first.send({"type": "move", "move": move, "client_move_id": "a", "after_seq": state["seq"]})
    first.next("ack")
    seen = first.next("state")["seq"]
    first.close()
    again = Client(server.ws_url, table_id, token)
    resumed = again.hello(seen)
    everything = Client(server.ws_url, table_id, token).hello(0)  # a moment later: bots may have moved
    assert resumed["seq"] >= seen and everything["seq"] >= resumed["seq"]
    assert resumed["events"] == [e for e in everything["events"] if seen < e["seq"] <= resumed["seq"]]
    assert [e for e in everything["events"] if e["seq"] <= seen] == first_events(first)


def first_events(client: Client) -> list[dict[str, Any]]:
    return [event for frame in client.frames() for event in frame["events"]]


def test_a_resent_move_gets_its_first_ack_and_applies_nothing(server: ServerProcess) -> None:
    created = create_table(server.url, "mu", 3, ["me", "bot:heuristic", "bot:heuristic"], options={"target": 30})
    me = Client(server.ws_url, created["table_id"], created["token"])
    state = me.hello(0)
    while not state["legal"]:
        state = me.next("state")
    move = {"type": "move", "move": state["legal"][0]["notation"], "client_move_id": "once", "after_seq": state["seq"]}
    me.send(move)
    first = me.next("ack")
    me.send({**move, "move": state["legal"][-1]["notation"], "after_seq": 0})  # the same id, another move
    assert me.next("ack") == first
    record_moves = [m for m in me.received if m["type"] == "ack"]
    assert len(record_moves) == 2 and record_moves[0]["seq"] == record_moves[1]["seq"]


def test_every_error_code_and_the_connection_stays_open(server: ServerProcess) -> None:
    created = create_table(server.url, "geier", 2, ["me", "open"])
    table_id = created["table_id"]
    me = Client(server.ws_url, table_id, created["token"])
    state = me.hello(0)

    def error(message: dict[str, Any] | str | bytes) -> dict[str, Any]:
        me.send(message)
        return me.next("error")

    move = {"type": "move", "move": "15", "client_move_id": "m1", "after_seq": 0}
    assert error(move)["code"] == "not_your_turn"  # the table waits for its second player
    other = httpx.post(f"{server.url}/api/tables/{table_id}/join", json={"name": "Bo"}).json()
    state = me.next("state")
    while not state["legal"]:
        state = me.next("state")
    assert error("{not json")["code"] == "malformed"
    assert error(b"\x00\x01")["code"] == "malformed"
    assert error({"type": "dance"})["code"] == "malformed"
    assert error({"type": "move", "move": 15, "client_move_id": "m2", "after_seq": state["seq"]})["code"] == "malformed"
    illegal = error({"type": "move", "move": "16", "client_move_id": "m3", "after_seq": state["seq"]})
    assert illegal["code"] == "illegal" and "16" in illegal["message"]
    stale = error({"type": "move", "move": "15", "client_move_id": "m4", "after_seq": state["seq"] - 1})
    assert stale["code"] == "stale"
    watcher = Client(server.ws_url, table_id)
    watcher.send({"type": "move", "move": "15", "client_move_id": "w", "after_seq": state["seq"]})
    assert watcher.next("error")["code"] == "unauthorized"
    for index in range(80):
        me.send({"type": "hello", "last_seq": index})
    assert me.next("error")["code"] == "rate_limited"
    time.sleep(2.5)  # the bucket refills; after all that, the connection still plays
    me.send({"type": "move", "move": "15", "client_move_id": "m5", "after_seq": me.hello(0)["seq"]})
    assert me.next("ack")["client_move_id"] == "m5"
    bo = Client(server.ws_url, table_id, other["token"])
    assert bo.hello(0)["legal"]


def test_handshake_refusals(server: ServerProcess) -> None:
    created = create_table(server.url, "geier", 2, ["me", "open"])
    other = create_table(server.url, "geier", 2, ["me", "open"])
    with pytest.raises(ConnectionClosed) as closed:
        Client(server.ws_url, "no-such-table").recv(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    with pytest.raises(ConnectionClosed) as closed:
        Client(server.ws_url, created["table_id"], other["token"]).recv(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


def test_oversize_messages_close_the_connection_and_others_play_on(server: ServerProcess) -> None:
    created = create_table(server.url, "geier", 2, ["me", "bot:heuristic"])
    big = Client(server.ws_url, created["table_id"], created["token"])
    big.hello(0)
    with pytest.raises(ConnectionClosed) as closed:
        big.send(json.dumps({"type": "hello", "pad": "x" * 70_000}))
        for _ in range(10):
            big.recv(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    again = Client(server.ws_url, created["table_id"], created["token"])
    assert again.hello(0)["view"]["game"] == "geier"
