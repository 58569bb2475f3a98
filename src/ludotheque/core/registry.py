"""Finds games by id.  The table of ids lives in ``ludotheque.games``; this module knows none by name."""

from __future__ import annotations

import importlib
from typing import Any

from ludotheque.core.errors import UnknownGameError
from ludotheque.core.game import Game


def _table() -> dict[str, str]:
    from ludotheque.games import REGISTRY

    return REGISTRY


def game_ids() -> list[str]:
    """Every registered game id, sorted."""
    return sorted(_table())


def game_class(game_id: str) -> type[Game]:
    """The ``Game`` subclass registered under ``game_id``."""
    table = _table()
    if game_id not in table:
        raise UnknownGameError(f"unknown game {game_id!r} (games: {', '.join(sorted(table))})")
    module_name, _, class_name = table[game_id].partition(":")
    cls: type[Game] = getattr(importlib.import_module(module_name), class_name)
    return cls


def load_game(game_id: str, *, players: int, **options: Any) -> Game:
    """A configured game; bad player counts and options raise errors naming what is allowed."""
    return game_class(game_id)(players=players, **options)
