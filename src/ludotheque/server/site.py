"""The lobby's side of a site on several nodes (``--redis``): which node serves a table, and the sweep that adopts
the tables of a node that stopped.  ``cluster.py`` is the transport; this module decides.

A table's verbs (join, start, leave, ...: the lobby's ``OWNER_VERBS``) run at the table's owner as they do on a
single server; elsewhere they are sent to the owner and its answer (or refusal) comes back.  A
table nobody owns (its node stopped, or the site starts) is adopted by the first node that needs it, or by the
sweep of any node after it has stayed orphaned for two sweeps (a table just created is claimed by its creator in
between).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ludotheque.server.cluster import CLOSE_MOVED, CallFailed, Cluster, RelayedSocket
from ludotheque.server.errors import Refusal
from ludotheque.server.placement import Holding, Host, Remote
from ludotheque.server.relay import relay_socket
from ludotheque.server.store import CLOSED, TableRow

if TYPE_CHECKING:
    from fastapi import WebSocket

    from ludotheque.server.live import LiveTable

log = logging.getLogger("ludotheque.server.site")

#: the statuses of a table that lives in a node until it ends (the sweep adopts those nobody holds)
LIVE_STATUSES = ("waiting", "playing")

#: serves a relayed socket as one of this node's own connections (``live/socket.py``'s ``serve_connection``)
ServeSocket = Callable[[RelayedSocket, "LiveTable", "int | None"], Awaitable[None]]


class SitePlacement:
    """This node's part in the site (``placement.Placement``): the cluster link, the tables it adopts and gives
    up, the verbs it forwards and answers, the sockets it relays and serves."""

    host: Host

    def __init__(self, redis_url: str, site: str, secret: str, *, lease_s: float, serve_socket: ServeSocket,
                 outbox_limit: int, outbox_bytes: int, sweep_s: float | None = None) -> None:
        self.cluster = Cluster(redis_url, site, secret, lease_s=lease_s, renew_s=lease_s / 3,
                               on_call=self._answer, on_socket=self._socket, on_lost=self._lost)
        self.serve_socket = serve_socket
        self.outbox_limit, self.outbox_bytes = outbox_limit, outbox_bytes
        self.sweep_s = sweep_s if sweep_s is not None else self.cluster.renew_s
        self._adopting: dict[str, asyncio.Task[LiveTable | None]] = {}
        #: the fencing number of each table this node took the lease of (``Store.take_fence``)
        self.fences: dict[str, int] = {}
        self._orphans_seen: set[str] = set()
        self._sweeper: asyncio.Task[None] | None = None

    def bind(self, host: Host) -> None:
        self.host = host

    def tables_to_restore(self) -> list[TableRow]:
        # a node restores nothing at start: it adopts a table when it is asked for one nobody holds, or in a sweep
        return []

    async def start(self) -> None:
        await self.cluster.start()
        self._sweeper = asyncio.create_task(self._sweep_often())

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        await self.cluster.close()

    # -- where a table lives ---------------------------------------------------------------------------------

    async def locate(self, table_id: str) -> LiveTable | Remote | None:
        """The table's live actor when this node holds it (adopting it if nobody does), ``Remote`` when another
        node does, ``None`` when there is no such table or it was closed.  A finished table is held like the
        others while people watch it (its frames offer the rematch)."""
        live = self.host.tables.get(table_id)
        if live is not None:
            return live
        row = await asyncio.to_thread(self.host.store.table, table_id)
        if row is None or row.status in CLOSED:
            return None
        owner = await self.cluster.claim(table_id)
        if owner != self.cluster.node:
            assert owner is not None
            return Remote(row, owner)
        return await self.adopt(table_id)

    async def adopt(self, table_id: str) -> LiveTable | None:
        """Restore a table whose lease this node just took, from the database's log, and start its bots and
        clocks (once, however many ask at the same moment)."""
        live = self.host.tables.get(table_id)
        if live is not None:
            return live
        task = self._adopting.get(table_id)
        if task is None:
            task = self._adopting[table_id] = asyncio.create_task(self._adopt(table_id))
            task.add_done_callback(lambda _: self._adopting.pop(table_id, None))
        return await asyncio.shield(task)

    async def _adopt(self, table_id: str) -> LiveTable | None:
        # the fence first: a commit of the table's former holder under way ends before, and is read back below
        fence = await asyncio.to_thread(self.host.store.take_fence, table_id)
        row = await asyncio.to_thread(self.host.store.table, table_id)
        if row is None or row.status in CLOSED:
            await self.cluster.release(table_id)
            return None
        self.fences[table_id] = fence
        live = self.host.tables.setdefault(table_id, await asyncio.to_thread(self.host.load, row))
        if live.row.status == "playing":
            live.kick()
            live.watch()
        log.info("node %s adopted table %s at seq %d", self.cluster.node, table_id, live.table.seq)
        return live

    async def claim_new(self, table_id: str) -> None:
        """A table this node just created is its own (refused in the rare case a sweep took it first)."""
        if await self.cluster.claim(table_id) != self.cluster.node:
            raise Refusal(503, "the table was created, but another server holds it now: open it from the lobby")
        if table_id not in self.fences:
            self.fences[table_id] = await asyncio.to_thread(self.host.store.take_fence, table_id)

    def holding(self, table_id: str) -> Holding:
        """A table this node holds: its commits carry the lease's fencing number, and a write that finds another
        node wrote first (or took the table: a newer number) makes it let go.  A table loaded here without its
        lease (a finished one read for its record) is held by nobody: it commits nothing."""
        if table_id not in self.fences:
            return Holding()
        return Holding(self.fences[table_id], lambda: self._conflict(table_id))

    def _conflict(self, table_id: str) -> None:
        asyncio.get_running_loop().create_task(self.cluster.lose(table_id))

    async def forget(self, table_id: str) -> None:
        """A table that stops living here (finished and unwatched, closed): its lease is given back."""
        self.fences.pop(table_id, None)
        await self.cluster.release(table_id)

    # -- the sweep --------------------------------------------------------------------------------------------

    async def _sweep_often(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_s)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("node %s: the sweep failed; trying again in %.0f s", self.cluster.node, self.sweep_s)

    async def sweep(self) -> list[str]:
        """Adopt the tables nobody has owned for two sweeps; close the relays of tables that moved, and the served
        connections of nodes that stopped.  The ids adopted."""
        ids = await asyncio.to_thread(self.host.store.table_ids, LIVE_STATUSES)
        owners = await self.cluster.owners(ids)
        orphans = {t for t, owner in zip(ids, owners, strict=True) if owner is None}
        due, self._orphans_seen = orphans & self._orphans_seen, orphans - self._orphans_seen
        adopted = []
        for table_id in sorted(due):
            if await self.cluster.claim(table_id) == self.cluster.node:
                live = await self.adopt(table_id)
                if live is not None:
                    adopted.append(table_id)
        for live in list(self.host.tables.values()):
            if live.row.status == "finished" and not live.connections:
                await self.host.forget(live)  # held for a verb (a rematch) and no longer watched
        await self.cluster.check_relays()
        await self.cluster.check_served()
        return adopted

    # -- what other nodes ask of this one ----------------------------------------------------------------------

    async def elsewhere(self, table_id: str) -> Remote | None:
        where = await self.locate(table_id)
        return where if isinstance(where, Remote) else None

    async def call(self, remote: Remote, verb: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
        try:
            return await self.cluster.call(remote.owner, verb, {"table_id": remote.id, "args": args,
                                                                "kwargs": kwargs})
        except CallFailed as failed:
            raise Refusal(failed.status, failed.detail) from None

    async def _answer(self, verb: str, request: dict[str, Any]) -> Any:
        table_id = request["table_id"]
        if table_id not in self.host.tables:
            # the lease moved meanwhile: the asker tries again and finds the new owner
            raise Refusal(503, "the table is moving to another server: try again in a few seconds")
        return await self.host.run_here(verb, table_id, request["args"], request["kwargs"])

    # -- sockets ------------------------------------------------------------------------------------------------

    async def relay(self, websocket: WebSocket, remote: Remote, seat: int | None, person_seat: int | None) -> None:
        await relay_socket(websocket, self.cluster, remote, seat, self.outbox_limit, self.outbox_bytes, person_seat)

    async def _socket(self, socket: RelayedSocket, table_id: str, seat: int | None) -> None:
        live = self.host.tables.get(table_id)
        if live is None:
            await socket.close(CLOSE_MOVED, "the table moved to another server: reconnect")
            return
        await self.serve_socket(socket, live, seat)

    async def _lost(self, table_id: str) -> None:
        self.fences.pop(table_id, None)
        live = self.host.tables.pop(table_id, None)
        if live is not None:
            live.stop(CLOSE_MOVED, "the table moved to another server: reconnect")
