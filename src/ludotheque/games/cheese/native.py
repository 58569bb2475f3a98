"""Cheese Rescue's compiled engine (``cpp/cheese.hpp``), the game's ``native`` part: the state that runs it, with
the view, the notation and the chance probabilities answered without the reference shadow (``core/native.py``).

Chance is not uniform (an animal comes with probability copies left / cards left, cheese-1): the compiled state
gives the reference's own probabilities and their running sums as ``sample_chance`` adds them, so that a seeded
draw gives the same animal on both engines.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ludotheque.core import CHANCE, Actor, NotationError
from ludotheque.core.native import WeightedChanceNativeState
from ludotheque.games.cheese import notation, rules

if TYPE_CHECKING:
    from ludotheque.core import Game

_native: Any  # the extension (untyped), or None
try:  # imported by name: the extension has no stubs, and a second typed import of it would confuse the checker
    _native = importlib.import_module("ludotheque._native")
except ImportError:  # built without the native core (LUDOTHEQUE_NATIVE=off, or no compiler)
    _native = None


def state_class() -> type[NativeCheeseState] | None:
    """The compiled state class, or ``None`` when the extension is not built."""
    return NativeCheeseState if _native is not None and "cheese" in _native.games else None


def _frame(players: int) -> int:
    return 2 * rules.SIDE[players] - 1


class NativeCheeseState(WeightedChanceNativeState):
    @classmethod
    def make_compiled(cls, game: Game) -> Any:
        return _native.CheeseState(game.players)

    def _view(self, player: int | None) -> dict[str, Any]:
        table: dict[str, Any] = self._native.table_view(player)
        return table


    # -- notation ---------------------------------------------------------------------------------------------

    def _action_to_string(self, action: int, actor: Actor) -> str:
        return notation.format_action(action, _frame(self.game.players), actor == CHANCE)

    def _action_to_json(self, action: int, actor: Actor) -> dict[str, Any]:
        return notation.to_json(action, _frame(self.game.players), actor == CHANCE)

    def string_to_action(self, text: str, player: Actor | None = None) -> int:
        """Parsed here and checked by the compiled state; anything refused goes to the reference, which raises its
        own error (game.py's ``string_to_action``)."""
        actor = self._notation_actor(player)
        compiled = self._native
        try:
            action = notation.parse_action(text, _frame(self.game.players), actor == CHANCE, self.game.id)
        except NotationError:
            return self.reference_state().string_to_action(text, player)
        legal = compiled.is_chance_outcome(action) if actor == CHANCE else compiled.is_legal(actor, action)
        return action if legal else self.reference_state().string_to_action(text, player)

    def _illegal_message(self, action: int, player: int) -> str:
        # the reference names the reason (game.py's ``why_illegal``: no such card in hand, a taken cell, ...)
        return self.reference_state()._illegal_message(action, player)

    # -- determinization -------------------------------------------------------------------------------------

    def _resampled_history(self, player: int, resampled: Any) -> list[tuple[Actor, int]]:
        """game.py's ``resample`` rewrite: each animal another seat placed is given that seat's earliest draw not
        yet matched; the draws left unmatched are the animals in its hand, here those the determinization dealt
        (in kind order: a hand is a count, its order hidden)."""
        n = self.game.players
        size = _frame(n) ** 2
        history = list(self._history)
        slots: list[list[int]] = [[] for _ in range(n)]  # history indices of each seat's unmatched draws
        deal = rules.DEALT_ANIMALS * n
        draws = 0
        for index, (actor, action) in enumerate(history):
            if actor == CHANCE:
                # cheese-4: the deal goes round the seats from seat 0; later, a seat draws right after it places
                drawer = draws % n if draws < deal else int(history[index - 1][0])
                slots[drawer].append(index)
                draws += 1
                continue
            seat = int(actor)
            kind = action // size
            if kind in rules.ANIMALS and seat != player:
                history[slots[seat].pop(0)] = (CHANCE, kind)
        hands = resampled.hands()
        for seat in range(n):
            if seat == player:
                continue
            dealt = [animal for animal in rules.ANIMALS for _ in range(hands[seat][animal])]
            for index, animal in zip(slots[seat], dealt, strict=True):
                history[index] = (CHANCE, animal)
        return history


def simulate(game: Game, n: int, eps: list[float], seed: int, max_steps: int) -> tuple[Any, Any]:
    """``n`` whole games played compiled: each seat's returns and each game's seat moves (``ludotheque.native``)."""
    returns, lengths = _native.cheese_simulate(game.players, n, eps, seed, max_steps)
    return returns, lengths
