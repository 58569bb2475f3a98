"""The bot interface: a bot sees what its seat sees and nothing else."""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Bot(Protocol):
    """Chooses an action from a seat's view.  A bot never receives the ``State``.

    ``view`` is ``state.view(seat)`` (it names the seat), ``legal_actions`` is ``state.legal_actions(seat)``.
    """

    name: str

    def choose(self, view: dict[str, Any], legal_actions: list[int], rng: random.Random) -> int: ...
