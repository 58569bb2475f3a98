"""Load benchmark of the table server, on loopback only, bounded in time and count.

``python -m benchmarks.load --tables 100 --rate 50 --seconds 30 [--db URL] [--game geier --players 2] [--json]``

It starts ``ludotheque serve`` on a fresh database (an SQLite file in a temporary folder unless ``--db`` names
one), opens ``--tables`` tables, each with one scripted person on a real WebSocket and the game's heuristic bots
in the other seats, and has the people move at ``--rate`` moves a second in all (a move goes to a person whose
turn it is; finished tables are replaced by new ones).  For every move it measures the time from the person's
send to the frame that shows the move to that person (the server commits, acknowledges, then sends the frame;
the bots' seats have no connection to update).  It prints the latency percentiles, acknowledged moves a second,
errors, the server's CPU and memory, and the database's commit times (``/api/metrics``).

A site of several processes: ``--servers URL1,URL2 --db postgresql://... --redis redis://HOST:6379/N`` starts
``ludotheque serve --redis`` at each loopback address where nothing answers yet (and loads those that do as they
are), and spreads the people over them: each person's table is created through one process in turn, and its socket
opens at the same process (``--spread sticky``, as a balancer that routes by table would) or at the next one
(``--spread cross``: every socket relayed to its table's owner).  CPU, memory and commits are summed over the
processes it started.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import websockets

from ludotheque.server.process import ServerProcess


@dataclass
class Seat:
    table_id: str
    token: str
    socket: Any = None
    state: dict[str, Any] | None = None
    sent_at: float | None = None
    waiting_seq: int | None = None  # the seq of the acked move whose frame we wait for
    counter: int = 0
    done: bool = False
    bot: str = "heuristic"  # the other seats' bot


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    acks: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    tables_finished: int = 0


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Spread:
    """Which process each new person's table is created at, and which one its socket opens at."""

    def __init__(self, servers: list[ServerProcess], clients: list[httpx.AsyncClient], cross: bool) -> None:
        self.servers, self.clients, self.cross = servers, clients, cross
        self.turn = 0

    def next(self) -> tuple[httpx.AsyncClient, ServerProcess]:
        index = self.turn % len(self.servers)
        self.turn += 1
        socket_at = (index + 1) % len(self.servers) if self.cross else index
        return self.clients[index], self.servers[socket_at]


async def open_seat(spread: Spread, args: argparse.Namespace, bot: str = "heuristic") -> Seat:
    client, server = spread.next()
    seats = ["me"] + [f"bot:{bot}"] * (args.players - 1)
    body = {"game": args.game, "players": args.players, "seats": seats}
    try:
        response = await client.post("/api/tables", json=body)
    except httpx.TransportError:  # a pooled connection the server closed as it was reused: once more, anew
        response = await client.post("/api/tables", json=body)
    created = response.json()
    seat = Seat(created["table_id"], created["token"], bot=bot)
    seat.socket = await websockets.connect(f"{server.ws_url}/ws/tables/{seat.table_id}?token={seat.token}",
                                           max_size=2**24, open_timeout=30)
    await seat.socket.send(json.dumps({"type": "hello", "last_seq": 0}))
    return seat


async def listen(seat: Seat, figures: Figures) -> None:
    async for raw in seat.socket:
        message = json.loads(raw)
        kind = message["type"]
        if kind == "state":
            seat.state = message
            if seat.waiting_seq is not None and message["seq"] >= seat.waiting_seq and seat.sent_at is not None:
                figures.latencies.append(time.perf_counter() - seat.sent_at)
                seat.sent_at = seat.waiting_seq = None
            if message["view"]["terminal"]:
                seat.done = True
                figures.tables_finished += 1
                return
        elif kind == "ack":
            figures.acks += 1
            seat.waiting_seq = message["seq"]
            if seat.state is not None and seat.state["seq"] >= message["seq"] and seat.sent_at is not None:
                figures.latencies.append(time.perf_counter() - seat.sent_at)
                seat.sent_at = seat.waiting_seq = None
        elif kind == "error":
            figures.errors[message["code"]] = figures.errors.get(message["code"], 0) + 1
            seat.sent_at = seat.waiting_seq = None


def start_servers(args: argparse.Namespace, db: str, folder: Path) -> tuple[list[ServerProcess], list[bool]]:
    """The servers to load, and whether each was started here (only those are measured)."""
    if not args.servers:
        server = ServerProcess(db, folder, "--bot-workers", str(args.bot_workers))
        if args.port:
            server.port = args.port  # a server already running (under a profiler, say): its figures are not read
            return [server], [False]
        return [server.start()], [True]
    servers, started = [], []
    for url in args.servers.split(","):
        port = urlsplit(url).port or 80
        extra = ["--bot-workers", str(args.bot_workers)] + (["--redis", args.redis] if args.redis else [])
        server = ServerProcess(db, folder, *extra, port=port)
        try:
            answers = httpx.get(f"{server.url}/healthz", timeout=1).status_code == 200
        except httpx.HTTPError:
            answers = False
        servers.append(server if answers else server.start())
        started.append(not answers)
    return servers, started


async def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="ludotheque-load-"))
    db = args.db or f"sqlite:///{folder / 'load.db'}"
    servers, started_here = start_servers(args, db, folder)
    measured = [server for server, here in zip(servers, started_here, strict=True) if here]
    figures = Figures()
    rng = random.Random(args.seed)
    limits = httpx.Limits(max_connections=50)
    clients = [httpx.AsyncClient(base_url=server.url, timeout=60, limits=limits) for server in servers]
    spread = Spread(servers, clients, args.spread == "cross")
    try:
        seats: list[Seat] = []
        listeners: list[asyncio.Task[None]] = []
        for start in range(0, args.tables, 50):
            batch = await asyncio.gather(*(open_seat(spread, args) for _ in range(start, min(args.tables, start + 50))))
            seats.extend(batch)
        # tables whose bots search (``--medium-tables``, among the others): their moves' wall times are read
        # from /api/metrics
        seats.extend([await open_seat(spread, args, "medium") for _ in range(args.medium_tables)])
        listeners = [asyncio.create_task(listen(seat, figures)) for seat in seats]
        # the client's own garbage collections would pause its event loop and count as the server's latency
        gc.collect()
        gc.freeze()
        gc.disable()
        cpu_before = sum(_cpu_seconds(server) for server in measured)
        own_cpu_before = sum(_cpu_seconds(server, workers=False) for server in measured)
        started = time.perf_counter()
        sent = 0
        while time.perf_counter() - started < args.seconds and sent < args.max_moves:
            due = started + sent / args.rate
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            ready = [s for s in seats if s.state and s.state["legal"] and s.sent_at is None and not s.done]
            if not ready:
                continue
            seat = rng.choice(ready)
            assert seat.state is not None
            seat.counter += 1
            move = rng.choice(seat.state["legal"])["notation"]
            seat.sent_at = time.perf_counter()
            await seat.socket.send(json.dumps({"type": "move", "move": move, "client_move_id": f"m{seat.counter}",
                                               "after_seq": seat.state["seq"]}))
            sent += 1
            for index, old in enumerate(seats):  # keep the number of live tables
                if old.done:
                    seats[index] = await open_seat(spread, args, old.bot)
                    listeners.append(asyncio.create_task(listen(seats[index], figures)))
        elapsed = time.perf_counter() - started
        gc.enable()
        await asyncio.sleep(1.0)  # the last frames
        cpu = sum(_cpu_seconds(server) for server in measured) - cpu_before
        own_cpu = sum(_cpu_seconds(server, workers=False) for server in measured) - own_cpu_before
        metrics = [(await client.get("/api/metrics")).json() for client in clients]
        for task in listeners:
            task.cancel()
        for seat in seats:
            await seat.socket.close()
    finally:
        for client in clients:
            await client.aclose()
        memory = round(sum(_memory_mb(server) for server in measured), 1)
        for server in measured:
            server.stop()
    ms = [1000 * x for x in figures.latencies]
    commit_p99 = [m["commit_p99_ms"] for m in metrics if m.get("commit_p99_ms") is not None]
    return {
        "tables": args.tables, "rate": args.rate, "seconds": round(elapsed, 1), "db": db.split(":")[0],
        "game": args.game, "players": args.players, "moves": len(ms), "sent": sent,
        "acks_per_s": round(figures.acks / elapsed, 1), "errors": sum(figures.errors.values()),
        "error_codes": figures.errors, "p50_ms": round(percentile(ms, 0.50), 1),
        "p95_ms": round(percentile(ms, 0.95), 1), "p99_ms": round(percentile(ms, 0.99), 1),
        "max_ms": round(max(ms, default=0.0), 1), "mean_ms": round(statistics.fmean(ms), 1) if ms else 0.0,
        "server_cpu_share": round(cpu / elapsed, 2), "server_rss_mb": memory,
        # per acknowledged move of a person: the server with its bot workers, and the server process alone
        "server_cpu_ms_per_move": round(1000 * cpu / len(ms), 2) if ms and measured else None,
        "server_process_cpu_ms_per_move": round(1000 * own_cpu / len(ms), 2) if ms and measured else None,
        "commits": sum(m.get("commits") or 0 for m in metrics), "commit_p50_ms": metrics[0].get("commit_p50_ms"),
        "commit_p99_ms": max(commit_p99, default=None), "tables_finished": figures.tables_finished,
        "medium_bot": metrics[0].get("bots", {}).get("medium"),
        "servers": len(servers), "spread": args.spread if len(servers) > 1 else None,
    }


def _cpu_seconds(server: ServerProcess, workers: bool = True) -> float:
    """The CPU the server has used, its bot workers' included (``workers``): what a person's move costs the host."""
    assert server.process is not None
    pids = [server.process.pid]
    if workers:
        pids += _children(server.process.pid)
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / 100.0  # utime + stime, in clock ticks of 1/100 s
    return total


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError):
            for child in (task / "children").read_text().split():
                found += [int(child), *_children(int(child))]
    return found


def _memory_mb(server: ServerProcess) -> float:
    assert server.process is not None
    for line in Path(f"/proc/{server.process.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--rate", type=float, default=50.0, help="people's moves a second, in all")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--max-moves", type=int, default=1_000_000)
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--game", default="geier")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--medium-tables", type=int, default=0,
                        help="more tables whose bots play medium, to time a searching bot at a busy server")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--port", type=int, default=0, help="load a server already running on this port")
    parser.add_argument("--servers", default="",
                        help="a site of several processes: their addresses, comma-separated (started where none runs)")
    parser.add_argument("--redis", default=None, help="the site's Redis, for the processes --servers starts")
    parser.add_argument("--spread", choices=("sticky", "cross"), default="sticky",
                        help="a person's socket opens where its table was created, or at the next process")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>18}: {value}")


if __name__ == "__main__":
    main()
