"""Moves: a person's, checked and committed under the table's lock, and the runner that plays chance and bots.

The runner is one task per table, started (``kick``) whenever the table may have something for chance or a bot
to do; it stops when people must act or the game is over.  A bot thinks outside the lock (in a worker), so that
people keep moving in a simultaneous decision meanwhile; its move is checked again when it comes back.

A bot decides its whole turn before any of it is shown (a Rummü turn is many steps: a meld laid card by card), on a
private copy of the table, then its steps are committed one by one, each through the one commit path and checked
again there.  People follow bots by turns, not by steps: the runner waits ``pacing_s`` before a turn that is a new
seat's and only ``step_pacing_s`` between the steps of one turn, and a bot's thinking counts toward that wait.  While
a turn is shown, the next one is decided when it is certain to be a bot's and nobody can act in between (the next
seat acts alone and no chance comes first): a person waits for the bots' thinking or for the pace, not for both.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from ludotheque.core import CHANCE, LudothequeError, State, sample_chance
from ludotheque.server.botpool import BotRequest, history_of
from ludotheque.server.errors import Refusal
from ludotheque.server.live.connection import Connection, ack
from ludotheque.table import Table

if TYPE_CHECKING:
    from ludotheque.server.live.actor import LiveTable

log = logging.getLogger("ludotheque.server")

#: Chance is drawn from the operating system's cryptographic source: nobody can predict a deal from earlier ones.
_chance_source = secrets.SystemRandom()

#: The HTTP status that goes with a move's refusal, for the rare caller that answers over REST: a move out of turn
#: or chosen in an older state conflicts with the table as it stands.
_STATUS = {"malformed": 400, "unauthorized": 401}


class MoveError(Refusal):
    """A move refused; ``code`` is the protocol's error code (``illegal``, ``not_your_turn``...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(_STATUS.get(code, 409), message, code)


async def person_move(live: LiveTable, connection: Connection, notation: Any, client_move_id: Any,
                      after_seq: Any) -> int:
    """Validate, commit and apply the move of ``connection``'s seat, acknowledge it on that connection, then show
    it to every connection; the seq of its action (the first one, for a resent ``client_move_id``).  ``MoveError``
    names a refusal; nothing changes then."""
    seat = connection.seat
    if seat is None:
        raise MoveError("unauthorized", "a spectator cannot move: connect with a seat's token")
    if not isinstance(notation, str) or not isinstance(client_move_id, str) or not 0 < len(client_move_id) <= 64:
        raise MoveError("malformed", "a move is {\"type\": \"move\", \"move\": NOTATION, \"client_move_id\": "
                        "TEXT (1 to 64 characters), \"after_seq\": N}")
    if isinstance(after_seq, bool) or not isinstance(after_seq, int):
        raise MoveError("malformed", "after_seq must be the seq of the state the move was chosen in")
    async with live.lock:
        known = live.client_moves.get((seat, client_move_id))
        if known is not None:
            connection.push(ack(client_move_id, known))  # a resent move: the first ack, never a second action
            return known
        if live.row.status != "playing":
            raise MoveError("not_your_turn", f"the table is {live.row.status}, not playing")
        try:
            live.table.check_turn(seat)
        except LudothequeError as error:
            raise MoveError("not_your_turn", str(error)) from None
        if live.row.seats[seat].away:
            raise MoveError("not_your_turn", f"a bot plays seat {seat} now: take the seat back first")
        if seat in live.due:
            raise MoveError("not_your_turn", f"seat {seat}'s time ran out: a bot plays this move")
        if after_seq < live.turn_started[seat] or after_seq > live.table.seq:
            raise MoveError("stale", f"the move was chosen in the state of seq {after_seq}; seat {seat} has "
                            f"been to act since seq {live.turn_started[seat]} (the table is at {live.table.seq})")
        try:
            action = live.table.parse(seat, notation)
        except LudothequeError as error:
            raise MoveError("illegal", str(error)) from None
        seq = await live.commit(seat, action, client_move_id, connection)
    kick(live)
    return seq


def kick(live: LiveTable) -> None:
    """Start the table's runner (chance and bots) unless it runs already."""
    if live.runner is None or live.runner.done():
        live.runner = asyncio.create_task(_run(live), name=f"table {live.id}")


@dataclass
class Pace:
    """When the runner last showed an action: a pause counts from there, so a bot's thinking counts toward it."""

    shown: float


@dataclass(frozen=True)
class Step:
    """One action of a bot's decided turn.  ``after``: the seq it was decided at, where the table must still stand
    when it is committed (``None`` for the first step: people may have moved meanwhile in a simultaneous decision,
    and the move still counts if it is still legal).  ``timeout``: the seat's time ran out, a bot plays this move."""

    seat: int
    action: int
    after: int | None
    timeout: bool


async def pause(kind: str, seconds: float) -> None:
    """Wait ``seconds`` (nothing when not positive) before a bot's step is shown; ``kind`` says why: ``turn``
    before a new seat's turn, ``step`` between the steps of one turn.  The tests replace it to count the pauses."""
    if seconds > 0:
        await asyncio.sleep(seconds)


async def _run(live: LiveTable) -> None:
    pace = Pace(time.monotonic())  # the runner starts right after what was shown last (a person's move, a start)
    delay = 0.5
    while live.row.status == "playing":
        try:
            if not await _automatic_step(live, pace):
                return
            delay = 0.5
        except SQLAlchemyError:
            # the database is away (restarted, locked): nothing was applied; try again, less and less often
            log.warning("table %s: the database is unavailable; retrying in %.1f s", live.id, delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10.0)
        except Exception:
            log.exception("table %s: the runner stopped", live.id)
            raise


async def _automatic_step(live: LiveTable, pace: Pace) -> bool:
    """Apply the next chance action, or decide and show the next bot's turn (and the bot turns that follow it
    with nobody else to act); False when people must act or the game is over."""
    async with live.lock:
        state = live.table.state
        if state.is_terminal():
            return False
        if state.is_chance_node():
            await live.commit(None, sample_chance(state, _chance_source))
            pace.shown = time.monotonic()
            return True
        bot_seats = [s for s in state.current_players() if live.bot_plays(s)]
        if not bot_seats:
            return False  # people must act; their moves start the runner again
        seat = bot_seats[0]
        timeout = seat in live.due
        new_turn = _last_mover(live.table) != seat  # not a turn that goes on after chance (a card drawn)
        projected = live.table.fork()  # the bot decides on its own copy: nothing is shown before it is committed
        projected.with_events = False
    turn = await _decide_turn(live, projected, seat, timeout, loose=True)
    ahead: asyncio.Task[list[Step]] | None = None
    try:
        while True:
            following = None if timeout else _next_bot(live, projected)
            if following is not None:  # decided while this turn is shown
                ahead = asyncio.create_task(_decide_turn(live, projected, following, False, loose=False))
            if not await _show(live, pace, turn, new_turn) or ahead is None:
                return True
            turn, ahead, new_turn = await ahead, None, True
    finally:
        if ahead is not None:
            ahead.cancel()  # the table went another way: the decision is dropped (its worker finishes it unseen)
            if ahead.done() and not ahead.cancelled():
                ahead.exception()  # a dropped decision that failed is not the runner's failure: read, not raised
        # the copy's own entries and the notary that writes them refer to each other through its log: a cycle
        # that only a full collection would free, and the server runs one rarely (``collector.py``); emptied, the
        # copy is freed as soon as it is dropped, and so are the live table's entries it shares
        projected.log.clear()


async def _decide_turn(live: LiveTable, projected: Table, seat: int, timeout: bool, loose: bool) -> list[Step]:
    """``seat``'s bot decides its steps on ``projected`` (which it advances) while the seat acts alone, up to
    chance, another seat, or the end; a seat out of time gets one move.  ``loose``: the first step is decided on
    the live table as it stands (``Step.after``)."""
    steps: list[Step] = []
    while True:
        row = live.row
        spec = row.seats[seat].bot if row.seats[seat].kind == "bot" else row.default_bot
        request = BotRequest(
            live.id, row.game, row.players, row.options, history_of(projected), seat,
            spec or "medium", secrets.randbits(63), live.settings.bot_time_cap_s,
            takeover=row.seats[seat].kind != "bot",  # a person's seat: its bot draws its own moves
        )
        action = await live.bots.choose(request, row.created_by or f"table:{live.id}")
        steps.append(Step(seat, action, None if loose and not steps else projected.seq, timeout))
        if timeout or action not in projected.state.legal_actions(seat):
            return steps  # an illegal answer is refused when committed, and the runner asks again
        projected.submit(seat, action)
        if _sole_actor(projected.state) != seat:
            return steps


async def _show(live: LiveTable, pace: Pace, turn: list[Step], new_turn: bool) -> bool:
    """Commit a decided turn's steps, paused for people to follow; False as soon as the table went another way
    than the one the turn was decided on (the rest of it is dropped)."""
    for index, step in enumerate(turn):
        if not step.timeout:  # a seat out of time has waited enough
            kind = "turn" if new_turn and index == 0 else "step"
            wanted = live.settings.pacing_s if kind == "turn" else live.settings.step_pacing_s
            await pause(kind, wanted - (time.monotonic() - pace.shown))
        async with live.lock:
            # people may have moved while the bot thought (a simultaneous decision), or taken their seat back: its
            # move still counts if a bot still plays the seat, the seat still acts and the move is still legal
            state = live.table.state
            if not (live.bot_plays(step.seat) and step.seat in state.current_players()
                    and step.action in state.legal_actions(step.seat)
                    and (step.after is None or step.after == live.table.seq)):
                return False
            await live.commit(step.seat, step.action, timeout=step.timeout and step.seat in live.due)
            pace.shown = time.monotonic()
    return True


def _sole_actor(state: State) -> int | None:
    """The seat that acts alone now, or None (chance, several seats at once, the end)."""
    if state.is_terminal() or state.is_chance_node():
        return None
    players = state.current_players()
    return players[0] if len(players) == 1 else None


def _next_bot(live: LiveTable, projected: Table) -> int | None:
    """The seat whose turn comes next on ``projected`` if it is certain to be a bot's: it acts alone, no chance
    comes first, and a bot plays it for good (a seat out of time gets its bot for one move only)."""
    seat = _sole_actor(projected.state)
    if seat is None:
        return None
    row = live.row.seats[seat]
    return seat if row.kind == "bot" or row.away else None


def _last_mover(table: Table) -> int | None:
    """The seat that made the table's last move (chance's actions skipped)."""
    for entry in reversed(table.log):
        if entry.actor != CHANCE:
            return int(entry.actor)
    return None
