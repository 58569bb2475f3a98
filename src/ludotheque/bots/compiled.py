"""The game's heuristic played by its compiled twin where the state runs compiled.

The compiled heuristic picks the Python heuristic's move on the seat's view (``tests/native/``: the same move on
every decision of many games), at a fraction of the cost, and needs no view built: the simulations, the adapters
and the arena's heuristic seats spend most of their time in the Python heuristic otherwise.  Where the state runs
on the Python engine, or the compiled heuristic does not take the bot's settings, the Python heuristic plays.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ludotheque.core import Bot
from ludotheque.core.bot import Sampler, StateSampler


class CompiledHeuristicBot:
    #: ``core.bot.ask_bot`` skips the view: the compiled heuristic reads the state's own (seat-visible) parts
    reads_view = False

    def __init__(self, inner: Bot, settings: Mapping[str, Any]) -> None:
        self.inner = inner
        self.settings = dict(settings)
        self.name = inner.name

    def __getattr__(self, name: str) -> Any:
        # the Python heuristic's own attributes (its settings: ``spread`` at Geier)
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
        if isinstance(sampler, StateSampler):
            action = sampler.compiled_heuristic(rng, self.settings)
            if action is not None and action in legal_actions:
                return action
            if not view:
                view = sampler.own_view()
        return self.inner.choose(view, legal_actions, rng, sampler)
