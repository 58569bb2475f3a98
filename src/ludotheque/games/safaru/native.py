"""Safarü's compiled engine (``cpp/safaru.hpp``), the game's ``native`` part: the state that runs it, with the view,
the notation and the chance probabilities answered without the reference shadow (``core/native.py``).

Chance is not uniform here (a kind is dealt with probability copies left / cards left, DECISIONS all-1): the
compiled state gives the reference's own probabilities, and their running sums as the reference adds them, so that
a seeded ``sample_chance`` draws the same card on both engines.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ludotheque.core import CHANCE, Actor
from ludotheque.core.native import WeightedChanceNativeState
from ludotheque.games.safaru import notation
from ludotheque.games.safaru.rules import TABLE

if TYPE_CHECKING:
    from ludotheque.core import Game

_native: Any  # the extension (untyped), or None
try:  # imported by name: the extension has no stubs, and a second typed import of it would confuse the checker
    _native = importlib.import_module("ludotheque._native")
except ImportError:  # built without the native core (LUDOTHEQUE_NATIVE=off, or no compiler)
    _native = None


def state_class() -> type[NativeSafaruState] | None:
    """The compiled state class, or ``None`` when the extension is not built."""
    return NativeSafaruState if _native is not None and "safaru" in _native.games else None


def _configuration(game: Game) -> tuple[int, bool, int, int, bool]:
    options = game.options
    partners = game.players == 4 and not options["individual"]  # safaru-2 / safaru-7
    return game.players, bool(options["renverse"]), int(options["target"]), int(options["games"]), partners


class NativeSafaruState(WeightedChanceNativeState):
    @classmethod
    def make_compiled(cls, game: Game) -> Any:
        return _native.SafaruState(*_configuration(game))


    # -- views, notation -------------------------------------------------------------------------------------

    def _game_log(self) -> Any:
        """The game's log replayed up to this state (the compiled view reads it).

        One log serves a history: it is kept with the history position it reached, copied to clones, and each
        view replays only the actions played since.  A log that another state sharing it moved on (or a log of an
        earlier game) is not this history's: a new one replays the game from its first deal."""
        compiled = self._native
        history = self._history
        start = len(history) - compiled.game_steps()  # this game's first deal
        memo: tuple[int, int, Any] | None = getattr(self, "_log_memo", None)
        if memo is not None and memo[0] == start and start + memo[2].position() == memo[1] <= len(history):
            log, at = memo[2], memo[1]
        else:
            log, at = _native.SafaruGameLog(compiled), start
        log.advance([action for _, action in history[at:]])
        self._log_memo = (start, len(history), log)
        return log

    def _view(self, player: int | None) -> dict[str, Any]:
        table: dict[str, Any] = self._native.table_view(player, self._game_log())
        return table

    def clone(self) -> NativeSafaruState:
        twin = super().clone()
        assert isinstance(twin, NativeSafaruState)
        memo = getattr(self, "_log_memo", None)
        if memo is not None:
            # a copy of the log, never the log itself: a clone moves on alone, maybe in another thread (a server's
            # bot decides on a fork of the live table), and one log advanced by two states reads neither's game
            twin._log_memo = (memo[0], memo[1], memo[2].copy())
        return twin

    def _action_to_string(self, action: int, actor: Actor) -> str:
        return notation.format_action(action, actor == CHANCE)

    def _action_to_json(self, action: int, actor: Actor) -> dict[str, Any]:
        if actor == CHANCE:
            to = self._native.next_deal_to()
            return notation.to_json(action, True, "table" if to == TABLE else to)
        return notation.to_json(action, False)

    def string_to_action(self, text: str, player: Actor | None = None) -> int:
        """Read directly and checked by the compiled state; a move that is not legal here goes to the reference,
        which raises naming the legal moves (game.py's ``string_to_action``)."""
        actor = self._notation_actor(player)
        action = notation.parse_action(text, actor == CHANCE, self.game.id)
        compiled = self._native
        legal = compiled.is_chance_outcome(action) if actor == CHANCE else compiled.is_legal(actor, action)
        return action if legal else self.reference_state().string_to_action(text, player)

    def deals_completed(self) -> int:
        return 1 if self._native.is_terminal() else 0  # the reference's (State's): one match, no deal count

    # -- determinization -------------------------------------------------------------------------------------

    def _resampled_history(self, player: int, resampled: Any) -> list[tuple[Actor, int]]:
        """Only this deal's cards to the other seats are hidden: their deal actions are rewritten, each seat's
        taking its cards of the deal from the end (its new hand, then the cards it played, last first), as
        game.py's ``resample`` does."""
        history = list(self._history)
        start = len(history) - resampled.round_steps()  # the deal's first card
        cards = resampled.round_cards()
        for index, destination in enumerate(resampled.round_queue(), start):
            if destination not in (TABLE, player):
                history[index] = (CHANCE, cards[destination].pop())
        return history


def simulate(game: Game, n: int, eps: list[float], seed: int, max_steps: int) -> tuple[Any, Any]:
    """``n`` whole games played compiled: each seat's returns and each game's seat moves (``ludotheque.native``)."""
    returns, lengths = _native.safaru_simulate(*_configuration(game), n, eps, seed, max_steps)
    return returns, lengths
