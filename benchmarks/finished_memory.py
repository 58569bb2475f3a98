"""Memory of finished tables: does the server's RSS come back once thousands of games nobody watches are over?

``python -m benchmarks.finished_memory [--tables 2000] [--game geier --players 2] [--grace 1] [--bot-workers 1]
[--db URL]``

It starts ``ludotheque serve`` (``--no-pacing``; ``--bot-workers`` processes as a host runs it, whose caches are
not the server's memory, or 0 for bots in the server's threads; ``LUDOTHEQUE_FINISHED_GRACE_S`` ``--grace``) on a
fresh database (SQLite unless ``--db``), reads its RSS (``/proc``) once a first batch of tables has been played (the
imports and caches that any game fills are in), creates ``--tables`` tables whose every seat is ``bot:random`` (one
guest's token; the creation limits raised as the tests raise them), waits until every one is finished and the grace
has passed, reads the RSS again, and prints one JSON object: the RSS before and after, the difference, and the live
tables left (``/api/metrics``).  Target: within 20 MB of before.
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

from benchmarks.table_memory import in_batches, rss_kib
from ludotheque.server.process import ServerProcess


async def play_tables(client: httpx.AsyncClient, args: argparse.Namespace, token: str, count: int) -> list[str]:
    table_ids: list[str] = []

    async def one() -> None:
        response = await client.post("/api/tables", headers={"X-Player-Token": token}, json={
            "game": args.game, "players": args.players, "seats": ["bot:random"] * args.players})
        response.raise_for_status()
        table_ids.append(response.json()["table_id"])

    await in_batches(count, one)
    return table_ids


async def finished(client: httpx.AsyncClient, table_ids: list[str]) -> None:
    pending = list(table_ids)
    while pending:
        statuses = await asyncio.gather(*(client.get(f"/api/tables/{t}") for t in pending[:50]))
        done = {t for t, r in zip(pending[:50], statuses, strict=True) if r.json()["status"] == "finished"}
        if not done:
            await asyncio.sleep(0.5)
        pending = [t for t in pending if t not in done]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="ludotheque-finished-"))
    server = ServerProcess(args.db or f"sqlite:///{folder / 'finished.db'}", folder, "--bot-workers",
                           str(args.bot_workers))
    server.start(env={"LUDOTHEQUE_FINISHED_GRACE_S": str(args.grace)})
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=120) as client:
            token = (await client.post("/api/players", json={"name": "visitor"})).json()["token"]
            await finished(client, await play_tables(client, args, token, 50))
            await asyncio.sleep(args.grace + 1.0)
            before = rss_kib(server)
            started = time.perf_counter()
            table_ids = await play_tables(client, args, token, args.tables)
            await finished(client, table_ids)
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
