"""The table's chat (``server/live/chat.py``, ``docs/server.md``), against a real server on SQLite and PostgreSQL:
the players' room and the spectators' room never mix, a message has at most 300 characters and a connection says at
most one a second, messages are stored and given back to the readers of their room (after ``hello``, and in the
finished table's ``GET /api/tables/{id}/chat``), markup stays text, and no log line carries a message."""

from __future__ import annotations

import asyncio
import logging
import random
import time
import unicodedata
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy.exc import OperationalError

from ludotheque.server.live import Connection, chat
from ludotheque.server.process import ServerProcess

from ..client import Client, create_table, play_to_end

MARKUP = "<b>gras</b> & <script>alert(1)</script> <img src=x onerror=alert(2)>"


def chats(client: Client) -> list[dict[str, Any]]:
    return [m for m in client.received if m["type"] == "chat"]


def settle(client: Client) -> None:
    """Everything the server owed ``client`` so far has arrived: a malformed message's refusal comes after it."""
    client.send({"type": "settle"})
    assert client.next("error")["code"] == "malformed"


def say(client: Client, text: str, **extra: Any) -> dict[str, Any]:
    """``text`` said, and the speaker's own frame of it."""
    client.send({"type": "chat", "text": text, **extra})
    return client.next("chat")


def two_people_and_a_spectator(server: ServerProcess) -> tuple[dict[str, Any], list[Client]]:
    created = create_table(server.url, "geier", 2, ["me", "open"], player_name="Ana")
    joined = httpx.post(f"{server.url}/api/tables/{created['table_id']}/join", json={"name": "Bo"}).json()
    clients = [Client(server.ws_url, created["table_id"], created["token"]),
               Client(server.ws_url, created["table_id"], joined["token"]),
               Client(server.ws_url, created["table_id"])]
    for client in clients:
        client.hello()
    return created, clients


def test_the_rooms_never_mix(server: ServerProcess) -> None:
    _, (ana, bo, watcher) = two_people_and_a_spectator(server)
    try:
        said = say(ana, "Bonne partie !")
        assert said["room"] == "players" and said["seat"] == 0 and said["name"] == "Ana"
        assert said["text"] == "Bonne partie !" and isinstance(said["id"], int) and isinstance(said["at"], float)
        assert said["mine"] is True  # the connection that said it knows its own line ...
        assert bo.next("chat") == {**said, "mine": False}  # ... and only it
        seen = say(watcher, "Joli coup", name="Cleo")
        assert (seen["room"], seen["seat"], seen["name"]) == ("spectators", None, "Cleo")
        for client in (ana, bo, watcher):
            settle(client)
        # each frame went to its room's readers and nowhere else
        assert [m["room"] for m in chats(ana)] == [m["room"] for m in chats(bo)] == ["players"]
        assert [m["room"] for m in chats(watcher)] == ["spectators"]
    finally:
        for client in (ana, bo, watcher):
            client.close()
    assert "Bonne partie" not in server.log() and "Joli coup" not in server.log()


def test_length_emptiness_control_characters_and_pace(server: ServerProcess) -> None:
    created = create_table(server.url, "geier", 2, ["me", "open"])
    client = Client(server.ws_url, created["table_id"], created["token"])
    try:
        client.hello()
        client.send({"type": "chat", "text": "x" * 301})
        assert client.next("error")["code"] == "too_long"
        for empty in ("", "   \n\t ", "\x00\x07", 42, None):
            client.send({"type": "chat", "text": empty})
            assert client.next("error")["code"] == "malformed"
        assert say(client, " " + "é" * 300 + "\n")["text"] == "é" * 300  # the outer spaces do not count
        time.sleep(chat.MIN_INTERVAL_S)
        assert say(client, "a\x00b\nc\u202ed")["text"] == "ab cd"
        client.send({"type": "chat", "text": "encore"})  # within the second
        assert client.next("error")["code"] == "rate_limited"
        settle(client)
        assert [m["text"] for m in chats(client)] == ["é" * 300, "ab cd"]  # nothing refused was kept
    finally:
        client.close()
    again = Client(server.ws_url, created["table_id"], created["token"])
    try:
        again.hello()
        history = again.next("chat_history")
        assert [m["text"] for m in history["messages"]] == ["é" * 300, "ab cd"]
    finally:
        again.close()


def test_stored_and_given_back_to_their_readers_only(server: ServerProcess) -> None:
    created, (ana, bo, watcher) = two_people_and_a_spectator(server)
    table_id = created["table_id"]
    try:
        say(ana, MARKUP)
        bo.next("chat")
        say(watcher, "vu des gradins")
    finally:
        for client in (ana, bo, watcher):
            client.close()
    # a reconnecting client gets its own room's messages, markup as it was sent
    seat, spectator = Client(server.ws_url, table_id, created["token"]), Client(server.ws_url, table_id)
    try:
        seat.hello()
        spectator.hello()
        mine, theirs = seat.next("chat_history"), spectator.next("chat_history")
        assert (mine["room"], [m["text"] for m in mine["messages"]]) == ("players", [MARKUP])
        assert (theirs["room"], [m["text"] for m in theirs["messages"]]) == ("spectators", ["vu des gradins"])
    finally:
        seat.close()
        spectator.close()


def test_the_replay_shows_each_room_to_its_readers(server: ServerProcess) -> None:
    created = create_table(server.url, "geier", 2, ["me", "bot:random"], player_name="Ana")
    table_id = created["table_id"]
    seat, spectator = Client(server.ws_url, table_id, created["token"]), Client(server.ws_url, table_id)
    url = f"{server.url}/api/tables/{table_id}/chat"
    try:
        spectator.hello()
        seat.hello()
        say(seat, MARKUP)
        say(spectator, "vu des gradins")
        assert httpx.get(url).status_code == 409  # at the table, each reader gets its own room
        play_to_end([seat], random.Random(3))
        time.sleep(chat.MIN_INTERVAL_S)
        said_after = say(seat, "Merci")
        assert seat.state is not None and said_after["seq"] == seat.state["seq"]
    finally:
        seat.close()
        spectator.close()
    players = httpx.get(url, params={"room": "players"}, headers={"Authorization": f"Bearer {created['token']}"})
    assert players.status_code == 200, players.text
    assert [(m["seat"], m["name"], m["text"]) for m in players.json()] == [(0, "Ana", MARKUP), (0, "Ana", "Merci")]
    assert players.json()[0]["seq"] < players.json()[1]["seq"]  # each placed in the game for the replay
    assert httpx.get(url, params={"room": "players"}).status_code == 403  # nobody who sat there
    spectators = httpx.get(url)  # the spectators' room, for everyone
    assert [m["text"] for m in spectators.json()] == ["vu des gradins"]


@given(st.text(max_size=400))
def test_a_cleaned_message_has_no_control_character(text: str) -> None:
    cleaned = chat.clean(text)
    assert cleaned == cleaned.strip() and chat.clean(cleaned) == cleaned
    assert not any(unicodedata.category(c) == "Cc" or "\u202a" <= c <= "\u202e" or "\u2066" <= c <= "\u2069"
                   for c in cleaned)


def test_a_database_failure_is_logged_without_the_text(caplog: pytest.LogCaptureFixture) -> None:
    secret = "mon jeu est pourri"

    async def refuse(*_args: Any) -> int:
        raise OperationalError(f"INSERT ... ({secret})", {}, Exception(secret))

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    store = SimpleNamespace(in_writer=refuse, engine=None)
    live = SimpleNamespace(id="t", store=store, connections=set(), table=SimpleNamespace(seq=3),
                           row=SimpleNamespace(seats=[SimpleNamespace(name="Ana")]))
    connection = Connection(0, send)
    with caplog.at_level(logging.INFO, logger="ludotheque.server"):
        asyncio.run(chat.say(live, connection, {"type": "chat", "text": secret}))  # type: ignore[arg-type]
    assert connection.outbox.get_nowait()["code"] == "unavailable"
    assert caplog.records and all(secret not in record.getMessage() for record in caplog.records)
    assert all(record.exc_info is None for record in caplog.records)
