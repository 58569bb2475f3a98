"""The engine a game runs on: its compiled state where built, its Python state (the reference) otherwise.

``LUDOTHEQUE_ENGINE`` chooses, read once: ``auto`` (the default: native where the game declares a ``native`` part
and the extension holds it), ``native`` (the same, but a game declaring a native part that is not built is an
error) or ``python`` (every game on its Python engine: the server, the bots, the adapters and the CLI alike).
``use_engine`` changes it in a running program (tests compare the two).

A ``NativeState`` answers the protocol from its compiled state and keeps the history, as every state does.  What
the compiled side does not hold (a game's events, notation, records) is answered by a **reference shadow**: the
game's Python state replayed from the history, kept up to date as actions come, made only when first asked for.
So records, logs, views and events are the reference's own, whichever engine played.
"""

from __future__ import annotations

import functools
import itertools
import os
import random
from abc import abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from ludotheque.core.errors import LudothequeError
from ludotheque.core.state import CHANCE, Actor, State

if TYPE_CHECKING:
    from ludotheque.core.game import Game

Engine = Literal["auto", "native", "python"]
ENGINES: tuple[Engine, ...] = ("auto", "native", "python")

#: the compiled side's actor for chance
NATIVE_CHANCE = -1


class EngineError(LudothequeError):
    """The engine asked for cannot run this game."""


def _read_engine(value: str) -> Engine:
    if value not in ENGINES:
        raise EngineError(f"LUDOTHEQUE_ENGINE must be one of {', '.join(ENGINES)}, not {value!r}")
    return value


_engine: Engine = _read_engine(os.environ.get("LUDOTHEQUE_ENGINE", "auto"))


def engine() -> Engine:
    """The engine setting in force."""
    return _engine


def use_engine(name: str) -> Engine:
    """Switch engines for the states made from now on; returns the previous setting."""
    global _engine
    previous = _engine
    _engine = _read_engine(name)
    return previous


def native_state_class(game: Game) -> type[NativeState] | None:
    """The compiled state class ``game`` runs on under the current setting, or ``None`` for its Python one."""
    declared = game.game_type
    if _engine == "python" or "native" not in declared.optional_parts:
        return None
    part = declared.part("native")
    cls: type[NativeState] | None = part.state_class()
    if cls is None and _engine == "native":
        raise EngineError(f"{declared.id}: LUDOTHEQUE_ENGINE=native, but its native engine is not built")
    return cls


@functools.cache
def _uniform_cumulative(count: int) -> tuple[float, ...]:
    """The cumulative probabilities of ``count`` equally likely outcomes, summed as ``sample_chance`` sums them."""
    return tuple(itertools.accumulate([1.0 / count] * count))


class NativeState(State):
    """A state whose rules run compiled.  A game's native part subclasses it with ``compiled`` (the extension's
    class), ``make_compiled`` (a compiled initial state for a game) and, where the view is compiled,
    ``_view``."""

    compiled: ClassVar[type[Any]]

    def __init__(self, game: Game, compiled: Any = None) -> None:
        super().__init__(game)
        self._adopt(compiled if compiled is not None else self.make_compiled(game))
        self._shadow: State | None = None

    def _adopt(self, compiled: Any) -> None:
        """Hold ``compiled``; the questions that need no checking are its own methods, bound on this instance, so
        that a researcher's loop calls the compiled code without a Python frame in between."""
        self._native = compiled
        self.is_terminal = compiled.is_terminal  # type: ignore[method-assign]
        self.is_chance_node = compiled.is_chance_node  # type: ignore[method-assign]
        self.current_players = compiled.current_players  # type: ignore[method-assign]
        self.returns = compiled.returns  # type: ignore[method-assign]
        self.winners = compiled.winners  # type: ignore[method-assign]

    @classmethod
    @abstractmethod
    def make_compiled(cls, game: Game) -> Any:
        """The compiled initial state of ``game``'s configuration."""

    # -- the protocol, answered by the compiled state ------------------------------------------------------

    def is_terminal(self) -> bool:
        return bool(self._native.is_terminal())

    def is_chance_node(self) -> bool:
        return bool(self._native.is_chance_node())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        actions = self._native.chance_actions()
        return [(action, 1.0 / len(actions)) for action in actions]

    def _chance_cumulative(self) -> tuple[Sequence[int], Sequence[float]] | None:
        # compiled chance is uniform: ``sample_chance`` draws from a memoised table, the generic path's sums
        if not self._native.is_chance_node():
            return None
        actions: list[int] = self._native.chance_actions()
        return actions, _uniform_cumulative(len(actions))

    def current_players(self) -> list[int]:
        players: list[int] = self._native.current_players()
        return players

    def legal_actions(self, player: int | None = None) -> list[int]:
        if type(player) is int:
            try:  # the compiled side refuses a seat out of range: the reference path then names the error
                actions: list[int] = self._native.legal_actions(player)
                return actions
            except ValueError:
                pass
        return super().legal_actions(player)

    def apply_action(self, action: int, player: Actor | None = None) -> None:
        # the usual cases in one compiled call; anything refused goes to the reference path, which raises the
        # protocol's own error (or applies an action given without its seat)
        if type(action) is int:
            if type(player) is int and player >= 0 and self._native.play(player, action):
                self._history.append((player, action))
                return
            chance = player is None or player == CHANCE
            if chance and self._native.is_chance_node() and self._native.play(NATIVE_CHANCE, action):
                self._history.append((CHANCE, action))
                return
        super().apply_action(action, player)

    def returns(self) -> list[float]:
        points: list[float] = self._native.returns()
        return points

    def winners(self) -> list[int]:
        seats: list[int] = self._native.winners()
        return seats

    def __reduce__(self) -> tuple[Any, ...]:
        # the compiled state does not pickle: a pickle holds the game and the history, replayed on load
        return (_replayed, (type(self), self.game, list(self._history)))

    def clone(self) -> NativeState:
        twin = type(self).__new__(type(self))
        twin.game = self.game
        twin._history = list(self._history)
        twin._adopt(self._native.clone())
        twin._shadow = self._shadow.clone() if self._shadow is not None else None
        return twin

    def resample(self, player: int, rng: random.Random) -> NativeState:
        self.check_seat(player)
        twin = type(self).__new__(type(self))
        twin.game = self.game
        twin._adopt(self._native.resample(player, rng.getrandbits(64)))
        twin._history = self._resampled_history(player, twin._native)
        twin._shadow = None
        return twin

    @abstractmethod
    def _resampled_history(self, player: int, resampled: Any) -> list[tuple[Actor, int]]:
        """The history of ``resampled`` (a determinization of this state for ``player``): this one's, with the
        hidden actions the determinization redrew."""

    def native_search(self, seat: int, settings: dict[str, Any]) -> tuple[int, list[int], list[int], int, int]:
        """The compiled ISMCTS from this state for ``seat`` (it determinizes for ``seat`` at every iteration and
        never reads the hidden parts otherwise): ``(chosen, actions, visits, iterations, nodes)``."""
        tuned = settings.pop("heuristic_settings", {}) or {}
        compiled = self._compiled_with(tuned)
        pool: list[NativeState] = settings.pop("pool", None) or []
        if pool:  # weighted determinizations (bots/inference.py), drawn by weight instead of resampled
            settings["pool"] = [state._compiled_with(tuned) for state in pool]
        result: tuple[int, list[int], list[int], int, int] = compiled.search(seat, **settings)
        return result

    def heuristic_action(self, seat: int, rng: random.Random, heuristic_settings: dict[str, Any]) -> int:
        """The compiled heuristic's move for ``seat`` here (its random share off), as a model of that seat reads it
        from the seat's own view: bots/inference.py weighs determinizations by it without building views."""
        action: int = self._compiled_with(heuristic_settings).heuristic(seat, rng.getrandbits(64))
        return action

    def _compiled_with(self, heuristic_settings: dict[str, Any]) -> Any:
        """The compiled state with the heuristic tuned by ``heuristic_settings``; a game whose compiled heuristic
        takes settings overrides this."""
        if heuristic_settings:
            raise EngineError(f"{self.game.id}: the compiled heuristic takes no settings")
        return self._native

    # -- what the reference answers --------------------------------------------------------------------------

    def reference_state(self) -> State:
        """The game's Python state at this position (the shadow, brought up to date)."""
        shadow = self._shadow
        if shadow is None:
            shadow = self._shadow = self.game.new_reference_state()
        done = len(shadow._history)
        for actor, action in self._history[done:]:
            shadow.apply_logged(actor, action)
        return shadow

    def apply_logged(self, player: Actor, action: int) -> None:
        if not self._native.play(NATIVE_CHANCE if player == CHANCE else player, action):
            raise LudothequeError(f"{self.game.id}: the logged action {action} of {player} is not legal here")
        self._history.append((player, action))

    def _current_players(self) -> list[int]:
        return self.current_players()

    def _legal_actions(self, player: int) -> list[int]:
        actions: list[int] = self._native.legal_actions(player)
        return actions

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return self.chance_outcomes()

    def _is_acting(self, player: int) -> bool:
        return player in self._native.current_players()

    def _is_legal(self, action: int, player: int) -> bool:
        return bool(self._native.is_legal(player, action))

    def _is_chance_outcome(self, action: int) -> bool:
        return bool(self._native.is_chance_outcome(action))

    def _apply(self, action: int, player: int | None) -> None:
        if not self._native.play(NATIVE_CHANCE if player is None else player, action):
            raise LudothequeError(f"{self.game.id}: the compiled engine refused a validated action {action}")

    def _action_to_string(self, action: int, actor: Actor) -> str:
        return self.reference_state()._action_to_string(action, actor)

    def _action_to_json(self, action: int, actor: Actor) -> dict[str, Any]:
        return self.reference_state()._action_to_json(action, actor)

    def string_to_action(self, text: str, player: Actor | None = None) -> int:
        return self.reference_state().string_to_action(text, player)

    def deals_completed(self) -> int:
        if not self.game.game_type.match_of_hands:
            return super().deals_completed()
        return self.reference_state().deals_completed()

    def _view(self, player: int | None) -> dict[str, Any]:
        return self.reference_state()._view(player)


class WeightedChanceNativeState(NativeState):
    """A compiled state whose chance is not uniform (a card dealt with probability copies left / cards left): the
    compiled engine gives the reference's probabilities and their running sums as the reference adds them, so a
    seeded ``sample_chance`` draws the same outcome on both engines."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes: list[tuple[int, float]] = self._native.chance_outcomes()
        return outcomes

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return self.chance_outcomes()

    def _chance_cumulative(self) -> tuple[Sequence[int], Sequence[float]] | None:
        ready: tuple[Sequence[int], Sequence[float]] | None = self._native.chance_cumulative()
        return ready


def _replayed(cls: type[NativeState], game: Game, history: list[tuple[Actor, int]]) -> NativeState:
    state = cls(game)
    for actor, action in history:
        state.apply_logged(actor, action)
    return state
