"""The table: seats, chance, bots and the append-only move log.

Every way of playing runs on this one loop: the terminal (``ludotheque play``), simulations and the arena, the
RL adapters, and the server.  A seat holds a bot or is left to a person (``None``); chance comes from a
``ChanceSource``; ``advance()`` applies chance and bot moves until a person must act or the game ends, and
``submit(seat, move)`` applies a person's (or a remote client's) move.

Each applied action is appended to ``log`` as it is applied, and (with ``events=True``) what each seat saw of
it.  An entry's notation and structured form are written when a reader first asks for them (a record, a
server's database, a replay page), not as the action is applied: simulations, the arena and the RL adapters never
read them, and they would cost more than the move itself in the fastest games.  With ``events=True`` (the
server, the terminal) they are written at once, beside the events.  Appending costs the same at any point of a
game, and a record is the log itself: ``record()`` writes it without replaying the game's decisions, and
``Table.restore`` reads it back.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ludotheque.core import (
    CHANCE,
    RECORD_FORMAT,
    Actor,
    Bot,
    Game,
    NotYourTurnError,
    State,
    parse_record,
    sample_chance,
)
from ludotheque.core.bot import ask_bot
from ludotheque.core.errors import LudothequeError, RecordError
from ludotheque.core.events import Event, EventData
from ludotheque.core.records import check_notation
from ludotheque.games import load_game

#: Picks the chance action at a chance node: a seeded RNG (``chance_from_rng``), keyed duplicate deals (the arena),
#: or the server's cryptographic source.
ChanceSource = Callable[[State], int]


def chance_from_rng(rng: random.Random) -> ChanceSource:
    """Chance drawn from ``rng`` with the outcomes' probabilities (``sample_chance``)."""

    def draw(state: State) -> int:
        return sample_chance(state, rng)

    return draw


class LogEntry:
    """One applied action: who, what (raw action, notation and structured form), and what each seat saw.

    ``notation`` and ``move`` are worked out on first reading when the table did not write them at once (see the
    module docstring); an entry never changes once written."""

    __slots__ = ("_move", "_notary", "_notation", "action", "actor", "events", "seq")

    def __init__(
        self,
        seq: int,
        actor: Actor,
        action: int,
        notation: str | None = None,
        move: dict[str, Any] | None = None,
        events: tuple[Event, ...] = (),
        notary: _Notary | None = None,
    ) -> None:
        if (notation is None or move is None) and notary is None:
            raise ValueError("an entry without its notation and move needs the notary that writes them")
        self.seq = seq  # 1 for the first action of the game
        self.actor = actor
        self.action = action
        self.events = events
        self._notation = notation
        self._move = move
        self._notary = notary

    @classmethod
    def unwritten(cls, seq: int, actor: Actor, action: int, notation: str | None, notary: _Notary) -> LogEntry:
        """An entry whose notation (unless given) and move ``notary`` writes when first read: what random play
        appends at every action, made without ``__init__``'s checks and defaults (they cost as much as a Geier
        move)."""
        entry = object.__new__(cls)
        entry.seq = seq
        entry.actor = actor
        entry.action = action
        entry.events = ()
        entry._notation = notation
        entry._move = None
        entry._notary = notary
        return entry

    @property
    def notation(self) -> str:
        if self._notation is None:
            self._written()
        assert self._notation is not None
        return self._notation

    @property
    def move(self) -> dict[str, Any]:
        if self._move is None:
            self._written()
        assert self._move is not None
        return self._move

    def _written(self) -> None:
        assert self._notary is not None
        self._notary.write(self.seq)
        self._notary = None  # written for good: the entry no longer holds the notary's states

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LogEntry):
            return NotImplemented
        return (self.seq, self.actor, self.action, self.notation, self.move) == (
            other.seq, other.actor, other.action, other.notation, other.move
        )

    def __hash__(self) -> int:
        return hash((self.seq, self.actor, self.action))

    def __repr__(self) -> str:
        return f"LogEntry(seq={self.seq}, actor={self.actor!r}, action={self.action}, notation={self.notation!r})"

    def record_entry(self) -> dict[str, Any]:
        """The entry as a record holds it: the notation, and the raw action for a fast restore."""
        return {"by": self.actor, "move": self.notation, "action": self.action}

    def seen_by(self, seat: int | None) -> list[EventData]:
        """The events of this action as ``seat`` (``None``: a spectator) saw them, each tagged with ``seq``."""
        out = []
        for event in self.events:
            data = event.seen_by(seat)
            if data is not None:
                out.append({"seq": self.seq, **data})
        return out


class _Notary:
    """Writes the notation and structured move of a table's log entries when a reader asks.

    Both depend on the position before the action, which the live state has left behind, so a shadow copy of the
    game replays the log (``apply_logged``: nothing validated again) from where the table's first unwritten
    entry was appended, writing what each entry lacks.  It goes on from where it stopped, so reading the whole
    log costs one replay in all, and random play that never reads pays nothing."""

    __slots__ = ("done", "game", "log", "shadow")

    def __init__(self, game: Game, log: list[LogEntry], start: State | None) -> None:
        self.game = game
        self.log = log  # the table's own list: entries appended later are found in it
        self.done = len(log)  # entries before this one the shadow has gone past (or never needed)
        self.shadow = start  # the position before log[done]; None: the initial state, made when first needed

    def write(self, upto_seq: int) -> None:
        """Write every entry up to ``upto_seq`` (included)."""
        if upto_seq <= self.done:
            return
        if self.shadow is None:
            self.shadow = self.game.new_initial_state()
        shadow = self.shadow
        for index in range(self.done, upto_seq):
            entry = self.log[index]
            actor, action = entry.actor, entry.action
            if entry._notation is None:
                entry._notation = shadow.action_to_string(action, actor)
            if entry._move is None:
                entry._move = shadow.action_to_json(action, actor)
            shadow.apply_logged(actor, action)
        self.done = upto_seq


class Table:
    """A game in progress with its seats.  ``state`` is the live state: read it, never apply to it directly."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[Bot | None],
        *,
        chance: ChanceSource | None = None,
        chance_rng: random.Random | None = None,
        bot_rng: random.Random | None = None,
        events: bool = False,
        omniscient: bool = False,
    ) -> None:
        if len(seats) != game.players:
            raise ValueError(f"{game.id} at {game.players} players needs {game.players} seats, not {len(seats)}")
        if chance is None:
            chance = chance_from_rng(chance_rng if chance_rng is not None else random.Random())
        self.game = game
        self.seats: list[Bot | None] = list(seats)
        self.chance = chance
        self.bot_rng = bot_rng if bot_rng is not None else chance_rng if chance_rng is not None else random.Random()
        self.with_events = events
        #: bots that see every card (the ``oracle``) may play: a measurement's table, never one people sit at
        self.omniscient = omniscient
        self.state: State = game.new_initial_state()
        self.log: list[LogEntry] = []
        self._notary: _Notary | None = None  # made at the first entry appended without its notation

    # -- who acts ------------------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        """The number of actions applied so far (the last entry's ``seq``; 0 before the first)."""
        return len(self.log)

    def is_over(self) -> bool:
        return self.state.is_terminal()

    def waiting_for(self) -> list[int]:
        """The seats without a bot that must act now (the table cannot advance until they do)."""
        return [seat for seat in self.state.current_players() if self.seats[seat] is None]

    def legal_moves(self, seat: int) -> list[dict[str, Any]]:
        """``seat``'s legal moves now, each as ``{"id", "notation", "move"}`` (``id`` is the raw action)."""
        state = self.state
        return [
            {"id": action, "notation": state.action_to_string(action, seat), "move": state.action_to_json(action, seat)}
            for action in state.legal_actions(seat)
        ]

    # -- moving --------------------------------------------------------------------------------------

    def submit(self, seat: int, move: int | str) -> LogEntry:
        """Apply ``seat``'s move, given as notation or as a raw action.  Errors name the problem and change
        nothing: ``NotYourTurnError`` (the seat does not act now), ``NotationError`` (the text names no legal
        move), ``IllegalActionError`` (an action that is not legal here)."""
        if isinstance(move, str) or type(seat) is not int:
            return self._apply(seat, self.parse(seat, move))
        return self._apply(seat, move)  # apply_action checks the turn itself, raising the same errors

    def parse(self, seat: int, move: int | str) -> int:
        """The action ``seat``'s move names, the turn checked first (``check_turn``: the notation is read as the
        acting seat's); ``NotationError`` when the text names no legal move.  ``submit`` and the server both read
        a person's move here.  A raw action is returned as given: ``apply_action`` judges it."""
        self.check_turn(seat)
        return self.state.string_to_action(move, seat) if isinstance(move, str) else move

    def check_turn(self, seat: int) -> None:
        """Raise unless ``seat`` acts now: ``GameOverError`` (the game is over), ``SeatError`` (no such seat),
        ``NotYourTurnError`` (another seat, or chance, acts).  The one turn check of every way of playing."""
        state = self.state
        if state.is_terminal():
            state.apply_action(0, seat)  # raises GameOverError
        state.check_seat(seat)
        if seat not in state.current_players():
            acting = ", ".join(str(s) for s in state.current_players()) or "chance"
            raise NotYourTurnError(f"{self.game.id}: seat {seat} does not act now (to act: {acting})")

    def step(self) -> LogEntry | None:
        """Apply the next chance action or bot move; ``None`` when the game is over or only people must act."""
        applied = self._run(None, once=True)
        return applied[0] if applied else None

    def advance(self, on_entry: Callable[[LogEntry], None] | None = None) -> list[LogEntry]:
        """Run chance and bots until a person must act or the game ends; the entries applied, in order."""
        return self._run(on_entry, once=False)

    def _run(self, on_entry: Callable[[LogEntry], None] | None, once: bool) -> list[LogEntry]:
        """``step`` and ``advance`` as one loop (simulations and the arena spend most of their time here): the
        next chance action, or the move of the first acting seat that holds a bot, until only people act, the
        game ends or (``once``) one entry is applied."""
        applied: list[LogEntry] = []
        state, seats, chance, rng, apply = self.state, self.seats, self.chance, self.bot_rng, self._apply
        while not state.is_terminal():
            if state.is_chance_node():
                entry = apply(CHANCE, chance(state))
            else:
                for seat in state.current_players():
                    bot = seats[seat]
                    if bot is not None:
                        entry = apply(seat, ask_bot(bot, state, seat, rng, omniscient=self.omniscient))
                        break
                else:
                    break  # only people act now
            applied.append(entry)
            if on_entry is not None:
                on_entry(entry)
            if once:
                break
        return applied

    def play_out(self) -> State:
        """Advance to the end (every seat must hold a bot); the final state."""
        missing = [seat for seat, bot in enumerate(self.seats) if bot is None]
        if missing:
            raise ValueError(f"play_game needs a bot in every seat; none in seat(s) {missing}")
        self.advance()
        return self.state

    # -- this program's own log ------------------------------------------------------------------------------

    def apply_logged(self, actor: Actor, action: int, notation: str) -> LogEntry:
        """Apply one action of a log this program wrote itself (a server's database, a bot worker's history):
        it was validated when first applied, so it is not validated again, and ``notation`` is kept as written.
        Anything read from elsewhere goes through ``submit`` or ``restore``."""
        return self._apply(actor, action, notation)

    def extend_logged(self, entries: Iterable[tuple[Actor, int, str]]) -> list[LogEntry]:
        """``apply_logged`` for each ``(actor, action, notation)`` in order; the entries applied."""
        return [self._apply(actor, action, notation) for actor, action, notation in entries]

    def fork(self, upto_seq: int | None = None) -> Table:
        """A copy of this table after its first ``upto_seq`` actions (``None``: all of them) that moves on alone:
        every seat left to people, events kept as here.  The log's entries never change, so the copy shares them
        and replays only the game's own work (a replay's position, a checkpoint)."""
        seq = self.seq if upto_seq is None else upto_seq
        if not 0 <= seq <= self.seq:
            raise ValueError(f"a fork is taken at a seq in 0..{self.seq}, not {upto_seq}")
        twin = Table(self.game, [None] * self.game.players, events=self.with_events)
        if seq == self.seq:
            twin.state = self.state.clone()
        else:
            for entry in self.log[:seq]:
                twin.state.apply_logged(entry.actor, entry.action)
        twin.log = self.log[:seq]
        return twin

    def _apply(self, actor: Actor, action: int, logged: str | None = None, *, written: str | None = None) -> LogEntry:
        """Apply and log one action.  ``logged`` is its notation when it comes from this program's own log
        (``apply_logged``): it was validated when first applied, and is not validated again.  ``written``: its
        notation already checked (a restored record's), applied with validation.

        Without events, the notation and structured move are left for the log's readers (``_Notary``)."""
        state = self.state
        log = self.log
        player = None if actor == CHANCE else actor
        notation = logged if logged is not None else written
        if not self.with_events:
            notary = self._notary
            if notary is None or notary.log is not log:
                # the position before this entry, for the shadow to start from (the initial one needs no copy)
                notary = self._notary = _Notary(self.game, log, state.clone() if log else None)
            if logged is not None:
                state.apply_logged(actor, action)
            else:
                state.apply_action(action, player)  # validates; raises before any change
            entry = LogEntry.unwritten(len(log) + 1, actor, action, notation, notary)
            log.append(entry)
            return entry
        if notation is None:
            notation = state.action_to_string(action, actor)
        move = state.action_to_json(action, actor)
        before = state.clone()
        if logged is not None:
            state.apply_logged(actor, action)
        else:
            state.apply_action(action, player)
        events = tuple(self.game.describe(before, actor, action, state))
        entry = LogEntry(len(log) + 1, actor, action, notation, move, events)
        log.append(entry)
        return entry

    # -- what seats saw ------------------------------------------------------------------------------

    def events(self, seat: int | None, since: int = 0) -> list[EventData]:
        """What ``seat`` (``None``: a spectator) saw happen after action ``since`` (0: since the start)."""
        if not self.with_events:
            raise ValueError("this table keeps no events (create it with events=True)")
        if seat is not None:
            self.state.check_seat(seat)
        return [data for entry in self.log[max(since, 0) :] for data in entry.seen_by(seat)]

    # -- records ---------------------------------------------------------------------------------------

    def record(self, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The game so far as a record (``ludotheque replay`` reads it): the log as it stands."""
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game.id,
            "players": self.game.players,
            "options": dict(self.game.options),
            "actions": [entry.record_entry() for entry in self.log],
        }
        if meta:
            data["meta"] = dict(meta)
        return data

    @classmethod
    def restore(
        cls,
        record: Mapping[str, Any] | str | bytes,
        seats: Sequence[Bot | None] | None = None,
        *,
        chance: ChanceSource | None = None,
        bot_rng: random.Random | None = None,
        events: bool = False,
    ) -> Table:
        """A table at the end of ``record``, each action validated as it is applied again.  Entries with a raw
        ``action`` are applied directly (their notation is checked against it); entries with notation only are
        parsed.  ``RecordError`` names the first bad action."""
        data = parse_record(record)
        try:
            game = load_game(data["game"], players=data["players"], **data["options"])
        except LudothequeError as exc:
            raise RecordError(f"record header: {exc}") from None
        table = cls(game, seats if seats is not None else [None] * game.players, chance=chance, bot_rng=bot_rng,
                    events=events)
        for index, item in enumerate(data["actions"]):
            by = item["by"]
            try:
                table._restore_one(by, item["move"], item.get("action"))
            except LudothequeError as exc:
                raise RecordError(f"action {index} ({by}: {item['move']!r}): {exc}", index) from None
        return table

    @classmethod
    def restore_logged(
        cls,
        game: Game,
        entries: Sequence[tuple[Actor, int, str]],
        seats: Sequence[Bot | None] | None = None,
        *,
        events: bool = False,
    ) -> Table:
        """A table at the end of a log this program wrote itself (``(actor, action, notation)`` per entry, as the
        server's database holds them), each action applied without validating it again.  Records from anywhere
        else go through ``restore``, which validates every action."""
        table = cls(game, seats if seats is not None else [None] * game.players, events=events)
        table.extend_logged(entries)
        return table

    def _restore_one(self, by: Actor, notation: str, action: int | None) -> None:
        state = self.state
        if by == CHANCE and (state.is_terminal() or not state.is_chance_node()):
            raise RecordError("chance acts here but the state is not a chance node")
        if action is None:
            action = state.string_to_action(notation, by)
        else:
            check_notation(state, action, by, notation)
            self._apply(by, action, written=notation.strip())
            return
        self._apply(by, action)


def step_bots(state: State, bots: Sequence[Bot | None], rng: random.Random) -> bool:
    """Let every acting seat of a bare ``state`` that has a bot move once (for tests and benchmarks that hold a
    state without a table); whether any did."""
    moved = False
    for seat in state.current_players():
        bot = bots[seat]
        if bot is not None and seat in state.current_players():
            state.apply_action(ask_bot(bot, state, seat, rng), seat)
            moved = True
    return moved


def play_game(
    game: Game,
    bots: Sequence[Bot],
    chance_rng: random.Random | None = None,
    bot_rng: random.Random | None = None,
    on_step: Callable[[State], None] | None = None,
    chance: ChanceSource | None = None,
) -> State:
    """Play one game between bots to the end; the final state (build a ``Table`` for its log and record).

    Chance comes from ``chance`` when given, else from ``chance_rng``; bots draw from ``bot_rng`` (default:
    ``chance_rng``), a separate source so that one deal can be replayed with other bots (duplicate deals).
    ``on_step(state)`` runs after every action."""
    if chance is None and chance_rng is None:
        raise ValueError("play_game needs a chance_rng or a chance source")
    if len(bots) != game.players:
        raise ValueError(f"{game.players} bots are needed, not {len(bots)}")
    table = Table(game, bots, chance=chance, chance_rng=chance_rng, bot_rng=bot_rng)
    if on_step is None:
        return table.play_out()
    missing = [seat for seat, bot in enumerate(bots) if bot is None]
    if missing:
        raise ValueError(f"play_game needs a bot in every seat; none in seat(s) {missing}")
    table.advance(lambda _: on_step(table.state))
    return table.state
