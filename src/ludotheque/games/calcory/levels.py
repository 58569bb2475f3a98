"""Calcory's bot levels and its forgetting rule: plain data and a view filter that ``ludotheque.bots`` reads
(``bots/levels.py`` has the generic levels and the format of these overrides).

Memory is the game (calcory-5), so the easier levels forget: ``easy`` and ``medium`` play the heuristic on a view
whose log of reveals keeps only the last turns (``forget``), as a person forgets what a card now face down
showed long ago.  ``hard`` searches with everything the seat has seen: ISMCTS cannot forget through the
protocol, since ``resample`` keeps every card the seat has seen.
"""

from __future__ import annotations

from typing import Any

LEVEL_SETTINGS: dict[str, dict[str, Any]] = {
    # remembers the reveals of the current turn only, and plays 10 % of its moves at random
    "easy": {"kind": "forgetful", "memory": 1, "epsilon": 0.1},
    # remembers the reveals of the last 6 turns
    "medium": {"kind": "forgetful", "memory": 6, "epsilon": 0.0},
    "hard": {"iterations": 800},
}


def forget(view: dict[str, Any], memory: int) -> dict[str, Any]:
    """``view`` with only the reveals of the last ``memory`` turns (the current one included) in its log.

    It reads only the view, so a forgetful bot never knows more than the plain one; the view is not changed."""
    table = view["table"]
    log = table.get("log")
    if not isinstance(log, dict) or "turn" not in log:
        return view
    oldest = int(table.get("turn", 0)) - memory + 1
    keep = [i for i, turn in enumerate(log["turn"]) if turn >= oldest]
    forgotten = {key: [column[i] for i in keep] for key, column in log.items()}
    return {**view, "table": {**table, "log": forgotten}}
