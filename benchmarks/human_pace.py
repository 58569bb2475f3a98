"""Bots at a human pace, on loopback only, bounded in time: how long does a person wait between their turns?

``python -m benchmarks.human_pace [--games rummu mu] [--seconds 90] [--think 1.0] [--no-pacing] [--json]``

For each game it starts ``ludotheque serve`` with the DEFAULT pacing and bot workers (unlike the tests'
``ServerProcess``, which turns pacing off) on a fresh SQLite file, and seats one scripted person on a real WebSocket
with two ``bot:medium`` seats (3 players).  The person thinks ``--think`` seconds before each move and plays a random
legal move; in Rummü they draw, then discard a random card, the cheapest legal way to end a turn.  A wait is
measured from the person's last move of a turn to the next frame that offers them moves, when another seat was to
act in between (a draw followed by the drawn card is not a new turn).  A game is played for at most ``--seconds``.
It prints the median, p90 and max of those waits, and the bots' thinking per step (``/api/metrics``).  Targets:
median <= 8 s in Rummü, <= 5 s in Mü.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from ludotheque.server.process import ROOMY_LIMITS, free_port

#: The medians asked of each game, in seconds.
TARGETS = {"rummu": 8.0, "mu": 5.0}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


class Server:
    """``ludotheque serve`` as a host starts it: default pacing and bot workers, a fresh SQLite file."""

    def __init__(self, folder: Path, *extra: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        args = [sys.executable, "-m", "ludotheque.cli.main", "serve", "--port", str(self.port),
                "--db", f"sqlite:///{folder / 'ludotheque.db'}", *extra]
        self.log = (folder / "server.log").open("ab")
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT,
                                        env={**os.environ, **ROOMY_LIMITS})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited at start (log: {folder / 'server.log'})")
            try:
                if httpx.get(f"{self.url}/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not answer within 60 s")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def choose(game: str, legal: list[dict[str, Any]], rng: random.Random) -> str:
    notations: list[str] = [move["notation"] for move in legal]
    if game == "rummu":  # end the turn at once: draw, then discard
        if "draw" in notations:
            return "draw"
        discards = [n for n in notations if n.startswith("discard ")]
        if discards:
            return rng.choice(discards)
    return rng.choice(notations)


def receive(socket: ClientConnection, deadline: float) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(socket.recv(timeout=max(0.01, deadline - time.monotonic())))
    return message


def play_game(server: Server, game: str, seconds: float, think: float, rng: random.Random) -> dict[str, Any]:
    """One game (at most ``seconds``): the person's waits between turns, and how the game stopped."""
    response = httpx.post(f"{server.url}/api/tables", timeout=30,
                          json={"game": game, "players": 3, "seats": ["me", "bot:medium", "bot:medium"]})
    response.raise_for_status()
    created = response.json()
    waits: list[float] = []
    end = time.monotonic() + seconds
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{created['table_id']}?token={created['token']}",
                 open_timeout=30, max_size=2**24) as socket:
        socket.send(json.dumps({"type": "hello", "last_seq": 0}))
        state: dict[str, Any] | None = None
        others_acted = False
        moves = 0
        while time.monotonic() < end:
            if state is None or not state["legal"]:
                sent = time.monotonic()
                while True:  # the next frame that offers moves, or the end
                    try:
                        message = receive(socket, end)
                    except TimeoutError:
                        return {"waits": waits, "finished": False}
                    if message["type"] != "state":
                        continue
                    state = message
                    if state["status"] != "playing":
                        return {"waits": waits, "finished": True}
                    if any(seat != state["view"]["seat"] for seat in state["view"]["to_act"]):
                        others_acted = True
                    if state["legal"]:
                        break
                if others_acted and moves:
                    waits.append(time.monotonic() - sent)
                others_acted = False
            time.sleep(think)  # the person reads the table
            move = choose(game, state["legal"], rng)
            moves += 1
            socket.send(json.dumps({"type": "move", "move": move, "client_move_id": f"m{moves}",
                                    "after_seq": state["seq"]}))
            state = None
    return {"waits": waits, "finished": False}


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    figures: dict[str, Any] = {}
    for game in args.games:
        folder = Path(tempfile.mkdtemp(prefix="human-pace-"))
        server = Server(folder, *(["--no-pacing"] if args.no_pacing else []))
        try:
            played = play_game(server, game, args.seconds, args.think, rng)
            bots = httpx.get(f"{server.url}/api/metrics", timeout=30).json().get("bots", {}).get("medium", {})
        finally:
            server.stop()
        waits = played["waits"]
        figures[game] = {
            "waits": len(waits),
            "median_s": round(percentile(waits, 0.5), 2),
            "p90_s": round(percentile(waits, 0.9), 2),
            "max_s": round(max(waits, default=0.0), 2),
            "finished": played["finished"],
            "bot_moves": bots.get("moves", 0),
            "bot_p50_ms": bots.get("p50_ms"),
        }
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["rummu", "mu"])
    parser.add_argument("--seconds", type=float, default=90.0, help="how long each game is played, at most")
    parser.add_argument("--think", type=float, default=1.0, help="seconds the person takes to move")
    parser.add_argument("--no-pacing", action="store_true", help="start the server with --no-pacing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = run(args)
    if args.json:
        print(json.dumps(figures))
        return
    pacing = "no pacing" if args.no_pacing else "default pacing"
    print(f"one person (thinks {args.think:g} s) and two bot:medium at 3 players, {pacing}, "
          f"at most {args.seconds:g} s a game")
    for game, figure in figures.items():
        target = TARGETS.get(game)
        print(f"  {game}: {figure['waits']} waits between the person's turns: median {figure['median_s']} s, "
              f"p90 {figure['p90_s']} s, max {figure['max_s']} s"
              f"{'' if target is None else f' (target: median <= {target:g} s)'}"
              f"{'' if figure['finished'] else ' (stopped before the end)'}")
        print(f"    bot:medium thought {figure['bot_moves']} steps, p50 {figure['bot_p50_ms']} ms a step")


if __name__ == "__main__":
    main()
