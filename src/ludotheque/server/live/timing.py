"""Time at a table: the clocks, a bot for one move when a seat's time runs out, and a bot for good when a person
is gone (left, absent too long without a clock, or out of time too often); the person may take the seat back.
A table by correspondence (``{"days": N}``, ``correspondence.py``) has a clock, so a person's absence never costs
them the seat there: only N days without a move do; its watcher also tells absent people that it is their turn.

The watcher is one task per table in play.  It sleeps until the next deadline, or until the table changes
(``live.changed``: a move, a connection come or gone), and never writes a move itself: a seat out of time is
marked ``due`` and the runner's bot plays it, through the one commit path.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from typing import TYPE_CHECKING, Any

from ludotheque.server.config import TIMEOUTS_BEFORE_TAKEOVER
from ludotheque.server.correspondence import tell_turns

if TYPE_CHECKING:
    from ludotheque.server.live.actor import LiveTable


def clock_after(live: LiveTable, actor: int | None, timeout: bool) -> dict[str, Any] | None:
    """Update the clocks for ``actor``'s move; what to store with the action (``None`` without a clock)."""
    if live.clock is None:
        return None
    if actor is not None:
        if timeout:
            live.clock.timed_out(actor)
        else:
            live.clock.moved(actor)
    return live.clock.state()


async def after_timeout(live: LiveTable, seat: int) -> None:
    """A bot played ``seat``'s move because its time ran out: after ``TIMEOUTS_BEFORE_TAKEOVER`` of them the bot
    keeps the seat.  Hold ``live.lock``."""
    if live.clock is None or live.clock.timeouts[seat] < TIMEOUTS_BEFORE_TAKEOVER or live.row.seats[seat].away:
        return
    await live.write(live.store.set_away, live.id, seat, True, "timeout")
    live.row.seats[seat].away, live.row.seats[seat].departure = True, "timeout"
    live.notice("takeover", seat)


#: a notice's kind -> the departure a seat taken over keeps (``GET /api/tables/{id}``, ``/me``)
DEPARTURES = {"left": "left", "resign": "resigned", "takeover": "timeout"}


async def take_over(live: LiveTable, seat: int, kind: str) -> None:
    """A bot plays ``seat`` for good (``kind``: ``left`` when the person left, ``resign`` when they resigned,
    ``takeover`` when they were gone too long)."""
    async with live.lock:
        if live.row.seats[seat].away or live.row.status != "playing":
            return
        departure = DEPARTURES[kind]
        await live.write(live.store.set_away, live.id, seat, True, departure)
        live.row.seats[seat].away, live.row.seats[seat].departure = True, departure
        live.notice(kind, seat)
        if live.clock is not None:
            live.clock.follow(live.people_to_act())
    live.changed.set()
    live.broadcast()
    live.kick()


async def give_back(live: LiveTable, seat: int) -> None:
    """The person takes their seat back from the bot."""
    async with live.lock:
        if not live.row.seats[seat].away:
            return
        await live.write(live.store.set_away, live.id, seat, False)
        live.row.seats[seat].away, live.row.seats[seat].departure = False, None
        live.due.discard(seat)
        live.notice("reclaim", seat)
        if live.clock is not None:
            live.clock.timeouts[seat] = 0
            live.clock.follow(live.people_to_act())
    live.changed.set()
    live.broadcast()


def watch(live: LiveTable) -> None:
    """Start the table's watcher (clocks, absent people) unless it runs already."""
    if live.row.status == "playing" and (live.watcher is None or live.watcher.done()):
        live.watcher = asyncio.create_task(_watch(live), name=f"table {live.id} clocks")


async def _watch(live: LiveTable) -> None:
    correspondence = live.clock is not None and live.clock.days is not None
    told: dict[int, int] = {}  # a correspondence table's turns told (``correspondence.tell_turns``)
    while live.row.status == "playing":
        live.changed.clear()
        if correspondence:
            tell_turns(live, told, live.services.push)
        now = time.monotonic()
        # a correspondence table sleeps until its next deadline, days away, or until it changes
        wake = math.inf if correspondence else now + 3600.0
        for seat in live.people_to_act():
            if seat in live.due:
                continue
            if live.clock is not None:
                deadline = live.clock.deadline(seat)
                if deadline is not None and deadline <= now:
                    live.due.add(seat)  # a bot plays this one move; the runner says so when it commits
                    live.broadcast()  # the seat's frames stop offering moves
                    live.kick()
                    continue
            elif not live.present[seat]:
                deadline = live.absent_since[seat] + live.settings.absent_s
                if deadline <= now:
                    await take_over(live, seat, "takeover")
                    continue
            else:
                continue
            if deadline is not None:
                wake = min(wake, deadline)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(live.changed.wait(),
                                   timeout=None if wake == math.inf else max(0.01, wake - time.monotonic()))
