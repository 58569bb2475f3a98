"""What a ``Table`` adds to random play: the protocol's loop, the same loop through a table, and a table whose
seats hold random bots (what ``simulate`` and the arena run), timed in turn within each run so that a busy
machine slows all three alike.  The two first play the very same games (the same draws in the same order)."""

from __future__ import annotations

import random
import statistics
from dataclasses import asdict
from typing import Any

from ludotheque.bench.playouts import random_playout
from ludotheque.bench.timing import Rate, timed_runs
from ludotheque.core import Game
from ludotheque.table import Table


def table_playout(game: Game, rng: random.Random) -> int:
    """``random_playout`` through a table whose seats are people: chance by ``step``, moves by ``submit``."""
    table = Table(game, [None] * game.players, chance_rng=rng)
    state = table.state
    while not state.is_terminal():
        if state.is_chance_node():
            table.step()
        else:
            for seat in state.current_players():
                table.submit(seat, rng.choice(state.legal_actions(seat)))
    return len(table.log)


def bots_playout(game: Game, rng: random.Random) -> int:
    """A table with the random bot in every seat, played out (each bot is asked through the seat's view)."""
    from ludotheque.bots import RandomBot

    table = Table(game, [RandomBot() for _ in range(game.players)], chance_rng=rng)
    table.play_out()
    return len(table.log)


def table_overhead(game: Game, seconds: float = 1.0, runs: int = 5, seed: int = 0) -> dict[str, Any]:
    """Games/s of the three loops (medians) and what the table adds: ``overhead`` = protocol ÷ table − 1, the
    median over runs of each run's own ratio (its three loops met the same speed of the machine, where medians
    taken apart can meet different ones)."""
    loops = {"protocol": random_playout, "table": table_playout, "table_random_bots": bots_playout}
    rates: dict[str, list[float]] = {key: [] for key in loops}
    for run in range(runs):
        for key, loop in loops.items():
            rng = random.Random(seed + run)
            games, _ = timed_runs(lambda loop=loop, rng=rng: loop(game, rng), seconds, 1)  # type: ignore[misc]
            rates[key] += games
    figures: dict[str, Any] = {key: asdict(Rate.of(values)) for key, values in rates.items()}
    for name, key in (("overhead", "table"), ("overhead_random_bots", "table_random_bots")):
        ratios = [base / other for base, other in zip(rates["protocol"], rates[key], strict=True)]
        figures[name] = round(statistics.median(ratios) - 1, 3)
    return figures


def main(argv: list[str] | None = None) -> None:
    """``python -m ludotheque.bench.overhead [--seconds 1] [--runs 5] [GAME ...]``: each game at its largest
    player count (with its benchmark options), one JSON line each."""
    import argparse
    import json

    from ludotheque.bench import load_for_bench
    from ludotheque.games import game_class, game_ids

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game_ids", nargs="*", metavar="GAME")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    for game_id in args.game_ids or game_ids():
        game = load_for_bench(game_id, game_class(game_id).max_players)
        figures = table_overhead(game, args.seconds, args.runs)
        print(json.dumps({"game": game_id, "players": game.players, **figures}), flush=True)


if __name__ == "__main__":
    main()
