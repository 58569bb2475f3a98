"""A player's finished games, and replaying a finished table move by move as one seat saw it.

Only a finished table is replayed: once the game is over every hand may be shown, while a replay of a game in
play would show what its seats must not see yet.  A position is rebuilt from the table's log with
``Table.restore_logged`` (the rows were validated when first committed).  The positions viewers look at are kept,
so that stepping forward applies one action instead of the whole game, and so are copies every hundred actions,
so that stepping back restores at most that many.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Generic, Literal, TypeVar

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel
from sqlalchemy import Engine, func, select

from ludotheque.core import CHANCE, Actor, Game
from ludotheque.games import load_game
from ludotheque.server.api import problems
from ludotheque.server.auth import OptionalPlayerTokenDep, SeatTokenDep
from ludotheque.server.errors import Refusal
from ludotheque.server.pages import shell
from ludotheque.server.players import PlayerDep
from ludotheque.server.profiles import places_of
from ludotheque.server.schema import CHANCE_ACTOR, game_tables, seats
from ludotheque.server.store import Store, TableRow
from ludotheque.server.store.chat import latest as chat_latest
from ludotheque.server.store.players import player_by_token
from ludotheque.table import Table

router = APIRouter()
K = TypeVar("K")
V = TypeVar("V")

# -- the answers ------------------------------------------------------------------------------------------------


class SeatLine(BaseModel):
    seat: int
    name: str | None
    kind: str


class Result(BaseModel):
    returns: list[int | float]
    winners: list[int]


class PastGame(BaseModel):
    table_id: str
    game: str
    name: str
    players: int
    seat: int
    finished_at: float | None
    rated: bool
    seats: list[SeatLine]
    result: Result | None
    #: the player's place (1 first; last when they resigned or left) and points
    place: int | None = None
    points: int | float | None = None
    #: how the player left the seat to a bot, if they did
    departure: Literal["resigned", "left", "timeout"] | None = None


class ReplayEntry(BaseModel):
    """Action ``seq``: who made it (a seat, or ``"chance"``) and its notation."""

    actor: int | Literal["chance"]
    notation: str


class Mark(BaseModel):
    """Where a deal or a round begins: ``seq`` is the position once its chance actions (the deal, the draw, the
    roll) are all applied; ``index`` counts the marks from 1."""

    seq: int
    index: int


class ReplayStep(BaseModel):
    table_id: str
    game: str
    seq: int
    last_seq: int
    seat: int | None
    entry: ReplayEntry | None
    view: dict[str, Any]
    events: list[dict[str, Any]]
    marks: list[Mark]
    #: the seat's legal moves at this position, each ``{"id", "notation", "move"}`` (``[]`` when it does not act
    #: here): what the seat was offered then, for the replay page's "retry your mistakes"
    legal: list[dict[str, Any]] = []


# -- a finished table's log, and positions in it -------------------------------------------------------------

Entry = tuple[Actor, int, str]


@dataclass(frozen=True)
class FinishedLog:
    """The whole log of a finished table: it never changes again, so it is read once and kept."""

    table_id: str
    game: Game
    entries: tuple[Entry, ...]
    marks: tuple[int, ...]


def chance_marks(entries: Sequence[Entry]) -> tuple[int, ...]:
    """The seq ending each run of chance actions.  Every run but a game's first follows a player's action: a new
    deal, a round's card turned up, a turn's roll or draw."""
    ends = []
    for index, (actor, _, _) in enumerate(entries):
        following = entries[index + 1][0] if index + 1 < len(entries) else None
        if actor == CHANCE and following != CHANCE:
            ends.append(index + 1)
    return tuple(ends)


def chapter_marks(game: Game, entries: Sequence[Entry]) -> tuple[int, ...]:
    """Where each hand or round begins: the end of the first run of chance actions (the deal), then of each run
    after which the game's ``chapter_field`` (``hand_number``...) has moved on, so that a card drawn in the middle of
    a hand or a turn's roll is not a new chapter.  A game of one hand has one mark, its deal."""
    runs = chance_marks(entries)
    if not runs or game.chapter_field is None:
        return runs[:1]
    table = Table(game, [None] * game.players)
    marks: list[int] = []
    chapter: Any = None
    for end in runs:
        table.extend_logged(entries[table.seq : end])  # the server's own log, validated when first applied
        view = table.state.view(None)
        now = view["table"].get(game.chapter_field)
        if not marks or now != chapter:
            marks.append(end)
            chapter = now
    return tuple(marks)


class LruCache(Generic[K, V]):
    """At most ``size`` values, the least recently used dropped first; shared by the worker threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[K, V] = OrderedDict()
        self.lock = threading.Lock()

    def __contains__(self, key: K) -> bool:
        with self.lock:
            return key in self.items

    def get(self, key: K) -> V | None:
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
            return self.items.get(key)

    def put(self, key: K, value: V) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def best(self, pick: Callable[[K], bool], order: Callable[[K], int]) -> K | None:
        """The greatest key (by ``order``) that ``pick`` accepts, or ``None``."""
        with self.lock:
            keys = [key for key in self.items if pick(key)]
            return max(keys, key=order) if keys else None

    def take(self, pick: Callable[[K], bool], order: Callable[[K], int]) -> V | None:
        """Remove and return the value of ``best(pick, order)``: the caller owns it, no other thread touches it."""
        with self.lock:
            keys = [key for key in self.items if pick(key)]
            return self.items.pop(max(keys, key=order)) if keys else None


#: A table being restored is copied every this many actions, so that a step back starts from a nearby copy.
CHECKPOINT_EVERY = 100


class Replays:
    """An application's finished logs read so far, and restored tables by (table id, seq): the positions that
    viewers are looking at (each taken by one request at a time, moved forward and put back), and checkpoints
    every ``CHECKPOINT_EVERY`` actions (never moved: copied when used)."""

    def __init__(self, logs: int = 64, positions: int = 16, checkpoints: int = 256) -> None:
        self.logs: LruCache[str, FinishedLog] = LruCache(logs)
        self.positions: LruCache[tuple[str, int], Table] = LruCache(positions)
        self.checkpoints: LruCache[tuple[str, int], Table] = LruCache(checkpoints)

    def log(self, store: Store, row: TableRow) -> FinishedLog:
        cached = self.logs.get(row.id)
        if cached is not None:
            return cached
        game = load_game(row.game, players=row.players, **row.options)
        entries: list[Entry] = []
        for action in store.actions(row.id):
            actor: Actor = CHANCE if action.actor == CHANCE_ACTOR else action.actor
            entries.append((actor, action.action, action.notation))
        found = FinishedLog(row.id, game, tuple(entries), chapter_marks(game, entries))
        self.logs.put(row.id, found)
        return found

    def step(self, game_log: FinishedLog, seq: int, seat: int | None, since: int) -> dict[str, Any]:
        """The replay's answer: the table after ``seq`` actions as ``seat`` saw it, and its events since
        ``since``."""
        table = self.position(game_log, seq)
        try:
            last = table.log[-1] if table.log else None
            return {
                "table_id": game_log.table_id, "game": game_log.game.id, "seq": seq,
                "last_seq": len(game_log.entries), "seat": seat,
                "entry": None if last is None else {"actor": last.actor, "notation": last.notation},
                "view": table.state.view(seat),
                "events": table.events(seat, since),
                "marks": [{"seq": end, "index": index} for index, end in enumerate(game_log.marks, 1)],
                "legal": self.offered(table, seat),
            }
        finally:
            self.positions.put((game_log.table_id, table.seq), table)

    @staticmethod
    def offered(table: Table, seat: int | None) -> list[dict[str, Any]]:
        """``seat``'s legal moves at the table's position (its own, as its view implies them), or ``[]``."""
        state = table.state
        if seat is None or state.is_terminal() or state.is_chance_node() or seat not in state.current_players():
            return []
        return table.legal_moves(seat)

    def position(self, game_log: FinishedLog, seq: int) -> Table:
        """The table after its first ``seq`` actions, with what each seat saw of them, moved forward from the
        nearest position or checkpoint at or before ``seq`` (or from the start).  The caller puts it back."""
        table_id = game_log.table_id

        def before(key: tuple[str, int]) -> bool:
            return key[0] == table_id and key[1] <= seq

        table = self.positions.take(before, lambda key: key[1])
        mark = self.checkpoints.best(before, lambda key: key[1])
        checkpoint = self.checkpoints.get(mark) if mark is not None else None
        if checkpoint is not None and (table is None or checkpoint.seq > table.seq):
            if table is not None:
                self.positions.put((table_id, table.seq), table)
            table = checkpoint.fork()
        if table is None:
            table = Table.restore_logged(game_log.game, (), events=True)
        for actor, action, notation in game_log.entries[table.seq:seq]:
            table.apply_logged(actor, action, notation)  # the server's own log: validated when first committed
            if table.seq % CHECKPOINT_EVERY == 0 and (table_id, table.seq) not in self.checkpoints:
                self.checkpoints.put((table_id, table.seq), table.fork())
        return table


def replays_of(request: Request) -> Replays:
    """The application's ``Replays``, made at its first replay."""
    state = request.app.state
    if not hasattr(state, "replays"):
        state.replays = Replays()
    replays: Replays = state.replays
    return replays


# -- who may see it ------------------------------------------------------------------------------------------


def may_watch(engine: Engine, row: TableRow, token: str | None, player_token: str | None) -> bool:
    """Anyone may replay a public table; a private one, whoever holds one of its seats (the seat's token, or the
    player who sat there)."""
    if not row.private or (token is not None and row.seat_of(token) is not None):
        return True
    player = player_by_token(engine, player_token) if player_token else None
    return player is not None and any(s.player_id == player.id for s in row.seats)


# -- a player's games ------------------------------------------------------------------------------------------


def past_games(engine: Engine, player_id: str, limit: int) -> list[dict[str, Any]]:
    """The finished tables where ``player_id`` held a seat, newest first, from their rows alone."""
    ended = func.coalesce(game_tables.c.finished_at, game_tables.c.created_at)
    query = (select(game_tables, func.min(seats.c.seat).label("my_seat"))
             .join(seats, seats.c.table_id == game_tables.c.id)
             .where(seats.c.player_id == player_id, game_tables.c.status == "finished")
             .group_by(game_tables.c.id).order_by(ended.desc(), game_tables.c.id).limit(limit))
    with engine.connect() as db:
        rows = db.execute(query).mappings().all()
        ids = [row["id"] for row in rows]
        seat_rows = db.execute(select(seats).where(seats.c.table_id.in_(ids)).order_by(seats.c.seat)
                               ).mappings().all() if ids else []
    by_table: dict[str, list[Any]] = {}
    for s in seat_rows:
        by_table.setdefault(s["table_id"], []).append(s)
    out = []
    for row in rows:
        table_seats, mine = by_table.get(row["id"], []), row["my_seat"]
        places = places_of(row, [bool(s["away"]) for s in table_seats])
        returns = (row["result"] or {}).get("returns") or []
        out.append({
            "table_id": row["id"], "game": row["game"], "name": row["name"], "players": row["players"],
            "seat": mine, "finished_at": row["finished_at"], "rated": bool(row["rated"]),
            "seats": [{"seat": s["seat"], "name": s["name"], "kind": s["kind"]} for s in table_seats],
            "result": row["result"], "place": places[mine] if places and mine < len(places) else None,
            "points": returns[mine] if mine < len(returns) else None,
            "departure": next((s["departure"] for s in table_seats if s["seat"] == mine), None)})
    return out


# -- the routes --------------------------------------------------------------------------------------------------


@router.get("/api/me/games", response_model=list[PastGame], responses=problems(401, 503))
async def my_games(request: Request, player: PlayerDep,
                   limit: Annotated[int, Query(ge=1, le=200)] = 50) -> list[dict[str, Any]]:
    """The finished games of the player of ``X-Player-Token``, newest first: each table, the player's seat, who
    sat where, and the result."""
    store: Store = request.app.state.lobby.store
    return await asyncio.to_thread(past_games, store.engine, player.id, limit)


@router.get("/api/tables/{table_id}/replay", response_model=ReplayStep,
            responses=problems(400, 401, 403, 404, 409, 503))
async def replay(
    table_id: str,
    request: Request,
    seq: int | None = None,
    seat: int | None = None,
    since: int | None = None,
    token: SeatTokenDep = None,
    x_player_token: OptionalPlayerTokenDep = None,
) -> dict[str, Any]:
    """A finished table after its first ``seq`` actions (default: all), as ``seat`` saw it (default: a
    spectator): its view, the events it saw in actions ``since``+1 to ``seq`` (default: action ``seq`` alone),
    and the marks where each deal or round begins.  A private table's replay needs one of its seats' tokens
    (``Authorization: Bearer``) or the ``X-Player-Token`` of a player who sat there."""
    store: Store = request.app.state.lobby.store
    row = await asyncio.to_thread(store.table, table_id)
    if row is None:
        raise Refusal(404, f"no table {table_id!r}")
    if not await asyncio.to_thread(may_watch, store.engine, row, token, x_player_token):
        raise Refusal(403, "a private table's replay needs one of its seats' tokens (Authorization: Bearer) "
                                 "or the X-Player-Token of a player who sat there")
    if row.status != "finished":
        raise Refusal(409, f"the table is {row.status}: only a finished game is replayed (a game in play "
                                 "would show hidden cards)")
    replays = replays_of(request)
    game_log = await asyncio.to_thread(replays.log, store, row)
    last = len(game_log.entries)
    seq = last if seq is None else seq
    if not 0 <= seq <= last:
        raise Refusal(400, f"seq counts the actions applied: 0 to {last} at this table, not {seq}")
    if seat is not None and not 0 <= seat < row.players:
        raise Refusal(400, f"seat is 0 to {row.players - 1} at this table (omit it for a spectator), "
                                 f"not {seat}")
    since = max(seq - 1, 0) if since is None else since
    if not 0 <= since <= seq:
        raise Refusal(400, f"since is 0 to seq ({seq}), not {since}")
    return await asyncio.to_thread(replays.step, game_log, seq, seat, since)


class ChatLine(BaseModel):
    """One message of a table's chat (``server/live/chat.py``): plain text, never markup."""

    room: Literal["players", "spectators"]
    seat: int | None
    name: str | None
    text: str
    at: float
    id: int
    seq: int


def sat_there(engine: Engine, row: TableRow, token: str | None, player_token: str | None) -> bool:
    """Whether the request comes from one of the table's seats: its token, or the player who sat there."""
    if token is not None and row.seat_of(token) is not None:
        return True
    player = player_by_token(engine, player_token) if player_token else None
    return player is not None and any(s.player_id == player.id for s in row.seats)


@router.get("/api/tables/{table_id}/chat", response_model=list[ChatLine],
            responses=problems(401, 403, 404, 409, 503))
async def table_chat(
    table_id: str,
    request: Request,
    room: Literal["players", "spectators"] = "spectators",
    token: SeatTokenDep = None,
    x_player_token: OptionalPlayerTokenDep = None,
) -> list[dict[str, Any]]:
    """A finished table's chat, oldest first, for its replay: the spectators' room for whoever may replay the
    table, the players' room for the people who sat there only (a seat's token as ``Authorization: Bearer``, or
    the ``X-Player-Token`` of a player who held a seat).  409 before the end: at the table, each reader gets its
    own room over the WebSocket, and players do not read the spectators' room while they play."""
    store: Store = request.app.state.lobby.store
    row = await asyncio.to_thread(store.table, table_id)
    if row is None:
        raise Refusal(404, f"no table {table_id!r}")
    if not await asyncio.to_thread(may_watch, store.engine, row, token, x_player_token):
        raise Refusal(403, "a private table's chat needs one of its seats' tokens (Authorization: Bearer) "
                           "or the X-Player-Token of a player who sat there")
    if room == "players" and not await asyncio.to_thread(sat_there, store.engine, row, token, x_player_token):
        raise Refusal(403, "the players' chat is read by the people who sat at the table only: send a seat's token "
                           "(Authorization: Bearer) or the X-Player-Token of a player who sat there")
    if row.status != "finished":
        raise Refusal(409, f"the table is {row.status}: its chat is shown here once the game is over")
    return await asyncio.to_thread(chat_latest, store.engine, table_id, room)


@router.get("/tables/{table_id}/replay", include_in_schema=False)
def replay_page(table_id: str) -> HTMLResponse:
    return shell("replay")
