"""MICE to meet you's bot levels: plain data that ``ludotheque.bots`` reads (``bots/levels.py`` has the generic
levels and the format of these overrides).

* Solo and 4-5 seats: ``hard`` could not be told from the searching ``medium`` (55.8 % of 60 solo deals; 54.5 % of
  22 games at 4 seats, 45.0 % against a fair 40 % at 5) nor, solo, from the plain heuristic (56.1 % of 33).  So
  ``medium`` is the heuristic with 30 % random moves and ``easy`` with 50 %: ``hard`` beat that ``medium`` on
  82.5 % [68.1, 91.8] of 40 solo deals and finished ahead of it in 91.2 % [78.5, 99.7] of 40 games at 4 seats
  and 92.5 % [80.1, 100.0] at 5, and that ``medium`` beat ``easy`` in 67.6 % and 68.6 % of 600 games.
* 3 seats: ``hard`` beat the 80-iteration search only by a tie (50.0 % of 21 games) and the plain heuristic in
  68.3 % [50.4, 82.1] of 30, so ``medium`` is the plain heuristic.
"""

from __future__ import annotations

from typing import Any

_NOISY_MEDIUM: dict[str, Any] = {"kind": "noisy", "epsilon": 0.3}

LEVEL_SETTINGS: dict[str, dict[str, Any]] = {
    "easy": {"by_players": {1: {"epsilon": 0.5}, 4: {"epsilon": 0.5}, 5: {"epsilon": 0.5}}},
    # 2 seats: 80 iterations, not 120, which took up to 1.36 s of CPU on the slowest move (hard keeps its budget)
    "medium": {
        "iterations": 120,
        "by_players": {
            1: _NOISY_MEDIUM,
            2: {"iterations": 80},
            3: {"kind": "noisy", "epsilon": 0.0},
            4: _NOISY_MEDIUM,
            5: _NOISY_MEDIUM,
        },
    },
    "hard": {"iterations": 480},
}
