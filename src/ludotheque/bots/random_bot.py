"""The uniform random bot: the floor every other bot must clear."""

from __future__ import annotations

import random
from typing import Any

from ludotheque.core.bot import Sampler


class RandomBot:
    name = "random"
    reads_view = False  # ``core.bot.ask_bot`` skips building the view it would never read

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
        return rng.choice(legal_actions)
