"""Calcory's compiled engine (``cpp/calcory.hpp``), the game's ``native`` part: the state that runs it, with the
view, the notation and the weighted deal answered without the reference shadow (``core/native.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ludotheque.core import CHANCE, Actor, NotationError
from ludotheque.core.native import NativeState
from ludotheque.games.calcory import notation, rules

if TYPE_CHECKING:
    from ludotheque.core import Game

try:
    import ludotheque._native as _native
except ImportError:  # built without the native core (LUDOTHEQUE_NATIVE=off, or no compiler)
    _native = None


def state_class() -> type[NativeCalcoryState] | None:
    """The compiled state class, or ``None`` when the extension is not built."""
    return NativeCalcoryState if _native is not None and "calcory" in _native.games else None


class NativeCalcoryState(NativeState):
    @classmethod
    def make_compiled(cls, game: Game) -> Any:
        return _native.CalcoryState(game.players)

    def _view(self, player: int | None) -> dict[str, Any]:
        table: dict[str, Any] = self._native.table_view(player)
        return table

    # -- the deal: value v with probability (v left) / (cards left), as game.py (not uniform) -----------------

    def chance_outcomes(self) -> list[tuple[int, float]]:
        compiled = self._native
        if not compiled.is_chance_node():
            return []
        left = rules.CELLS - compiled.dealt()
        return [(v, count / left) for v, count in enumerate(compiled.to_deal()) if count]

    def _chance_cumulative(self) -> tuple[Sequence[int], Sequence[float]] | None:
        # the very sums game.py's ``_chance_cumulative`` gives (seeded deals are the same on both engines), in
        # one compiled call
        ready: tuple[list[int], list[float]] | None = self._native.chance_cumulative()
        return ready

    # -- notation ---------------------------------------------------------------------------------------------

    def _action_to_string(self, action: int, actor: Actor) -> str:
        if actor == CHANCE:
            return notation.format_deal(self._native.dealt(), action)
        return notation.format_action(action)

    def _action_to_json(self, action: int, actor: Actor) -> dict[str, Any]:
        if actor == CHANCE:
            return notation.deal_to_json(self._native.dealt(), action)
        return notation.to_json(action)

    def string_to_action(self, text: str, player: Actor | None = None) -> int:
        """Notation parsed and checked by the compiled engine; a refusal is the reference's own error."""
        actor = self._notation_actor(player)
        compiled = self._native
        if actor == CHANCE and not compiled.is_chance_node():
            return super().string_to_action(text, player)  # the reference names the error before parsing
        try:
            if actor == CHANCE:
                action = notation.parse_deal(text, compiled.dealt())
                legal = compiled.is_chance_outcome(action)
            else:
                action = notation.parse_action(text)
                legal = compiled.is_legal(actor, action)
        except NotationError:
            legal = False
        if not legal:
            return super().string_to_action(text, player)  # the reference raises, listing the legal moves
        return action

    # -- determinization ------------------------------------------------------------------------------------

    def _resampled_history(self, player: int, resampled: Any) -> list[tuple[Actor, int]]:
        """The never-seen face-down cards are the only hidden actions: cell c was dealt by the history's entry c,
        and none of them showed up since, so the rest of the history replays unchanged (game.py)."""
        history = list(self._history)
        for cell, value in resampled.hidden_cards():
            history[cell] = (CHANCE, value)
        return history


def simulate(game: Game, n: int, eps: list[float], seed: int, max_steps: int) -> tuple[Any, Any]:
    """``n`` whole games played compiled: each seat's returns and each game's seat moves (``ludotheque.native``)."""
    returns, lengths = _native.calcory_simulate(game.players, n, eps, seed, max_steps)
    return returns, lengths
