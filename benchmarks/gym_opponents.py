"""Gymnasium steps a second against the default ``heuristic`` opponents, the compiled heuristic (the state runs
compiled: ``bots/compiled.py`` plays the opponents' moves with no view built) beside the Python heuristic.

    python -m benchmarks.gym_opponents [GAME ...] [--players N] [--steps S]

The learner plays uniformly random legal moves; both runs use the compiled engine, so the difference is the
opponents' heuristic alone.  CPU seconds (``time.process_time``)."""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np

import ludotheque.interop.gymnasium as gym_env
from ludotheque.bots.compiled import CompiledHeuristicBot


def steps_per_second(game_id: str, players: int, steps: int, compiled: bool) -> float:
    env = gymnasium.make(gym_env.env_id(game_id), players=players, opponents="heuristic")
    inner = env.unwrapped
    assert isinstance(inner, gym_env.LudothequeEnv)
    if not compiled:  # the Python heuristic the compiled one wraps
        inner._bots = [bot.inner if isinstance(bot, CompiledHeuristicBot) else bot for bot in inner._bots]
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    started = time.process_time()
    for _ in range(steps):
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            _, info = env.reset()
    return steps / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["geier", "calcory", "safaru", "cheese", "mice", "mu"])
    parser.add_argument("--players", type=int, default=None, help="default: each game's fewest")
    parser.add_argument("--steps", type=int, default=3000)
    args = parser.parse_args()
    from ludotheque.games import game_type

    print("| game | players | Python heuristic steps/s | compiled heuristic steps/s | ratio |")
    print("|---|---:|---:|---:|---:|")
    for game_id in args.games:
        players = args.players or game_type(game_id).min_players
        python = steps_per_second(game_id, players, args.steps, compiled=False)
        compiled = steps_per_second(game_id, players, args.steps, compiled=True)
        print(f"| {game_id} | {players} | {python:,.0f} | {compiled:,.0f} | ×{compiled / python:.2f} |")


if __name__ == "__main__":
    main()
