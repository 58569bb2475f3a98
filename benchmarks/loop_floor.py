"""How fast can *any* engine go through the benchmark's playout loop in CPython?
``python -m benchmarks.loop_floor [SECONDS] [GAME ...]`` (default: Geier at 2, 3 and 5 players).

``ludotheque bench`` drives each game with the loop a researcher writes (``ludotheque.bench.random_playout``).
This runs the very same loop over a *null* engine with the game's shape (``ludotheque.bench.ceiling``: recorded
random games replayed with prebuilt lists, every method doing the least it can).  What it reaches is the
ceiling for any Python engine behind this protocol, however it is written; ``ludotheque bench`` reports it per
game as ``ceiling``.  For Geier, OpenSpiel's goofspiel driven by the same loop in the same run gives the ratio the
issue asks about.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from ludotheque.bench import load_for_bench, loop_ceiling, timed_rates
from ludotheque.games import game_class
from ludotheque.games.geier.bench import goofspiel


def main(seconds: float = 1.0, game_ids: list[str] | None = None, runs: int = 5) -> None:
    configs = [("geier", n) for n in (2, 3, 5)] if not game_ids else [
        (game_id, n) for game_id in game_ids
        for n in range(game_class(game_id).min_players, game_class(game_id).max_players + 1)
    ]
    for game_id, players in configs:
        game = load_for_bench(game_id, players)
        null = loop_ceiling(game, seconds, runs)
        row: dict[str, Any] = {"game": game_id, "players": players, **null}
        if game_id == "geier":
            reference = goofspiel(players, lambda work: timed_rates(work, seconds, runs))
            if reference is not None:
                spiel = reference["games_per_s"]["per_second"]
                row["openspiel_goofspiel_games_per_s"] = round(spiel)
                row["null_engine_over_openspiel"] = round(null["deals_per_s"] / spiel, 2)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0, sys.argv[2:])
