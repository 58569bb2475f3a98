"""The engine protocol: games, states, actions, chance, views, notation and records.

It knows no game by name; games register themselves in ``ludotheque.games.REGISTRY``.
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
from ludotheque.core.options import OptionSpec, OptionValue
from ludotheque.core.records import parse_record, replay_record
from ludotheque.core.registry import game_class, game_ids, load_game
from ludotheque.core.state import CHANCE, RECORD_FORMAT, Actor, State

__all__ = [
    "CHANCE",
    "RECORD_FORMAT",
    "Actor",
    "Bot",
    "Game",
    "GameOverError",
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
    "game_class",
    "game_ids",
    "load_game",
    "parse_record",
    "replay_record",
    "sample_chance",
]
