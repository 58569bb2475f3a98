"""ludotheque: seven French table games with exact engines, bots and a common protocol."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ludotheque.core import (
    CHANCE,
    Game,
    IllegalActionError,
    LudothequeError,
    NotationError,
    NotYourTurnError,
    OptionError,
    PlayerCountError,
    RecordError,
    State,
    UnknownGameError,
    game_ids,
    load_game,
)
from ludotheque.core.records import replay_record

__version__ = "0.1.0"


def replay(record: Mapping[str, Any] | str | bytes) -> State:
    """The final ``State`` of a record, every move validated; ``RecordError`` names the first bad one."""
    return replay_record(record, load_game)


__all__ = [
    "CHANCE",
    "Game",
    "IllegalActionError",
    "LudothequeError",
    "NotYourTurnError",
    "NotationError",
    "OptionError",
    "PlayerCountError",
    "RecordError",
    "State",
    "UnknownGameError",
    "game_ids",
    "load_game",
    "replay",
]
