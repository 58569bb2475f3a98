"""What a person's frame pays for Rummü's laying help (``RummuGame.seat_help``, ``games/rummu/laying.py``).
``python -m benchmarks.seat_help [GAMES] [PLAYERS]`` (default: 30 one-hand games at 3 players).

The server asks for the help once per frame of the person who acts (bots never do).  This plays random one-hand
games, asks for the acting seat's help at every decision, and prints the time it took: median, 99th percentile and
worst, with the hand size at the worst.  Random players take whole discard piles, so their hands grow far beyond
a person's: the worst case here is larger than at a table.
"""

from __future__ import annotations

import json
import random
import sys
import time

from ludotheque.core import CHANCE
from ludotheque.games import load_game


def main(games: int = 30, players: int = 3) -> None:
    game = load_game("rummu", players=players, hands=1)
    timings: list[tuple[float, int]] = []
    for seed in range(games):
        state, rng = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights)[0], CHANCE)
                continue
            seat = state.current_players()[0]
            start = time.perf_counter()
            game.seat_help(state, seat)
            timings.append((time.perf_counter() - start, len(state.view(seat)["table"]["hand"])))
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    timings.sort()
    worst, hand = timings[-1]
    print(json.dumps({"game": "rummu", "players": players, "calls": len(timings),
                      "median_ms": round(timings[len(timings) // 2][0] * 1e3, 3),
                      "p99_ms": round(timings[int(len(timings) * 0.99)][0] * 1e3, 2),
                      "worst_ms": round(worst * 1e3, 1), "hand_at_worst": hand}))


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
