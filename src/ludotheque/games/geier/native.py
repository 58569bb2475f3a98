"""Geier's compiled engine (``cpp/geier.hpp``), the game's ``native`` part: the state that runs it, with the
view and the notation answered without the reference shadow (``core/native.py``)."""

from __future__ import annotations

import random
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

    def resample(self, player: int, rng: random.Random) -> NativeGeierState:
        """The reference's draws exactly (``GeierState.resample``: each other seat's face-down card redrawn from
        its hand, in the order they were put down, with ``rng.choice``), so that a determinization, and so a hint
        or a review, is the same whichever engine runs the game."""
        self.check_seat(player)
        compiled = self._native
        history = self._history
        start = self._round_start()
        kept = history[:start]
        if start < len(history):
            unrevealed = compiled.table_view(None)["unrevealed"]
            for actor, action in history[start:]:
                if actor != player:
                    seat = int(actor)
                    card = rng.choice(unrevealed[seat])
                    compiled = compiled.with_face_down(seat, card)
                    action = card - 1
                kept.append((actor, action))
        twin = NativeGeierState(self.game, compiled if compiled is not self._native else compiled.clone())
        twin._history = kept
        return twin

    def _round_start(self) -> int:
        """Where this round's face-down cards begin in the history: after the round's point card, the last chance
        action (the end of the history between rounds, when nothing lies face down)."""
        history = self._history
        if self._native.is_chance_node() or self._native.is_terminal():
            return len(history)
        start = len(history)
        while start > 0 and history[start - 1][0] != CHANCE:
            start -= 1
        return start

    def _resampled_history(self, player: int, resampled: Any) -> list[tuple[Actor, int]]:
        """This round's face-down cards are the only hidden actions: they follow the round's point card, the last
        chance action (a round whose card is not turned yet has none)."""
        history = self._history
        start = self._round_start()
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
