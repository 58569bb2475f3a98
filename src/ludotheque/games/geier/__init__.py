"""Hol's der Geier / Stupides Vautours (``geier``)."""

from ludotheque.games.geier.game import GeierGame, GeierState

__all__ = ["GeierGame", "GeierState"]
