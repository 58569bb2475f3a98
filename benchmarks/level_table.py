"""The strength table of docs/bots.md from the arena runs it lists (their ``--json`` output saved as
``DIR/GAME-N-LEVEL.json``, and ``DIR/GAME-N-random.json`` for easy against random; ``DIR/mice-1.json`` and
``DIR/mice-1-hard.json`` for the solo game): ``python -m benchmarks.level_table DIR`` prints the Markdown table.

A cell is the reference (``heuristic``) player's win rate against a table of the level, with its 95 % interval;
a step holds when the harder level's interval lies wholly below the easier one's.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

TABLES = [("geier", n) for n in (2, 3, 4, 5)] + [("calcory", n) for n in (2, 3, 4)] + [
    ("cheese", n) for n in (2, 3, 4)] + [("mice", n) for n in (1, 2, 3, 4, 5)] + [("mu", n) for n in (3, 4, 5, 6)] + [
    ("rummu", n) for n in (3, 4, 5, 6)] + [("safaru", n) for n in (2, 3, 4)]
LEVELS = ("easy", "medium", "hard")


def load(path: Path) -> dict[str, Any] | None:
    try:
        data: dict[str, Any] = json.loads(path.read_text())
        return data
    except (OSError, ValueError):
        return None


def cell(interval: dict[str, float] | None, games: int) -> str:
    if interval is None:
        return "not measured"
    return f"{100 * interval['estimate']:.1f} % [{100 * interval['low']:.1f}, {100 * interval['high']:.1f}] ({games})"


def reference_rate(folder: Path, game: str, players: int, level: str) -> tuple[dict[str, float] | None, int]:
    if players == 1:  # the solo game: how often the reference did better than the level on the same deal
        data = load(folder / ("mice-1-hard.json" if level == "hard" else "mice-1.json"))
        if data is None or level not in data["head_to_head"].get("heuristic", {}):
            return None, 0
        return data["head_to_head"]["heuristic"][level], int(data["games"])
    data = load(folder / f"{game}-{players}-{level}.json")
    if data is None:
        return None, 0
    return data["summary"]["heuristic"]["win_rate"], int(data["summary"]["heuristic"]["games"])


def easy_over_random(folder: Path, game: str, players: int) -> tuple[dict[str, float] | None, int]:
    data = load(folder / ("mice-1.json" if players == 1 else f"{game}-{players}-random.json"))
    if data is None:
        return None, 0
    return data["head_to_head"]["easy"]["random"], int(data["games"])


def steps(rates: list[dict[str, float] | None]) -> str:
    """Which steps of easy > medium > hard separate (the harder interval wholly below the easier)."""
    words = []
    for (name, easier), harder in zip((("easy→medium", rates[0]), ("medium→hard", rates[1])), rates[1:], strict=True):
        if easier is None or harder is None:
            words.append(f"{name}: not measured")
        elif harder["high"] < easier["low"]:
            words.append(f"{name}: holds")
        else:
            words.append(f"{name}: does not separate")
    return "; ".join(words)


def table(folder: Path) -> str:
    lines = ["| game | players | `heuristic` vs `easy` | vs `medium` | vs `hard` | `easy` > `random` | steps |",
             "|---|---:|---|---|---|---|---|"]
    for game, players in TABLES:
        rates = [reference_rate(folder, game, players, level) for level in LEVELS]
        versus, games = easy_over_random(folder, game, players)
        lines.append(f"| {game} | {players} | " + " | ".join(cell(r, g) for r, g in rates)
                     + f" | {cell(versus, games)} | {steps([r for r, _ in rates])} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(Path(sys.argv[1] if len(sys.argv) > 1 else "levels")))
