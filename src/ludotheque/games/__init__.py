"""The games: one line per game in ``REGISTRY`` (``id -> package``, the quickest to learn first), each package
declaring its ``GAME`` (``ludotheque.core.gametype.GameType``).  Adding a game adds its folder and one line here.

Packages are imported when a game is first asked for, so listing ids costs nothing.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from ludotheque.core.errors import UnknownGameError
from ludotheque.core.game import Game
from ludotheque.core.gametype import GameType
from ludotheque.core.records import replay_record
from ludotheque.core.state import State

REGISTRY: dict[str, str] = {
    "geier": "ludotheque.games.geier",
    "cheese": "ludotheque.games.cheese",
    "mice": "ludotheque.games.mice",
    "mu": "ludotheque.games.mu",
    "rummu": "ludotheque.games.rummu",
    "calcory": "ludotheque.games.calcory",
    "safaru": "ludotheque.games.safaru",
}


def game_ids() -> list[str]:
    """Every registered game id, sorted."""
    return sorted(REGISTRY)


def game_type(game_id: str) -> GameType:
    """The declaration of the game registered under ``game_id``."""
    if game_id not in REGISTRY:
        raise UnknownGameError(f"unknown game {game_id!r} (games: {', '.join(sorted(REGISTRY))})")
    declared: GameType = importlib.import_module(REGISTRY[game_id]).GAME
    return declared


def game_class(game_id: str) -> type[Game]:
    """The ``Game`` subclass registered under ``game_id``."""
    return game_type(game_id).load_class()


def load_game(game_id: str, *, players: int, **options: Any) -> Game:
    """A configured game; bad player counts and options raise errors naming what is allowed."""
    return game_class(game_id)(players=players, **options)


def replay(record: Mapping[str, Any] | str | bytes) -> State:
    """The final ``State`` of a record, every move validated; ``RecordError`` names the first bad one."""
    return replay_record(record, load_game)
