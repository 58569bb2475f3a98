"""The bot interface: a bot sees what its seat sees and nothing else."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from ludotheque.core.state import State


@runtime_checkable
class Bot(Protocol):
    """Chooses an action from a seat's view.  A bot never receives the ``State``.

    ``view`` is ``state.view(seat)`` (it names the seat), ``legal_actions`` is ``state.legal_actions(seat)``.
    """

    name: str

    def choose(self, view: dict[str, Any], legal_actions: list[int], rng: random.Random) -> int: ...


# --------------------------------------------------------------------------------------------------
# Search bots (an additive extension of the interface above)
# --------------------------------------------------------------------------------------------------

#: ``sample(rng)`` returns a determinization for the deciding seat: ``state.resample(seat, rng)``, a fresh state
#: with the same view for that seat whose hidden parts are redrawn.  It is never the true state.
Sampler = Callable[[random.Random], "State"]


@runtime_checkable
class SearchBot(Bot, Protocol):
    """A bot that searches over determinizations.

    The runner (``ludotheque.bots.step_bots``) calls ``choose_with_sampler`` instead of ``choose`` for such bots and
    hands them a ``Sampler`` bound to the deciding seat.  ``choose`` must still work without one (a search bot falls
    back to a sampler-free policy), so every caller of the plain ``Bot`` interface keeps working.
    """

    def choose_with_sampler(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sample: Sampler
    ) -> int: ...


def make_sampler(state: State, seat: int) -> Sampler:
    """The sampler a search bot deciding for ``seat`` at ``state`` receives: determinizations, never ``state``."""

    def sample(rng: random.Random) -> State:
        return state.resample(seat, rng)

    return sample


def ask_bot(bot: Bot, state: State, seat: int, rng: random.Random) -> int:
    """Ask ``bot`` for ``seat``'s action at ``state``: the view, the legal actions, and a sampler for search bots."""
    view = state.view(seat)
    legal = state.legal_actions(seat)
    if isinstance(bot, SearchBot):
        return bot.choose_with_sampler(view, legal, rng, make_sampler(state, seat))
    return bot.choose(view, legal, rng)
