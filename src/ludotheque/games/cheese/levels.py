"""Cheese Rescue's bot levels: plain data that ``ludotheque.bots`` reads (``bots/levels.py`` has the generic levels
and the format of these overrides).

At 4 seats the search is not measurably stronger than the heuristic it rolls out: ``hard`` beat a 40-iteration
``medium`` only by a tie (54.7 % of 96 games) and the plain heuristic too (59.9 % of 96).  So the ladder is spread
below ``hard`` there: ``medium`` is the heuristic with 30 % random moves and ``easy`` with 50 %; ``hard`` beat
that ``medium`` in 86.5 % [78.2, 93.2] of 96 games, which beat ``easy`` in 66.8 % [63.0, 70.5] of 600.
"""

from __future__ import annotations

from typing import Any

LEVEL_SETTINGS: dict[str, dict[str, Any]] = {
    "easy": {"by_players": {4: {"epsilon": 0.5}}},
    "medium": {"iterations": 40, "by_players": {4: {"kind": "noisy", "epsilon": 0.3}}},
    # 4 seats: 160 iterations, not the scaled 80, too few for the ~100 placements of a game
    "hard": {"iterations": 160, "by_players": {4: {"iterations": 160}}},
}
