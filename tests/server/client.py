"""A scripted client of the table server: REST calls with httpx, live play over a real WebSocket."""

from __future__ import annotations

import json
import random
import time
from contextlib import ExitStack, suppress
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect


def guest(base: str, name: str = "watcher") -> str:
    """A new guest's player token."""
    response = httpx.post(f"{base}/api/players", json={"name": name})
    assert response.status_code == 201, response.text
    token: str = response.json()["token"]
    return token


def bot_headers(base: str, seats: list[str]) -> dict[str, str]:
    """A table whose every seat is a bot needs a player's token: a new guest's."""
    return {"X-Player-Token": guest(base)} if all(seat.startswith("bot:") for seat in seats) else {}


def create_table(base: str, game: str, players: int, seats: list[str], **extra: Any) -> dict[str, Any]:
    response = httpx.post(f"{base}/api/tables", json={"game": game, "players": players, "seats": seats, **extra},
                          headers=bot_headers(base, seats))
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


class Client:
    """One WebSocket connection: a seat (with its token) or a spectator.  Every message received is kept."""

    def __init__(self, ws_base: str, table_id: str, token: str | None = None, origin: str | None = None,
                 player_token: str | None = None) -> None:
        query = f"?token={token}" if token else f"?player_token={player_token}" if player_token else ""
        self._stack = ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(
            connect(f"{ws_base}/ws/tables/{table_id}{query}", open_timeout=10, close_timeout=2, origin=origin)  # type: ignore[arg-type]
        )
        self.received: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None

    def send(self, message: dict[str, Any] | str | bytes) -> None:
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def hello(self, last_seq: int = 0) -> dict[str, Any]:
        self.send({"type": "hello", "last_seq": last_seq})
        return self.next("state")

    def recv(self, timeout: float = 20.0) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def next(self, kind: str, timeout: float = 20.0) -> dict[str, Any]:
        """The next message of ``kind`` (others received meanwhile are kept)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if message["type"] == kind:
                return message

    def frames(self) -> list[dict[str, Any]]:
        return [m for m in self.received if m["type"] == "state"]

    def close(self) -> None:
        self._stack.close()


def play_to_end(clients: list[Client], rng: random.Random, timeout: float = 120.0) -> dict[str, Any]:
    """Every client plays random legal moves when its latest state offers some, until the game ends; the final
    state as the first client saw it.  Acks and refusals (a stale or out-of-turn move when bots moved meanwhile)
    are kept in each client's ``received``."""
    deadline = time.monotonic() + timeout
    moved_at: dict[int, int] = {}
    counter = 0
    while time.monotonic() < deadline:
        for index, client in enumerate(clients):
            with suppress(TimeoutError):
                message = client.recv(timeout=0.05)
                if message["type"] == "error" and message["code"] == "rate_limited":
                    moved_at.pop(index, None)  # refused unread: send it again once the limit allows
                    time.sleep(0.1)
            state = client.state
            if state is None:
                continue
            if state["view"]["terminal"] and all(c.state and c.state["view"]["terminal"] for c in clients):
                return clients[0].state or state
            if state["legal"] and moved_at.get(index) != state["seq"]:
                moved_at[index] = state["seq"]
                counter += 1
                move = rng.choice(state["legal"])["notation"]
                client.send({"type": "move", "move": move, "client_move_id": f"c{index}-{counter}",
                             "after_seq": state["seq"]})
    raise AssertionError("the game did not end in time")
