"""Rummü, from Mü & Mehr (``rummu``): rummy with yellow jokers."""

from ludotheque.games.rummu.game import RummuGame, RummuState

__all__ = ["RummuGame", "RummuState"]
