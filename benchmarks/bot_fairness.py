"""Fairness of bot work, on loopback only, bounded in time: does a person facing a quick bot wait for strong bots at
other tables?

``python -m benchmarks.bot_fairness [--seconds 60] [--hard-tables 3] [--game cheese] [--bot-workers 1] [--json]``

It starts ``ludotheque serve`` (``--no-pacing``, the default one bot worker for searches) on a fresh SQLite file,
opens ``--hard-tables`` tables whose every seat is ``bot:hard`` (a finished one is replaced), and one person on a
real WebSocket facing ``bot:random`` at a two-player ``--game``.  For each of the person's moves it measures the
wait for their next turn: from sending the move to the first frame that offers them moves again (the bot's answer
and the server's commits included; no pacing).  It prints the p50, p90 and max of those waits, the moves the hard
bots made meanwhile (they were busy), and the server's bot timings (``/api/metrics``).  Target: p90 <= 1.5 s.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from ludotheque.server.process import ServerProcess


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def guest(server: ServerProcess, name: str = "visitor") -> str:
    """A new guest's player token (a table whose every seat is a bot needs one)."""
    response = httpx.post(f"{server.url}/api/players", json={"name": name}, timeout=30)
    response.raise_for_status()
    token: str = response.json()["token"]
    return token


def create(server: ServerProcess, game: str, players: int, seats: list[str], player: str | None = None
           ) -> dict[str, Any]:
    if player is None and all(seat.startswith("bot:") for seat in seats):
        player = guest(server)
    response = httpx.post(f"{server.url}/api/tables", json={"game": game, "players": players, "seats": seats},
                          headers={"X-Player-Token": player} if player else {}, timeout=30)
    response.raise_for_status()
    created: dict[str, Any] = response.json()
    return created


class Person:
    """One person at a table against a random bot, replaced by a new table when the game ends."""

    def __init__(self, server: ServerProcess, game: str, opponent: str = "bot:random") -> None:
        self.server = server
        self.game = game
        self.opponent = opponent
        self.socket: ClientConnection | None = None
        self.connection = ExitStack()
        self.moves = 0

    def sit(self) -> dict[str, Any]:
        self.connection.close()
        created = create(self.server, self.game, 2, ["me", self.opponent])
        self.socket = self.connection.enter_context(connect(
            f"{self.server.ws_url}/ws/tables/{created['table_id']}?token={created['token']}", open_timeout=30,
            max_size=2**24))
        self.socket.send(json.dumps({"type": "hello", "last_seq": 0}))
        return self.turn(time.monotonic() + 30)

    def turn(self, deadline: float) -> dict[str, Any]:
        """The next frame that offers moves, or that ends the game."""
        assert self.socket is not None
        while True:
            message = json.loads(self.socket.recv(timeout=max(0.01, deadline - time.monotonic())))
            if message["type"] == "state" and (message["legal"] or message["status"] != "playing"):
                return dict(message)

    def play(self, state: dict[str, Any], rng: random.Random) -> tuple[float, dict[str, Any]]:
        """Make a random legal move; the wait for the next turn, and that turn's frame."""
        assert self.socket is not None
        self.moves += 1
        sent = time.monotonic()
        self.socket.send(json.dumps({"type": "move", "move": rng.choice(state["legal"])["notation"],
                                     "client_move_id": f"m{self.moves}", "after_seq": state["seq"]}))
        frame = self.turn(sent + 120)
        return time.monotonic() - sent, frame


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="bot-fairness-"))
    server = ServerProcess(f"sqlite:///{folder / 'ludotheque.db'}", folder, "--bot-workers", str(args.bot_workers))
    server.start()
    waits: list[float] = []
    try:
        hard = [create(server, args.hard_game, args.hard_players, ["bot:hard"] * args.hard_players)["table_id"]
                for _ in range(args.hard_tables)]
        time.sleep(1.0)  # the hard bots are thinking before the person starts
        person = Person(server, args.game)
        state = person.sit()
        end = time.monotonic() + args.seconds
        checked = time.monotonic()
        while time.monotonic() < end:
            if state["status"] != "playing":
                state = person.sit()
                continue
            time.sleep(args.think)  # a person reads the table before moving
            wait, state = person.play(state, rng)
            waits.append(wait)
            if time.monotonic() - checked > 5:  # keep three tables of hard bots playing
                checked = time.monotonic()
                for index, table_id in enumerate(hard):
                    if httpx.get(f"{server.url}/api/tables/{table_id}", timeout=30).json()["status"] != "playing":
                        hard[index] = create(server, args.hard_game, args.hard_players,
                                             ["bot:hard"] * args.hard_players)["table_id"]
        person.connection.close()
        metrics = httpx.get(f"{server.url}/api/metrics", timeout=30).json()
    finally:
        server.stop()
    return {
        "person_moves": len(waits),
        "wait_p50_s": round(percentile(waits, 0.5), 3),
        "wait_p90_s": round(percentile(waits, 0.9), 3),
        "wait_max_s": round(max(waits, default=0.0), 3),
        "bots": metrics.get("bots", {}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the person plays")
    parser.add_argument("--hard-tables", type=int, default=3)
    parser.add_argument("--hard-game", default="geier")
    parser.add_argument("--hard-players", type=int, default=3)
    parser.add_argument("--game", default="cheese", help="the person's game (two players, against bot:random)")
    parser.add_argument("--think", type=float, default=0.3, help="seconds the person takes to move")
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = run(args)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{args.hard_tables} tables of bot:hard ({args.hard_game}, {args.hard_players} seats), one person against "
          f"bot:random ({args.game}), {args.bot_workers} bot worker(s), {args.seconds:g} s")
    print(f"person's wait for the next turn over {figures['person_moves']} moves: p50 {figures['wait_p50_s']} s, "
          f"p90 {figures['wait_p90_s']} s, max {figures['wait_max_s']} s (target: p90 <= 1.5 s)")
    for level, timing in sorted(figures["bots"].items()):
        print(f"  bot {level}: {timing['moves']} moves, p50 {timing['p50_ms']} ms, p99 {timing['p99_ms']} ms")


if __name__ == "__main__":
    main()
