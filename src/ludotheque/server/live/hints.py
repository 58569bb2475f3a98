"""The coach's hint at a table in play: ``{"type": "hint"}`` from the seat whose turn it is, at a table created
with ``"hints": true``, answered ``{"type": "hint", "seq", "move", "expected", "next_best", "next_expected",
"stderr"}`` (``docs/server.md``, ``docs/coach.md``).

The hint is computed in the coach's workers (``BotPool.hint``, low priority) from what a bot of that seat
receives: the seat's view, its legal moves and a sampler of determinizations, never the state; its seed is public
(the table's id and the decision's seq, as the review's), so a hint depends on nothing the seat cannot see; it
models each seat as the review does (a bot by its spec, a person by ``Settings.coach_model``).  It is bounded in time
(``Settings.hint_seconds``, 2 s); a seat has one hint asked at a time however many connections it has, and the
tables of one creator ``Settings.hints_per_creator`` at once, so that no seat nor visitor holds the coach's slots
(``HINTS_AT_ONCE`` in all); the reader goes on reading the connection's moves meanwhile.  Those counts are the
process's ``HintDesk``, one of the services every table is given (``server/services.py``).  Elsewhere the answer
is an ``error`` frame: ``unauthorized`` (a spectator, a table without hints), ``not_your_turn``,
``rate_limited`` (a hint already asked for the seat, the creator's tables' hints under way, or the coach busy),
``unavailable``.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import TYPE_CHECKING, Any

from ludotheque.core import LudothequeError
from ludotheque.server.botpool import CoachBusy, HintRequest, history_of, seat_bots
from ludotheque.server.live.connection import Connection

if TYPE_CHECKING:
    from ludotheque.server.live.actor import LiveTable

log = logging.getLogger("ludotheque.server")


class HintDesk:
    """The hints under way in one process: one a seat, ``hints_per_creator`` for the tables of one creator."""

    def __init__(self, hints_per_creator: int) -> None:
        self.hints_per_creator = hints_per_creator
        self.asking: set[tuple[str, int]] = set()  # (table, seat) with a hint under way
        self.by_creator: Counter[str] = Counter()  # hints under way by the creator of their table
        self.tasks: set[asyncio.Task[None]] = set()  # the hints under way, kept from the garbage collector

    def ask(self, live: LiveTable, connection: Connection) -> None:
        """Answer ``{"type": "hint"}``: a refusal at once, or the hint later, from a task of its own."""
        if connection.seat is None:
            connection.push(_error("unauthorized", "a spectator gets no hints: connect with a seat's token"))
            return
        key = (live.id, connection.seat)
        creator = live.row.created_by or f"table:{live.id}"
        if key in self.asking:
            connection.push(_error("rate_limited", "one hint at a time for a seat: the coach is still thinking "
                                                   "about the last"))
            return
        if self.by_creator[creator] >= self.hints_per_creator:
            connection.push(_error("rate_limited", "the coach is answering hints at other tables of this table's "
                                                   "creator: ask again in a moment"))
            return
        self.asking.add(key)
        self.by_creator[creator] += 1
        task = asyncio.get_running_loop().create_task(_answer(live, connection, connection.seat))
        self.tasks.add(task)

        def done(task: asyncio.Task[None]) -> None:
            self.tasks.discard(task)
            self.asking.discard(key)
            self.by_creator[creator] -= 1
            if self.by_creator[creator] <= 0:
                del self.by_creator[creator]

        task.add_done_callback(done)


async def _answer(live: LiveTable, connection: Connection, seat: int) -> None:
    """The hint, or why not (the counts of ``HintDesk.ask`` are given back when this task ends)."""
    if not live.row.hints:
        connection.push(_error("unauthorized", "this table gives no hints: create one with \"hints\": true"))
        return
    refusal = _not_now(live, seat)
    if refusal is not None:
        connection.push(_error("not_your_turn", refusal))
        return
    table, row = live.table, live.row
    seq = table.seq
    # the seed is the table's id: with the decision's seq, the review's entry there draws the same numbers
    request = HintRequest(live.id, row.game, row.players, row.options, history_of(table), seat, live.id,
                          live.settings.hint_seconds, live.settings.hint_playouts, live.settings.coach_model,
                          seat_bots(row.seats))
    try:
        answer = await live.bots.hint(request)
    except CoachBusy as busy:
        connection.push(_error("rate_limited", str(busy)))
        return
    except Exception:
        log.exception("table %s: the coach could not give seat %d a hint", live.id, seat)
        connection.push(_error("unavailable", "the coach could not answer: ask again"))
        return
    connection.push({"type": "hint", "seq": seq, **answer})


def _not_now(live: LiveTable, seat: int) -> str | None:
    """Why ``seat`` cannot be given a hint now, or ``None``."""
    if live.row.status != "playing":
        return f"the table is {live.row.status}, not playing"
    try:
        live.table.check_turn(seat)
    except LudothequeError as error:
        return f"a hint is for the seat to act: {error}"
    if live.bot_plays(seat):
        return f"a bot plays seat {seat} now"
    return None


def _error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}
