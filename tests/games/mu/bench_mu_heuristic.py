"""Heuristic vs random at Mü (not a test): ``.venv/bin/python tests/games/mu/bench_mu_heuristic.py [matches]``.

The heuristic sits in each seat in turn against random bots.  Per hand: the mean score change of the heuristic
seat and of a random seat.  Per match (target 200): the heuristic's win share (a shared win counts 1/k).
"""

from __future__ import annotations

import random
import sys

from ludotheque.bots import RandomBot, play_game
from ludotheque.games import load_game
from ludotheque.games.mu.heuristics import MuHeuristicBot


def measure(players: int, matches: int, target: int = 200) -> str:
    game = load_game("mu", players=players, target=target)
    wins = 0.0
    heur_delta = rand_delta = 0.0
    heur_hands = rand_hands = 0
    for index in range(matches):
        seat = index % players
        bots = [MuHeuristicBot() if s == seat else RandomBot() for s in range(players)]
        state = play_game(game, bots, random.Random(index), random.Random(10_000 + index))
        winners = state.winners()
        if seat in winners:
            wins += 1 / len(winners)
        for hand in state.log:
            for s, delta in enumerate(hand["deltas"]):
                if s == seat:
                    heur_delta += delta
                    heur_hands += 1
                else:
                    rand_delta += delta
                    rand_hands += 1
    return (
        f"{players} players, {matches} matches: heuristic wins {wins / matches:.1%} (even share "
        f"{1 / players:.1%}); per hand: heuristic {heur_delta / heur_hands:+.1f}, random {rand_delta / rand_hands:+.1f}"
    )


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for n in (3, 4, 5, 6):
        print(measure(n, count), flush=True)
