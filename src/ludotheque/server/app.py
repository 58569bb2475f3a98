"""The HTTP and WebSocket application (FastAPI).  ``create_app(settings)`` builds it; ``ludotheque serve`` runs it.

REST: ``/api/games``, ``/api/tables`` (create, list, summary, join, start, record).  WebSocket:
``/ws/tables/{id}?token=TOKEN`` (a seat) or without a token (a spectator).  The protocol is in ``docs/server.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
from collections import Counter
from collections.abc import AsyncIterator, Iterable, MutableMapping
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request, WebSocket, WebSocketDisconnect
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from ludotheque.bots.coach import check_model, default_model
from ludotheque.server import collector, players, profiles, push, ratings, replay, review
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
from ludotheque.server.cluster import Cluster, RelayedSocket
from ludotheque.server.config import Settings
from ludotheque.server.dblock import ServerLock
from ludotheque.server.errors import install_error_handlers
from ludotheque.server.guard import quiet_accept_errors
from ludotheque.server.idempotency import KEY_REUSED, IdempotencyKeyDep, IdempotentRequests, fingerprint
from ludotheque.server.limits import client_address
from ludotheque.server.live import Connection, LiveTable, MoveError, chat
from ludotheque.server.live.hints import ask_hint
from ludotheque.server.lobby import Lobby
from ludotheque.server.metrics import install_metrics
from ludotheque.server.pages import mount_pages
from ludotheque.server.players import player_by_token
from ludotheque.server.relay import relay_socket
from ludotheque.server.security import install as install_security
from ludotheque.server.security import origin_accepted
from ludotheque.server.site import Remote, Site
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


def lobby_of(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


LobbyDep = Annotated[Lobby, Depends(lobby_of)]


#: ``serve --workers N`` hands each worker process its settings in this environment variable (JSON)
SETTINGS_ENV = "LUDOTHEQUE_SERVE_SETTINGS"


def app_from_environment() -> FastAPI:
    """The application of one worker of ``serve --workers N`` (uvicorn calls it in each process)."""
    data = json.loads(os.environ[SETTINGS_ENV])
    for name in ("allow_origins", "push_hosts"):  # JSON has lists, the settings tuples
        data[name] = tuple(data[name])
    return create_app(Settings(**data))


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    check_model(default_model())  # LUDOTHEQUE_COACH_MODEL: a typo stops the server here, not a review later

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        collector.pace_for_a_server()
        # held while this process serves: ``ludotheque restore`` refuses to replace the database under it
        lock = await asyncio.to_thread(ServerLock(settings.db_url).take)
        keeping = asyncio.create_task(_keep_lock(lock))
        quiet_accept_errors(asyncio.get_running_loop())  # "too many open files": one line a second (guard.py)
        lobby = await asyncio.to_thread(Lobby.open, settings)
        app.state.lobby = lobby
        collector.freeze_what_start_made()
        lobby.resume()
        if settings.redis_url is not None:
            name = settings.site_name or make_url(settings.db_url).database or "ludotheque"
            if not settings.site_secret:
                raise RuntimeError("a node of a site needs the site's shared secret: LUDOTHEQUE_SITE_SECRET")
            cluster = Cluster(settings.redis_url, name, settings.site_secret, lease_s=settings.lease_s,
                              renew_s=settings.lease_s / 3)
            site = Site(lobby, cluster)
            site.serve_socket = serve_connection
            await lobby.join_site(site)
        try:
            yield
        finally:
            await lobby.close()
            keeping.cancel()
            await asyncio.to_thread(lock.release)

    app = FastAPI(
        title="ludotheque",
        summary="Seven French table games to play together, with bots in the empty seats.",
        version="1",
        lifespan=lifespan,
        # the interactive API pages load scripts from a CDN and run inline ones, which the pages' Content-Security-
        # Policy forbids; the schema stays published at /openapi.json
        docs_url=None,
        redoc_url=None,
    )
    install_security(app, settings)
    install_error_handlers(app)  # refusals, and a database that does not answer (503), for every route

    @app.get("/api/games", response_model=list[GameInfo])
    def games() -> list[dict[str, Any]]:
        """Every game: id, name, player counts, and each option's schema."""
        return Lobby.games()

    creations = IdempotentRequests()  # the answers of POST /api/tables by Idempotency-Key

    @app.post(
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
        base = settings.public_url or str(request.base_url)
        address = client_address(request.client)

        async def work() -> dict[str, Any]:
            return await lobby.create(body, base, player, address)

        if key is None:
            return await work()
        known, _ = await lobby.player(player, None)  # 401 for a token that names nobody
        requester = f"player:{known.id}" if known is not None else f"address:{address}"
        answer: dict[str, Any] = await creations.run(requester, key, fingerprint(body.model_dump(mode="json")), work)
        return answer

    @app.get("/api/tables", response_model=list[TableSummary], responses=problems(503))
    async def open_tables(lobby: LobbyDep) -> list[dict[str, Any]]:
        """Public tables waiting for people, newest first."""
        return await lobby.open_tables()

    @app.get("/api/tables/{table_id}", response_model=TableSummary, responses=problems(404, 503))
    async def table_summary(table_id: str, lobby: LobbyDep) -> dict[str, Any]:
        """A table's public summary: game, seats and names, status."""
        return await lobby.summary(table_id)

    @app.post(
        "/api/tables/{table_id}/join", response_model=JoinedTable,
        responses=problems(400, 401, 403, 404, 409, 429, 503),
    )
    async def join_table(
        table_id: str, body: JoinTable, request: Request, lobby: LobbyDep, player: OptionalPlayerTokenDep = None
    ) -> dict[str, Any]:
        """The first open seat and its token (409 when none is left), for the player of ``X-Player-Token`` or a
        new guest."""
        return await lobby.join(table_id, body.name, body.invite, player, client_address(request.client))

    @app.delete("/api/tables/{table_id}", status_code=204, responses=problems(401, 403, 404, 409, 503))
    async def cancel_table(table_id: str, lobby: LobbyDep, token: SeatTokenDep = None) -> None:
        """The creator (its seat's token as ``Authorization: Bearer``) cancels a table still waiting for people:
        it leaves the list of open tables and can no longer be joined or started (409 once started)."""
        await lobby.cancel(table_id, token)

    @app.post("/api/tables/{table_id}/leave", response_model=TableSummary, responses=problems(401, 403, 404, 409, 503))
    async def leave_table(table_id: str, lobby: LobbyDep, token: SeatTokenDep = None) -> dict[str, Any]:
        """The seat's person leaves the game in play: a bot plays the seat from now on."""
        return await lobby.leave(table_id, token)

    @app.post(
        "/api/tables/{table_id}/reclaim", response_model=TableSummary, responses=problems(401, 403, 404, 409, 503)
    )
    async def reclaim_seat(table_id: str, lobby: LobbyDep, token: SeatTokenDep = None) -> dict[str, Any]:
        """The person takes back the seat a bot took (when the table allows it)."""
        return await lobby.reclaim(table_id, token)

    @app.post("/api/tables/{table_id}/rematch", response_model=Rematch, responses=problems(401, 403, 404, 409, 503))
    async def rematch(table_id: str, request: Request, lobby: LobbyDep, token: SeatTokenDep = None) -> dict[str, Any]:
        """Offer the same people a new table of the same game, seats turned by one, or accept the offer: the
        seat kept for this person at the new table, and its token."""
        base = settings.public_url or str(request.base_url)
        return await lobby.rematch(table_id, token, base)

    @app.post("/api/tables/{table_id}/rematch/decline", response_model=RematchOffer,
              responses=problems(401, 403, 404, 409, 503))
    async def decline_rematch(table_id: str, lobby: LobbyDep, token: SeatTokenDep = None) -> dict[str, Any]:
        """Decline the rematch offered at this finished table: the others see it; the offer as it stands now."""
        return await lobby.decline_rematch(table_id, token)

    @app.post(
        "/api/tables/{table_id}/start", response_model=TableSummary, responses=problems(401, 403, 404, 409, 503)
    )
    async def start_table(table_id: str, lobby: LobbyDep, token: SeatTokenDep = None) -> dict[str, Any]:
        """The creator starts the game: bots take the open seats."""
        return await lobby.start(table_id, token)

    @app.get("/api/tables/{table_id}/record", responses=problems(401, 403, 404, 409, 503))
    async def table_record(table_id: str, lobby: LobbyDep, token: SeatTokenDep = None) -> dict[str, Any]:
        """The game's record once it is over (409 before: a record shows every hidden card)."""
        return await lobby.record(table_id, token)

    @app.get("/api/metrics", include_in_schema=False)
    def metrics(lobby: LobbyDep) -> dict[str, Any]:
        """For operators and the load benchmark: live tables, committed actions and recent commit times, and the
        recent bot moves' wall times by level."""

        def ms(values: Iterable[float], share: float) -> float | None:
            times = sorted(values)
            return round(1000 * times[min(len(times) - 1, int(share * len(times)))], 2) if times else None

        commits = lobby.store.commit_seconds
        bots = {level: {"moves": len(times), "p50_ms": ms(times, 0.5), "p99_ms": ms(times, 0.99),
                        "max_ms": ms(times, 1.0)} for level, times in list(lobby.bots.seconds.items())}
        return {"live_tables": len(lobby.tables), "commits": lobby.store.commits, "commit_p50_ms": ms(commits, 0.5),
                "commit_p99_ms": ms(commits, 0.99), "commit_max_ms": ms(commits, 1.0), "bots": bots}

    for part in (players, profiles, ratings, replay, review):
        app.include_router(part.router)
    app.include_router(push.router)  # Web Push: a person told it is their turn (server/push.py)
    install_metrics(app)  # /healthz, /readyz, /metrics
    mount_pages(app)

    #: WebSockets open per client address (``Settings.sockets_per_address``)
    sockets: Counter[str] = Counter()

    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str, token: str | None = None, invite: str | None = None,
                   player_token: str | None = None) -> None:
        address = client_address(websocket.client)
        if sockets[address] >= settings.sockets_per_address:
            # accepted, then closed at once: nothing is read from the database for it
            await websocket.accept()
            await websocket.close(CLOSE_TOO_MANY_SOCKETS, f"at most {settings.sockets_per_address} connections from "
                                  "one address: close another one first")
            return
        sockets[address] += 1
        try:
            await _play(websocket, table_id, token, invite, player_token)
        finally:
            sockets[address] -= 1
            if not sockets[address]:
                del sockets[address]

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
        origin = websocket.headers.get("origin")
        if not origin_allowed(origin, websocket.url.scheme, websocket.headers.get("host"), settings):
            await websocket.close(CLOSE_FOREIGN_ORIGIN, "connections from this page's site are not accepted")
        elif live is None:
            await websocket.close(CLOSE_NO_TABLE, "no such table")
        elif token is not None and seat is None:
            await websocket.close(CLOSE_BAD_TOKEN, "this token holds no seat at this table")
        elif seat is None and person is None and live.row.private and not _invited(live.row.invite, invite):
            await websocket.close(CLOSE_PRIVATE, "this table is private: watching needs its invite code or a seat")
        elif isinstance(live, Remote):
            assert lobby.site is not None
            await relay_socket(websocket, lobby.site, live, seat, settings.outbox_limit, settings.outbox_bytes,
                               person)
        else:
            # a finished table nobody watches leaves memory after a grace (``Lobby.release_later``)
            await serve_connection(websocket, live, seat, person)

    return app


async def _keep_lock(lock: ServerLock) -> None:
    while True:
        await asyncio.sleep(5.0)
        await asyncio.to_thread(lock.keep)


def origin_allowed(origin: str | None, scheme: str, host: str | None, settings: Settings) -> bool:
    """A browser names the page that opens a WebSocket: only the server's own pages (and ``--allow-origin``) may,
    so that another site's script cannot play with a visitor's seat; scheme, host and port must all match.
    Clients that are not browsers send none."""
    return origin is None or origin_accepted(origin, scheme, host, settings)


def seat_of_player(lobby: Lobby, row: TableRow, player_token: str) -> int | None:
    """The seat at ``row`` of the player whose session token is ``player_token`` (in a worker thread), if any."""
    player = player_by_token(lobby.store.engine, player_token)
    if player is None:
        return None
    return next((s.seat for s in row.seats if s.kind == "human" and s.player_id == player.id), None)


def _invited(invite: str | None, given: str | None) -> bool:
    return invite is not None and given is not None and secrets.compare_digest(invite.encode(), given.encode())


async def serve_connection(websocket: WebSocket | RelayedSocket, live: LiveTable, seat: int | None,
                           person_seat: int | None = None) -> None:
    """Read the client's messages until it leaves or the server closes it; one writer task sends what the
    connection is owed, in order.  ``person_seat``: a spectator's socket of a person seated there."""
    connection = Connection(seat, websocket.send_json, limit=live.settings.outbox_limit,
                            byte_limit=live.settings.outbox_bytes, person_seat=person_seat)
    connection.synced = live.table.seq
    live.join(connection)
    writer = asyncio.create_task(_write(websocket, live, connection))
    reader = asyncio.create_task(_read(websocket, live, connection))
    closing = asyncio.create_task(connection.closing.wait())
    try:
        await asyncio.wait((reader, writer, closing), return_when=asyncio.FIRST_COMPLETED)
    finally:
        live.leave_connection(connection)
        for task in (reader, writer, closing):
            task.cancel()
    if connection.closing.is_set():
        # A client that reads nothing leaves the socket unwritable, and the close frame would wait for it: the
        # wait is bounded, then the handler returns and the server drops the connection.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(websocket.close(connection.close_code, connection.close_reason), 2.0)


async def _read(websocket: WebSocket | RelayedSocket, live: LiveTable, connection: Connection) -> None:
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


async def _write(websocket: WebSocket | RelayedSocket, live: LiveTable, connection: Connection) -> None:
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
        ask_hint(live, connection)
    elif kind == "chat":
        await chat.say(live, connection, data)
    else:
        refuse("malformed", "messages are {\"type\": \"hello\", \"last_seq\": N}, {\"type\": \"move\", ...}, "
               "{\"type\": \"hint\"}, {\"type\": \"resign\"} or {\"type\": \"chat\", \"text\": TEXT}")
