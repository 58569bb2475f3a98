"""The chat of a table: two rooms, as lichess has them.  A seat's connections speak and read in the players' room,
spectators in the spectators' room, and players do not read the spectators' room at the table (nobody watching can
whisper advice to a player); once the game is over the replay shows the spectators' room to everyone and the
players' room to the people who sat there (``GET /api/tables/{id}/chat``, ``docs/server.md``).  The rooms follow
the person, not the socket: a socket that carries no seat token but the ``player_token`` of a player seated at the
table (the pages send it when they watch) is in the players' room too, and reads nothing of the spectators'.

``{"type": "chat", "text"}`` is answered by a ``chat`` frame to every connection of the speaker's room
(``{"type": "chat", "room", "seat", "name", "text", "at", "id", "seq"}``), once the message is committed, or by an
``error`` frame with ``"of": "chat"``: ``malformed`` (no text, or nothing left once control characters and outer
spaces go), ``too_long`` (over ``MAX_CHARS``), ``rate_limited`` (a second message within ``MIN_INTERVAL_S`` on one
connection), ``unavailable`` (the database).  After its first ``hello`` (once a connection) a connection gets its room's
latest ``HISTORY`` messages as one ``chat_history`` frame (none while the room is empty).

The text is kept and sent as plain text, never as markup: the pages insert it with ``textContent``.  It is never
written to a log line, the database's errors included (the engine hides statements' values, and only the error's
class is logged here).

In a site of several processes the table's owner serves every connection of the table, relayed ones included, so
sending to ``live.connections`` reaches every reader wherever they connected.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
import unicodedata
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from ludotheque.server.live.connection import Connection
from ludotheque.server.store.chat import latest, save

if TYPE_CHECKING:
    from ludotheque.server.live.actor import LiveTable

log = logging.getLogger("ludotheque.server")

#: The longest message, in characters once cleaned.
MAX_CHARS = 300
#: The longest name a spectator may give (a seat speaks under its seat's name).
MAX_NAME_CHARS = 40
#: A connection's messages are at least this far apart.
MIN_INTERVAL_S = 1.0
#: The messages of its room a connection gets after ``hello``.
HISTORY = 100

PLAYERS = "players"
SPECTATORS = "spectators"
ROOMS = (PLAYERS, SPECTATORS)

#: Characters that change how text around them is shown (bidirectional overrides and isolates): a message could
#: otherwise show its words in another order than they were written, or spill into the next line of the panel.
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
_SPACES = re.compile(r"[\t\n\r\v\f]+")



def clean(text: str) -> str:
    """``text`` as it is kept: line breaks and tabs become a space, other control characters and the bidi controls
    go, and so do the spaces around it."""
    text = _BIDI.sub("", _SPACES.sub(" ", text))
    return "".join(c for c in text if unicodedata.category(c) != "Cc").strip()


def speaker_seat(connection: Connection) -> int | None:
    """The seat of the person behind ``connection``: its seat's, or the one their player token names (a person at
    the table who opens a socket to watch stays a player of the chat: the room follows the person)."""
    return connection.seat if connection.seat is not None else connection.person_seat


def room_of(connection: Connection) -> str:
    return SPECTATORS if speaker_seat(connection) is None else PLAYERS


def readers(live: LiveTable, room: str) -> list[Connection]:
    """The connections that read ``room``: those of the room that said ``hello``."""
    return [c for c in live.connections if c.hello and room_of(c) == room]


async def say(live: LiveTable, connection: Connection, data: dict[str, Any]) -> None:
    """Answer ``{"type": "chat", "text"}`` (and, from a spectator, an optional ``name``)."""
    text = data.get("text")
    if not isinstance(text, str) or not clean(text):
        connection.push(_error("malformed", "a chat message is {\"type\": \"chat\", \"text\": TEXT}, with some text"))
        return
    text = clean(text)
    if len(text) > MAX_CHARS:
        connection.push(_error("too_long", f"a chat message has at most {MAX_CHARS} characters, not {len(text)}"))
        return
    now = time.monotonic()
    if now - connection.last_said < MIN_INTERVAL_S:
        connection.push(_error("rate_limited", "at most one chat message a second"))
        return
    connection.last_said = now
    room, seat = room_of(connection), speaker_seat(connection)
    if seat is not None:
        name: str | None = live.row.seats[seat].name
    else:
        given = data.get("name")
        name = (clean(given)[:MAX_NAME_CHARS] or None) if isinstance(given, str) else None
    message = {"room": room, "seat": seat, "name": name, "text": text, "at": time.time(), "seq": live.table.seq}
    try:
        message_id = await live.store.in_writer(save, live.store.engine, live.id, message)
    except SQLAlchemyError as error:
        # the class only: the text must not reach a log line
        log.error("table %s: a chat message could not be saved (%s)", live.id, type(error).__name__)
        connection.push(_error("unavailable", "the message could not be saved (the database is unavailable): "
                                              "send it again shortly"))
        return
    frame = {"type": "chat", **message, "id": message_id}
    for reader in readers(live, room):
        # `mine`: the connection that said it (a spectator's name need not be its own alone, nor given at all)
        reader.push({**frame, "mine": reader is connection})


def greet(live: LiveTable, connection: Connection) -> None:
    """After ``hello``: the latest messages of the connection's room, as one ``chat_history`` frame (none while the
    room is empty), read on the side so that the connection's next messages are not held behind the database.  A
    message committed while they are read comes as a ``chat`` frame too (the connection reads the room already):
    the client keeps each ``id`` once."""
    live.on_the_side(_history(live, connection), "chat history")


async def _history(live: LiveTable, connection: Connection) -> None:
    room = room_of(connection)
    try:
        messages = await asyncio.to_thread(latest, live.store.engine, live.id, room, HISTORY)
    except SQLAlchemyError as error:
        log.error("table %s: the chat could not be read (%s)", live.id, type(error).__name__)
        return
    if messages:
        connection.push({"type": "chat_history", "room": room, "messages": messages})


def _error(code: str, message: str) -> dict[str, Any]:
    # "of": the client tells a chat message's refusal from a move's (a move on its way stays on its way)
    return {"type": "error", "code": code, "message": message, "of": "chat"}
