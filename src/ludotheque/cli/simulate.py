"""Bots against bots: many games, then win rates and mean points per seat and per bot."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.progress import Progress
from rich.table import Table

from ludotheque.core import Bot, Game
from ludotheque.table import play_game


@dataclass
class SeatTally:
    bot: str
    games: int = 0
    wins: int = 0
    points: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.wins / self.games if self.games else 0.0,
            "mean_points": self.points / self.games if self.games else 0.0,
        }


@dataclass
class Simulation:
    game: Game
    seed: int
    seats: list[SeatTally]
    games: int = 0
    no_winner: int = 0
    by_bot: dict[str, SeatTally] = field(default_factory=dict)

    def add(self, returns: Sequence[float], winners: Sequence[int]) -> None:
        self.games += 1
        if not winners:
            self.no_winner += 1
        for seat, tally in enumerate(self.seats):
            bot_tally = self.by_bot.setdefault(tally.bot, SeatTally(tally.bot))
            for t in (tally, bot_tally):
                t.games += 1
                t.points += returns[seat]
                t.wins += seat in winners

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.id,
            "players": self.game.players,
            "options": dict(self.game.options),
            "games": self.games,
            "seed": self.seed,
            "no_winner": self.no_winner,
            "seats": [dict(seat=i, **t.to_json()) for i, t in enumerate(self.seats)],
            "bots": {name: t.to_json() for name, t in self.by_bot.items()},
        }

    def table(self) -> Table:
        table = Table(title=f"{self.game.id}: {self.games} games, {self.game.players} players, seed {self.seed}")
        table.add_column("seat", justify="right")
        table.add_column("bot")
        table.add_column("win rate", justify="right")
        table.add_column("mean points", justify="right")
        for i, t in enumerate(self.seats):
            data = t.to_json()
            table.add_row(str(i), t.bot, f"{data['win_rate']:.1%}", f"{data['mean_points']:.2f}")
        for name, t in self.by_bot.items():
            if t.games > self.games:  # the bot sits in several seats: show its total too
                data = t.to_json()
                table.add_row("all", name, f"{data['win_rate']:.1%}", f"{data['mean_points']:.2f}")
        table.caption = "a shared win counts as a win for each winner"
        if self.no_winner:
            table.caption += f"; {self.no_winner} games with no winner"
        return table


def simulate(
    game: Game, bots: Sequence[Bot], names: Sequence[str], games: int, seed: int, progress: bool
) -> Simulation:
    sim = Simulation(game, seed, [SeatTally(name) for name in names])
    rng = random.Random(seed)
    with Progress(disable=not progress, transient=True) as bar:
        task = bar.add_task(f"{game.id}", total=games)
        for _ in range(games):
            chance_rng = random.Random(rng.getrandbits(64))
            bot_rng = random.Random(rng.getrandbits(64))
            state = play_game(game, bots, chance_rng, bot_rng)
            sim.add(state.returns(), state.winners())
            bar.advance(task)
    return sim
