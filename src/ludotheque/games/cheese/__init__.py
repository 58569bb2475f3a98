"""Cheese Rescue (``cheese``): dogs, cats, mice and cheese on a grid."""

from ludotheque.games.cheese.game import CheeseGame, CheeseState

__all__ = ["CheeseGame", "CheeseState"]
