"""Moves: a person's, checked and committed under the table's lock, and the runner that plays chance and bots.

The runner is one task per table, started (``kick``) whenever the table may have something for chance or a bot
to do; it stops when people must act or the game is over.  A bot thinks outside the lock (in a worker), so that
people keep moving in a simultaneous decision meanwhile; its move is checked again when it comes back.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from ludotheque.core import LudothequeError, sample_chance
from ludotheque.server.botpool import BotRequest, history_of
from ludotheque.server.errors import Refusal
from ludotheque.server.live.connection import Connection, ack

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
            action = live.table.state.string_to_action(notation, seat)
        except LudothequeError as error:
            raise MoveError("illegal", str(error)) from None
        seq = await live.commit(seat, action, client_move_id, connection)
    kick(live)
    return seq


def kick(live: LiveTable) -> None:
    """Start the table's runner (chance and bots) unless it runs already."""
    if live.runner is None or live.runner.done():
        live.runner = asyncio.create_task(_run(live), name=f"table {live.id}")


async def _run(live: LiveTable) -> None:
    delay = 0.5
    while live.row.status == "playing":
        try:
            if not await _automatic_step(live):
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


async def _automatic_step(live: LiveTable) -> bool:
    """Apply the next chance action or bot move; False when people must act or the game is over."""
    async with live.lock:
        state = live.table.state
        if state.is_terminal():
            return False
        if state.is_chance_node():
            await live.commit(None, sample_chance(state, _chance_source))
            return True
        bot_seats = [s for s in state.current_players() if live.bot_plays(s)]
        if not bot_seats:
            return False  # people must act; their moves start the runner again
        seat = bot_seats[0]
        timeout = seat in live.due
        row = live.row
        spec = row.seats[seat].bot if row.seats[seat].kind == "bot" else row.default_bot
        request = BotRequest(
            live.id, row.game, row.players, row.options, history_of(live.table), seat,
            spec or "medium", secrets.randbits(63), live.settings.bot_time_cap_s,
        )
    if live.settings.pacing_s and not timeout:
        await asyncio.sleep(live.settings.pacing_s)
    action = await live.bots.choose(request)
    async with live.lock:
        # people may have moved while the bot thought (a simultaneous decision), or taken their seat back: its move
        # still counts if a bot still plays the seat, the seat still acts and the move is still legal
        state = live.table.state
        if live.bot_plays(seat) and seat in state.current_players() and action in state.legal_actions(seat):
            await live.commit(seat, action, timeout=timeout and seat in live.due)
    return True
