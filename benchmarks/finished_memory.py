"""Memory of finished tables: does the server's RSS come back once thousands of games nobody watches are over?

``python -m benchmarks.finished_memory [--tables 2000] [--game geier --players 2] [--grace 1] [--bot-workers 1]
[--db URL]``

It starts ``ludotheque serve`` (``--no-pacing``; ``--bot-workers`` processes as a host runs it, whose caches are
not the server's memory, or 0 for bots in the server's threads; ``LUDOTHEQUE_FINISHED_GRACE_S`` ``--grace``; the
host's limits) on a fresh database (SQLite unless ``--db``), reads its RSS (``/proc``) once a first 100 tables have
been played (the imports and caches that any game fills are in), then has one guest create ``--tables`` tables
whose every seat is ``bot:random``, as many at once as one creator may have in play (``tables_per_creator``), a new
one whenever one finishes; once every one is finished and the grace has passed it reads the RSS again, and prints
one JSON object: the RSS before and after, the difference, and the live tables left (``/api/metrics``).  Target:
within 20 MB of before.
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

from benchmarks.table_memory import rss_kib
from ludotheque.server.process import ServerProcess


async def play_tables(client: httpx.AsyncClient, args: argparse.Namespace, token: str, count: int) -> None:
    """Create ``count`` tables of bots, as many at once as the server lets one creator have in play (429 beyond:
    ``LUDOTHEQUE_TABLES_PER_CREATOR``), a new one whenever one finishes; return once every one is finished."""
    body = {"game": args.game, "players": args.players, "seats": ["bot:random"] * args.players}
    created, playing = 0, []
    while created < count or playing:
        while created < count:
            response = await client.post("/api/tables", headers={"X-Player-Token": token}, json=body)
            if response.status_code == 429:
                break
            response.raise_for_status()
            playing.append(response.json()["table_id"])
            created += 1
        statuses = await asyncio.gather(*(client.get(f"/api/tables/{t}") for t in playing))
        still = [t for t, r in zip(playing, statuses, strict=True) if r.json()["status"] != "finished"]
        if len(still) == len(playing):
            await asyncio.sleep(0.2)
        playing = still


async def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="ludotheque-finished-"))
    server = ServerProcess(args.db or f"sqlite:///{folder / 'finished.db'}", folder, "--bot-workers",
                           str(args.bot_workers), limits=True)
    server.start(env={"LUDOTHEQUE_FINISHED_GRACE_S": str(args.grace)})
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=120) as client:
            token = (await client.post("/api/players", json={"name": "visitor"})).json()["token"]
            await play_tables(client, args, token, 100)
            await asyncio.sleep(args.grace + 1.0)
            before = rss_kib(server)
            started = time.perf_counter()
            await play_tables(client, args, token, args.tables)
            played_s = time.perf_counter() - started
            await asyncio.sleep(args.grace + 1.0)
            live = (await client.get("/api/metrics")).json()["live_tables"]
            after = rss_kib(server)
    finally:
        server.stop()
    return {
        "game": args.game, "players": args.players, "tables": args.tables, "played_s": round(played_s, 1),
        "live_tables_after": live, "rss_before_mib": round(before / 1024, 1), "rss_after_mib": round(after / 1024, 1),
        "rss_growth_mib": round((after - before) / 1024, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=2_000)
    parser.add_argument("--game", default="geier")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--grace", type=float, default=1.0, help="LUDOTHEQUE_FINISHED_GRACE_S")
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--db", default=None)
    print(json.dumps(asyncio.run(run(parser.parse_args()))))


if __name__ == "__main__":
    main()
