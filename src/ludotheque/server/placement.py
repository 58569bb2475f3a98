"""Where a table lives: the one interface the lobby asks, given to it at construction.

``LocalPlacement`` is a server alone: every table lives in this process, none is leased, nothing is forwarded.
``site.SitePlacement`` is a node of a site of several processes (``--redis``): a table lives at the node holding its
lease, a verb about it runs there, and a socket opened elsewhere is relayed there.  The lobby keeps one code path
for both; what differs is here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ludotheque.server.store import CLOSED, Store, TableRow

if TYPE_CHECKING:
    from fastapi import WebSocket

    from ludotheque.server.live import LiveTable


@dataclass(frozen=True)
class Remote:
    """A table another node owns: its row as the database has it, and its owner."""

    row: TableRow
    owner: str

    @property
    def id(self) -> str:
        return self.row.id


class Host(Protocol):
    """What a placement needs of the lobby it serves (``Lobby``): its live tables and store, loading a table from
    the database, letting a finished one go, and running a table's verb here (``lobby.OWNER_VERBS``)."""

    store: Store
    tables: dict[str, LiveTable]

    def load(self, row: TableRow) -> LiveTable: ...

    def release_later(self, live: LiveTable) -> None: ...

    async def forget(self, live: LiveTable) -> None: ...

    async def run_here(self, verb: str, table_id: str, args: list[Any], kwargs: dict[str, Any]) -> Any: ...


@dataclass(frozen=True)
class Holding:
    """How this process holds a live table: the fencing number its commits carry (``None`` alone), and what to do
    when a commit finds another writer first (``LiveTable.on_conflict``)."""

    fence: int | None = None
    on_conflict: Callable[[], None] | None = None


class Placement(Protocol):
    def bind(self, host: Host) -> None:
        """The lobby this placement serves (the lobby calls it once, when it is made)."""

    def tables_to_restore(self) -> list[TableRow]:
        """The unfinished tables this process restores when it starts (in a worker thread)."""

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def locate(self, table_id: str) -> LiveTable | Remote | None:
        """A table kept in memory while people use it: its live actor here, ``Remote`` when another node holds it,
        ``None`` when there is no such table."""

    async def elsewhere(self, table_id: str) -> Remote | None:
        """The other node that holds a table not live here, if one does (a verb about it then runs there)."""

    async def call(self, remote: Remote, verb: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """Run a table's verb (``lobby.OWNER_VERBS``) at the node that holds it; its answer or its refusal."""

    async def claim_new(self, table_id: str) -> None:
        """A table this process just made (created, or a rematch offered) is its own."""

    def holding(self, table_id: str) -> Holding:
        """How a table this process holds is held (at its actor's construction)."""

    async def forget(self, table_id: str) -> None:
        """A table that stops living here (finished and unwatched, closed)."""

    async def relay(self, websocket: WebSocket, remote: Remote, seat: int | None, person_seat: int | None) -> None:
        """Serve a socket opened here for a table another node holds, by relaying it there."""


class LocalPlacement:
    """A server alone: every table is this process's."""

    host: Host

    def bind(self, host: Host) -> None:
        self.host = host

    def tables_to_restore(self) -> list[TableRow]:
        return self.host.store.tables(("waiting", "playing"), limit=1_000_000)

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def locate(self, table_id: str) -> LiveTable | Remote | None:
        host = self.host
        row = await asyncio.to_thread(host.store.table, table_id)
        if row is None:
            return None
        live = await asyncio.to_thread(host.load, row)
        if row.status not in CLOSED:
            live = host.tables.setdefault(table_id, live)
            if live.row.status == "finished" and not live.connections:
                host.release_later(live)  # kept for a request that opens no socket (a rematch): released after
        return live

    async def elsewhere(self, table_id: str) -> Remote | None:
        return None

    async def call(self, remote: Remote, verb: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
        raise AssertionError("a server alone holds every table")

    async def claim_new(self, table_id: str) -> None:
        return None

    def holding(self, table_id: str) -> Holding:
        return Holding()

    async def forget(self, table_id: str) -> None:
        return None

    async def relay(self, websocket: WebSocket, remote: Remote, seat: int | None, person_seat: int | None) -> None:
        raise AssertionError("a server alone holds every table")
