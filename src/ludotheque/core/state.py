"""The state protocol every game implements.

A ``State`` is one position of a configured ``Game``.  The public methods validate their input and then call
the game's private hooks (``_apply`` and friends), which may assume they are given a legal action.  Validation
happens before any mutation, so an action that raises leaves the state exactly as it was.

Actors are seat numbers ``0..n-1`` or ``CHANCE``.  Randomness only ever enters as chance actions (DECISIONS
all-1), so ``history()`` determines the state and a record replays it exactly.
"""

from __future__ import annotations

import copy
import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Literal

import numpy as np
from numpy.typing import NDArray

from ludotheque.core.errors import (
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    SeatError,
)

if TYPE_CHECKING:
    from ludotheque.core.game import Game

CHANCE: Final = "chance"
Actor = int | Literal["chance"]
RECORD_FORMAT: Final = "ludotheque-record/1"


class State(ABC):
    """One position of a game.  Subclasses implement the hooks at the bottom of this class."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._history: list[tuple[Actor, int]] = []

    # ----------------------------------------------------------------------------------------------
    # Public protocol
    # ----------------------------------------------------------------------------------------------

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game (or match) is over."""

    @abstractmethod
    def is_chance_node(self) -> bool:
        """True when the next action is chance's (a shuffle, a deal, a die)."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(action, probability)`` pairs at a chance node; ``[]`` elsewhere."""
        if self.is_terminal() or not self.is_chance_node():
            return []
        return self._chance_outcomes()

    def current_players(self) -> list[int]:
        """Seats that must act now: several at a simultaneous decision, none at a chance node or the end."""
        if self.is_terminal() or self.is_chance_node():
            return []
        return self._current_players()

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Legal actions, sorted.  At a chance node, the chance outcomes' actions.

        ``player`` may be omitted when exactly one seat acts; a seat that does not act now has none.
        """
        if self.is_terminal():
            return []
        if self.is_chance_node():
            if player is not None:
                self.check_seat(player)
                return []
            return [action for action, _ in self._chance_outcomes()]
        if player is None:
            player = self._sole_actor()
        else:
            self.check_seat(player)
            if not self._is_acting(player):
                return []
        return self._legal_actions(player)

    def apply_action(self, action: int, player: Actor | None = None) -> None:
        """Apply a legal action for ``player`` (or for chance at a chance node).

        Raises ``GameOverError``, ``NotYourTurnError`` or ``IllegalActionError``; the state is then unchanged.
        """
        if type(action) is not int:
            action = self._as_action(action)
        if self.is_terminal():
            raise GameOverError(f"{self.game.id}: the game is over; no action can be applied")
        if self.is_chance_node():
            if player is not None and player != CHANCE:
                raise NotYourTurnError(f"{self.game.id}: it is chance's turn, not seat {player}'s")
            if not self._is_chance_outcome(action):
                raise IllegalActionError(f"{self.game.id}: {action} is not a possible chance outcome here")
            self._apply(action, None)
            self._history.append((CHANCE, action))
            return
        if player is None:
            player = self._sole_actor()
        elif player == CHANCE:
            raise NotYourTurnError(f"{self.game.id}: this is not a chance node")
        else:
            if type(player) is not int or not 0 <= player < self.game.players:
                self.check_seat(player)
            if not self._is_acting(player):
                acting = ", ".join(str(p) for p in self._current_players())
                raise NotYourTurnError(f"{self.game.id}: seat {player} cannot act now (to act: {acting})")
        if not self._is_legal(action, player):
            raise IllegalActionError(self._illegal_message(action, player))
        self._apply(action, player)
        self._history.append((player, action))

    def apply_logged(self, player: Actor, action: int) -> None:
        """Apply an action of a log this program wrote and validated when it was first applied (a server's own
        database), without validating it again: restoring a long match costs only the game's own work.  Anything
        read from outside goes through ``apply_action``."""
        self._apply(action, None if player == CHANCE else player)
        self._history.append((player, action))

    def action_to_string(self, action: int, player: Actor | None = None) -> str:
        """The game's notation for ``action``: ``player`` defaults to whoever acts now (chance included)."""
        return self._action_to_string(action, self._notation_actor(player))

    def action_to_json(self, action: int, player: Actor | None = None) -> dict[str, Any]:
        """The structured form of ``action`` (``{"type": "play", "card": "R7"}``): what a user interface reads
        instead of parsing notation.  ``player`` defaults to whoever acts now, as for ``action_to_string``."""
        return self._action_to_json(action, self._notation_actor(player))

    def string_to_action(self, text: str, player: Actor | None = None) -> int:
        """Parse notation into the legal action it names here; ``NotationError`` if it names none."""
        actor = self._notation_actor(player)
        if not isinstance(text, str):
            raise NotationError(f"a move is written as text, not {text!r}")
        if actor == CHANCE and (self.is_terminal() or not self.is_chance_node()):
            raise NotationError(f"{self.game.id}: chance does not act here, so {text!r} is not a chance outcome")
        candidates = self.legal_actions() if actor == CHANCE else self.legal_actions(actor)
        wanted = text.strip()
        for action in candidates:
            if self._action_to_string(action, actor) == wanted:
                return action
        who = "chance" if actor == CHANCE else f"seat {actor}"
        if not candidates:
            raise NotationError(f"{self.game.id}: {who} has no move here, so {text!r} is not legal")
        shown = ", ".join(self._action_to_string(a, actor) for a in candidates[:40])
        more = ", ..." if len(candidates) > 40 else ""
        raise NotationError(f"{self.game.id}: {text!r} is not a legal move for {who} here (legal: {shown}{more})")

    @abstractmethod
    def returns(self) -> list[float]:
        """Each seat's points as the rules count them (final once terminal)."""

    @abstractmethod
    def winners(self) -> list[int]:
        """The winning seats: several for a shared win, ``[]`` for no winner or an unfinished game."""

    def deals_completed(self) -> int:
        """Deals (hands) finished so far.  A one-deal game has completed its deal when it is over; a match of
        several hands overrides this, so that benchmarks can count deals per second."""
        return 1 if self.is_terminal() else 0

    def view(self, player: int | None) -> dict[str, Any]:
        """Everything ``player`` may see (DECISIONS all-3), as JSON-serializable data.

        ``None`` is a spectator.  The common keys come first; the game's own part is under ``"table"``.
        """
        game = self.game
        # a search asks for a view at every node: the usual seat is checked by two comparisons, anything else
        # (a bool, a float, out of range) by ``check_seat``, which raises
        if player is not None and (type(player) is not int or not 0 <= player < game.players):
            self.check_seat(player)
        terminal = self.is_terminal()
        data: dict[str, Any] = {
            "game": game.id,
            "players": game.players,
            "options": game.options.copy(),
            "seat": player,
            "to_act": self.current_players(),
            "terminal": terminal,
            "table": self._view(player),
        }
        if terminal:
            data["returns"] = self.returns()
            data["winners"] = self.winners()
        return data

    def observation_tensor(self, player: int) -> NDArray[np.float32]:
        """``view(player)`` encoded as a fixed-size array (``game.observation_tensor_shape()``)."""
        return self.game.encode_view(self.view(player))

    @abstractmethod
    def resample(self, player: int, rng: random.Random) -> State:
        """A new state with the same ``view(player)``; hidden parts drawn at random among those consistent
        with everything ``player`` has seen.  Bots search over these, never over the true state."""

    def clone(self) -> State:
        """An independent copy (the game object is shared: it is immutable)."""
        twin = copy.copy(self)
        for key, value in self.__dict__.items():
            if key != "game":
                setattr(twin, key, copy.deepcopy(value))
        return twin

    def reference_state(self) -> State:
        """This position on the game's Python engine: the state itself, unless it runs compiled
        (``core/native.py``)."""
        return self

    def history(self) -> list[tuple[Actor, int]]:
        """Every action so far as ``(actor, action)``, actor a seat or ``"chance"``."""
        return list(self._history)

    def to_record(self) -> dict[str, Any]:
        """A JSON record that ``ludotheque.replay`` turns back into this state."""
        replayed = self.game.new_reference_state()
        moves: list[dict[str, Any]] = []
        for actor, action in self._history:
            moves.append({"by": actor, "move": replayed.action_to_string(action, actor)})
            replayed.apply_action(action, None if actor == CHANCE else actor)
        return {
            "format": RECORD_FORMAT,
            "game": self.game.id,
            "players": self.game.players,
            "options": dict(self.game.options),
            "actions": moves,
        }

    def __str__(self) -> str:
        return f"<{self.game.id} state after {len(self._history)} actions>"

    # ----------------------------------------------------------------------------------------------
    # Hooks for games
    # ----------------------------------------------------------------------------------------------

    @abstractmethod
    def _current_players(self) -> list[int]:
        """Acting seats at a decision node (neither chance nor terminal)."""

    @abstractmethod
    def _legal_actions(self, player: int) -> list[int]:
        """Sorted legal actions of an acting seat."""

    @abstractmethod
    def _chance_outcomes(self) -> list[tuple[int, float]]:
        """Outcomes at a chance node."""

    @abstractmethod
    def _apply(self, action: int, player: int | None) -> None:
        """Apply a validated action (``player`` is ``None`` for chance)."""

    @abstractmethod
    def _action_to_string(self, action: int, actor: Actor) -> str:
        """Notation of an action by ``actor`` (a seat or ``CHANCE``)."""

    @abstractmethod
    def _action_to_json(self, action: int, actor: Actor) -> dict[str, Any]:
        """Structured form of an action by ``actor``, a JSON object with a ``"type"`` (``notation.MOVE_SCHEMA``)."""

    @abstractmethod
    def _view(self, player: int | None) -> dict[str, Any]:
        """The game's part of a view: the one place where hidden information is filtered for a seat."""

    def _chance_cumulative(self) -> tuple[Sequence[int], Sequence[float]] | None:
        """At a chance node, its actions and their cumulative probabilities, when the game keeps them ready
        (memoised); ``sample_chance`` then draws without rebuilding them.  ``None`` (the default, and anywhere
        but a chance node): ``sample_chance`` builds them from ``chance_outcomes()``."""
        return None

    def _is_acting(self, player: int) -> bool:
        """Whether a seat acts now (at a decision node); override when cheaper than listing the actors."""
        return player in self._current_players()

    def _is_chance_outcome(self, action: int) -> bool:
        """Whether ``action`` is a possible outcome at this chance node; override when cheaper."""
        return any(action == outcome for outcome, _ in self._chance_outcomes())

    def _is_legal(self, action: int, player: int) -> bool:
        """Override when legality can be checked faster than by listing every legal action."""
        return action in self._legal_actions(player)

    def _illegal_message(self, action: int, player: int) -> str:
        try:
            text = repr(self._action_to_string(action, player))
        except (ValueError, IndexError, KeyError):
            text = str(action)
        return f"{self.game.id}: {text} (action {action}) is not legal for seat {player} here"

    # ----------------------------------------------------------------------------------------------
    # Helpers
    # ----------------------------------------------------------------------------------------------

    @staticmethod
    def _as_action(action: object) -> int:
        """Accept any integer type (NumPy's included, as RL code passes them), never a bool or a float."""
        if isinstance(action, bool):
            raise IllegalActionError(f"an action is an integer, not {action!r}")
        try:
            return operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            raise IllegalActionError(f"an action is an integer, not {action!r}") from None

    def check_seat(self, player: object) -> None:
        """Raise ``SeatError`` unless ``player`` is a seat of this game (an int in ``0..players-1``)."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.game.players:
            raise SeatError(f"{self.game.id}: seat must be an integer in 0..{self.game.players - 1}, not {player!r}")

    def _sole_actor(self) -> int:
        acting = self._current_players()
        if len(acting) != 1:
            seats = ", ".join(str(p) for p in acting)
            raise NotYourTurnError(f"{self.game.id}: seats {seats} act together here; name the player")
        return acting[0]

    def _notation_actor(self, player: Actor | None) -> Actor:
        if player == CHANCE:
            return CHANCE
        if player is None:
            if self.is_chance_node() and not self.is_terminal():
                return CHANCE
            acting = self.current_players()
            if not acting:
                raise NotYourTurnError(f"{self.game.id}: nobody acts now; name the player")
            return acting[0]
        self.check_seat(player)
        return player
