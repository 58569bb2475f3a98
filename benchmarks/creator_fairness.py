"""Bot work shared between creators, on loopback only, bounded in time: does one visitor running the most tables of
``medium`` bots that the limits allow make a person wait for a ``medium`` move at an unrelated table?

``python -m benchmarks.creator_fairness [--seconds 60] [--game mu --players 3] [--person-game geier]
[--bot-workers 1] [--json]``

It starts ``ludotheque serve`` (``--no-pacing``, ``--bot-workers 1`` by default, a host's limits) on a fresh SQLite
file.  One visitor (one guest token) creates tables whose every seat is ``bot:medium`` until the server refuses
(``Settings.tables_per_creator``, 429), and creates a new one whenever one finishes, so that it always runs the most
the limits allow.  One person plays on a real WebSocket against ``bot:medium`` at a two-player ``--person-game``;
for each of the person's moves it measures the wait for their next turn (the bot's move and the commits, no pacing).
It prints the visitor's tables, the p50, p90 and max of the person's waits, and the server's bot timings
(``/api/metrics``).  Target: p90 < 2 s.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from benchmarks.bot_fairness import Person, guest, percentile
from ludotheque.server.process import ServerProcess


class Visitor:
    """One guest keeping as many tables of bots in play as the server accepts, from a thread of its own."""

    def __init__(self, server: ServerProcess, game: str, players: int) -> None:
        self.server = server
        self.body = {"game": game, "players": players, "seats": ["bot:medium"] * players}
        self.token = guest(server)
        self.tables: list[str] = []
        self.refused = 0
        self.stop = threading.Event()

    def fill(self) -> None:
        while not self.stop.is_set():
            response = httpx.post(f"{self.server.url}/api/tables", json=self.body,
                                  headers={"X-Player-Token": self.token}, timeout=30)
            if response.status_code == 429:
                self.refused += 1
                return
            response.raise_for_status()
            self.tables.append(response.json()["table_id"])

    def run(self) -> None:
        while not self.stop.is_set():
            self.fill()
            playing = []
            for table_id in self.tables:
                status = httpx.get(f"{self.server.url}/api/tables/{table_id}", timeout=30).json()["status"]
                if status in ("waiting", "playing"):
                    playing.append(table_id)
            self.tables = playing
            self.stop.wait(1.0)


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="creator-fairness-"))
    server = ServerProcess(f"sqlite:///{folder / 'ludotheque.db'}", folder, "--bot-workers", str(args.bot_workers),
                           limits=True)
    server.start()
    waits: list[float] = []
    visitor = Visitor(server, args.game, args.players)
    try:
        visitor.fill()
        most = len(visitor.tables)
        thread = threading.Thread(target=visitor.run, daemon=True)
        thread.start()
        time.sleep(2.0)  # the visitor's bots are thinking before the person starts
        person = Person(server, args.person_game, "bot:medium")
        state = person.sit()
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            if state["status"] != "playing":
                state = person.sit()
                continue
            time.sleep(args.think)
            wait, state = person.play(state, rng)
            waits.append(wait)
        person.connection.close()
        visitor.stop.set()
        thread.join(60)
        metrics = httpx.get(f"{server.url}/api/metrics", timeout=30).json()
    finally:
        server.stop()
    return {
        "visitor_tables": most,
        "person_moves": len(waits),
        "wait_p50_s": round(percentile(waits, 0.5), 3),
        "wait_p90_s": round(percentile(waits, 0.9), 3),
        "wait_max_s": round(max(waits, default=0.0), 3),
        "bots": metrics.get("bots", {}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the person plays")
    parser.add_argument("--game", default="mu", help="the visitor's game (every seat bot:medium)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--person-game", default="geier", help="the person's game (two players, against bot:medium)")
    parser.add_argument("--think", type=float, default=0.3, help="seconds the person takes to move")
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = run(args)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"one visitor running {figures['visitor_tables']} tables of bot:medium ({args.game}, {args.players} "
          f"seats), one person against bot:medium ({args.person_game}), {args.bot_workers} bot worker(s), "
          f"{args.seconds:g} s")
    print(f"person's wait for the next turn over {figures['person_moves']} moves: p50 {figures['wait_p50_s']} s, "
          f"p90 {figures['wait_p90_s']} s, max {figures['wait_max_s']} s (target: p90 < 2 s)")
    for level, timing in sorted(figures["bots"].items()):
        print(f"  bot {level}: {timing['moves']} moves, p50 {timing['p50_ms']} ms, p99 {timing['p99_ms']} ms")


if __name__ == "__main__":
    main()
