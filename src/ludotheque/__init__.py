"""ludotheque: seven French table games with exact engines, bots and a common protocol."""

from __future__ import annotations

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
)
from ludotheque.games import game_ids, load_game, replay

__version__ = "0.1.0"


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
