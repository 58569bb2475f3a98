"""Rummü's bot levels: plain data that ``ludotheque.bots`` reads (``bots/levels.py`` has the generic levels and
the format of these overrides).

Budgets are set for 3 seats (the fewest Rummü allows); rollouts are cut at 100 moves.

At 4-6 seats the search is not measurably stronger than the heuristic it rolls out: ``hard`` beat a 40-iteration
``medium`` only by a tie at 4 (57.5 %), and the plain heuristic too (58.8 %, 50.0 % and 48.8 % of 40-42 hands at 4,
5 and 6).  So ``medium`` is the heuristic with 30 % random moves and ``easy`` with 50 %; ``hard`` beat that
``medium`` in 75.0 % [64.5, 84.9] of 80 hands at 4, 81.2 % [71.3, 91.1] of 80 at 5 and 71.2 % [61.7, 80.8] of 120
at 6.
"""

from __future__ import annotations

from typing import Any

_NOISY_MEDIUM: dict[str, Any] = {"kind": "noisy", "epsilon": 0.3}
_NOISIER_EASY: dict[str, Any] = {"epsilon": 0.5}

LEVEL_SETTINGS: dict[str, dict[str, Any]] = {
    "easy": {"by_players": {4: _NOISIER_EASY, 5: _NOISIER_EASY, 6: _NOISIER_EASY}},
    # 3 seats: 24 iterations, not 40, which took up to 1.2 s of CPU on a move (30 still reached 1.04 s)
    "medium": {
        "iterations": 40,
        "max_rollout_steps": 100,
        "budget_players": 3,
        "by_players": {3: {"iterations": 24}, 4: _NOISY_MEDIUM, 5: _NOISY_MEDIUM, 6: _NOISY_MEDIUM},
    },
    "hard": {"iterations": 160, "max_rollout_steps": 100, "budget_players": 3, "by_players": {3: {"iterations": 120}}},
}
