"""The tables' routes: the catalogue of games, a table's REST verbs (``/api/tables``: create, list, summary, join,
leave, reclaim, rematch, start, cancel, record) and its WebSocket (``/ws/tables/{id}?token=TOKEN`` for a seat,
without a token for a spectator).  The routes read the request and call the lobby; the WebSocket's protocol is
``live/socket.py``'s.  The contract is in ``docs/server.md``.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, WebSocket

from ludotheque.server.api import (
    CreatedTable,
    CreateTable,
    GameInfo,
    JoinedTable,
    JoinTable,
    Rematch,
    RematchOffer,
    TableSummary,
    problems,
)
from ludotheque.server.auth import PLAYER_TOKEN_MAX, OptionalPlayerTokenDep, SeatTokenDep
from ludotheque.server.idempotency import KEY_REUSED, IdempotencyKeyDep, IdempotentRequests, fingerprint
from ludotheque.server.limits import client_address
from ludotheque.server.live.socket import SocketsPerAddress, handshake_refusal, origin_allowed, serve_connection
from ludotheque.server.lobby import Lobby
from ludotheque.server.placement import Remote
from ludotheque.server.store import TableRow
from ludotheque.server.store.players import player_by_token


def lobby_of(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


LobbyDep = Annotated[Lobby, Depends(lobby_of)]


def table_router(sockets_per_address: int) -> APIRouter:
    """The routes of one app, with their own memory: the answers of ``POST /api/tables`` by Idempotency-Key, and
    the WebSockets open per client address (at most ``sockets_per_address``)."""
    router = APIRouter()
    creations = IdempotentRequests()
    sockets = SocketsPerAddress(sockets_per_address)

    @router.get("/api/games", response_model=list[GameInfo])
    def games() -> list[dict[str, Any]]:
        """Every game: id, name, player counts, and each option's schema."""
        return Lobby.games()

    @router.post(
        "/api/tables", response_model=CreatedTable, status_code=201,
        responses=problems(400, 401, KEY_REUSED, 429, 503,
                           meaning={KEY_REUSED: "this Idempotency-Key was sent before with another body"}),
    )
    async def create_table(
        body: CreateTable, request: Request, lobby: LobbyDep, player: OptionalPlayerTokenDep = None,
        key: IdempotencyKeyDep = None,
    ) -> dict[str, Any]:
        """A new table; the creator's seat and secret token when the seats hold ``"me"``.  The seat is the
        player's named by ``X-Player-Token``, or a new guest's (whose token comes back as ``player_token``).
        With an ``Idempotency-Key``, the same key from the same player (or, without a player token, the same
        address) gets the first answer again, for a day, instead of a second table."""
        base = lobby.settings.public_url or str(request.base_url)
        address = client_address(request.client)

        async def work() -> dict[str, Any]:
            return await lobby.create(body, base, player, address)

        if key is None:
            return await work()
        known, _ = await lobby.player(player, None)  # 401 for a token that names nobody
        requester = f"player:{known.id}" if known is not None else f"address:{address}"
        answer: dict[str, Any] = await creations.run(requester, key, fingerprint(body.model_dump(mode="json")), work)
        return answer

    @router.get("/api/tables", response_model=list[TableSummary], responses=problems(503))
    async def open_tables(lobby: LobbyDep) -> list[dict[str, Any]]:
        """Public tables waiting for people, newest first."""
        return await lobby.open_tables()

    @router.get("/api/tables/{table_id}", response_model=TableSummary, responses=problems(404, 503))
    async def table_summary(table_id: str, lobby: LobbyDep) -> dict[str, Any]:
        """A table's public summary: game, seats and names, status."""
        return await lobby.summary(table_id)

    @router.post(
        "/api/tables/{table_id}/join", response_model=JoinedTable,
        responses=problems(400, 401, 403, 404, 409, 429, 503),
    )
    async def join_table(
        table_id: str, body: JoinTable, request: Request, lobby: LobbyDep, player: OptionalPlayerTokenDep = None
    ) -> dict[str, Any]:
        """The first open seat and its token (409 when none is left), for the player of ``X-Player-Token`` or a
        new guest."""
        return await lobby.join(table_id, body.name, body.invite, player, client_address(request.client))

    @router.delete("/api/tables/{table_id}", status_code=204, responses=problems(401, 403, 404, 409, 503))
    async def cancel_table(table_id: str, lobby: LobbyDep, token: SeatTokenDep = None) -> None:
        """The creator (its seat's token as ``Authorization: Bearer``) cancels a table still waiting for people:
        it leaves the list of open tables and can no longer be joined or started (409 once started)."""
        await lobby.cancel(table_id, token)

    @router.post("/api/tables/{table_id}/leave", response_model=TableSummary,
                 responses=problems(401, 403, 404, 409, 503))
    async def leave_table(table_id: str, lobby: LobbyDep, token: SeatTokenDep = None) -> dict[str, Any]:
        """The seat's person leaves the game in play: a bot plays the seat from now on."""
        return await lobby.leave(table_id, token)

    @router.post(
        "/api/tables/{table_id}/reclaim", response_model=TableSummary, responses=problems(401, 403, 404, 409, 503)
    )
    async def reclaim_seat(table_id: str, lobby: LobbyDep, token: SeatTokenDep = None) -> dict[str, Any]:
        """The person takes back the seat a bot took (when the table allows it)."""
        return await lobby.reclaim(table_id, token)

    @router.post("/api/tables/{table_id}/rematch", response_model=Rematch,
                 responses=problems(401, 403, 404, 409, 503))
    async def rematch(table_id: str, request: Request, lobby: LobbyDep, token: SeatTokenDep = None
                      ) -> dict[str, Any]:
        """Offer the same people a new table of the same game, seats turned by one, or accept the offer: the
        seat kept for this person at the new table, and its token."""
        base = lobby.settings.public_url or str(request.base_url)
        return await lobby.rematch(table_id, token, base)

    @router.post("/api/tables/{table_id}/rematch/decline", response_model=RematchOffer,
                 responses=problems(401, 403, 404, 409, 503))
    async def decline_rematch(table_id: str, lobby: LobbyDep, token: SeatTokenDep = None) -> dict[str, Any]:
        """Decline the rematch offered at this finished table: the others see it; the offer as it stands now."""
        return await lobby.decline_rematch(table_id, token)

    @router.post(
        "/api/tables/{table_id}/start", response_model=TableSummary, responses=problems(401, 403, 404, 409, 503)
    )
    async def start_table(table_id: str, lobby: LobbyDep, token: SeatTokenDep = None) -> dict[str, Any]:
        """The creator starts the game: bots take the open seats."""
        return await lobby.start(table_id, token)

    @router.get("/api/tables/{table_id}/record", responses=problems(401, 403, 404, 409, 503))
    async def table_record(table_id: str, lobby: LobbyDep, token: SeatTokenDep = None) -> dict[str, Any]:
        """The game's record once it is over (409 before: a record shows every hidden card)."""
        return await lobby.record(table_id, token)

    @router.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str, token: str | None = None, invite: str | None = None,
                   player_token: str | None = None) -> None:
        address = client_address(websocket.client)
        if not sockets.take(address):
            # accepted, then closed at once: nothing is read from the database for it
            await websocket.accept()
            await websocket.close(*sockets.refusal())
            return
        try:
            await _play(websocket, table_id, token, invite, player_token)
        finally:
            sockets.give_back(address)

    return router


async def _play(websocket: WebSocket, table_id: str, token: str | None, invite: str | None,
                player_token: str | None) -> None:
    lobby: Lobby = websocket.app.state.lobby
    live = await lobby.live(table_id, keep=True)
    seat = None if live is None or token is None else live.row.seat_of(token)
    person = None  # the seat of a person watching their own table (chat: the room follows the person)
    if live is not None and seat is None and player_token is not None and len(player_token) <= PLAYER_TOKEN_MAX:
        person = await asyncio.to_thread(seat_of_player, lobby, live.row, player_token)
    # accepted, then closed with a code that says why: a refused handshake would only say "403"
    await websocket.accept()
    origin_ok = origin_allowed(websocket.headers.get("origin"), websocket.url.scheme, websocket.headers.get("host"),
                               lobby.settings)
    refusal = handshake_refusal(origin_ok=origin_ok, row=None if live is None else live.row, token=token, seat=seat,
                                person=person, invite=invite)
    if refusal is not None:
        await websocket.close(*refusal)
    elif isinstance(live, Remote):
        await lobby.placement.relay(websocket, live, seat, person)
    else:
        assert live is not None
        # a finished table nobody watches leaves memory after a grace (``Lobby.release_later``)
        await serve_connection(websocket, live, seat, person)


def seat_of_player(lobby: Lobby, row: TableRow, player_token: str) -> int | None:
    """The seat at ``row`` of the player whose session token is ``player_token`` (in a worker thread), if any."""
    player = player_by_token(lobby.store.engine, player_token)
    if player is None:
        return None
    return next((s.seat for s in row.seats if s.kind == "human" and s.player_id == player.id), None)
