"""MICE to meet you (``mice``), with its solo game."""

from ludotheque.games.mice.game import MiceGame, MiceState

__all__ = ["MiceGame", "MiceState"]
