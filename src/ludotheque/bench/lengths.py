"""How long uniformly random play lasts, per game and player count (default options):
``python -m ludotheque.bench.lengths [--games 200] [--cap 20000] [GAME ...]``.

For each configuration: how many of ``--games`` random games ended within ``--cap`` decisions, and the median,
99th percentile and maximum of their lengths, in decisions (a decision every seat takes at once counts once, as
OpenSpiel counts a simultaneous node) and in moves (every seat's move counts, as PettingZoo and Gymnasium
count).  The adapters' default cut (``ludotheque.interop._common.DEFAULT_MAX_MOVES``) is chosen from these
figures: far above the longest random game of every configuration that ends, so that it cuts only play that
would not end (``docs/interop.md``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from typing import Any

from ludotheque.core import Game, sample_chance
from ludotheque.games import game_class, game_ids, load_game


def random_length(game: Game, rng: random.Random, cap: int) -> tuple[int, int, bool]:
    """One uniformly random game, stopped after ``cap`` decisions: its decisions, its moves, whether it ended."""
    state = game.new_initial_state()
    decisions = moves = 0
    while not state.is_terminal() and decisions < cap:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seats = state.current_players()
        for seat in seats:
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
        moves += len(seats)
        decisions += 1 if len(seats) == game.players > 1 else len(seats)
    return decisions, moves, state.is_terminal()


def lengths(game: Game, games: int, cap: int, seed: int = 0) -> dict[str, Any]:
    """The length figures of ``games`` random games of ``game`` (see the module docstring)."""
    rng = random.Random(seed)
    played = [random_length(game, rng, cap) for _ in range(games)]
    ended = [(d, m) for d, m, done in played if done]
    row: dict[str, Any] = {"game": game.id, "players": game.players, "games": games, "cap": cap,
                           "ended": len(ended)}
    for index, unit in ((0, "decisions"), (1, "moves")):
        values = sorted(pair[index] for pair in ended)
        if values:
            row[unit] = {
                "median": statistics.median(values),
                "p99": values[min(len(values) - 1, round(0.99 * (len(values) - 1)))],
                "max": values[-1],
            }
    return row


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game_ids", nargs="*", metavar="GAME")
    parser.add_argument("--games", type=int, default=200, help="random games per configuration")
    parser.add_argument("--cap", type=int, default=20_000, help="decisions after which a game counts as unended")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for game_id in args.game_ids or game_ids():
        cls = game_class(game_id)
        for players in range(cls.min_players, cls.max_players + 1):
            row = lengths(load_game(game_id, players=players), args.games, args.cap, args.seed)
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
