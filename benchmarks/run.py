"""The long benchmark run (``make bench``): every game, every player count, longer timed runs, as JSON too."""

from __future__ import annotations

import json
import platform
import sys
from pathlib import Path

from ludotheque.bench import bench_game
from ludotheque.games import game_ids


def main() -> None:
    rows = []
    for game_id in game_ids():
        for row in bench_game(game_id, seconds=2.0, runs=5, bot_moves=5):
            rows.append(row)
            print(json.dumps(row), flush=True)
    machine = {"python": sys.version.split()[0], "machine": platform.machine(), "processor": platform.processor()}
    out = Path("benchmarks") / "latest.json"
    out.write_text(json.dumps({"machine": machine, "rows": rows}, indent=1) + "\n")
    print(f"written to {out}")


if __name__ == "__main__":
    main()
