"""Bots: random, each game's heuristic, the levels, ISMCTS, and the registry the CLI and the server share."""

from ludotheque.bots.ismcts import ISMCTSBot
from ludotheque.bots.levels import LEVELS
from ludotheque.bots.noisy import NoisyBot
from ludotheque.bots.random_bot import RandomBot
from ludotheque.bots.registry import UnknownBotError, bot_names, make_bot, parse_bots
from ludotheque.table import ChanceSource, play_game, step_bots

__all__ = [
    "LEVELS",
    "ChanceSource",
    "ISMCTSBot",
    "NoisyBot",
    "RandomBot",
    "UnknownBotError",
    "bot_names",
    "make_bot",
    "parse_bots",
    "play_game",
    "step_bots",
]
