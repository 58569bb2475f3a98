"""Health and metrics for a host: ``/healthz``, ``/readyz``, ``/metrics`` (Prometheus text format) and
``/api/metrics`` (recent commit and bot times, in JSON).

``install_metrics(app)`` gives an app its own ``CollectorRegistry`` (tests run several apps in one process), the
routes, and a middleware that counts refusals: HTTP 4xx answers, WebSocket error frames by code, and WebSocket
closes by code.
Counts that the lobby keeps (committed actions, live tables, connections) are read when Prometheus scrapes; the
store's commit times and the bot pool's move times are observed as they are appended to the recent-times deques
that ``/api/metrics`` reads.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, FastAPI, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Histogram, generate_latest
from prometheus_client import Counter as PromCounter
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import Connection, text
from sqlalchemy.exc import SQLAlchemyError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ludotheque.server.services import Observers
from ludotheque.server.store import write

if TYPE_CHECKING:
    from ludotheque.server.lobby import Lobby

#: Commits take about a millisecond on a good disk, and seconds when the database is locked or far away.
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: A bot move is what a person waits for: from a few milliseconds (random) to the time cap (5 s), queueing included.
BOT_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 7.5, 10.0, 20.0)
#: The seconds a readiness probe waits for the database before answering 503.
READY_TIMEOUT_S = 5.0


class Metrics:
    """One app's metrics, in a registry of its own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.commit_seconds = Histogram(
            "ludotheque_commit_seconds", "Time to commit one action to the database", buckets=COMMIT_BUCKETS,
            registry=self.registry)
        self.bot_seconds = Histogram(
            "ludotheque_bot_move_seconds", "Wall time of a bot's move, waiting for a worker included, by level",
            ["level"], buckets=BOT_BUCKETS, registry=self.registry)
        self.refusals = PromCounter(
            "ludotheque_refusals", "Refused requests: HTTP 4xx statuses, WebSocket error codes and close codes",
            ["kind", "code"], registry=self.registry)
        self.lobby: Lobby | None = None
        self.registry.register(LobbyCollector(self))

    def observers(self) -> Observers:
        """What the lobby's store and bot pool tell the histograms, given to them at their construction."""
        return Observers(commit=self.commit_seconds.observe,
                         bot_move=lambda level, seconds: self.bot_seconds.labels(level).observe(seconds))

    def watch(self, lobby: Lobby) -> None:
        """Read the lobby's live state at each scrape (``LobbyCollector``)."""
        self.lobby = lobby

    def refused(self, kind: str, code: str) -> None:
        self.refusals.labels(kind, code).inc()


class LobbyCollector(Collector):
    """The lobby's live state at scrape time (read on the event loop, which is the only writer)."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterable[Metric]:
        lobby = self.metrics.lobby
        tables = list(lobby.tables.values()) if lobby is not None else []
        committed = CounterMetricFamily("ludotheque_actions_committed", "Actions committed to the database")
        committed.add_metric([], lobby.store.commits if lobby is not None else 0)
        yield committed
        connections = GaugeMetricFamily("ludotheque_websocket_connections", "Open WebSocket connections to tables")
        connections.add_metric([], sum(len(live.connections) for live in tables))
        yield connections
        by_status = Counter(live.row.status for live in tables)
        in_memory = GaugeMetricFamily("ludotheque_tables_in_memory", "Tables held in memory, by status",
                                      labels=["status"])
        for status in ("waiting", "playing", "finished"):
            in_memory.add_metric([status], by_status.pop(status, 0))
        for status, count in by_status.items():
            in_memory.add_metric([status], count)
        yield in_memory


# -- routes ----------------------------------------------------------------------------------------------------


@asynccontextmanager
async def _watch_lobby(app: FastAPI) -> AsyncIterator[None]:
    # runs inside the app's own lifespan (FastAPI nests an included router's), once the lobby is open
    metrics_of(app).watch(app.state.lobby)
    yield


router = APIRouter(include_in_schema=False, lifespan=_watch_lobby)


def metrics_of(app: Any) -> Metrics:
    metrics: Metrics = app.state.metrics
    return metrics


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """200 while the process answers."""
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(request: Request, response: Response) -> dict[str, str]:
    """200 when the database answers and takes a write; 503 when it does not (a full disk, an I/O error, the
    database away: a load balancer then sends no one).  The write goes through the writer like a move's, and
    commits: on SQLite the schema version written again as it is (a page appended to the WAL, which a full disk
    refuses), on PostgreSQL a transaction id taken (a commit record in its WAL)."""
    lobby: Lobby = request.app.state.lobby
    engine = lobby.store.engine

    def probe(db: Connection) -> None:
        if engine.dialect.name == "sqlite":
            version = int(db.execute(text("PRAGMA user_version")).scalar_one())
            db.execute(text(f"PRAGMA user_version = {version}"))
        else:
            db.execute(text("SELECT txid_current()"))

    try:
        await asyncio.wait_for(asyncio.to_thread(write, engine, probe), READY_TIMEOUT_S)
    except (SQLAlchemyError, OSError, TimeoutError):
        response.status_code = 503
        return {"status": "the database does not answer or takes no write"}
    return {"status": "ok"}


@router.get("/api/metrics")
def lobby_metrics(request: Request) -> dict[str, Any]:
    """For operators and the load benchmark: live tables, committed actions and recent commit times, and the
    recent bot moves' wall times by level."""
    lobby: Lobby = request.app.state.lobby

    def ms(values: Iterable[float], share: float) -> float | None:
        times = sorted(values)
        return round(1000 * times[min(len(times) - 1, int(share * len(times)))], 2) if times else None

    commits = lobby.store.commit_seconds
    bots = {level: {"moves": len(times), "p50_ms": ms(times, 0.5), "p99_ms": ms(times, 0.99),
                    "max_ms": ms(times, 1.0)} for level, times in list(lobby.bots.seconds.items())}
    return {"live_tables": len(lobby.tables), "commits": lobby.store.commits, "commit_p50_ms": ms(commits, 0.5),
            "commit_p99_ms": ms(commits, 0.99), "commit_max_ms": ms(commits, 1.0), "bots": bots}


@router.get("/metrics")
async def prometheus(request: Request) -> Response:
    """Prometheus text format (async: the collectors read the lobby on the event loop)."""
    return Response(generate_latest(metrics_of(request.app).registry), media_type=CONTENT_TYPE_LATEST)


class RefusalCounter:
    """ASGI middleware: counts what the server refuses, from the messages it sends."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def counting(message: Message) -> None:
            for kind, code in refusals_in(message):
                self.metrics.refused(kind, code)
            await send(message)

        await self.app(scope, receive, counting)


def refusals_in(message: Message) -> Iterator[tuple[str, str]]:
    kind = message["type"]
    if kind == "http.response.start" and 400 <= message["status"] < 500:
        yield "http", str(message["status"])
    elif kind == "websocket.send":
        frame = message.get("text")
        # only error frames are parsed (``{"type":"error","code":...}``), never the large state frames
        if frame is not None and frame.startswith('{"type":"error"'):
            code = json.loads(frame).get("code")
            yield "websocket", str(code)
    elif kind == "websocket.close" and message.get("code", 1000) not in (1000, 1001):
        yield "close", str(message.get("code"))


def install_metrics(app: FastAPI) -> None:
    """The routes, the registry and the refusal counter, for ``create_app``."""
    app.state.metrics = Metrics()
    app.include_router(router)
    app.add_middleware(RefusalCounter, metrics=app.state.metrics)
