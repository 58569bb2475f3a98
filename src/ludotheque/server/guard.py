"""Connections before the application sees them: a deadline for a request's headers, a cap per client address and a
cap in all below the process's file descriptors, and "too many open files" answered quietly.

uvicorn waits for a request's headers as long as the client likes (a slowloris client sends one byte a minute) and
accepts connections until the process runs out of descriptors; then ``accept`` fails, asyncio logs a traceback
each time, and ``/healthz`` cannot be reached.  ``GuardedH11Protocol`` (uvicorn's ``--http`` protocol with these
checks) bounds what one client holds:

* a connection has ``Settings.header_timeout_s`` to send a request's headers, at its start and whenever it starts
  another request on a kept-alive connection (between requests uvicorn's keep-alive timeout applies, and a
  WebSocket answers pings or is closed: uvicorn's ``ws_ping_interval`` and ``ws_ping_timeout``);
* at most ``Settings.connections_per_address`` connections at once from one peer address, WebSockets included; the
  trusted proxies of ``--forwarded-allow-ips`` are not capped here (the application caps WebSockets by the
  forwarded address, ``Settings.sockets_per_address``; the proxy caps its own clients, ``docs/deploy.md``);
* at most as many connections in all as the descriptor limit leaves room for (``RESERVED_DESCRIPTORS`` are kept
  for the database, the bot workers and the log): a connection past it takes the place of the oldest one still
  waiting for its headers, or is closed at once when none is, so the server never runs out of descriptors by
  connections alone and a new request (``/healthz``) is served while half-open ones wait;
* when ``accept`` fails for want of descriptors all the same (another part of the process holds them), asyncio
  stops accepting for a second, and ``quiet_accept_errors`` makes its log one line a second at most, through the
  server's own logger (JSON with ``--log-format json``) instead of a traceback each time.

The counts live in the process (``GUARD``, set by ``configure``); each worker of ``serve --workers N`` has its own.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
import time
from collections import Counter
from collections.abc import Iterable
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import get_remote_addr

from ludotheque.server.config import Settings

log = logging.getLogger("ludotheque.server")

#: Descriptors kept out of the connections' reach: the database, the bot workers' pipes, Redis, the log.
RESERVED_DESCRIPTORS = 64
#: ``accept`` errors that mean the process or the system is out of descriptors or memory for a socket.
OUT_OF_RESOURCES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


def connection_room() -> int:
    """Connections that fit under the descriptor limit now, with ``RESERVED_DESCRIPTORS`` (at least 1/8) kept."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 1 << 30
    return max(16, soft - max(RESERVED_DESCRIPTORS, soft // 8))


class Guard:
    """The connections of one process: by peer address, in all, and those waiting for their headers."""

    def __init__(self, per_address: int, header_timeout_s: float, trusted: Iterable[str] = ("127.0.0.1",),
                 max_connections: int | None = None) -> None:
        self.per_address = per_address
        self.header_timeout_s = header_timeout_s
        self.trusted = {address.strip() for address in trusted}
        self.max_connections = max_connections  # None: ``connection_room()``, read at each connection
        self.by_address: Counter[str] = Counter()
        self.open = 0
        #: the connections waiting for a request's headers, oldest first (a dict keeps the order)
        self.waiting: dict[GuardedH11Protocol, None] = {}
        self.refused = 0

    def capped(self, host: str) -> bool:
        return "*" not in self.trusted and host not in self.trusted and self.by_address[host] >= self.per_address

    def room(self) -> bool:
        """Whether one more connection fits, making room by closing the oldest one still waiting for headers."""
        limit = self.max_connections if self.max_connections is not None else connection_room()
        if self.open < limit:
            return True
        if not self.waiting:
            return False
        oldest = next(iter(self.waiting))
        oldest.give_up()
        return True


#: This process's guard (``configure``); the defaults of ``Settings`` until then.
GUARD: Guard | None = None


def configure(settings: Settings) -> Guard:
    """Set this process's guard from ``settings`` (the proxies it trusts: ``--forwarded-allow-ips``)."""
    global GUARD
    GUARD = Guard(settings.connections_per_address, settings.header_timeout_s, settings.forwarded_allow_ips.split(","),
                  settings.max_connections or None)
    return GUARD


def guard() -> Guard:
    """This process's guard; a worker of ``serve --workers N`` makes its own at its first connection, trusting the
    proxies uvicorn trusts (``FORWARDED_ALLOW_IPS``, which ``serve`` sets)."""
    return GUARD if GUARD is not None else configure(Settings())


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, with the guard's deadline and caps (module docstring)."""

    _host = ""
    _counted = False
    _timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        checks = guard()
        peer = get_remote_addr(transport)
        host = peer[0] if peer else "unknown"
        if checks.capped(host) or not checks.room():
            checks.refused += 1
            transport.abort()  # nothing was read: closed at once, its descriptor freed
            return
        self._host, self._counted = host, True
        checks.open += 1
        checks.by_address[host] += 1
        super().connection_made(transport)
        self._wait_for_headers()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self._wait_for_headers()  # a request begun and not whole yet
        else:
            self._stop_waiting()

    def _wait_for_headers(self) -> None:
        if self._timer is None:
            self._timer = self.loop.call_later(guard().header_timeout_s, self.give_up)
            guard().waiting[self] = None

    def _stop_waiting(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        guard().waiting.pop(self, None)

    def give_up(self) -> None:
        """The headers did not come in time (or a new connection needs the room): closed without an answer."""
        self._stop_waiting()
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.abort()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._stop_waiting()
        super().handle_websocket_upgrade(event)
        # the WebSocket's protocol holds the transport from now on: the connection is counted until it is lost
        socket_protocol: Any = self.transport.get_protocol()
        lost = socket_protocol.connection_lost

        def connection_lost(exc: Exception | None) -> None:
            self._uncount()
            lost(exc)

        socket_protocol.connection_lost = connection_lost

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._counted:
            return  # refused in ``connection_made``: nothing was set up
        self._stop_waiting()
        self._uncount()
        super().connection_lost(exc)

    def _uncount(self) -> None:
        if self._counted:
            self._counted = False
            checks = guard()
            checks.open -= 1
            checks.by_address[self._host] -= 1
            if checks.by_address[self._host] <= 0:
                del checks.by_address[self._host]


# -- "too many open files" -------------------------------------------------------------------------------------


class QuietAcceptErrors:
    """A loop exception handler: ``accept`` out of descriptors is said in one line a second at most (with how many
    times it happened meanwhile); anything else goes to the loop's default handler."""

    def __init__(self, every_s: float = 1.0) -> None:
        self.every_s = every_s
        self.last = -float("inf")
        self.unsaid = 0

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if not (isinstance(error, OSError) and error.errno in OUT_OF_RESOURCES):
            loop.default_exception_handler(context)
            return
        self.unsaid += 1
        now = time.monotonic()
        if now - self.last < self.every_s:
            return
        log.error("new connections refused for a second: the process is out of file descriptors or memory "
                  "(%s; %d times since the last line); raise LimitNOFILE or lower the connection limits",
                  errno.errorcode.get(error.errno or 0, "?"), self.unsaid)
        self.last, self.unsaid = now, 0


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    loop.set_exception_handler(QuietAcceptErrors())
