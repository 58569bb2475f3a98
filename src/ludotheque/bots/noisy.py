"""A bot that plays another bot's move, or with probability ``epsilon`` a random legal move."""

from __future__ import annotations

import random
from typing import Any

from ludotheque.core import Bot
from ludotheque.core.bot import Sampler


class NoisyBot:
    def __init__(self, inner: Bot, epsilon: float, name: str | None = None) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be in [0, 1], not {epsilon}")
        self.inner = inner
        # a heuristic that reads no view (the compiled one) spares the noisy bot the view too
        self.reads_view = getattr(inner, "reads_view", True)
        self.epsilon = epsilon
        self.name = name or f"{inner.name}~{epsilon:g}"

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
        if rng.random() < self.epsilon:
            return rng.choice(legal_actions)
        action = self.inner.choose(view, legal_actions, rng, sampler)
        return action if action in legal_actions else rng.choice(legal_actions)
