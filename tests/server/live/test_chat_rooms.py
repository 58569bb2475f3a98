"""The chat's rooms follow the person, not the socket: a player seated at a table who watches it from a socket
without the seat's token, but with their player token (as the pages send it), is in the players' room there and
reads nothing of the spectators' room; a spectator's socket reads the spectators' room as before (SQLite and
PostgreSQL: the token names a player of the database)."""

from __future__ import annotations

from typing import Any

import httpx

from ludotheque.server.process import ServerProcess

from ..client import Client, guest


def settle(client: Client) -> None:
    """Everything the server owed ``client`` so far has arrived: a malformed message's refusal comes after it."""
    client.send({"type": "settle"})
    client.next("error")


def chats(client: Client) -> list[dict[str, Any]]:
    found = []
    for message in client.received:
        if message["type"] == "chat":
            found.append(message)
        elif message["type"] == "chat_history":
            found.extend(message["messages"])
    return found


def test_a_seated_player_watching_from_another_socket_stays_in_the_players_room(server: ServerProcess) -> None:
    ana = guest(server.url, "Ana")
    created = httpx.post(f"{server.url}/api/tables", headers={"X-Player-Token": ana},
                         json={"game": "geier", "players": 2, "seats": ["me", "open"], "player_name": "Ana"}).json()
    table_id = created["table_id"]
    bo = httpx.post(f"{server.url}/api/tables/{table_id}/join", json={"name": "Bo"}).json()
    spectator = Client(server.ws_url, table_id)
    bo_seat = Client(server.ws_url, table_id, bo["token"])
    try:
        spectator.hello()
        spectator.send({"type": "chat", "text": "play the 10!"})
        spectator.next("chat")
        watching = Client(server.ws_url, table_id, player_token=ana)  # Ana, without her seat's token
        try:
            frame = watching.hello()
            assert frame["legal"] == []  # she watches: her moves go through her seat's socket
            bo_seat.hello()
            bo_seat.send({"type": "chat", "text": "good luck"})
            bo_seat.next("chat")
            spectator.send({"type": "chat", "text": "and then the 15"})  # a second after the first
            settle(spectator)
            watching.send({"type": "chat", "text": "thanks"})
            said = watching.next("chat")
            while said["text"] != "thanks":
                said = watching.next("chat")
            assert said["room"] == "players" and said["seat"] == created["seat"] and said["name"] == "Ana"
            settle(watching)
            assert {m["text"] for m in chats(watching)} == {"good luck", "thanks"}
            assert all(m["room"] == "players" for m in chats(watching))
        finally:
            watching.close()
        # someone else's player token is a spectator's socket as before
        other = Client(server.ws_url, table_id, player_token=guest(server.url))
        try:
            other.hello()
            history = other.next("chat_history")
            assert history["room"] == "spectators" and "play the 10!" in {m["text"] for m in history["messages"]}
        finally:
            other.close()
    finally:
        spectator.close()
        bo_seat.close()
