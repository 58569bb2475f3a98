"""A game's configuration: id, player count, resolved options, action space.  It makes initial states."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import numpy as np
from numpy.typing import NDArray

from ludotheque.core.errors import OptionError, PlayerCountError
from ludotheque.core.gametype import GameType
from ludotheque.core.options import OptionSpec, OptionValue, resolve_options

if TYPE_CHECKING:
    from ludotheque.core.bot import Bot
    from ludotheque.core.events import Event
    from ludotheque.core.state import Actor, State

#: Whether higher or lower totals win, as OpenSpiel's game type declares its utility.
ScoreOrder = Literal["higher", "lower"]

#: The keys every view shares (``State.view``); each game's ``view.TABLE_SCHEMA`` describes its ``"table"``.
_SEAT_LIST = {"type": "array", "items": {"type": "integer", "minimum": 0}}
_COMMON_VIEW_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["game", "players", "options", "seat", "to_act", "terminal", "table"],
    "additionalProperties": False,
    "properties": {
        "game": {"type": "string"},
        "players": {"type": "integer", "minimum": 1},
        "options": {"type": "object", "additionalProperties": {"type": ["string", "integer", "boolean"]}},
        "seat": {"type": ["integer", "null"], "minimum": 0},
        "to_act": _SEAT_LIST,
        "terminal": {"type": "boolean"},
        "returns": {"type": "array", "items": {"type": "number"}},
        "winners": _SEAT_LIST,
    },
}


class Game(ABC):
    """A configured game: ``load_game("geier", players=3, tie_rule="single")``.

    Subclasses set ``game_type`` (the package's declaration, which gives ``id``, ``name`` and the player counts),
    the other class attributes, and implement the abstract methods.  Everything a seat may see is computed by the
    state's ``_view``; everything about presentation lives in ``render``.
    """

    game_type: ClassVar[GameType]
    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    #: how long a considered move takes here compared with most games (a Geier bid is quick, a Rummü turn that
    #: rearranges the table is long): the server's clock profiles are multiplied by it
    clock_pace: ClassVar[float] = 1.0
    #: the field of the view's ``table`` that counts the game's hands or rounds ("hand_number"), where a game has
    #: several: a replay offers to jump from one to the next
    chapter_field: ClassVar[str | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = cls.__dict__.get("game_type")
        if declared is not None:
            cls.id, cls.name = declared.id, declared.name
            cls.min_players, cls.max_players = declared.min_players, declared.max_players

    def __init__(self, *, players: int, **options: Any) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise PlayerCountError(f"{self.id}: players must be an integer, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise PlayerCountError(
                f"{self.id} is played by {self.min_players} to {self.max_players} players, not {players}"
            )
        self.players: int = players
        self.options: dict[str, OptionValue] = resolve_options(self.id, self.option_specs, options)
        self._check_options()

    def _check_options(self) -> None:
        """Hook for rules that tie options to the player count; raise ``OptionError``."""

    @classmethod
    def option_schema(cls) -> list[dict[str, Any]]:
        """Each option with its type, allowed values and default (JSON-serializable)."""
        return [spec.to_json() for spec in cls.option_specs]

    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Size of the fixed player action space: actions are ints in ``range(num_distinct_actions())``."""

    @abstractmethod
    def max_chance_outcomes(self) -> int:
        """Size of the chance action space: chance actions are ints in ``range(max_chance_outcomes())``."""

    def new_initial_state(self) -> State:
        """The state before the first action (often a chance node: the shuffle), on the engine in force
        (``core/native.py``): the compiled one where the game has it, else the reference."""
        from ludotheque.core.native import native_state_class

        compiled = native_state_class(self)
        return compiled(self) if compiled is not None else self.new_reference_state()

    @abstractmethod
    def new_reference_state(self) -> State:
        """The initial state on the game's Python engine, the reference every other engine is held to."""

    @abstractmethod
    def heuristic_bot(self) -> Bot:
        """The game's hand-written baseline bot; every game provides one."""

    def heuristic_bot_with(self, settings: Mapping[str, Any]) -> Bot:
        """The heuristic bot tuned by ``settings``, its own knobs (a Geier bid's spread, say).  Levels and bot
        specs pass them through without knowing them; a game whose heuristic has none refuses any."""
        if settings:
            raise OptionError(f"the {self.id} heuristic takes no settings (got {', '.join(sorted(settings))})")
        return self.heuristic_bot()

    def score_order(self) -> ScoreOrder:
        """Whether higher or lower totals in ``returns()`` are better (``"lower"`` for MICE, say).  Tools that turn
        points into rewards or ranks (the arena, the RL adapters, the search) read this, never guess it.  A game
        whose declaration says ``"by_options"`` overrides it."""
        declared = self.game_type.score_order
        if declared == "by_options":
            raise NotImplementedError(f"{self.id} declares a score order chosen by its options: override score_order")
        return declared

    def score_sign(self) -> float:
        """+1.0 when higher totals are better, -1.0 when lower are: ``points * score_sign()`` is always "more is
        better"."""
        return 1.0 if self.score_order() == "higher" else -1.0

    def teams(self) -> list[int]:
        """The team of each seat (seats of one team win and lose together); by default every seat plays alone.

        Fixed partnerships override this, so that tools seat one bot per team (the arena) and name partners."""
        return list(range(self.players))

    # The game's parts, declared by its ``GameType``: ``view`` (``observation_shape(players)``, ``encode(view)``),
    # ``display`` (``render(view)``) and the others, so these need no per-game code.

    def observation_tensor_shape(self) -> tuple[int, ...]:
        """Shape of ``encode_view``'s array for this configuration (fixed, whatever the state)."""
        shape: tuple[int, ...] = self.game_type.part("view").observation_shape(self.players)
        return shape

    def encode_view(self, view: dict[str, Any]) -> NDArray[np.float32]:
        """A seat's view as a fixed-size float32 array.  It reads only the view, so it cannot leak."""
        tensor: NDArray[np.float32] = self.game_type.part("view").encode(view)
        return tensor

    def view_schema(self) -> dict[str, Any]:
        """A JSON Schema of ``state.view(seat)`` for this game (the common keys and the game's ``"table"``)."""
        schema = dict(_COMMON_VIEW_SCHEMA)
        schema["properties"] = {**_COMMON_VIEW_SCHEMA["properties"], "table": self.game_type.part("view").TABLE_SCHEMA}
        schema["title"] = f"{self.id} view"
        return schema

    def move_schema(self) -> dict[str, Any]:
        """A JSON Schema of ``state.action_to_json(...)``: the structured form of a move (chance's included)."""
        schema: dict[str, Any] = self.game_type.part("notation").MOVE_SCHEMA
        return schema

    def describe(self, before: State, actor: Actor, action: int, after: State) -> list[Event]:
        """What the table showed of ``action`` by ``actor``: the game's ``events.describe``.  ``before`` is the
        state the action was applied to (unchanged), ``after`` the state it gave."""
        # the events read the reference's fields; a compiled state answers through its reference shadow
        events: list[Event] = self.game_type.part("events").describe(
            before.reference_state(), actor, action, after.reference_state()
        )
        return events

    def seat_help(self, state: State, seat: int) -> dict[str, Any] | None:
        """What a page may tell the person acting at ``seat`` about their own moves, beyond the legal ones (the
        server's frame carries it as ``help``; bots never ask, so it may search): None for most games.  It reads
        only what the seat's own view holds."""
        return None

    def render(self, view: dict[str, Any]) -> Any:
        """A Rich renderable showing a view to a human (the game's ``display.render``)."""
        return self.game_type.part("display").render(view)

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"load_game({self.id!r}, players={self.players}{opts})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and other.id == self.id
            and other.players == self.players
            and other.options == self.options
        )

    def __hash__(self) -> int:
        return hash((self.id, self.players, tuple(sorted(self.options.items()))))
