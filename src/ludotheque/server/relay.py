"""A WebSocket held by this node for a table another node holds (``site.py``): the client's messages go to the
owner, which serves the connection as its own; what the client is owed comes back and is sent in order.

The relay keeps its own rate limit and bounded outbox (``Connection``), so that a client flooding or not reading
costs the site no more here than at the owner; the socket lives as a direct one does (``live/socket.py``'s
``run_socket``).  When the owner stops (or gives the table up), the socket is closed with 1012 and the client
reconnects and says ``hello`` wherever it lands.
"""

from __future__ import annotations

import contextlib
import secrets
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from ludotheque.server.cluster import Cluster
from ludotheque.server.live import Connection
from ludotheque.server.live.socket import run_socket
from ludotheque.server.placement import Remote


async def relay_socket(websocket: WebSocket, cluster: Cluster, remote: Remote, seat: int | None, outbox_limit: int,
                       outbox_bytes: int = 1 << 20, person_seat: int | None = None) -> None:
    """``person_seat``: the socket watches as a spectator, but its person sits at the table; the owner serves it as
    a spectator's, and this node keeps the spectators' chat from it (the chat's rooms follow the person)."""
    conn = secrets.token_hex(8)
    connection = Connection(seat, websocket.send_json, limit=outbox_limit, byte_limit=outbox_bytes)
    cluster.relay(conn, remote.id, remote.owner, connection.push)

    async def leaving() -> None:
        cluster.unrelay(conn)
        with contextlib.suppress(Exception):
            await cluster.send(remote.owner, {"k": "ws.gone", "conn": conn})

    try:
        await cluster.send(remote.owner, {"k": "ws.open", "conn": conn, "from": cluster.node, "table": remote.id,
                                          "seat": seat})
    except BaseException:
        await leaving()
        raise
    await run_socket(websocket, connection, [_forward(websocket, cluster, remote.owner, conn, connection),
                                             _deliver(websocket, connection, person_seat is not None)], leaving)


async def _forward(websocket: WebSocket, cluster: Cluster, owner: str, conn: str, connection: Connection) -> None:
    """The client's messages, to the owner (past this node's own rate limit)."""
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            if not connection.admit():
                continue
            await cluster.send(owner, {"k": "ws.in", "conn": conn, "text": message.get("text")})
    except (WebSocketDisconnect, RuntimeError):
        return


async def _deliver(websocket: WebSocket, connection: Connection, seated: bool = False) -> None:
    """What the owner sends for the client: a message to pass on, or the close it asks for.  ``seated``: the
    spectators' chat is not passed on (a person at the table watching from another socket)."""
    try:
        while True:
            envelope: dict[str, Any] = await connection.next()
            if envelope.get("k") == "ws.close":
                connection.close(envelope.get("code", 1000), envelope.get("reason", ""))
                return
            if "msg" in envelope:
                message = envelope["msg"]
                if seated and isinstance(message, dict) and message.get("type") in ("chat", "chat_history") \
                        and message.get("room") == "spectators":
                    continue
                await websocket.send_json(message)
            else:  # a refusal of this node's own (its rate limit)
                await websocket.send_json(envelope)
    except (WebSocketDisconnect, RuntimeError):
        return
