"""Bots that forget (DECISIONS calcory-5: memory is the game, and easier bot levels forget).

A forgetful bot hands its inner bot a view from which old memories were removed.  What to forget is game
specific, so each game that needs it has a *view filter* here, keyed by game id; the filter reads only the view,
so a forgetful bot never knows more than the plain one.

* ``calcory``: the view's ``log`` of reveals is cut to the last ``memory`` turns (the current turn included):
  older reveals of a card now face down are forgotten, as a human forgets them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ludotheque.core import Bot
from ludotheque.core.bot import Sampler

ViewFilter = Callable[[dict[str, Any], int], dict[str, Any]]


def forget_calcory(view: dict[str, Any], memory: int) -> dict[str, Any]:
    """Keep only the reveals of the last ``memory`` turns in a Calcory view's log."""
    table = view["table"]
    log = table.get("log")
    if not isinstance(log, dict) or "turn" not in log:
        return view
    oldest = int(table.get("turn", 0)) - memory + 1
    keep = [i for i, turn in enumerate(log["turn"]) if turn >= oldest]
    forgotten = {key: [column[i] for i in keep] for key, column in log.items()}
    return {**view, "table": {**table, "log": forgotten}}


VIEW_FILTERS: dict[str, ViewFilter] = {"calcory": forget_calcory}


class ForgetfulBot:
    """Plays ``inner`` on a view filtered by the game's forgetting rule (or the plain view if it has none)."""

    def __init__(self, inner: Bot, game_id: str, memory: int, name: str | None = None) -> None:
        if memory < 0:
            raise ValueError(f"memory must be at least 0 turns, not {memory}")
        self.inner = inner
        self.memory = memory
        self.filter = VIEW_FILTERS.get(game_id)
        self.name = name or f"{inner.name}/forget{memory}"

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
        if self.filter is not None:
            view = self.filter(view, self.memory)
        action = self.inner.choose(view, legal_actions, rng)
        return action if action in legal_actions else rng.choice(legal_actions)
