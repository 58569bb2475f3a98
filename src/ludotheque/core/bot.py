"""The bot interface: a bot sees what its seat sees and nothing else."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ludotheque.core.errors import LudothequeError

if TYPE_CHECKING:
    from ludotheque.core.state import State

#: ``sampler(rng)`` returns a determinization for the deciding seat: ``state.resample(seat, rng)``, a fresh state
#: with the same view for that seat whose hidden parts are redrawn.  It is never the true state.
Sampler = Callable[[random.Random], "State"]


@runtime_checkable
class Bot(Protocol):
    """Chooses an action from a seat's view.  A bot never receives the ``State``.

    ``view`` is ``state.view(seat)`` (it names the seat), ``legal_actions`` is ``state.legal_actions(seat)``.
    ``sampler``, when the caller has the state, draws determinizations for that seat: search bots use it, every
    other bot ignores it, and a search bot called without one falls back to a policy that needs none.
    """

    name: str

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int: ...


class StateSampler:
    """The sampler a bot deciding for ``seat`` at a state receives: ``sampler(rng)`` is a determinization
    (``state.resample(seat, rng)``), never the state.  Where the state runs compiled, ``native_search`` runs a
    whole compiled ISMCTS from it, which determinizes the same way at every iteration (``core/native.py``)."""

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat

    def __call__(self, rng: random.Random) -> State:
        return self._state.resample(self.seat, rng)

    def own_view(self) -> dict[str, Any]:
        """The deciding seat's own view (for a bot that skipped it and then needs it after all)."""
        return self._state.view(self.seat)

    def compiled_heuristic(self, rng: random.Random, settings: dict[str, Any]) -> int | None:
        """The compiled heuristic's move for the seat (its settings applied), or ``None`` where the state runs on
        the Python engine or the compiled heuristic does not take these settings.  Like the compiled search, it
        reads only what the seat sees: the differential tests hold it to the Python heuristic on the seat's
        view."""
        compiled = getattr(self._state, "heuristic_action", None)
        if compiled is None:
            return None
        try:
            action: int = compiled(self.seat, rng, dict(settings))
        except LudothequeError:  # settings the compiled heuristic does not take
            return None
        return action

    def native_search(self, settings: dict[str, Any]) -> tuple[int, list[int], list[int], int, int] | None:
        """``(chosen, actions, visits, iterations, nodes)`` of the compiled search, or ``None`` where the state
        has no compiled engine."""
        search = getattr(self._state, "native_search", None)
        if search is None:
            return None
        result: tuple[int, list[int], list[int], int, int] = search(self.seat, settings)
        return result


class OmniscientSampler(StateSampler):
    """The true state itself, for a bot that declares ``omniscient = True`` (the ``oracle``, the ceiling of the
    strength table): a measurement only, never at a table where people play (``ask_bot`` refuses it there)."""

    def __call__(self, rng: random.Random) -> State:
        return self._state.clone()

    def native_search(self, settings: dict[str, Any]) -> tuple[int, list[int], list[int], int, int] | None:
        return super().native_search({**settings, "determinize": False})


class OmniscientBotError(LudothequeError):
    """A bot that sees every card was asked to play where only the seat's view may be seen."""


def make_sampler(state: State, seat: int) -> Sampler:
    """The sampler a bot deciding for ``seat`` at ``state`` receives: determinizations, never ``state``."""
    return StateSampler(state, seat)


def ask_bot(bot: Bot, state: State, seat: int, rng: random.Random, *, omniscient: bool = False) -> int:
    """Ask ``bot`` for ``seat``'s action at ``state``: the view, the legal actions and a sampler of
    determinizations.  A bot that declares ``reads_view = False`` (the uniform random bot) is handed an empty view:
    building a view costs more than such a bot's whole move.  A bot that declares ``omniscient = True`` is handed
    the true state, and only where the caller says so (``omniscient``: an arena's measurement); elsewhere it is
    refused (``OmniscientBotError``)."""
    view = state.view(seat) if getattr(bot, "reads_view", True) else {}
    if getattr(bot, "omniscient", False):
        if not omniscient:
            raise OmniscientBotError(f"{bot.name} sees every card: it plays only in measurements, never at a table")
        return bot.choose(view, state.legal_actions(seat), rng, OmniscientSampler(state, seat))
    return bot.choose(view, state.legal_actions(seat), rng, make_sampler(state, seat))
