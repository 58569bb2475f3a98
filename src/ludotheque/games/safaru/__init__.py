"""Safarü and Safarü renversé, from Mü & Mehr (``safaru``)."""

from ludotheque.games.safaru.game import SafaruGame, SafaruState

__all__ = ["SafaruGame", "SafaruState"]
