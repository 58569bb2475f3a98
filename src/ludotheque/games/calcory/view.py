"""What a Calcory seat may see: the one place where hidden information is filtered (DECISIONS all-3, calcory-5).

Hidden: the value of every face-down card.  Everything else is public, and every seat sees the same table:
all flips are made in front of everybody, and a card put back is one of the face-up cards everyone saw, so
the history of reveals is shared.  It is ``log``, column by column (``turn``, ``seat``, ``kind`` "flip" or
"back", ``cell``, ``value``; entry i of each column describes the i-th reveal).  Following calcory-5, a
face-down card is only ever ``"down"`` in ``cells``; what it is can be remembered from ``log`` (which cell
was revealed, when, by whom, with what value) but is never stated as a current fact.  ``memory`` below is
that recollection, for bots and the tensor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ludotheque.games.calcory import rules

if TYPE_CHECKING:
    from ludotheque.games.calcory.game import CalcoryState

_EMPTY, _DOWN, _UP, _MARKED = 0, 1, 2, 3  # the state's cell statuses (game.py)
_HIDDEN = (None, "down")  # what an empty (_EMPTY) and a face-down (_DOWN) cell show: never a value

_CELL = {"type": "string", "pattern": "^[A-F]([1-9]|10)$"}
_VALUE = {"type": "integer", "minimum": 0, "maximum": 9}
_VALUES = {"type": "array", "items": _VALUE}
_SEAT = {"type": "integer", "minimum": 0, "maximum": 3}
_COUNT = {"type": "integer", "minimum": 0}
_SEATS = {"type": "array", "items": _COUNT}
_CELL_VALUE = {"type": "array", "prefixItems": [_CELL, _VALUE], "items": False, "minItems": 2}


def _object(required: list[str], optional: dict[str, Any] | None = None, **properties: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": required,
        "properties": {**properties, **(optional or {})},
    }


def _column(items: str) -> dict[str, Any]:
    """A column of ``log``.  It grows with the game and every view carries it whole, so its items are described
    rather than checked one by one (``LOG_ITEMS`` holds their schemas; the tests check them)."""
    return {"type": "array", "description": f"one entry per reveal: {items}"}


#: The schema of each item of each ``log`` column (see ``_column``).
LOG_ITEMS: dict[str, Any] = {
    "turn": _COUNT,
    "seat": _SEAT,
    "kind": {"enum": ["flip", "back"]},
    "cell": _CELL,
    "value": _VALUE,
}

#: JSON Schema of ``view["table"]``: the same for every seat and for a spectator (every reveal is public).
#: A cell is ``null`` (empty, or not dealt yet), ``"down"`` (face down, never its value: calcory-5) or the value
#: of a face-up card.
TABLE_SCHEMA: dict[str, Any] = _object(
    ["dealt", "turn", "phase", "cells", "flipped", "sum", "zeros", "marked", "holding", "collecting", "markers",
     "piles", "cards_won", "log", "last_turn", "ending"],
    dealt={"type": "integer", "minimum": 0, "maximum": rules.CELLS},
    turn=_COUNT,
    phase={"enum": ["flip", "put_back", "pass", "over"]},
    cells={
        "type": "array",
        "minItems": rules.CELLS,
        "maxItems": rules.CELLS,
        "items": {"enum": [None, "down", *rules.VALUES]},
    },
    flipped={"type": "array", "items": _CELL_VALUE},
    sum={"type": "integer", "minimum": 0, "maximum": rules.TARGET},
    zeros={"type": "integer", "minimum": 0, "maximum": 1},
    marked={
        "oneOf": [
            {"type": "null"},
            _object(
                ["seat", "cells", "sum", "count"],
                seat=_SEAT,
                cells={"type": "array", "items": _CELL, "minItems": 1, "maxItems": rules.MARKERS},
                sum=_COUNT,
                count={"type": "integer", "minimum": 1, "maximum": rules.MARKERS},
            ),
        ]
    },
    holding=_VALUES,
    collecting={"type": "boolean"},
    markers={"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": rules.MARKERS}},
    piles={"type": "array", "items": _VALUES},
    cards_won=_SEATS,
    log=_object(
        ["turn", "seat", "kind", "cell", "value"],
        turn=_column("integer: the turn (1 for the first)"),
        seat=_column("integer: the seat that revealed the card"),
        kind=_column('"flip" (turned face up) or "back" (put back face down, seen by all)'),
        cell=_column('string: the cell, "A1".."F10"'),
        value=_column("integer 0..9: the value it showed"),
    ),
    last_turn={
        "oneOf": [
            {"type": "null"},
            _object(
                ["turn", "seat", "flips", "outcome"],
                {"back": _CELL_VALUE, "kept": _COUNT, "beaten": _SEAT},
                turn=_COUNT,
                seat=_SEAT,
                flips={"type": "array", "items": _CELL_VALUE},
                outcome={"enum": ["bust", "13", "mark", "beat", "fail", "stuck", "pass", "collect"]},
            ),
        ]
    },
    ending={
        "oneOf": [
            {"type": "null"},
            _object(["turn", "seat", "cell", "value"], turn=_COUNT, seat=_SEAT, cell=_CELL, value=_VALUE),
        ]
    },
)


def table_view(state: CalcoryState, player: int | None) -> dict[str, Any]:
    names = rules.CELL_NAMES
    # a face-up or marked card shows its value; a face-down one only "down"; an empty cell (or one not dealt
    # yet) nothing
    cells: list[Any] = [
        card if status >= _UP else _HIDDEN[status] for status, card in zip(state.status, state.card, strict=True)
    ]
    marked = None
    if state.marked_owner >= 0:
        marked = {
            "seat": state.marked_owner,
            "cells": [names[c] for c in state.marked],
            "sum": sum(state.card[c] for c in state.marked),
            "count": len(state.marked),
        }
    return {
        "dealt": state.dealt,
        "turn": state.turn,
        "phase": state.phase,
        "cells": cells,
        "flipped": [[names[c], state.card[c]] for c in state.flipped],
        "sum": state.total,
        "zeros": state.zeros,
        "marked": marked,
        "holding": sorted(state.holding),
        "collecting": state.collecting,
        "markers": list(state.markers),
        "piles": [list(pile) for pile in state.piles],
        "cards_won": [len(pile) for pile in state.piles],
        "log": {key: list(column) for key, column in state.log.items()},
        "last_turn": state.last_turn,
        "ending": state.ending,
    }


def memory(table: dict[str, Any]) -> dict[int, int]:
    """cell -> value of the face-down cards the history reveals (the last reveal on a cell is the card there:
    a card only ever arrives on a cell by being put back, which is itself a reveal)."""
    log = table["log"]
    # one dict built from the pairs in order: a cell revealed again keeps its place and takes the later value
    last: dict[int, int] = dict(zip(map(rules.CELL_INDEX.__getitem__, log["cell"]), log["value"], strict=True))
    cells = table["cells"]
    return {c: v for c, v in last.items() if cells[c] == "down"}


def unseen_counts(table: dict[str, Any], remembered: dict[int, int] | None = None) -> list[int]:
    """How many cards of each value have never been seen: the deck minus every card seen (face up, remembered
    face down, held, won).  Cards not dealt yet count as unseen."""
    if remembered is None:
        remembered = memory(table)
    counts = list(rules.DECK_COUNTS)
    for v in table["cells"]:
        if v is not None and v != "down" and isinstance(v, int):  # most cells are face down
            counts[v] -= 1
    for v in remembered.values():
        counts[v] -= 1
    for v in table["holding"]:
        counts[v] -= 1
    for pile in table["piles"]:
        for v in pile:
            counts[v] -= 1
    return counts


def _cell_features(players: int) -> int:
    return 14 + players


def observation_shape(players: int) -> tuple[int, ...]:
    return (rules.CELLS * _cell_features(players) + 3 * players + 26,)


def encode(view: dict[str, Any]) -> NDArray[np.float32]:
    """Layout: per cell A1..F10, ``14 + n`` features: empty, face down never seen, face down remembered,
    value one-hot 0..9 (face up or remembered), flipped this turn, marked by seat (n, relative to the observer:
    observer first, then clockwise; seat 0 first for a spectator).  Then per seat (relative): cards won / 60,
    markers at home / 6, to act.  Then: sum / 13, zeros, cards flipped / 6, phase one-hot (flip, put_back,
    pass), held values (10 counts / 6), never-seen values (10 counts / 10)."""
    table = view["table"]
    n = view["players"]
    first = view["seat"] or 0
    per = _cell_features(n)
    out = np.zeros(observation_shape(n), dtype=np.float32)
    remembered = memory(table)
    marked = table["marked"]
    marked_cells = {rules.CELL_INDEX[name] for name in marked["cells"]} if marked else set()
    flipped = {rules.CELL_INDEX[name] for name, _ in table["flipped"]}
    for c, item in enumerate(table["cells"]):
        base = c * per
        if item is None:
            out[base] = 1
        elif item == "down":
            if c in remembered:
                out[base + 2] = 1
                out[base + 3 + remembered[c]] = 1
            else:
                out[base + 1] = 1
        else:
            out[base + 3 + item] = 1
            if c in flipped:
                out[base + 13] = 1
            if c in marked_cells and marked is not None:
                out[base + 14 + (marked["seat"] - first) % n] = 1
    base = rules.CELLS * per
    to_act = set(view["to_act"])
    for offset in range(n):
        seat = (first + offset) % n
        out[base + 3 * offset] = table["cards_won"][seat] / rules.DECK_SIZE
        out[base + 3 * offset + 1] = table["markers"][seat] / rules.MARKERS
        out[base + 3 * offset + 2] = float(seat in to_act)
    base += 3 * n
    out[base] = table["sum"] / rules.TARGET
    out[base + 1] = table["zeros"]
    out[base + 2] = len(table["flipped"]) / rules.MARKERS
    phases = ("flip", "put_back", "pass")
    if table["phase"] in phases:
        out[base + 3 + phases.index(table["phase"])] = 1
    for v in table["holding"]:
        out[base + 6 + v] += 1 / rules.MARKERS
    for v, count in enumerate(unseen_counts(table, remembered)):
        out[base + 16 + v] = count / 10
    return out
