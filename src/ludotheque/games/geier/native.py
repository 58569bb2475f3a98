"""Geier's compiled engine (``cpp/geier.hpp``), the game's ``native`` part: the state that runs it, with the
view and the notation answered without the reference shadow (``core/native.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ludotheque.core import CHANCE, Actor
from ludotheque.core.native import NativeState
from ludotheque.games.geier import notation

if TYPE_CHECKING:
    from ludotheque.core import Game

try:
    import ludotheque._native as _native
except ImportError:  # built without the native core (LUDOTHEQUE_NATIVE=off, or no compiler)
    _native = None


def state_class() -> type[NativeGeierState] | None:
    """The compiled state class, or ``None`` when the extension is not built."""
    return NativeGeierState if _native is not None and "geier" in _native.games else None


class NativeGeierState(NativeState):
    @classmethod
    def make_compiled(cls, game: Game) -> Any:
        return _native.GeierState(game.players, str(game.options["tie_rule"]), str(game.options["final_tie"]))

    def _view(self, player: int | None) -> dict[str, Any]:
        table: dict[str, Any] = self._native.table_view(player)
        return table

    def _action_to_string(self, action: int, actor: Actor) -> str:
        return notation.format_action(action, actor == CHANCE)

    def _action_to_json(self, action: int, actor: Actor) -> dict[str, Any]:
        return notation.to_json(action, actor == CHANCE)

    def _resampled_history(self, player: int, resampled: Any) -> list[tuple[Actor, int]]:
        """This round's face-down cards are the only hidden actions: they follow the round's point card, the last
        chance action (a round whose card is not turned yet has none)."""
        history = self._history
        if resampled.is_chance_node() or resampled.is_terminal():
            return list(history)  # between rounds: nothing face down
        start = len(history)
        while start > 0 and history[start - 1][0] != CHANCE:
            start -= 1
        pending = resampled.pending()
        return history[:start] + [
            (actor, action if actor == player else pending[int(actor)] - 1) for actor, action in history[start:]
        ]

    def _compiled_with(self, heuristic_settings: Mapping[str, Any]) -> Any:
        unknown = set(heuristic_settings) - {"spread"}
        if unknown:
            return super()._compiled_with(dict(heuristic_settings))
        spread = float(heuristic_settings.get("spread", 0.0))
        return self._native.with_spread(spread) if spread else self._native


def simulate(game: Game, n: int, eps: list[float], seed: int, max_steps: int) -> tuple[Any, Any]:
    """``n`` whole games played compiled: each seat's returns and each game's seat moves (``ludotheque.native``)."""
    options = game.options
    returns, lengths = _native.geier_simulate(
        game.players, str(options["tie_rule"]), str(options["final_tie"]), 0.0, n, eps, seed, max_steps
    )
    return returns, lengths
