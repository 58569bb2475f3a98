"""Mü, from Mü & Mehr (``mu``): auction, trumps and tricks."""

from ludotheque.games.mu.game import MuGame, MuState

__all__ = ["MuGame", "MuState"]
