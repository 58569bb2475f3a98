"""The application (FastAPI), assembled: ``create_app(settings)`` opens the lobby in its lifespan (and joins the
site with ``--redis``), puts the guards in place and includes the routers; ``ludotheque serve`` runs it.  The
tables' routes and WebSocket are ``tables.py``'s, the socket's protocol ``live/socket.py``'s, the players',
ratings', replays' and reviews' routes their modules'.  The contract is in ``docs/server.md``.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from sqlalchemy.engine import make_url

from ludotheque.bots.coach import check_model
from ludotheque.server import collector, players, profiles, push, ratings, replay, review
from ludotheque.server.config import Settings
from ludotheque.server.dblock import ServerLock
from ludotheque.server.errors import install_error_handlers
from ludotheque.server.guard import quiet_accept_errors
from ludotheque.server.live.socket import serve_connection
from ludotheque.server.lobby import Lobby
from ludotheque.server.metrics import install_metrics, metrics_of
from ludotheque.server.pages import mount_pages
from ludotheque.server.placement import LocalPlacement, Placement
from ludotheque.server.security import install as install_security
from ludotheque.server.site import SitePlacement
from ludotheque.server.tables import table_router

#: ``serve --workers N`` hands each worker process its settings in this environment variable (JSON)
SETTINGS_ENV = "LUDOTHEQUE_SERVE_SETTINGS"


def app_from_environment() -> FastAPI:
    """The application of one worker of ``serve --workers N`` (uvicorn calls it in each process)."""
    data = json.loads(os.environ[SETTINGS_ENV])
    for name in ("allow_origins", "push_hosts"):  # JSON has lists, the settings tuples
        data[name] = tuple(data[name])
    return create_app(Settings(**data))


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    check_model(settings.coach_model)  # LUDOTHEQUE_COACH_MODEL: a typo stops the server here, not a review later

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        collector.pace_for_a_server()
        # held while this process serves: ``ludotheque restore`` refuses to replace the database under it
        lock = await asyncio.to_thread(ServerLock(settings.db_url).take)
        keeping = asyncio.create_task(_keep_lock(lock))
        quiet_accept_errors(asyncio.get_running_loop())  # "too many open files": one line a second (guard.py)
        lobby = await asyncio.to_thread(Lobby.open, settings, placement_for(settings), metrics_of(app).observers())
        app.state.lobby = lobby
        collector.freeze_what_start_made()
        await lobby.resume()
        try:
            yield
        finally:
            await lobby.close()
            keeping.cancel()
            await asyncio.to_thread(lock.release)

    app = FastAPI(
        title="ludotheque",
        summary="Seven French table games to play together, with bots in the empty seats.",
        version="1",
        lifespan=lifespan,
        # the interactive API pages load scripts from a CDN and run inline ones, which the pages' Content-Security-
        # Policy forbids; the schema stays published at /openapi.json
        docs_url=None,
        redoc_url=None,
    )
    install_security(app, settings)
    install_error_handlers(app)  # refusals, and a database that does not answer (503), for every route

    app.include_router(table_router(settings.sockets_per_address))
    for part in (players, profiles, ratings, replay, review):
        app.include_router(part.router)
    app.include_router(push.router)  # Web Push: a person told it is their turn (server/push.py)
    install_metrics(app)  # /healthz, /readyz, /metrics, /api/metrics
    mount_pages(app)
    return app


def placement_for(settings: Settings) -> Placement:
    """Where the tables live: in this process, or (``--redis``) at the nodes of a site that share them."""
    if settings.redis_url is None:
        return LocalPlacement()
    name = settings.site_name or make_url(settings.db_url).database or "ludotheque"
    if not settings.site_secret:
        raise RuntimeError("a node of a site needs the site's shared secret: LUDOTHEQUE_SITE_SECRET")
    return SitePlacement(settings.redis_url, name, settings.site_secret, lease_s=settings.lease_s,
                         serve_socket=serve_connection, outbox_limit=settings.outbox_limit,
                         outbox_bytes=settings.outbox_bytes)


async def _keep_lock(lock: ServerLock) -> None:
    while True:
        await asyncio.sleep(5.0)
        await asyncio.to_thread(lock.keep)
