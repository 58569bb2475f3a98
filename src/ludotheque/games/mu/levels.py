"""Mü's bot levels: plain data that ``ludotheque.bots`` reads (``bots/levels.py`` has the generic levels and the
format of these overrides).

Budgets are set for 3 seats (the fewest Mü allows).  Rollouts are cut at 150 moves, so a move costs no more
with more seats: at 5 and 6 seats ``hard`` searches 240 iterations (the scaled 96 and 80 used a quarter of its
time).

* 5 seats: ``hard`` beat a 60-iteration ``medium`` only by a tie (53.3 %), so ``medium`` is the plain heuristic,
  which ``hard`` beat in 59.2 % [50.2, 67.5].
* 6 seats: ``hard`` tied with the plain heuristic (48.3 % of 60 hands), and no ``easy`` noisier than 30 % beats
  random (50 % ties with it: 50.5 % of 600 hands).  So ``medium`` is the heuristic with 15 % random moves: it beat
  ``easy`` in 54.9 % [52.9, 56.9] of 600 hands, and ``hard`` beat it in 61.5 % [55.2, 67.4] of 240.
"""

from __future__ import annotations

from typing import Any

LEVEL_SETTINGS: dict[str, dict[str, Any]] = {
    "medium": {
        "iterations": 40,
        "max_rollout_steps": 150,
        "budget_players": 3,
        "by_players": {5: {"kind": "noisy", "epsilon": 0.0}, 6: {"kind": "noisy", "epsilon": 0.15}},
    },
    "hard": {
        "iterations": 160,
        "max_rollout_steps": 150,
        "budget_players": 3,
        "by_players": {5: {"iterations": 240}, 6: {"iterations": 240}},
    },
}
