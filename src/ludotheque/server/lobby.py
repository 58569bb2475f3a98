"""The lobby: creating, listing, joining and starting tables, and the tables in play.

Everything that touches the database runs in a worker thread; the live tables stay in the event loop.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ludotheque.bots import UnknownBotError, make_bot
from ludotheque.core import LudothequeError, game_class, game_ids, load_game
from ludotheque.server.api import CreateTable
from ludotheque.server.botpool import BotPool
from ludotheque.server.config import Settings
from ludotheque.server.db import make_engine, migrate
from ludotheque.server.live import LiveTable
from ludotheque.server.store import SeatTaken, Store, TableRow

log = logging.getLogger("ludotheque.server")


class LobbyError(Exception):
    """A refused request: an HTTP status and a message naming the problem."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Lobby:
    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.bots = BotPool(settings.bot_workers)
        self.tables: dict[str, LiveTable] = {}

    @classmethod
    def open(cls, settings: Settings) -> Lobby:
        """Connect to the database, apply its migrations, and restore every unfinished table."""
        engine = make_engine(settings.db_url)
        migrate(engine)
        lobby = cls(settings, Store(engine))
        for row in lobby.store.tables(("waiting", "playing"), limit=1_000_000):
            try:
                lobby._restore(row)
            except LudothequeError:
                log.exception("table %s could not be restored; it stays closed", row.id)
        return lobby

    def resume(self) -> None:
        """Start the tables whose bots or chance act now (in the running event loop)."""
        for live in self.tables.values():
            if live.row.status == "playing":
                live.kick()

    async def close(self) -> None:
        self.bots.close()
        await asyncio.to_thread(self.store.engine.dispose)

    def _restore(self, row: TableRow) -> LiveTable:
        live = LiveTable(row, self.store, self.bots, self.settings)
        live.replay(self.store.actions(row.id))
        if live.table.is_over() and row.status != "finished":
            row.status = "finished"  # the last action was committed, its status was not
            self.store.set_status(row.id, "finished")
        if row.status != "finished":
            self.tables[row.id] = live  # a finished table is loaded for whoever asks, and not kept
        return live

    # -- the catalogue ---------------------------------------------------------------------------------------

    @staticmethod
    def games() -> list[dict[str, Any]]:
        out = []
        for game_id in game_ids():
            cls = game_class(game_id)
            out.append({"id": game_id, "name": cls.name, "min_players": cls.min_players,
                        "max_players": cls.max_players, "options": cls.option_schema()})
        return out

    # -- tables ---------------------------------------------------------------------------------------------

    async def create(self, body: CreateTable, base_url: str) -> dict[str, Any]:
        try:
            game = load_game(str(body.game.value), players=body.players, **body.options)
        except LudothequeError as error:
            raise LobbyError(400, str(error)) from None
        specs = body.seats if body.seats is not None else ["me"] + ["open"] * (game.players - 1)
        if len(specs) != game.players:
            raise LobbyError(400, f"seats lists one entry per seat: {game.players}, not {len(specs)}")
        if specs.count("me") > 1:
            raise LobbyError(400, 'at most one seat is "me"')
        seat_specs: list[tuple[str, str | None, str | None]] = []
        for spec in specs:
            if spec == "me":
                seat_specs.append(("human", body.player_name or "player", None))
            elif spec == "open":
                seat_specs.append(("open", None, None))
            elif spec.startswith("bot:"):
                bot = spec[4:]
                self._check_bot(bot, game)
                seat_specs.append(("bot", bot, bot))
            else:
                raise LobbyError(400, f'a seat is "me", "open" or "bot:LEVEL", not {spec!r}')
        self._check_bot(body.default_bot, game)
        creator = specs.index("me") if "me" in specs else None
        table_id, invite, token = await asyncio.to_thread(
            self.store.create_table, game=game.id, players=game.players, options=dict(game.options),
            name=body.name or f"{game.name}", private=body.private, default_bot=body.default_bot,
            seat_specs=seat_specs, creator_seat=creator,
        )
        row = await asyncio.to_thread(self.store.table, table_id)
        assert row is not None
        self.tables[table_id] = LiveTable(row, self.store, self.bots, self.settings)
        if "open" not in specs:
            await self._start(self.tables[table_id])
        url = f"{base_url.rstrip('/')}/tables/{table_id}" + (f"?invite={invite}" if invite else "")
        return {"table_id": table_id, "seat": creator, "token": token, "invite_url": url}

    @staticmethod
    def _check_bot(spec: str, game: Any) -> None:
        try:
            make_bot(spec, game)
        except (UnknownBotError, LudothequeError) as error:
            raise LobbyError(400, f"bot {spec!r}: {error}") from None

    async def open_tables(self) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(self.store.tables, ("waiting",), True)
        return [summary(row) for row in rows if any(s.kind == "open" for s in row.seats)]

    async def summary(self, table_id: str) -> dict[str, Any]:
        return summary(await self._row(table_id))

    async def _row(self, table_id: str) -> TableRow:
        live = self.tables.get(table_id)
        if live is not None:
            return live.row
        row = await asyncio.to_thread(self.store.table, table_id)
        if row is None:
            raise LobbyError(404, f"no table {table_id!r}")
        return row

    async def join(self, table_id: str, name: str, invite: str | None) -> dict[str, Any]:
        row = await self._row(table_id)
        if row.private and invite != row.invite:
            raise LobbyError(403, "this table is private: joining needs the invite code of its invite link")
        if row.status != "waiting":
            raise LobbyError(409, f"the table is {row.status}: its seats are taken")
        try:
            seat, token = await asyncio.to_thread(self.store.take_open_seat, table_id, name)
        except SeatTaken as error:
            raise LobbyError(409, str(error)) from None
        live = self.tables[table_id]
        await self._reload(live)
        if not any(s.kind == "open" for s in live.row.seats):
            await self._start(live)
        return {"seat": seat, "token": token}

    async def start(self, table_id: str, token: str | None) -> dict[str, Any]:
        row = await self._row(table_id)
        if token is None or row.creator_seat is None or row.seat_of(token) != row.creator_seat:
            raise LobbyError(403, "only the table's creator starts it (send its token as Authorization: Bearer)")
        if row.status != "waiting":
            raise LobbyError(409, f"the table is {row.status} already")
        await self._start(self.tables[table_id])
        return summary(self.tables[table_id].row)

    async def _start(self, live: LiveTable) -> None:
        await asyncio.to_thread(self.store.fill_open_seats, live.id, live.row.default_bot)
        await asyncio.to_thread(self.store.set_status, live.id, "playing")
        await self._reload(live)
        live.broadcast()
        live.kick()

    async def _reload(self, live: LiveTable) -> None:
        """Read the table's row again after a change of its seats or status."""
        row = await asyncio.to_thread(self.store.table, live.id)
        if row is not None:
            live.row = row

    async def record(self, table_id: str, token: str | None) -> dict[str, Any]:
        row = await self._row(table_id)
        if row.private and (token is None or row.seat_of(token) is None):
            raise LobbyError(403, "the record of a private table needs one of its seats' tokens")
        if row.status != "finished":
            raise LobbyError(409, "the game is not over: its record would show every hidden card")
        live = await self.live(table_id)
        assert live is not None
        names = [s.name for s in live.row.seats]
        return live.table.record({"table": table_id, "seats": names})

    async def live(self, table_id: str) -> LiveTable | None:
        """The table in play, or a finished one loaded from the database (for spectators and records)."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        row = await asyncio.to_thread(self.store.table, table_id)
        if row is None:
            return None
        return await asyncio.to_thread(self._restore, row)


def summary(row: TableRow) -> dict[str, Any]:
    return {
        "id": row.id, "game": row.game, "name": row.name, "players": row.players, "options": row.options,
        "status": row.status, "private": row.private, "creator_seat": row.creator_seat,
        "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name} for s in row.seats],
    }
