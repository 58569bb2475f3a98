"""The engine protocol: games, states, actions, chance, views, notation and records.

It knows no game by name and imports none: each game declares a ``GameType`` and registers its package in
``ludotheque.games.REGISTRY``, which also finds games by id (``load_game``).
"""

from ludotheque.core.bot import Bot
from ludotheque.core.chance import sample_chance
from ludotheque.core.errors import (
    GameOverError,
    IllegalActionError,
    LudothequeError,
    NotationError,
    NotYourTurnError,
    OptionError,
    PlayerCountError,
    RecordError,
    SeatError,
    UnknownGameError,
)
from ludotheque.core.game import Game
from ludotheque.core.gametype import CoachThresholds, GameType
from ludotheque.core.options import OptionSpec, OptionValue
from ludotheque.core.records import parse_record, replay_record
from ludotheque.core.state import CHANCE, RECORD_FORMAT, Actor, State

__all__ = [
    "CHANCE",
    "RECORD_FORMAT",
    "Actor",
    "Bot",
    "CoachThresholds",
    "Game",
    "GameOverError",
    "GameType",
    "IllegalActionError",
    "LudothequeError",
    "NotYourTurnError",
    "NotationError",
    "OptionError",
    "OptionSpec",
    "OptionValue",
    "PlayerCountError",
    "RecordError",
    "SeatError",
    "State",
    "UnknownGameError",
    "parse_record",
    "replay_record",
    "sample_chance",
]
