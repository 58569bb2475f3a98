"""Memory of live tables: the server's RSS per table waiting for people and per table in play.

``python -m benchmarks.table_memory [--waiting 10000] [--playing 1000] [--game geier --players 2] [--db URL]``

It starts ``ludotheque serve`` on a fresh database (SQLite unless ``--db``), reads its RSS (``/proc``), creates
``--waiting`` tables waiting for people (a guest's seat and open seats), reads it again, then creates ``--playing``
tables in play (the person against the game's heuristic bots, a first move each so that their state is built),
and prints one JSON object: the RSS at each step and the kibibytes per table of each kind.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from ludotheque.server.process import ServerProcess


def rss_kib(server: ServerProcess) -> int:
    assert server.process is not None
    for line in Path(f"/proc/{server.process.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def create(client: httpx.AsyncClient, args: argparse.Namespace, seats: list[str]) -> dict[str, Any]:
    response = await client.post("/api/tables", json={"game": args.game, "players": args.players, "seats": seats})
    response.raise_for_status()
    answer: dict[str, Any] = response.json()
    return answer


async def in_batches(count: int, make: Any, batch: int = 50) -> None:
    for start in range(0, count, batch):
        await asyncio.gather(*(make() for _ in range(min(batch, count - start))))


async def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="ludotheque-memory-"))
    server = ServerProcess(args.db or f"sqlite:///{folder / 'memory.db'}", folder, "--bot-workers", "1").start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            await asyncio.sleep(1.0)
            empty = rss_kib(server)
            started = time.perf_counter()
            await in_batches(args.waiting, lambda: create(client, args, ["me"] + ["open"] * (args.players - 1)))
            waiting_s = time.perf_counter() - started
            await asyncio.sleep(1.0)
            with_waiting = rss_kib(server)

            async def playing() -> None:
                created = await create(client, args, ["me"] + ["bot:heuristic"] * (args.players - 1))
                url = f"{server.ws_url}/ws/tables/{created['table_id']}?token={created['token']}"
                async with websockets.connect(url) as socket:
                    await socket.send(json.dumps({"type": "hello", "last_seq": 0}))
                    while True:
                        frame = json.loads(await socket.recv())
                        if frame["type"] == "state" and frame["legal"]:
                            await socket.send(json.dumps({"type": "move", "move": frame["legal"][0]["notation"],
                                                          "client_move_id": "m1", "after_seq": frame["seq"]}))
                            break

            await in_batches(args.playing, playing, batch=20)
            await asyncio.sleep(1.0)
            with_playing = rss_kib(server)
            live = (await client.get("/api/metrics")).json()["live_tables"]
    finally:
        server.stop()
    return {
        "game": args.game, "players": args.players, "waiting": args.waiting, "playing": args.playing,
        "live_tables": live, "rss_empty_mib": round(empty / 1024, 1),
        "rss_with_waiting_mib": round(with_waiting / 1024, 1), "rss_with_playing_mib": round(with_playing / 1024, 1),
        "kib_per_waiting_table": round((with_waiting - empty) / max(1, args.waiting), 1),
        "kib_per_playing_table": round((with_playing - with_waiting) / max(1, args.playing), 1),
        "waiting_tables_created_per_s": round(args.waiting / waiting_s, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--waiting", type=int, default=10_000)
    parser.add_argument("--playing", type=int, default=1_000)
    parser.add_argument("--game", default="geier")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--db", default=None)
    print(json.dumps(asyncio.run(run(parser.parse_args()))))


if __name__ == "__main__":
    main()
