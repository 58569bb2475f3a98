"""Calcory, from Mü & Mehr (``calcory``): memory and sums to 13."""

from ludotheque.games.calcory.game import CalcoryGame, CalcoryState

__all__ = ["CalcoryGame", "CalcoryState"]
