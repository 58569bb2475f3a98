"""The lobby: creating, listing, joining and starting tables, and the tables in play.

Everything that touches the database runs in a worker thread; the live tables stay in the event loop.  Where a
table lives is the placement's to say (``placement.py``: one process, or a node of a site); the verbs about one
table that run where it lives are ``OWNER_VERBS``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from ludotheque.bots import UnknownBotError, make_bot
from ludotheque.bots.registry import own_bot_names
from ludotheque.core import LudothequeError
from ludotheque.games import game_class, game_ids, load_game
from ludotheque.server.api import CORRESPONDENCE_DAYS, ClockSpec, CorrespondenceClock, CreateTable
from ludotheque.server.config import CLOCK_PROFILES, NAMED_LEVELS, Settings
from ludotheque.server.db import make_engine, migrate
from ludotheque.server.errors import Refusal
from ludotheque.server.limits import LimitReached, SlidingWindow
from ludotheque.server.live import LiveTable
from ludotheque.server.placement import LocalPlacement, Placement, Remote
from ludotheque.server.players import LoginGuard
from ludotheque.server.services import Observers, Services
from ludotheque.server.store import CLOSED, RematchExists, SeatSpec, SeatTaken, TableRow
from ludotheque.server.store.players import PlayerRow, new_guest, player_by_token

log = logging.getLogger("ludotheque.server")


class Lobby:
    def __init__(self, services: Services, placement: Placement | None = None) -> None:
        #: what the process's tables share, handed to each ``LiveTable``
        self.services = services
        self.settings = settings = services.settings
        self.store = services.store
        self.bots = services.bots
        #: where each table lives: this process alone, or a node of a site (``--redis``)
        self.placement: Placement = placement if placement is not None else LocalPlacement()
        self.tables: dict[str, LiveTable] = {}
        self.logins = LoginGuard(settings)
        #: what one client address creates a minute that nobody answers for: guests, and tables waiting without a
        #: creator
        self.guests = SlidingWindow(settings.guests_per_minute, 60.0)
        self._expiry: asyncio.Task[None] | None = None
        self._releases: set[asyncio.Task[None]] = set()  # finished tables leaving memory after their grace
        self.placement.bind(self)

    @classmethod
    def open(cls, settings: Settings, placement: Placement | None = None, observers: Observers | None = None) -> Lobby:
        """Connect to the database, apply its migrations, and restore the unfinished tables the placement says
        (every one for a server alone; none for a node of a site, which adopts the tables nobody owns)."""
        engine = make_engine(settings.db_url, settings.db_wait_s)
        migrate(engine)
        lobby = cls(Services.open(settings, engine, observers), placement)
        # the tables that expired while the server was stopped are not restored
        lobby.store.close_waiting(lobby.store.unopened_waiting(time.time() - settings.waiting_table_ttl_s), "expired")
        for row in lobby.placement.tables_to_restore():
            try:
                lobby.restore(row)
            except LudothequeError:
                log.exception("table %s could not be restored; it stays closed", row.id)
        return lobby

    async def resume(self) -> None:
        """Start the bot workers, then the tables whose bots or chance act now, and their clocks (in the running
        event loop); then the placement (a node joins its site)."""
        self.bots.start()
        for live in self.tables.values():
            if live.row.status == "playing":
                live.kick()
                live.watch()
        self._expiry = asyncio.get_running_loop().create_task(self._expire_unopened_often())
        await self.placement.start()

    async def close(self) -> None:
        if self._expiry is not None:
            self._expiry.cancel()
        for task in list(self._releases):
            task.cancel()
        await self.placement.close()
        self.logins.close()
        self.services.close()
        await asyncio.to_thread(self.store.engine.dispose)

    def restore(self, row: TableRow) -> LiveTable:
        """The table's actor, its state restored from the database's log; kept while it is waiting or playing."""
        live = self._new_live(row)
        live.replay(self.store.actions(row.id))
        if live.table.is_over() and row.finished_at is None:
            live.finish_now()  # the last action was committed, the end of the game was not
        if row.status in ("waiting", "playing"):
            self.tables[row.id] = live  # a finished or closed table is loaded for whoever asks, and not kept
        return live

    # -- the catalogue ---------------------------------------------------------------------------------------

    @staticmethod
    def games() -> list[dict[str, Any]]:
        out = []
        for game_id in game_ids():
            cls = game_class(game_id)
            out.append({"id": game_id, "name": cls.name, "min_players": cls.min_players,
                        "max_players": cls.max_players, "options": cls.option_schema(),
                        "clock_pace": cls.clock_pace,
                        "clock_profiles": {name: profile_times(name, cls.clock_pace) for name in CLOCK_PROFILES}})
        return out

    # -- tables ---------------------------------------------------------------------------------------------

    def admit_guest(self, address: str) -> None:
        """Count a new guest (or a table waiting without a creator) of the client ``address``: 429 past
        ``Settings.guests_per_minute``."""
        wait = self.guests.hit(address)
        if wait is not None:
            raise LimitReached(f"at most {self.settings.guests_per_minute} new guests a minute from one address: "
                               "send the X-Player-Token you have", wait)

    async def player(self, player_token: str | None, name: str | None, address: str = "unknown"
                     ) -> tuple[PlayerRow | None, str | None]:
        """The player a request names (``X-Player-Token``), or a new guest called ``name`` (then its token too;
        counted against ``address``'s guests); ``(None, None)`` when neither.  An unknown token is refused rather
        than silently replaced."""
        if player_token is not None:
            player = await asyncio.to_thread(player_by_token, self.store.engine, player_token)
            if player is None:
                raise Refusal(401, "X-Player-Token names no player: log in again, or send no token to play as "
                              "a new guest")
            return player, None
        if name is None:
            return None, None
        self.admit_guest(address)
        return await asyncio.to_thread(new_guest, self.store.engine, name)

    async def create(self, body: CreateTable, base_url: str, player_token: str | None = None,
                     address: str = "unknown") -> dict[str, Any]:
        try:
            game = load_game(str(body.game.value), players=body.players, **body.options)
        except LudothequeError as error:
            raise Refusal(400, str(error)) from None
        specs = body.seats if body.seats is not None else ["me"] + ["open"] * (game.players - 1)
        if len(specs) != game.players:
            raise Refusal(400, f"seats lists one entry per seat: {game.players}, not {len(specs)}")
        if specs.count("me") > 1:
            raise Refusal(400, 'at most one seat is "me"')
        for spec in specs:
            if spec.startswith("bot:"):
                self._check_bot(spec[4:], game)
            elif spec not in ("me", "open"):
                raise Refusal(400, f'a seat is "me", "open" or "bot:LEVEL", not {spec!r}')
        self._check_bot(body.default_bot, game)
        clock = clock_of(body.clock, game.clock_pace)
        if body.hints and body.rated:
            raise Refusal(400, "a table where the coach gives hints is never rated: ask for hints or for a rated game")
        if "me" not in specs and "open" not in specs and player_token is None:
            # every seat a bot: nobody is there to answer for the table, so it counts against the player who asked
            raise Refusal(401, "a table whose every seat is a bot needs the X-Player-Token of a player or a guest "
                          "(POST /api/players makes a guest)")
        player, new_player_token = await self.player(player_token, body.player_name or "player", address) \
            if "me" in specs else await self.player(player_token, None)
        if "me" not in specs and "open" in specs and player is None:
            self.admit_guest(address)  # a table waiting without a creator: nobody may cancel it
        created_by = f"player:{player.id}" if player is not None else f"address:{address}"
        seat_specs: list[SeatSpec] = []
        for spec in specs:
            if spec == "me":
                assert player is not None
                seat_specs.append(("human", body.player_name or player.name, None, player.id))
            elif spec == "open":
                seat_specs.append(("open", None, None, None))
            else:
                seat_specs.append(("bot", spec[4:], spec[4:], None))
        creator = specs.index("me") if "me" in specs else None
        table_id, invite, token = await asyncio.to_thread(
            self.store.create_table, game=game.id, players=game.players, options=dict(game.options),
            name=body.name or f"{game.name}", private=body.private, default_bot=body.default_bot,
            seat_specs=seat_specs, creator_seat=creator, clock=clock,
            rated=body.rated, reclaim=body.reclaim, hints=body.hints,
            waiting_limit=self.settings.waiting_tables_per_player if "open" in specs else None,
            created_by=created_by, creator_limit=self.settings.tables_per_creator,
        )
        live = await self._open_new(table_id)
        if "open" not in specs:
            await live.start()
        url = f"{base_url.rstrip('/')}/tables/{table_id}" + (f"?invite={invite}" if invite else "")
        return {"table_id": table_id, "seat": creator, "token": token, "invite_url": url,
                "player_token": new_player_token}

    async def _open_new(self, table_id: str) -> LiveTable:
        """A table this process just made (created, or a rematch offered), claimed here and live."""
        await self.placement.claim_new(table_id)
        row = await asyncio.to_thread(self.store.table, table_id)
        assert row is not None
        live = self.tables[table_id] = self._new_live(row)
        return live

    def _new_live(self, row: TableRow) -> LiveTable:
        holding = self.placement.holding(row.id)
        return LiveTable(row, self.services, fence=holding.fence, on_conflict=holding.on_conflict,
                         on_idle=self.release_later)

    def release_later(self, live: LiveTable) -> None:
        """A finished table leaves memory ``Settings.finished_grace_s`` from now if nobody is connected to it then
        (whoever connects later reads it from the database; when they go, it is released again)."""
        try:
            task = asyncio.get_running_loop().create_task(self._release(live))
        except RuntimeError:  # no running loop: a table loaded in a worker thread is not kept anyway
            return
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)

    async def _release(self, live: LiveTable) -> None:
        await asyncio.sleep(self.settings.finished_grace_s)
        if live.row.status == "finished" and not live.connections:
            await self.forget(live)

    async def forget(self, live: LiveTable) -> None:
        """A finished table nobody watches leaves memory (it is read again when asked)."""
        if self.tables.get(live.id) is live:
            del self.tables[live.id]
            await self.placement.forget(live.id)

    def _check_bot(self, spec: str, game: Any) -> None:
        """A bot anyone may seat: a named level or one of the game's own bots, without settings.  Any other spec
        (``hard:time=60``, ``ismcts:iterations=...``) could hold a worker for as long as it likes, so it needs a
        server started with ``--allow-custom-bots``."""
        named = [*NAMED_LEVELS, *own_bot_names(game)]
        if spec not in named and not self.settings.allow_custom_bots:
            problem = "a named bot takes no settings here" if spec.split(":")[0] in named else "unknown bot"
            raise Refusal(400, f"bot {spec!r}: {problem}; a seat takes one of {', '.join(named)}; other bot "
                          "specs need a server started with --allow-custom-bots")
        try:
            bot = make_bot(spec, game)
        except (UnknownBotError, LudothequeError) as error:
            raise Refusal(400, f"bot {spec!r}: {error}") from None
        if getattr(bot, "omniscient", False):  # it would read every seat's cards: never at a table, custom or not
            raise Refusal(400, f"bot {spec!r} sees every card: it plays only in measurements (the arena)")

    async def open_tables(self) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(self.store.tables, ("waiting",), True)
        return [summary(row) for row in rows if any(s.kind == "open" for s in row.seats)]

    async def summary(self, table_id: str) -> dict[str, Any]:
        row = await self._row(table_id)
        if row.status == "finished" and table_id in self.tables:
            # a finished table kept in memory for its last watchers: the database's row names the accounts its
            # guests made since they sat down (the links to player pages)
            fresh = await asyncio.to_thread(self.store.table, table_id)
            row = fresh if fresh is not None else row
        if row.status == "waiting":
            await self.opened(table_id)
        live = self.tables.get(table_id)
        to_act = live.people_to_act() if live is not None and live.row.status == "playing" else None
        return {**summary(row), "to_act": to_act}

    async def _row(self, table_id: str) -> TableRow:
        live = self.tables.get(table_id)
        if live is not None:
            return live.row
        row = await asyncio.to_thread(self.store.table, table_id)
        if row is None:
            raise Refusal(404, f"no table {table_id!r}")
        return row

    async def _join(self, table_id: str, name: str, invite: str | None, player_token: str | None = None,
                   address: str = "unknown") -> dict[str, Any]:
        row = await self._row(table_id)
        if row.private and invite != row.invite:
            raise Refusal(403, "this table is private: joining needs the invite code of its invite link")
        if row.status != "waiting":
            raise Refusal(409, f"the table is {row.status}: its seats are taken")
        if not any(s.kind == "open" for s in row.seats):
            raise Refusal(409, f"table {table_id} has no open seat")
        await self.opened(table_id)
        player, new_player_token = await self.player(player_token, name, address)
        assert player is not None
        seat, token = await asyncio.to_thread(self.store.take_open_seat, table_id, name, player.id)
        live = self.tables.get(table_id)
        if live is None or live.row.status != "waiting":  # cancelled or expired while the seat was taken
            raise Refusal(409, "the table was closed: its creator cancelled it, or nobody opened it in time")
        await live.reload()
        if not any(s.kind in ("open", "invited") for s in live.row.seats):
            await live.start()
        return {"seat": seat, "token": token, "player_token": new_player_token}

    # -- the verbs about one table: run where the table lives (``OWNER_VERBS``) ---------------------------------

    async def join(self, table_id: str, name: str, invite: str | None, player_token: str | None = None,
                   address: str = "unknown") -> dict[str, Any]:
        answer: dict[str, Any] = await self._at_owner("join", table_id, name, invite, player_token, address)
        return answer

    async def leave(self, table_id: str, token: str | None) -> dict[str, Any]:
        answer: dict[str, Any] = await self._at_owner("leave", table_id, token)
        return answer

    async def reclaim(self, table_id: str, token: str | None) -> dict[str, Any]:
        answer: dict[str, Any] = await self._at_owner("reclaim", table_id, token)
        return answer

    async def rematch(self, table_id: str, token: str | None, base_url: str) -> dict[str, Any]:
        answer: dict[str, Any] = await self._at_owner("rematch", table_id, token, base_url)
        return answer

    async def decline_rematch(self, table_id: str, token: str | None) -> dict[str, Any]:
        answer: dict[str, Any] = await self._at_owner("decline_rematch", table_id, token)
        return answer

    async def start(self, table_id: str, token: str | None) -> dict[str, Any]:
        answer: dict[str, Any] = await self._at_owner("start", table_id, token)
        return answer

    async def cancel(self, table_id: str, token: str | None) -> None:
        await self._at_owner("cancel", table_id, token)

    async def opened(self, table_id: str) -> None:
        await self._at_owner("opened", table_id)

    async def _at_owner(self, verb: str, table_id: str, *args: Any) -> Any:
        """Run ``verb`` here when the table lives here (or nowhere yet: the placement adopts it), else at the node
        that holds it; its arguments and answer cross between nodes as JSON."""
        if table_id not in self.tables:
            remote = await self.placement.elsewhere(table_id)
            if remote is not None:
                return await self.placement.call(remote, verb, list(args), {})
        return await OWNER_VERBS[verb](self, table_id, *args)

    async def run_here(self, verb: str, table_id: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """A verb another node sent to this one, which holds the table."""
        local = OWNER_VERBS.get(verb)
        if local is None:
            raise Refusal(400, f"no such table verb: {verb}")
        return await local(self, table_id, *args, **kwargs)

    # -- people who leave and come back ----------------------------------------------------------------------

    async def _seated(self, table_id: str, token: str | None) -> tuple[LiveTable, int]:
        if token is None:
            raise Refusal(401, "this needs the seat's token as Authorization: Bearer TOKEN")
        row = await self._row(table_id)
        seat = row.seat_of(token)
        if seat is None:
            raise Refusal(403, "this token holds no seat at this table")
        live = await self.live(table_id, keep=True)
        if not isinstance(live, LiveTable):  # the table moved meanwhile
            raise Refusal(503, "the table is moving to another server: try again in a few seconds")
        return live, seat

    async def _leave(self, table_id: str, token: str | None) -> dict[str, Any]:
        """The person leaves a game in play: a bot plays their seat for good (they may take it back when the
        table allows it)."""
        live, seat = await self._seated(table_id, token)
        if live.row.status != "playing":
            raise Refusal(409, f"the table is {live.row.status}: only a game in play can be left")
        if live.row.seats[seat].away:
            raise Refusal(409, f"a bot plays seat {seat} already")
        await live.take_over(seat, "left")
        return summary(live.row)

    async def _reclaim(self, table_id: str, token: str | None) -> dict[str, Any]:
        live, seat = await self._seated(table_id, token)
        if live.row.status != "playing":
            raise Refusal(409, f"the table is {live.row.status}: there is no seat to take back")
        if not live.row.seats[seat].away:
            raise Refusal(409, f"seat {seat} is yours already")
        if live.row.seats[seat].departure == "resigned":
            raise Refusal(409, "a resigned game is over for its seat: the bot plays it to the end")
        if not live.row.reclaim:
            raise Refusal(403, "at this table a seat a bot took stays with the bot")
        await live.give_back(seat)
        return summary(live.row)

    async def _rematch(self, table_id: str, token: str | None, base_url: str) -> dict[str, Any]:
        """Offer (the first call) or accept the rematch: the same game and people, seats turned by one.  Each
        person's seat is kept for them until they accept; the game starts when every kept seat is taken, or when
        whoever offered it starts it (bots then take the seats not taken)."""
        live, seat = await self._seated(table_id, token)
        old = live.row
        if old.status != "finished":
            raise Refusal(409, "a rematch is offered once the game is over")
        new_seat = (seat + 1) % old.players
        if old.rematch is None:
            seat_specs: list[SeatSpec] = []
            for index in range(old.players):
                previous = old.seats[(index - 1) % old.players]
                if previous.kind == "bot":
                    seat_specs.append(("bot", previous.name, previous.bot, None))
                else:
                    seat_specs.append(("invited", previous.name, None, previous.player_id))
            with contextlib.suppress(RematchExists):  # someone else offered it at the same moment: accept theirs
                await asyncio.to_thread(
                    self.store.create_table, game=old.game, players=old.players, options=old.options, name=old.name,
                    private=old.private, default_bot=old.default_bot, seat_specs=seat_specs, creator_seat=None,
                    clock=old.clock, rated=old.rated, reclaim=old.reclaim, rematch_of=old.id, hints=old.hints,
                    created_by=offered_by(old, seat),
                )
            await live.reload()
            assert live.row.rematch is not None
            new = await self._open_new(live.row.rematch)
            if new.row.creator_seat is None:
                await new.let_start(new_seat)  # who offered it may start it
        new_id = live.row.rematch
        assert new_id is not None
        new = self.tables.get(new_id) or await self._open_new(new_id)  # 503 if another node holds it
        if new.row.status in CLOSED:
            self.tables.pop(new_id, None)
            raise Refusal(409, f"the rematch is {new.row.status}")
        new_token = await asyncio.to_thread(self.store.accept_invited_seat, new_id, new_seat)
        await new.reload()
        live.show_rematch(rematch_info(old, new.row))
        # everyone said yes: the game begins (with a "no" among them, whoever offered it decides whether to start)
        if all(s.kind in ("human", "bot") for s in new.row.seats) and new.row.status == "waiting":
            await new.start()
        new.broadcast()
        return {"table_id": new_id, "seat": new_seat, "token": new_token}

    async def _decline_rematch(self, table_id: str, token: str | None) -> dict[str, Any]:
        """The person of a finished table's seat declines the rematch offered: the others see it (the frames'
        ``rematch.declined``), and a bot takes that seat if whoever offered it starts the game anyway."""
        live, seat = await self._seated(table_id, token)
        new_id = live.row.rematch
        if live.row.status != "finished" or new_id is None:
            raise Refusal(409, "no rematch is offered at this table")
        new = self.tables.get(new_id) or await self._open_new(new_id)
        if new.row.status != "waiting":
            raise Refusal(409, f"the rematch is {new.row.status} already")
        new_seat = (seat + 1) % live.row.players
        try:
            await asyncio.to_thread(self.store.decline_invited_seat, new_id, new_seat)
        except SeatTaken:
            raise Refusal(409, "your seat at the rematch is not kept for you any more: you accepted it, or the "
                          "game began") from None
        await new.reload()
        info = rematch_info(live.row, new.row)
        live.show_rematch(info)
        new.broadcast()
        return info

    async def _start(self, table_id: str, token: str | None) -> dict[str, Any]:
        row = await self._row(table_id)
        if token is None or row.creator_seat is None or row.seat_of(token) != row.creator_seat:
            raise Refusal(403, "only the table's creator starts it (send its token as Authorization: Bearer)")
        if row.status != "waiting":
            raise Refusal(409, f"the table is {row.status} already")
        await self.tables[table_id].start()
        return summary(self.tables[table_id].row)

    # -- waiting tables that close: cancelled by their creator, or expired unopened -------------------------------

    async def _cancel(self, table_id: str, token: str | None) -> None:
        """The creator withdraws a table still waiting for people: it is no longer listed, joined or started."""
        row = await self._row(table_id)
        if token is None:
            raise Refusal(401, "this needs the creator's seat token as Authorization: Bearer TOKEN")
        if row.creator_seat is None or row.seat_of(token) != row.creator_seat:
            raise Refusal(403, "only the table's creator cancels it")
        live = self.tables.get(table_id)
        if row.status != "waiting" or live is None:
            raise Refusal(409, f"the table is {row.status}: only a table waiting for people is cancelled")
        await self._close([live], "cancelled")

    async def expire_unopened(self) -> list[str]:
        """The waiting tables nobody opened for ``Settings.waiting_table_ttl_s``, and nobody is connected to,
        expire; their ids."""
        before = time.time() - self.settings.waiting_table_ttl_s
        due = [live for live in self.tables.values()
               if live.row.status == "waiting" and not live.connections and live.row.last_opened < before]
        await self._close(due, "expired")
        return [live.id for live in due]

    async def _close(self, lives: list[LiveTable], status: str) -> None:
        # the tables leave the lobby before the database is written, so that no join or start slips in meanwhile
        for live in lives:
            live.closing(status)
            self.tables.pop(live.id, None)
        try:
            await asyncio.to_thread(self.store.close_waiting, [live.id for live in lives], status)
        except BaseException:
            for live in lives:
                live.not_closed()
                self.tables.setdefault(live.id, live)
            raise
        for live in lives:
            live.broadcast()  # whoever has the page open sees the table closed
            await self.placement.forget(live.id)

    async def _expire_unopened_often(self) -> None:
        period = max(0.5, min(300.0, self.settings.waiting_table_ttl_s / 10))
        while True:
            await asyncio.sleep(period)
            try:
                expired = await self.expire_unopened()
            except SQLAlchemyError:
                log.exception("the waiting tables could not be expired; trying again in %.0f s", period)
            else:
                if expired:
                    log.info("%d waiting tables expired unopened", len(expired))

    async def _opened(self, table_id: str) -> None:
        """Someone opened the table: a waiting one expires later (``LiveTable.opened``)."""
        live = self.tables.get(table_id)
        if live is not None:
            await live.opened()

    async def record(self, table_id: str, token: str | None) -> dict[str, Any]:
        row = await self._row(table_id)
        if row.private and (token is None or row.seat_of(token) is None):
            raise Refusal(403, "the record of a private table needs one of its seats' tokens")
        if row.status != "finished":
            raise Refusal(409, "the game is not over: its record would show every hidden card")
        live = await asyncio.to_thread(self.load, row)
        names = [s.name for s in live.row.seats]
        return live.table.record({"table": table_id, "seats": names})

    async def live(self, table_id: str, keep: bool = False) -> LiveTable | Remote | None:
        """The table in play, or a finished one loaded from the database (for spectators and records); ``keep``
        it in memory while people are connected to it (the server drops it when the last one goes).  In a site of
        several nodes, a table kept is held by one node: elsewhere it is ``Remote``, and its sockets are relayed."""
        if keep:
            await self.opened(table_id)  # a connection opens a waiting table
        live = self.tables.get(table_id)
        if live is not None:
            return live
        if keep:
            return await self.placement.locate(table_id)
        row = await asyncio.to_thread(self.store.table, table_id)
        if row is None:
            return None
        return await asyncio.to_thread(self.load, row)

    def load(self, row: TableRow) -> LiveTable:
        """``restore``, and the rematch a finished table's frames show (in a worker thread)."""
        live = self.restore(row)
        if row.rematch is not None:
            new = self.tables.get(row.rematch)
            new_row = new.row if new is not None else self.store.table(row.rematch)
            if new_row is not None:
                live.show_rematch(rematch_info(row, new_row))
        return live



#: The verbs about one table that run where it lives, by the name a call between nodes carries (``site.py``).
OWNER_VERBS: dict[str, Callable[..., Awaitable[Any]]] = {
    "join": Lobby._join,
    "leave": Lobby._leave,
    "reclaim": Lobby._reclaim,
    "rematch": Lobby._rematch,
    "decline_rematch": Lobby._decline_rematch,
    "start": Lobby._start,
    "cancel": Lobby._cancel,
    "opened": Lobby._opened,
}

def summary(row: TableRow) -> dict[str, Any]:
    return {
        "id": row.id, "game": row.game, "name": row.name, "players": row.players, "options": row.options,
        "status": row.status, "private": row.private, "creator_seat": row.creator_seat,
        "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name, "away": s.away, "departure": s.departure,
                   "account": s.account} for s in row.seats],
        "clock": row.clock, "rated": row.rated, "reclaim": row.reclaim, "rematch_of": row.rematch_of,
        "rematch": row.rematch, "finished_at": row.finished_at, "hints": row.hints,
        **({"rating_changes": (row.result or {}).get("rating_changes", {})}
           if row.rated and row.status == "finished" else {}),
    }


def offered_by(old: TableRow, seat: int) -> str | None:
    """Who a rematch counts against: the player of the seat that offered it (one rematch a finished table)."""
    player_id = old.seats[seat].player_id
    return f"player:{player_id}" if player_id is not None else old.created_by


def rematch_info(old: TableRow, new: TableRow) -> dict[str, Any]:
    """The rematch as the old table's frames show it: its table and the old seats whose people took their seat."""
    accepted = [(index - 1) % old.players for index, seat in enumerate(new.seats)
                if seat.kind == "human" and old.seats[(index - 1) % old.players].kind == "human"]
    declined = [(index - 1) % old.players for index, seat in enumerate(new.seats) if seat.kind == "declined"]
    return {"table_id": new.id, "accepted": sorted(accepted), "declined": sorted(declined)}


def clock_of(choice: str | ClockSpec | CorrespondenceClock | None, pace: float) -> dict[str, Any] | None:
    """The clock a table is created with: a profile's times at the game's pace, the times asked for, or days a move
    (a correspondence clock: the days as its move time, no reserve; ``clock.py``)."""
    if choice is None:
        return None
    if isinstance(choice, ClockSpec):
        return {"profile": None, "move": choice.move, "reserve": choice.reserve}
    if isinstance(choice, CorrespondenceClock):
        low, high = CORRESPONDENCE_DAYS
        if not low <= choice.days <= high:
            raise Refusal(400, f"a game by correspondence gives {low} to {high} days a move, not {choice.days}")
        return {"profile": None, "days": choice.days, "move": choice.days * 86_400.0, "reserve": 0.0}
    return {"profile": choice, **profile_times(choice, pace)}


def profile_times(profile: str, pace: float) -> dict[str, float]:
    move, reserve = CLOCK_PROFILES[profile]
    return {"move": math.ceil(move * pace), "reserve": math.ceil(reserve * pace)}
