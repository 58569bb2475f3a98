"""Bots by name, shared by the CLI and (later) the server: ``--bots random,heuristic``."""

from __future__ import annotations

from collections.abc import Callable

from ludotheque.bots.random_bot import RandomBot
from ludotheque.core import Bot, Game, LudothequeError


class UnknownBotError(LudothequeError):
    """No bot has that name."""


BOTS: dict[str, Callable[[Game], Bot]] = {
    "random": lambda game: RandomBot(),
    "heuristic": lambda game: game.heuristic_bot(),
}


def bot_names() -> list[str]:
    return list(BOTS)


def make_bot(spec: str, game: Game) -> Bot:
    """A bot for ``game`` from its name (``"random"``, ``"heuristic"``)."""
    name = spec.strip()
    if name not in BOTS:
        raise UnknownBotError(f"unknown bot {spec!r} (bots: {', '.join(BOTS)})")
    return BOTS[name](game)


def parse_bots(specs: str, game: Game, seats: int) -> list[Bot]:
    """``"random,heuristic"`` -> bots for ``seats`` seats; a single name fills every seat."""
    names = [s for s in specs.split(",") if s.strip()] if specs else ["random"]
    if len(names) == 1:
        names = names * seats
    if len(names) != seats:
        raise UnknownBotError(f"{seats} bots are needed, {len(names)} were given ({specs!r})")
    return [make_bot(name, game) for name in names]
