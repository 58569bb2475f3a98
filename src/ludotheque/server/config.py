"""Server settings: where the database is, how bots are paced and capped, and the clocks."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ludotheque.bots.coach import DEFAULT_PLAYOUTS, default_model

#: Seconds before a bot's turn, so that people can follow the bots turn by turn (``--no-pacing`` sets 0); the bot's
#: thinking counts toward it.
BOT_PACING_S = 0.7
#: Seconds between two steps of one bot's turn (a Rummü meld laid card by card), decided before the first is shown
#: (``--no-pacing`` sets 0).
BOT_STEP_PACING_S = 0.15
#: A bot's thinking is capped at this many seconds per move (the levels are tuned to about one second).
BOT_TIME_CAP_S = 5.0

#: Clock profiles: seconds per move, and a reserve spent once a move takes longer.  A game's ``clock_pace``
#: multiplies both (Geier and Cheese Rescue 0.5, Rummü 2, the others 1).
CLOCK_PROFILES: dict[str, tuple[float, float]] = {
    "relaxed": (120.0, 600.0),
    "normal": (45.0, 180.0),
    "fast": (15.0, 60.0),
}
#: After this many timeouts in a row, a bot takes the seat for good.
TIMEOUTS_BEFORE_TAKEOVER = 3


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, str(default)))


def _env_float(name: str, default: float) -> float:
    return float(os.environ.get(name, str(default)))


def _env_list(name: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in os.environ.get(name, "").split(",") if part.strip())


#: The bot levels anyone may seat (a game adds its own named bots as ``BOTS`` in its ``levels.py``, read by
#: ``bots.registry.own_bot_names``); any other spec needs ``--allow-custom-bots``.
NAMED_LEVELS = ("random", "heuristic", "easy", "medium", "hard")


def default_db_url() -> str:
    """``LUDOTHEQUE_DB`` if set, else an SQLite file under the data directory (``LUDOTHEQUE_DATA``, ``./data``)."""
    if os.environ.get("LUDOTHEQUE_DB"):
        return os.environ["LUDOTHEQUE_DB"]
    return f"sqlite:///{Path(default_data_dir()) / 'ludotheque.db'}"


def default_data_dir() -> str:
    return os.environ.get("LUDOTHEQUE_DATA", "data")


@dataclass(frozen=True)
class Settings:
    db_url: str = field(default_factory=default_db_url)
    #: where the server keeps its files beside a database that is not an SQLite file (the VAPID keys):
    #: ``LUDOTHEQUE_DATA``, default ``./data``; with SQLite, the file's folder (``push.data_folder``)
    data_dir: str = field(default_factory=default_data_dir)
    #: how long a write waits for a locked SQLite file or an unreachable PostgreSQL before it is refused
    #: (``LUDOTHEQUE_DB_WAIT_S``): a move is then answered "unavailable" and changes nothing, instead of hanging
    db_wait_s: float = field(default_factory=lambda: _env_float("LUDOTHEQUE_DB_WAIT_S", 10.0))
    pacing_s: float = BOT_PACING_S
    step_pacing_s: float = BOT_STEP_PACING_S
    bot_time_cap_s: float = BOT_TIME_CAP_S
    #: processes that run bots (``0``: bots move in the server's own thread pool, for tests)
    bot_workers: int = 1
    #: the public address of the server, for invite links (default: the address a request came to)
    public_url: str | None = None
    #: pages of other origins whose scripts may open a WebSocket here (the server's own address always may)
    allow_origins: tuple[str, ...] = ()
    #: a fault point for the crash tests: SIGKILL after the Nth committed move of a person, before its ack (0: off)
    crash_after_commit: int = field(default_factory=lambda: int(os.environ.get("LUDOTHEQUE_CRASH_AFTER_COMMIT", "0")))
    #: at a table without a clock, a person to act who has had no connection for this long loses the seat to a
    #: bot (``LUDOTHEQUE_ABSENT_S``, default 5 minutes): the game never waits forever for someone who is gone
    absent_s: float = field(default_factory=lambda: float(os.environ.get("LUDOTHEQUE_ABSENT_S", "300")))

    #: the site's Redis (``--redis``): this process is one node of a site of several on one database
    #: (``site.py``); ``None``: a server alone
    redis_url: str | None = None
    #: seconds a node's lease on a table lasts unrenewed: a stopped node's tables are adopted after about this
    #: long plus two sweeps (``LUDOTHEQUE_LEASE_S``)
    lease_s: float = field(default_factory=lambda: _env_float("LUDOTHEQUE_LEASE_S", 6.0))
    #: the site's name in Redis (``LUDOTHEQUE_SITE``; default: the database's name): two sites on one Redis need
    #: two names
    site_name: str | None = field(default_factory=lambda: os.environ.get("LUDOTHEQUE_SITE") or None)
    #: the secret every node of the site shares (``LUDOTHEQUE_SITE_SECRET``, at least 16 characters): the messages
    #: between nodes are signed with it, and a Redis client without it cannot act (``cluster.py``)
    site_secret: str | None = field(default_factory=lambda: os.environ.get("LUDOTHEQUE_SITE_SECRET") or None)

    # -- limits for the open internet (docs/deploy.md lists them; each has an environment variable) -------------
    #: seats and ``default_bot`` take any bot spec (``bot:ismcts:iterations=...``), not only the named levels
    allow_custom_bots: bool = False
    #: at most this many ``hard`` moves are computed at once (``LUDOTHEQUE_HARD_AT_ONCE``), so that a few tables of
    #: strong bots never hold every worker
    hard_at_once: int = field(default_factory=lambda: _env_int("LUDOTHEQUE_HARD_AT_ONCE", 1))
    #: messages waiting to be sent to one WebSocket; a connection that falls this far behind is closed (1013)
    outbox_limit: int = field(default_factory=lambda: _env_int("LUDOTHEQUE_OUTBOX_LIMIT", 256))
    #: bytes (the JSON of the messages) waiting to be sent to one WebSocket; past them it is closed (1013) too
    outbox_bytes: int = field(default_factory=lambda: _env_int("LUDOTHEQUE_OUTBOX_BYTES", 1 << 20))
    #: WebSockets open at once from one client address (behind ``--proxy-headers``, the forwarded one); the next is
    #: closed at once (4429)
    sockets_per_address: int = field(default_factory=lambda: _env_int("LUDOTHEQUE_SOCKETS_PER_ADDRESS", 50))
    #: seconds a connection has to send a request's headers (a slowloris client is closed past them)
    header_timeout_s: float = field(default_factory=lambda: _env_float("LUDOTHEQUE_HEADER_TIMEOUT_S", 10.0))
    #: connections open at once from one peer address, WebSockets included (the trusted proxies are not capped:
    #: ``sockets_per_address`` counts their clients' WebSockets by the forwarded address)
    connections_per_address: int = field(default_factory=lambda: _env_int("LUDOTHEQUE_CONNECTIONS_PER_ADDRESS", 100))
    #: connections open at once in all (0: as many as the file descriptor limit leaves room for, ``server/guard.py``)
    max_connections: int = field(default_factory=lambda: _env_int("LUDOTHEQUE_MAX_CONNECTIONS", 0))
    #: the coach's hints under way at once for the tables of one creator (one a seat at any time, however many
    #: sockets it has); ``rate_limited`` beyond
    hints_per_creator: int = field(default_factory=lambda: _env_int("LUDOTHEQUE_HINTS_PER_CREATOR", 2))
    #: reviews queued or running at once for one requester (the ``X-Player-Token``'s player, else the client
    #: address); 429 beyond
    reviews_per_requester: int = field(default_factory=lambda: _env_int("LUDOTHEQUE_REVIEWS_PER_REQUESTER", 2))
    #: the largest request body (413 beyond)
    max_body_bytes: int = field(default_factory=lambda: _env_int("LUDOTHEQUE_MAX_BODY_BYTES", 1 << 20))
    #: failed logins within ``login_window_s`` after which logins are refused (429) for one user name ...
    login_failures_per_user: int = field(default_factory=lambda: _env_int("LUDOTHEQUE_LOGIN_FAILURES_PER_USER", 10))
    #: ... or for one client address
    login_failures_per_address: int = field(
        default_factory=lambda: _env_int("LUDOTHEQUE_LOGIN_FAILURES_PER_ADDRESS", 30))
    login_window_s: float = field(default_factory=lambda: _env_float("LUDOTHEQUE_LOGIN_WINDOW_S", 60.0))
    #: passwords hashed or checked at once (argon2 is costly by design: unbounded, it fills the thread pool)
    hash_at_once: int = field(default_factory=lambda: _env_int("LUDOTHEQUE_HASH_AT_ONCE", 2))
    #: guests one client address may create a minute, by any path that makes one (429 beyond)
    guests_per_minute: int = field(default_factory=lambda: _env_int("LUDOTHEQUE_GUESTS_PER_MINUTE", 120))
    #: tables one player may have waiting for people at once (429 beyond)
    waiting_tables_per_player: int = field(default_factory=lambda: _env_int("LUDOTHEQUE_WAITING_TABLES", 50))
    #: the push services' hosts a subscription may name (``LUDOTHEQUE_PUSH_HOSTS``, comma-separated; ``*.example.com``
    #: names a domain's hosts); empty: any host all of whose addresses are public (``push_net.py``)
    push_hosts: tuple[str, ...] = field(default_factory=lambda: _env_list("LUDOTHEQUE_PUSH_HOSTS"))
    #: push endpoints on loopback or a private network are let in (``LUDOTHEQUE_PUSH_ALLOW_PRIVATE=1``): a test's
    #: own push service, or a closed network's; never on a server open to the internet
    push_allow_private: bool = field(default_factory=lambda: os.environ.get("LUDOTHEQUE_PUSH_ALLOW_PRIVATE") == "1")
    #: tables one creator may have waiting or in play at once (429 beyond): the token's player, or the client address
    #: for a table waiting without a creator's seat (``LUDOTHEQUE_TABLES_PER_CREATOR``); a table whose every seat is
    #: a bot needs a player's token, so that it always has one to count against
    tables_per_creator: int = field(default_factory=lambda: _env_int("LUDOTHEQUE_TABLES_PER_CREATOR", 60))
    #: seconds a finished table stays in memory once nobody is connected to it (its replay and record are read
    #: from the database): a page that reloads finds it still there (``LUDOTHEQUE_FINISHED_GRACE_S``)
    finished_grace_s: float = field(default_factory=lambda: _env_float("LUDOTHEQUE_FINISHED_GRACE_S", 10.0))
    #: a waiting table that nobody has opened for this long expires
    waiting_table_ttl_s: float = field(default_factory=lambda: _env_float("LUDOTHEQUE_WAITING_TTL_S", 86_400.0))

    # -- the coach (docs/coach.md) ----------------------------------------------------------------------------
    #: the model of people for hints and reviews (``LUDOTHEQUE_COACH_MODEL``, default ``easy``; ``create_app``
    #: refuses one that is not a bot spec)
    coach_model: str = field(default_factory=default_model)
    #: the cap on one hint's thinking (``LUDOTHEQUE_HINT_SECONDS``)
    hint_seconds: float = field(default_factory=lambda: _env_float("LUDOTHEQUE_HINT_SECONDS", 2.0))
    #: playouts a hint may spend (``LUDOTHEQUE_HINT_PLAYOUTS``, default the coach's)
    hint_playouts: int = field(default_factory=lambda: _env_int("LUDOTHEQUE_HINT_PLAYOUTS", DEFAULT_PLAYOUTS))
    #: the cap on one review's time (``LUDOTHEQUE_REVIEW_SECONDS``; a Mü hand's review fits in the default)
    review_seconds: float = field(default_factory=lambda: _env_float("LUDOTHEQUE_REVIEW_SECONDS", 120.0))
    #: playouts a reviewed decision may spend (``LUDOTHEQUE_REVIEW_PLAYOUTS``, default the coach's)
    review_playouts: int = field(default_factory=lambda: _env_int("LUDOTHEQUE_REVIEW_PLAYOUTS", DEFAULT_PLAYOUTS))
    #: reviews queued or running at once on this process (``LUDOTHEQUE_REVIEWS_QUEUED``; 429 beyond)
    reviews_queued: int = field(default_factory=lambda: _env_int("LUDOTHEQUE_REVIEWS_QUEUED", 20))

    # -- Web Push (server/push.py) ----------------------------------------------------------------------------
    #: the contact the push services are given (``LUDOTHEQUE_PUSH_CONTACT``; default the https public address, else
    #: a local mailto)
    push_contact: str | None = field(default_factory=lambda: os.environ.get("LUDOTHEQUE_PUSH_CONTACT") or None)
    #: push endpoints over plain http are let in (``LUDOTHEQUE_PUSH_ALLOW_HTTP=1``): a test's local push service
    push_allow_http: bool = field(default_factory=lambda: os.environ.get("LUDOTHEQUE_PUSH_ALLOW_HTTP") == "1")

    #: the proxies whose forwarded addresses are believed (``--forwarded-allow-ips``; uvicorn's
    #: ``FORWARDED_ALLOW_IPS``, which ``serve`` sets for each worker of ``--workers N``)
    forwarded_allow_ips: str = field(default_factory=lambda: os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"))
