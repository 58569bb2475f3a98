"""Rummü's compiled engine (``cpp/rummu.hpp``), the game's ``native`` part: the state that runs it, with the notation
and the chance probabilities answered without the reference shadow (``core/native.py``).

Chance is not uniform here (a card type comes with probability copies left / cards left): the compiled state gives
the reference's own probabilities, and their running sums as the reference adds them, so that a seeded
``sample_chance`` draws the same card on both engines.  The view is compiled too, its log in words and the count of
every finished hand rebuilt by replaying the match (``RummuGameLog``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ludotheque.core import CHANCE, Actor
from ludotheque.core.native import WeightedChanceNativeState
from ludotheque.games.rummu import notation

if TYPE_CHECKING:
    from ludotheque.core import Game

_native: Any  # the extension (untyped), or None
try:  # imported by name: the extension has no stubs, and a second typed import of it would confuse the checker
    _native = importlib.import_module("ludotheque._native")
except ImportError:  # built without the native core (LUDOTHEQUE_NATIVE=off, or no compiler)
    _native = None


def state_class() -> type[NativeRummuState] | None:
    """The compiled state class, or ``None`` when the extension is not built."""
    return NativeRummuState if _native is not None and "rummu" in _native.games else None


def _configuration(game: Game) -> tuple[int, bool, int, int]:
    options = game.options
    return game.players, bool(options["partnerships"]), int(options["target"]), int(options["hands"])


class NativeRummuState(WeightedChanceNativeState):
    @classmethod
    def make_compiled(cls, game: Game) -> Any:
        return _native.RummuState(*_configuration(game))


    # -- the view --------------------------------------------------------------------------------------------

    def _game_log(self) -> Any:
        """The match's log replayed up to this state (the compiled view reads it).

        One log serves a history: it is kept with the history position it reached, copied to clones, and each view
        replays only the actions played since."""
        history = self._history
        memo: tuple[int, Any] | None = getattr(self, "_log_memo", None)
        if memo is not None and memo[1].position() == memo[0] <= len(history):
            log, at = memo[1], memo[0]
        else:
            log, at = _native.RummuGameLog(self._native), 0
        log.advance([action for _, action in history[at:]])
        self._log_memo = (len(history), log)
        return log

    def _view(self, player: int | None) -> dict[str, Any]:
        table: dict[str, Any] = self._native.table_view(player, self._game_log(), int(self.game.options["hands"]))
        return table

    def clone(self) -> NativeRummuState:
        twin = super().clone()
        assert isinstance(twin, NativeRummuState)
        memo = getattr(self, "_log_memo", None)
        if memo is not None:
            # a copy of the log, never the log itself: a clone moves on alone, maybe in another thread
            twin._log_memo = (memo[0], memo[1].copy())
        return twin

    # -- notation --------------------------------------------------------------------------------------------

    def _action_to_string(self, action: int, actor: Actor) -> str:
        if actor == CHANCE:
            return notation.format_chance(action)
        return notation.format_action(action)

    def _action_to_json(self, action: int, actor: Actor) -> dict[str, Any]:
        if actor != CHANCE:
            return notation.to_json(action)
        kind = self._native.chance_kind()
        if kind is None:  # not a chance node: the reference's own answer (game.py writes it as a draw)
            return self.reference_state()._action_to_json(action, actor)
        name, seat = kind
        return notation.to_json(action, name, max(seat, 0))

    def string_to_action(self, text: str, player: Actor | None = None) -> int:
        """Read directly and checked by the compiled state; a move that is not legal here goes to the reference,
        which raises naming the legal moves (game.py's ``string_to_action``)."""
        actor = self._notation_actor(player)
        compiled = self._native
        try:
            if actor == CHANCE:
                action = notation.parse_chance(text, self.game.id)
                legal = compiled.is_chance_outcome(action)
            else:
                action = notation.parse_action(text, self.game.id)
                legal = compiled.is_legal(actor, action)
        except Exception:
            legal = False
        return action if legal else self.reference_state().string_to_action(text, player)

    def deals_completed(self) -> int:
        hands: int = self._native.hand_number()
        return hands

    # -- determinization -------------------------------------------------------------------------------------

    def _resampled_history(self, player: int, resampled: Any) -> list[tuple[Actor, int]]:
        """The cards still hidden in the other hands were redealt (game.py's ``resample``): the chance actions
        that delivered them are rewritten, every other action kept."""
        history = list(self._history)
        for index, seat, card in resampled.hidden_deliveries():
            if seat != player:
                history[index] = (CHANCE, card)
        return history


def simulate(game: Game, n: int, eps: list[float], seed: int, max_steps: int) -> tuple[Any, Any]:
    """``n`` whole games played compiled: each seat's returns and each game's seat moves (``ludotheque.native``)."""
    returns, lengths = _native.rummu_simulate(*_configuration(game), n, eps, seed, max_steps)
    return returns, lengths
