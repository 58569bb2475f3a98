"""``ludotheque serve``: the table server (what ``make run`` starts)."""

from __future__ import annotations

import dataclasses
import json
import logging.config
import os
import sys
from typing import Annotated, Any
from urllib.parse import urlsplit

import typer
from sqlalchemy.engine import make_url

from ludotheque.cli.common import console, fail
from ludotheque.server.config import Settings, default_db_url


def serve(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port to listen on")] = 8000,
    db: Annotated[
        str | None, typer.Option("--db", help="database URL (default: LUDOTHEQUE_DB, or data/ludotheque.db)")
    ] = None,
    no_pacing: Annotated[
        bool, typer.Option("--no-pacing", help="bots move at once instead of at a pace people can follow")
    ] = False,
    bot_workers: Annotated[int, typer.Option("--bot-workers", min=0, help="processes that run bots")] = 1,
    public_url: Annotated[
        str | None, typer.Option("--public-url", help="the address people use, for invite links")
    ] = None,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option("--allow-origin", help="another site whose pages may connect (repeat), e.g. https://club.fr"),
    ] = None,
    allow_custom_bots: Annotated[
        bool, typer.Option("--allow-custom-bots", help="seats may name any bot spec, not only the named levels")
    ] = False,
    proxy_headers: Annotated[
        bool, typer.Option("--proxy-headers", help="read the client's address from X-Forwarded-For (behind a proxy)")
    ] = False,
    forwarded_allow_ips: Annotated[
        str, typer.Option("--forwarded-allow-ips", help="the proxies trusted for --proxy-headers, comma-separated")
    ] = "127.0.0.1",
    redis: Annotated[
        str | None,
        typer.Option("--redis", help="the site's Redis (redis://HOST:6379/N): this process is one node of a site of "
                     "several on one PostgreSQL database"),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", min=1, help="processes sharing this port, each a node of the site of --redis")
    ] = 1,
    log_format: Annotated[
        str, typer.Option("--log-format", help="'text', or 'json': one JSON object a line")
    ] = "text",
) -> None:
    """Start the table server: the lobby, tables, bots and live play in the browser."""
    import uvicorn

    from ludotheque.server.app import SETTINGS_ENV, create_app
    from ludotheque.server.guard import GuardedH11Protocol
    from ludotheque.server.guard import configure as configure_guard
    from ludotheque.server.live.socket import MAX_MESSAGE_BYTES
    from ludotheque.server.logs import LEVELS, log_config

    if log_format not in LEVELS:
        fail(f"--log-format is 'text' or 'json', not {log_format!r}")
    settings = Settings(
        db_url=db or default_db_url(),
        pacing_s=0.0 if no_pacing else Settings.pacing_s,
        step_pacing_s=0.0 if no_pacing else Settings.step_pacing_s,
        bot_workers=bot_workers,
        public_url=public_url,
        allow_origins=tuple(allow_origin or ()),
        allow_custom_bots=allow_custom_bots,
        redis_url=redis,
        forwarded_allow_ips=forwarded_allow_ips,
    )
    if redis is not None and settings.db_url.startswith("sqlite"):
        fail("--redis joins processes on one database: give a PostgreSQL one with --db")
    if workers > 1 and redis is None:
        fail("--workers N starts N nodes of one site: give the site's Redis with --redis (and PostgreSQL with --db)")
    refuse_damaged(settings.db_url)
    if redis is not None:
        if len(settings.site_secret or "") < 16:
            print("error: a node of a site needs the secret its nodes share, of 16 characters or more, in "
                  "LUDOTHEQUE_SITE_SECRET (the same on every node; `openssl rand -hex 32` makes one)", file=sys.stderr)
            raise typer.Exit(2)
        refuse_unreachable_redis(redis)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    address = f"http://{shown}:{port}/"
    database = make_url(settings.db_url).render_as_string(hide_password=True)
    if log_format == "json":  # stdout and stderr often end in one stream: every line stays a JSON object
        logging.config.dictConfig(log_config(log_format))
        logging.getLogger("ludotheque.serve").info("serving on %s (database: %s)", address, database)
    else:
        console.print(f"ludotheque is serving on [bold]{address}[/] (database: {database})", soft_wrap=True)
        console.print("open that address in a browser; Ctrl-C stops the server")
    configure_guard(settings)
    if workers > 1:  # uvicorn starts the workers on one listening socket; each builds its app from the settings
        os.environ[SETTINGS_ENV] = json.dumps(dataclasses.asdict(settings))
        os.environ["FORWARDED_ALLOW_IPS"] = forwarded_allow_ips  # each worker's guard trusts the same proxies
        application: Any = "ludotheque.server.app:app_from_environment"
    else:
        application = create_app(settings)
    uvicorn.run(
        application, factory=workers > 1, workers=workers if workers > 1 else None,
        host=host, port=port, ws_max_size=MAX_MESSAGE_BYTES,
        log_config=log_config(log_format), log_level=LEVELS[log_format],
        timeout_graceful_shutdown=3, proxy_headers=proxy_headers, forwarded_allow_ips=forwarded_allow_ips,
        http=GuardedH11Protocol,  # header deadline, connection caps (server/guard.py)
    )


def refuse_damaged(db_url: str) -> None:
    """Exit with a message saying how to restore a backup, before anything is served, when the SQLite file is
    damaged (``Lobby.open`` checks again: a start that goes around this command is refused too, less politely)."""
    from ludotheque.server.db import DamagedDatabase, check_intact, make_engine

    engine = make_engine(db_url)
    try:
        check_intact(engine)
    except DamagedDatabase as error:
        # plain, never wrapped: the restore command in the message is copied as it is
        print(f"error: {error}", file=sys.stderr)
        raise typer.Exit(1) from None
    finally:
        engine.dispose()


#: the exit code of ``serve`` when the site's Redis does not answer at start
EXIT_NO_REDIS = 4


def refuse_unreachable_redis(url: str) -> None:
    """One line and exit ``EXIT_NO_REDIS``, before anything is served, when the site's Redis does not answer (a
    node without it would serve tables another node holds)."""
    import redis as redis_client

    client = redis_client.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
    try:
        client.ping()
    except (redis_client.RedisError, OSError, ValueError) as error:
        shown = urlsplit(url)._replace(netloc=urlsplit(url).netloc.rpartition("@")[2]).geturl()
        reason = " ".join(str(error).split()) or type(error).__name__
        print(f"error: the site's Redis at {shown} does not answer ({reason}); start it, or fix --redis",
              file=sys.stderr)
        raise typer.Exit(EXIT_NO_REDIS) from None
    finally:
        client.close()


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
