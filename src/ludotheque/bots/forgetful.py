"""Bots that forget: easier levels of games where memory is the game (Calcory, calcory-5).

A forgetful bot hands its inner bot a view from which old memories were removed.  What to forget is the game's
rule: its ``forget(view, memory)`` in ``games/<id>/levels.py`` (``bots.levels`` finds it), which reads only the
view, so a forgetful bot never knows more than the plain one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ludotheque.core import Bot
from ludotheque.core.bot import Sampler

#: ``forget(view, memory)``: the view with only the last ``memory`` turns remembered.
ViewFilter = Callable[[dict[str, Any], int], dict[str, Any]]


class ForgetfulBot:
    """Plays ``inner`` on the view as ``forget`` leaves it after ``memory`` turns."""

    def __init__(self, inner: Bot, forget: ViewFilter, memory: int, name: str | None = None) -> None:
        if memory < 0:
            raise ValueError(f"memory must be at least 0 turns, not {memory}")
        self.inner = inner
        self.forget = forget
        self.memory = memory
        self.name = name or f"{inner.name}/forget{memory}"

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
        # no sampler for the inner bot: a determinization keeps every card the seat has seen, forgotten or not
        action = self.inner.choose(self.forget(view, self.memory), legal_actions, rng)
        return action if action in legal_actions else rng.choice(legal_actions)
