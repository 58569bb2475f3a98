"""MICE's compiled engine (``cpp/mice.hpp``), the game's ``native`` part: the state that runs it, with the view and
the notation answered without the reference shadow (``core/native.py``).

Nothing is hidden in MICE (mice-1) and dice not yet rolled are chance: a determinization is the state itself, as
game.py's ``resample`` has it, so the history is kept as it is and no random number is drawn.
"""

from __future__ import annotations

import importlib
import random
from typing import TYPE_CHECKING, Any

from ludotheque.core import CHANCE, Actor, NotationError
from ludotheque.core.native import NativeState
from ludotheque.games.mice import notation, rules

if TYPE_CHECKING:
    from ludotheque.core import Game

_native: Any  # the extension (untyped), or None
try:  # imported by name: the extension has no stubs, and a second typed import of it would confuse the checker
    _native = importlib.import_module("ludotheque._native")
except ImportError:  # built without the native core (LUDOTHEQUE_NATIVE=off, or no compiler)
    _native = None


def state_class() -> type[NativeMiceState] | None:
    """The compiled state class, or ``None`` when the extension is not built."""
    return NativeMiceState if _native is not None and "mice" in _native.games else None


def _configuration(game: Game) -> tuple[int, str]:
    return game.players, str(game.options["level"])


class NativeMiceState(NativeState):
    @classmethod
    def make_compiled(cls, game: Game) -> Any:
        return _native.MiceState(*_configuration(game))

    def _view(self, player: int | None) -> dict[str, Any]:
        table: dict[str, Any] = self._native.table_view(player)
        return table

    # -- notation (game.py's _action_to_string, _action_to_json, string_to_action) ----------------------------

    def _next_colour(self) -> str:
        return "R" if self._native.next_slot() < 2 else "Y"

    def _action_to_string(self, action: int, actor: Actor) -> str:
        if actor == CHANCE:
            if not 0 <= action < notation.NUM_CHANCE:
                raise ValueError(f"mice: {action} is not a die face (0..5)")
            return notation.format_chance(action, self._next_colour())
        return notation.format_action(action, self._native.cage_top(int(actor)))

    def _action_to_json(self, action: int, actor: Actor) -> dict[str, Any]:
        if actor == CHANCE:
            return notation.to_json(action, die=rules.SLOT_NAMES[self._native.next_slot()])
        return notation.to_json(action, cage_top=self._native.cage_top(int(actor)))

    def string_to_action(self, text: str, player: Actor | None = None) -> int:
        """Read directly and checked by the compiled state; anything else goes to the reference, which raises its
        own error (naming the legal moves)."""
        actor = self._notation_actor(player)
        compiled = self._native
        try:
            if actor == CHANCE:
                colour, action = notation.parse_chance(text)
                if compiled.is_chance_node() and colour == self._next_colour():
                    return action
            else:
                action, card = notation.parse_action(text)
                seat = int(actor)
                if compiled.is_legal(seat, action) and (card is None or card == compiled.cage_top(seat)):
                    return action
        except NotationError:
            pass
        return self.reference_state().string_to_action(text, player)

    # -- determinization: everything is public ----------------------------------------------------------------

    def resample(self, player: int, rng: random.Random) -> NativeMiceState:
        self.check_seat(player)
        twin = self.clone()
        assert isinstance(twin, NativeMiceState)
        return twin

    def _resampled_history(self, player: int, resampled: Any) -> list[tuple[Actor, int]]:
        return list(self._history)


def simulate(game: Game, n: int, eps: list[float], seed: int, max_steps: int) -> tuple[Any, Any]:
    """``n`` whole games played compiled: each seat's returns and each game's seat moves (``ludotheque.native``)."""
    returns, lengths = _native.mice_simulate(*_configuration(game), n, eps, seed, max_steps)
    return returns, lengths
