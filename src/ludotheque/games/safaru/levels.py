"""Safarü's bot levels: plain data that ``ludotheque.bots`` reads (``bots/levels.py`` has the generic levels and
the format of these overrides).

At 3 and 4 seats (4: one bot per team) the search is close to the heuristic it rolls out, so the ladder is spread
below ``hard``: ``medium`` is the heuristic with 30 % random moves and ``easy`` with 50 %.

* 3 seats: the search at ``medium``'s budget made more points than the 30 % heuristic but did not finish ahead of it
  more often (53.3 % [47.0, 59.5], 240 games) and tied with ``hard`` (53.3 % of 60); ``hard`` finished ahead of the
  30 % heuristic in 68.3 % [59.6, 76.0] of 120 games, and the 50 % heuristic still beats random (81.9 %).
* 4 seats: ``hard`` tied with the search at ``medium``'s budget and with the plain heuristic (53.8 % of 40 games
  each), and scored 71.7 % [59.2, 83.4] against the 30 % heuristic (60 games).
"""

from __future__ import annotations

from typing import Any

_NOISY_MEDIUM: dict[str, Any] = {"kind": "noisy", "epsilon": 0.3}

LEVEL_SETTINGS: dict[str, dict[str, Any]] = {
    "easy": {"by_players": {3: {"epsilon": 0.5}, 4: {"epsilon": 0.5}}},
    # 2 seats: 60 iterations, not 80, which took up to 1.15 s of CPU on the slowest move
    "medium": {"iterations": 80, "by_players": {2: {"iterations": 60}, 3: _NOISY_MEDIUM, 4: _NOISY_MEDIUM}},
    # 3 seats: rollouts with half their moves random, an opponent model less sure of the others; with the usual
    # 15 % the search at medium's budget finished ahead of easy in only 40.0 % of 30 games
    "hard": {"iterations": 320, "by_players": {3: {"rollout_epsilon": 0.5}}},
}
