"""Life at the table: clocks and what happens when a person's time runs out, people who leave and come back,
people who are gone, rematches and rated results, on SQLite and PostgreSQL, over real sockets."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from ludotheque.server.db import make_engine, migrate
from ludotheque.server.process import ServerProcess
from ludotheque.server.store import Store

from .client import Client, create_table, play_to_end

Frame = dict[str, Any]


def wait_for(client: Client, test: Callable[[Frame], bool], timeout: float = 60.0) -> Frame:
    """The first state frame (already received or to come) for which ``test`` holds."""
    for frame in client.frames():
        if test(frame):
            return frame
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        frame = client.next("state", timeout=max(0.01, deadline - time.monotonic()))
        if test(frame):
            return frame
    raise AssertionError("no such frame came")


def notices(client: Client) -> list[dict[str, Any]]:
    return [notice for frame in client.frames() for notice in frame["notices"]]


def summary(server: ServerProcess, table_id: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    return data


def post(server: ServerProcess, path: str, token: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.post(f"{server.url}{path}", headers=headers)


def test_a_person_whose_time_runs_out_gets_a_bot_move_then_loses_the_seat_and_takes_it_back(
    server: ServerProcess,
) -> None:
    created = create_table(server.url, "geier", 2, ["me", "bot:random"], clock={"move": 1, "reserve": 1})
    table_id, token = created["table_id"], created["token"]
    client = Client(server.ws_url, table_id, token)
    try:
        first = client.hello()
        assert first["clock"]["move"] == 1 and first["clock"]["reserve"] == 1
        mine = wait_for(client, lambda f: bool(f["legal"]))
        assert mine["clock"]["seats"][0]["running"] and 0 < mine["clock"]["seats"][0]["left"] <= 2
        assert mine["seats"][0]["connected"] and mine["seats"][0]["kind"] == "human"
        # the person never moves: a bot moves for them each time, and the third time it keeps the seat
        wait_for(client, lambda f: any(n["kind"] == "takeover" and n["seat"] == 0 for n in f["notices"]))
        timeouts = [n for n in notices(client) if n["kind"] == "timeout"]
        assert [n["seat"] for n in timeouts] == [0, 0, 0]
        assert summary(server, table_id)["seats"][0]["away"] is True
        # while the bot plays the seat, the person's own moves are refused
        frame = client.frames()[-1]
        if frame["legal"] and frame["status"] == "playing":
            client.send({"type": "move", "move": frame["legal"][0]["notation"], "client_move_id": "late",
                         "after_seq": frame["seq"]})
        reclaimed = post(server, f"/api/tables/{table_id}/reclaim", token)
        if reclaimed.status_code == 200:
            assert reclaimed.json()["seats"][0]["away"] is False
            wait_for(client, lambda f: any(n["kind"] == "reclaim" for n in f["notices"]))
        else:
            # the bots finished the game first
            assert reclaimed.status_code == 409 and summary(server, table_id)["status"] == "finished"
    finally:
        client.close()


def test_the_clock_spends_the_reserve_and_a_restart_gives_the_outage_back(
    db_url: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    process = ServerProcess(db_url, tmp_path_factory.mktemp("clock")).start()
    try:
        created = create_table(process.url, "geier", 2, ["me", "bot:random"], clock={"move": 1, "reserve": 30})
        table_id, token = created["table_id"], created["token"]
        client = Client(process.ws_url, table_id, token)
        mine = client.hello()
        mine = wait_for(client, lambda f: bool(f["legal"]))
        time.sleep(2.5)  # past the move time: the reserve pays the rest
        client.send({"type": "move", "move": mine["legal"][0]["notation"], "client_move_id": "m1",
                     "after_seq": mine["seq"]})
        acked = client.next("ack")["seq"]
        after = wait_for(client, lambda f: f["seq"] >= acked)
        spent = after["clock"]["seats"][0]["reserve"]
        assert spent < 30
        client.close()
        process.kill()
        time.sleep(2)  # the outage
        restarted = time.monotonic()
        process.start()
        client = Client(process.ws_url, table_id, token)
        again = client.hello()
        since_restart = time.monotonic() - restarted
        seat = again["clock"]["seats"][0]
        assert seat["reserve"] <= spent + 0.01, "the reserve spent before the crash was stored with the move"
        if seat["running"]:
            # the turn in progress began again at the restart: only what passed since then is gone from it, not the
            # two seconds of the outage
            assert seat["left"] >= 1 + seat["reserve"] - since_restart - 0.2
        client.close()
    finally:
        process.stop()


def test_leaving_hands_the_seat_to_a_bot_that_finishes_the_game(server: ServerProcess) -> None:
    created = create_table(server.url, "geier", 2, ["me", "bot:random"], reclaim=False)
    table_id, token = created["table_id"], created["token"]
    assert post(server, f"/api/tables/{table_id}/leave", None).status_code == 401
    assert post(server, f"/api/tables/{table_id}/leave", "not-a-seat-token").status_code == 403
    left = post(server, f"/api/tables/{table_id}/leave", token)
    assert left.status_code == 200, left.text
    assert left.json()["seats"][0]["away"] is True
    assert post(server, f"/api/tables/{table_id}/leave", token).status_code == 409
    refused = post(server, f"/api/tables/{table_id}/reclaim", token)
    if refused.status_code != 409:  # 409 when the bot finished the game first
        assert refused.status_code == 403 and "stays with the bot" in refused.json()["detail"]
    deadline = time.monotonic() + 60
    while summary(server, table_id)["status"] != "finished":
        assert time.monotonic() < deadline, "the bot did not finish the game"
        time.sleep(0.1)
    assert post(server, f"/api/tables/{table_id}/leave", token).status_code == 409


def test_a_person_gone_from_a_table_without_clock_loses_the_seat_to_a_bot(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    folder = tmp_path_factory.mktemp("absent")
    process = ServerProcess(f"sqlite:///{folder / 'db.sqlite'}", folder).start(env={"LUDOTHEQUE_ABSENT_S": "1"})
    try:
        created = create_table(process.url, "geier", 2, ["me", "bot:random"])
        table_id, token = created["table_id"], created["token"]
        watcher = Client(process.ws_url, table_id)  # a spectator sees what happens
        watcher.hello()
        client = Client(process.ws_url, table_id, token)
        client.hello()
        wait_for(watcher, lambda f: f["seats"][0]["connected"])
        client.close()
        wait_for(watcher, lambda f: any(n["kind"] == "takeover" and n["seat"] == 0 for n in f["notices"]))
        final = wait_for(watcher, lambda f: f["status"] == "finished")
        assert final["seats"][0]["away"] is True and not final["seats"][0]["connected"]
        watcher.close()
    finally:
        process.stop()


def test_a_rematch_turns_the_seats_and_starts_when_everyone_accepts(server: ServerProcess) -> None:
    created = create_table(server.url, "geier", 2, ["me", "open"], player_name="Ana")
    table_id = created["table_id"]
    joined = httpx.post(f"{server.url}/api/tables/{table_id}/join", json={"name": "Bruno"}).json()
    ana = Client(server.ws_url, table_id, created["token"])
    bruno = Client(server.ws_url, table_id, joined["token"])
    try:
        ana.hello()
        bruno.hello()
        play_to_end([ana, bruno], random.Random(5))
        offer = post(server, f"/api/tables/{table_id}/rematch", created["token"])
        assert offer.status_code == 200, offer.text
        new_id, ana_seat = offer.json()["table_id"], offer.json()["seat"]
        assert ana_seat == 1
        seen = wait_for(bruno, lambda f: f["rematch"] is not None)
        assert seen["rematch"] == {"table_id": new_id, "accepted": [0], "declined": []}
        waiting = summary(server, new_id)
        assert waiting["status"] == "waiting" and waiting["rematch_of"] == table_id
        assert [s["name"] for s in waiting["seats"]] == ["Bruno", "Ana"]
        assert waiting["seats"][0]["kind"] == "invited"
        accepted = post(server, f"/api/tables/{table_id}/rematch", joined["token"])
        assert accepted.status_code == 200 and accepted.json()["table_id"] == new_id and accepted.json()["seat"] == 0
        assert summary(server, new_id)["status"] == "playing"
        assert post(server, f"/api/tables/{table_id}/rematch", created["token"]).status_code == 409
        assert summary(server, table_id)["rematch"] == new_id
    finally:
        ana.close()
        bruno.close()


def test_a_rematch_is_offered_only_after_the_end(server: ServerProcess) -> None:
    created = create_table(server.url, "geier", 2, ["me", "bot:random"])
    refused = post(server, f"/api/tables/{created['table_id']}/rematch", created["token"])
    assert refused.status_code == 409 and "over" in refused.json()["detail"]


def test_a_rated_table_moves_the_ratings_of_the_player_and_the_bot(server: ServerProcess) -> None:
    created = create_table(server.url, "safaru", 2, ["me", "bot:random"], rated=True, player_name="Rated Rita")
    assert created["player_token"]
    client = Client(server.ws_url, created["table_id"], created["token"])
    try:
        client.hello()
        play_to_end([client], random.Random(2))
    finally:
        client.close()
    finished = summary(server, created["table_id"])
    assert finished["status"] == "finished" and finished["finished_at"] is not None
    board = httpx.get(f"{server.url}/api/ratings/safaru").json()["players"]
    names = {entry["name"]: entry for entry in board}
    assert names["Rated Rita"]["games"] == 1 and names["random"]["games"] >= 1


def test_an_unknown_player_token_is_refused(server: ServerProcess) -> None:
    response = httpx.post(f"{server.url}/api/tables", headers={"X-Player-Token": "nobody"},
                          json={"game": "geier", "players": 2, "seats": ["me", "bot:random"]})
    assert response.status_code == 401 and "X-Player-Token" in response.json()["detail"]


def test_a_game_is_finished_once_even_when_its_end_is_recorded_again(tmp_path: Path) -> None:
    store = Store(make_engine(f"sqlite:///{tmp_path / 'db.sqlite'}"))
    migrate(store.engine)
    table_id, _, _ = store.create_table(
        game="geier", players=2, options={}, name="t", private=False, default_bot="random",
        seat_specs=[("bot", "random", "random", None)] * 2, creator_seat=None,
    )
    calls: list[str] = []
    assert store.finish(table_id, {"returns": [1, 0], "winners": [0]}, lambda db, row: calls.append(row.id))
    assert not store.finish(table_id, {"returns": [1, 0], "winners": [0]}, lambda db, row: calls.append(row.id))
    assert calls == [table_id]
    row = store.table(table_id)
    assert row is not None and row.status == "finished" and row.result == {"returns": [1, 0], "winners": [0]}
