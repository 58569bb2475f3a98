"""A waiting table's life before play: opened by visitors, started, or closed (cancelled or expired unopened).

The lobby decides (who may start or cancel, which tables expire) and writes the seats people take; the actor
changes its own row, so that the status its frames, moves and watcher read changes in one place.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ludotheque.server.live.actor import LiveTable


async def opened(live: LiveTable) -> None:
    """Someone opened the waiting table: it expires ``waiting_table_ttl_s`` from now.  The time is written at most
    once a minute (a hundredth of the lifetime, if shorter): a page that reads the table every few seconds does not
    write each time."""
    if live.row.status != "waiting":
        return
    now = time.time()
    if now - live.row.last_opened < min(60.0, live.settings.waiting_table_ttl_s / 100):
        return
    live.row.opened_at = now
    await live.write(live.store.mark_opened, live.id, now)


async def start(live: LiveTable) -> None:
    """Bots take the seats still open, the table plays, and its runner and watcher begin."""
    await live.write(live.store.fill_open_seats, live.id, live.row.default_bot)
    await live.write(live.store.set_status, live.id, "playing")
    await live.reload()
    if live.clock is not None:
        live.clock.follow(live.people_to_act())
    live.broadcast()
    live.kick()
    live.watch()


async def let_start(live: LiveTable, seat: int) -> None:
    """``seat`` may start the table (whoever offered a rematch starts it without waiting for everyone)."""
    live.row.creator_seat = seat
    await live.write(live.store.set_creator, live.id, seat)


def closing(live: LiveTable, status: str) -> None:
    # set before the database is written, so that no join or start slips in meanwhile
    live.row.status = status


def not_closed(live: LiveTable) -> None:
    live.row.status = "waiting"
