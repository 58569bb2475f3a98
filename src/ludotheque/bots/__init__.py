"""Bots: random, each game's heuristic, and the registry the CLI and the server share."""

from ludotheque.bots.random_bot import RandomBot
from ludotheque.bots.registry import UnknownBotError, bot_names, make_bot, parse_bots
from ludotheque.bots.runner import play_game, step_bots

__all__ = ["RandomBot", "UnknownBotError", "bot_names", "make_bot", "parse_bots", "play_game", "step_bots"]
