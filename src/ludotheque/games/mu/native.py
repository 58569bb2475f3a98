"""Mü's compiled engine (``cpp/mu.hpp``), the game's ``native`` part: the state that runs it, with the view, the
notation and the chance probabilities answered without the reference shadow (``core/native.py``).

Chance is not uniform here (a kind is dealt with probability copies left / cards left, DECISIONS all-1): the
compiled state gives the reference's own probabilities, and their running sums as ``sample_chance`` adds them, so
that a seeded draw deals the same card on both engines.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ludotheque.core import CHANCE, Actor
from ludotheque.core.native import WeightedChanceNativeState
from ludotheque.games.mu import notation

if TYPE_CHECKING:
    from ludotheque.core import Game

_native: Any  # the extension (untyped), or None
try:  # imported by name: the extension has no stubs, and a second typed import of it would confuse the checker
    _native = importlib.import_module("ludotheque._native")
except ImportError:  # built without the native core (LUDOTHEQUE_NATIVE=off, or no compiler)
    _native = None

_AUCTION = 2  # the compiled phase numbers follow view.PHASE_ORDER


def state_class() -> type[NativeMuState] | None:
    """The compiled state class, or ``None`` when the extension is not built."""
    return NativeMuState if _native is not None and "mu" in _native.games else None


def _configuration(game: Game) -> tuple[int, int]:
    return game.players, int(game.options["target"])


class NativeMuState(WeightedChanceNativeState):
    @classmethod
    def make_compiled(cls, game: Game) -> Any:
        return _native.MuState(*_configuration(game))


    # -- views, notation -------------------------------------------------------------------------------------

    def _view(self, player: int | None) -> dict[str, Any]:
        table: dict[str, Any] = self._native.table_view(player)
        return table

    def _action_to_string(self, action: int, actor: Actor) -> str:
        return notation.format_chance(action) if actor == CHANCE else notation.format_action(action)

    def _action_to_json(self, action: int, actor: Actor) -> dict[str, Any]:
        if actor == CHANCE:
            return notation.to_json(action, True, receiver=self._native.next_receiver())
        return notation.to_json(action, False, auction=self._native.phase() == _AUCTION)

    def deals_completed(self) -> int:
        return int(self._native.hands_done())

    # -- determinization -------------------------------------------------------------------------------------

    def _resampled_history(self, player: int, resampled: Any) -> list[tuple[Actor, int]]:
        """Only this hand's cards dealt to the other seats are hidden: their deal actions are rewritten with the
        determinization's deal (which keeps ``player``'s own), as game.py's ``resample`` does."""
        history = list(self._history)
        steps = resampled.hand_steps()
        start = len(history) - steps + (2 if self.game.players == 3 and steps else 0)  # after the colours removed
        for index, kind in enumerate(resampled.deal_kinds()):
            history[start + index] = (CHANCE, notation.DEAL + kind)
        return history


def simulate(game: Game, n: int, eps: list[float], seed: int, max_steps: int) -> tuple[Any, Any]:
    """``n`` whole games played compiled: each seat's returns and each game's seat moves (``ludotheque.native``)."""
    returns, lengths = _native.mu_simulate(*_configuration(game), n, eps, seed, max_steps)
    return returns, lengths
