"""The WebSocket protocol of a table (``docs/server.md``), apart from the routes that open a socket as lichess keeps
its RoundSocket apart: the handshake's refusals, one lifecycle for every socket (a direct one, one this node relays
to a table's owner, one the owner serves for another node), and the client's messages (hello, move, hint, resign,
chat) read into the table's verbs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, MutableMapping
from typing import Any, Protocol

from fastapi import WebSocketDisconnect
from sqlalchemy.exc import SQLAlchemyError

from ludotheque.server.config import Settings
from ludotheque.server.live import chat
from ludotheque.server.live.actor import LiveTable
from ludotheque.server.live.connection import Connection
from ludotheque.server.live.moves import MoveError
from ludotheque.server.security import origin_accepted
from ludotheque.server.store import Fenced, TableRow

log = logging.getLogger("ludotheque.server")

#: WebSocket close codes (4000-4999 are the application's): the table does not exist; the token holds no seat.
CLOSE_NO_TABLE = 4404
CLOSE_BAD_TOKEN = 4401
#: A page of another site tried to open a connection (the browser sends its ``Origin``).
CLOSE_FOREIGN_ORIGIN = 4403
#: A spectator of a private table without its invite code (``?invite=CODE``).
CLOSE_PRIVATE = 4403
#: The client address has ``Settings.sockets_per_address`` WebSockets open already.
CLOSE_TOO_MANY_SOCKETS = 4429
#: The largest message a client may send; uvicorn closes the connection with 1009 past it (``ws_max_size``).
MAX_MESSAGE_BYTES = 64 * 1024


class Socket(Protocol):
    """What the protocol needs of a socket: Starlette's WebSocket, or the owner's side of a relayed one
    (``cluster.RelayedSocket``)."""

    async def receive(self) -> MutableMapping[str, Any]: ...

    async def send_json(self, data: Any) -> None: ...

    async def close(self, code: int = 1000, reason: str = "") -> None: ...


class SocketsPerAddress:
    """The WebSockets open per client address, at most ``Settings.sockets_per_address`` each."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: Counter[str] = Counter()

    def take(self, address: str) -> bool:
        if self._open[address] >= self.limit:
            return False
        self._open[address] += 1
        return True

    def give_back(self, address: str) -> None:
        self._open[address] -= 1
        if not self._open[address]:
            del self._open[address]

    def refusal(self) -> tuple[int, str]:
        return CLOSE_TOO_MANY_SOCKETS, f"at most {self.limit} connections from one address: close another one first"


def origin_allowed(origin: str | None, scheme: str, host: str | None, settings: Settings) -> bool:
    """A browser names the page that opens a WebSocket: only the server's own pages (and ``--allow-origin``) may,
    so that another site's script cannot play with a visitor's seat; scheme, host and port must all match.
    Clients that are not browsers send none."""
    return origin is None or origin_accepted(origin, scheme, host, settings)


def handshake_refusal(*, origin_ok: bool, row: TableRow | None, token: str | None, seat: int | None,
                      person: int | None, invite: str | None) -> tuple[int, str] | None:
    """Why a socket is closed as soon as it is accepted (a refused handshake would only say "403"), or ``None``
    when it is served.  ``row``: the table's, ``None`` when there is no such table; ``seat``: the seat
    ``token`` holds; ``person``: the seat of a person watching their own table."""
    if not origin_ok:
        return CLOSE_FOREIGN_ORIGIN, "connections from this page's site are not accepted"
    if row is None:
        return CLOSE_NO_TABLE, "no such table"
    if token is not None and seat is None:
        return CLOSE_BAD_TOKEN, "this token holds no seat at this table"
    if seat is None and person is None and row.private and not _invited(row.invite, invite):
        return CLOSE_PRIVATE, "this table is private: watching needs its invite code or a seat"
    return None


def _invited(invite: str | None, given: str | None) -> bool:
    return invite is not None and given is not None and secrets.compare_digest(invite.encode(), given.encode())


async def run_socket(socket: Socket, connection: Connection, work: list[Coroutine[Any, Any, None]],
                     leaving: Callable[[], Awaitable[None]]) -> None:
    """One socket's life, direct or relayed: ``work`` (its reader and writer) runs until one part ends or the
    connection is closed (``connection.closing``); then ``leaving`` (always), and the close the connection asked
    for."""
    tasks: list[asyncio.Task[Any]] = [asyncio.create_task(part) for part in work]
    tasks.append(asyncio.create_task(connection.closing.wait()))
    try:
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
    finally:
        await leaving()
    if connection.closing.is_set():
        # A client that reads nothing leaves the socket unwritable, and the close frame would wait for it: the
        # wait is bounded, then the handler returns and the server drops the connection.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(socket.close(connection.close_code, connection.close_reason), 2.0)


async def serve_connection(websocket: Socket, live: LiveTable, seat: int | None, person_seat: int | None = None
                           ) -> None:
    """Read the client's messages until it leaves or the server closes it; one writer task sends what the
    connection is owed, in order.  ``person_seat``: a spectator's socket of a person seated there."""
    connection = Connection(seat, websocket.send_json, limit=live.settings.outbox_limit,
                            byte_limit=live.settings.outbox_bytes, person_seat=person_seat)
    connection.synced = live.table.seq
    live.join(connection)

    async def leaving() -> None:
        live.leave_connection(connection)

    await run_socket(websocket, connection, [_write(websocket, live, connection), _read(websocket, live, connection)],
                     leaving)


async def _read(websocket: Socket, live: LiveTable, connection: Connection) -> None:
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            # shielded: a move being committed is applied and acknowledged even when the connection is closed
            # meanwhile, so that the live state never falls behind the database
            await asyncio.shield(_handle(live, connection, message))
    except (WebSocketDisconnect, RuntimeError):
        return


async def _write(websocket: Socket, live: LiveTable, connection: Connection) -> None:
    try:
        while True:
            message = await connection.next()
            if message.get("type") == "state" and len(message) == 1:
                connection.state_queued = False
                message = live.frame(connection)
            await websocket.send_json(message)
    except (WebSocketDisconnect, RuntimeError):
        return


async def resign(live: LiveTable, connection: Connection) -> None:
    """The seat's person gives up: their result is a loss (rated as a departure, ``ratings.finishing_ranks``) and
    a bot plays the seat to the end, for good (``Lobby.reclaim`` refuses a resigned seat)."""
    seat = connection.seat
    if seat is None:
        connection.push({"type": "error", "code": "unauthorized", "message": "a spectator has no seat to resign"})
    elif live.row.status != "playing":
        connection.push({"type": "error", "code": "not_playing",
                         "message": f"the table is {live.row.status}: only a game in play is resigned"})
    elif live.row.seats[seat].away:
        connection.push({"type": "error", "code": "away", "message": f"a bot plays seat {seat} already"})
    else:
        await live.take_over(seat, "resign")


async def _handle(live: LiveTable, connection: Connection, message: MutableMapping[str, Any]) -> None:
    def refuse(code: str, text: str) -> None:
        connection.push({"type": "error", "code": code, "message": text})

    if not connection.admit():
        return
    if message.get("text") is None:
        refuse("malformed", "binary frames are not read: send JSON text")
        return
    try:
        data = json.loads(message["text"])
    except ValueError:
        refuse("malformed", "the message is not JSON")
        return
    except RecursionError:
        refuse("malformed", "the message is nested too deeply")
        return
    try:
        # ``\ud800`` is valid JSON but no text: read on, it fails where it is encoded (a frame that echoes it, the
        # database), far from here, and the connection with it
        json.dumps(data, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        refuse("malformed", "the message holds a lone surrogate (\\ud800-\\udfff): it is not text")
        return
    kind = data.get("type") if isinstance(data, dict) else None
    if kind == "hello":
        last = data.get("last_seq", 0)
        if isinstance(last, bool) or not isinstance(last, int) or last < 0:
            refuse("malformed", "hello's last_seq is the seq of the last state the client has (0 at first)")
            return
        connection.synced = min(last, live.table.seq)
        connection.hello = True
        connection.push_state()
        if not connection.greeted:  # a hello again (a client that lost track) gets frames, not the history again
            connection.greeted = True
            chat.greet(live, connection)
    elif kind == "move":
        try:
            await live.move(connection, data.get("move"), data.get("client_move_id"), data.get("after_seq"))
        except MoveError as error:
            connection.push(error.frame())
        except Fenced:  # another node holds the table now: this connection is closed with 1012 to reconnect there
            refuse("unavailable", "the move was not saved: the table moved to another server; reconnect and send "
                   "it again")
        except SQLAlchemyError:
            log.exception("table %s: a move could not be committed", live.id)
            refuse("unavailable", "the move could not be saved (the database is unavailable): nothing changed; "
                   "send it again shortly")
    elif kind == "resign":
        await resign(live, connection)
    elif kind == "hint":
        live.services.hints.ask(live, connection)
    elif kind == "chat":
        await chat.say(live, connection, data)
    else:
        refuse("malformed", "messages are {\"type\": \"hello\", \"last_seq\": N}, {\"type\": \"move\", ...}, "
               "{\"type\": \"hint\"}, {\"type\": \"resign\"} or {\"type\": \"chat\", \"text\": TEXT}")
