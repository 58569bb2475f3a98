"""How long a bot takes per move: ``bot_move_time`` (the ``bots`` figures of ``ludotheque bench``) and, game by game,
``python -m ludotheque.bench.bots [--bot medium] [GAME ...]``.

Plays ``--games`` games per game and player count with the bot in every seat (``medium`` by default) and prints
the CPU time per move (``time.process_time``: what the move costs on an idle core, whatever else the machine
runs) and the wall-clock time, mean and max.  For a search bot it also prints the tree's size: information-set
nodes per iteration (1 means every iteration ends in a node of its own: a search one level deep, in effect).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import random
import statistics
import time
from typing import Any

from ludotheque.bench.playouts import sample_states
from ludotheque.bots.registry import make_bot
from ludotheque.core import Bot, Game
from ludotheque.core.bot import Sampler
from ludotheque.games import game_class, game_ids, load_game
from ludotheque.table import play_game, step_bots


def bot_move_time(game: Game, spec: str, moves: int = 5, seed: int = 0) -> dict[str, float]:
    """Seconds per move of a bot (median and max over ``moves`` states met in random play)."""
    bots = [make_bot(spec, game) for _ in range(game.players)]
    rng = random.Random(seed)
    times = []
    for state in sample_states(game, moves, seed):
        seat = state.current_players()[0]
        seated: list[Any] = [None] * game.players
        seated[seat] = bots[seat]
        start = time.perf_counter()
        step_bots(state, seated, rng)
        times.append(time.perf_counter() - start)
    return {"median_s": round(statistics.median(times), 3), "max_s": round(max(times), 3)}


class _Stop(Exception):
    pass


class _Clocked:
    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.cpu: list[float] = []
        self.wall: list[float] = []
        self.nodes_per_iteration: list[float] = []  # of each search, if the bot reports one (ISMCTS ``last``)

    def _run(self, call: Any) -> int:
        cpu, wall = time.process_time(), time.perf_counter()
        action: int = call()
        self.cpu.append(time.process_time() - cpu)
        self.wall.append(time.perf_counter() - wall)
        return action

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
        action = self._run(lambda: self.inner.choose(view, legal_actions, rng, sampler))
        info = getattr(self.inner, "last", None)
        if info is not None and getattr(info, "iterations", 0) > 0:
            self.nodes_per_iteration.append(info.nodes / info.iterations)
        return action


def bench(game_id: str, players: int, spec: str, games: int, seed: int, max_moves: int) -> dict[str, float]:
    game = load_game(game_id, players=players)
    clocked = _Clocked(make_bot(spec, game))
    others = [make_bot("heuristic", game) for _ in range(players - 1)]
    for g in range(games):
        if max_moves > 0:
            clocked_moves = len(clocked.cpu)

            def stop(_: object, start: int = clocked_moves) -> None:
                if len(clocked.cpu) - start >= max_moves:
                    raise _Stop

            with contextlib.suppress(_Stop):
                play_game(game, [clocked, *others], random.Random(seed + g), random.Random(seed + g + 1), on_step=stop)
        else:
            play_game(game, [clocked, *others], random.Random(seed + g), random.Random(seed + g + 1))
    n = max(1, len(clocked.cpu))
    searches = clocked.nodes_per_iteration
    return {
        "moves": len(clocked.cpu),
        "cpu_mean": sum(clocked.cpu) / n,
        "cpu_max": max(clocked.cpu, default=0.0),
        "wall_mean": sum(clocked.wall) / n,
        "wall_max": max(clocked.wall, default=0.0),
        "nodes_per_iteration": sum(searches) / len(searches) if searches else float("nan"),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games_ids", nargs="*", metavar="GAME")
    parser.add_argument("--bot", default="medium")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--moves", type=int, default=20, help="moves of the bot per game at most (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", default="", help="player counts, e.g. 2,4 (default: the smallest usual)")
    args = parser.parse_args(argv)
    print("| game | players | bot | moves | CPU s/move mean | CPU max | wall mean | wall max | nodes/iteration |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    for game_id in args.games_ids or game_ids():
        cls = game_class(game_id)
        counts = sorted({cls.min_players, min(cls.max_players, max(2, cls.min_players))})
        if args.players:
            counts = [p for p in map(int, args.players.split(",")) if cls.min_players <= p <= cls.max_players]
        for players in counts:
            r = bench(game_id, players, args.bot, args.games, args.seed, args.moves)
            nodes = r["nodes_per_iteration"]
            tree = "—" if math.isnan(nodes) else f"{nodes:.2f}"  # a bot that does not search at this table
            print(
                f"| {game_id} | {players} | {args.bot} | {r['moves']:.0f} | {r['cpu_mean']:.3f} | {r['cpu_max']:.3f} | "
                f"{r['wall_mean']:.3f} | {r['wall_max']:.3f} | {tree} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
