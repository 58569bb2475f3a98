"""Cheese Rescue notation (a contract, see docs/games/cheese.md).

A placement is the kind then the cell: ``"C e4"`` puts a cat on e4, ``"2 f5"`` the seat's cheese worth 2 on f5.
Kinds: ``D`` dog, ``C`` cat, ``M`` mouse, ``1``/``2``/``3`` the seat's own cheese of that value.  Cells are
named like a chess board over the F x F frame: columns ``a``.. from the left, rows ``1``.. from the bottom, so
the centre (start card) is ``e5`` with 2 players, ``f6`` with 3 and ``g7`` with 4.
Chance draws an animal for the seat whose turn it is to draw: ``"dog"``, ``"cat"`` or ``"mouse"``.
Parsing is lenient: any case, the space optional, ``dog``/``cat``/``mouse`` accepted for the kind letter.

The structured form (``to_json``) names the card by its kind letter (``"C"``, ``"3"``) and the cell by its row and
column in the frame, counted from 0 at the top left: ``{"type": "place", "card": "C", "row": 5, "col": 4}`` is
``"C e4"`` with 2 players.  The view's cell numbers are ``row * F + col`` in the same frame.
"""

from __future__ import annotations

from typing import Any

from ludotheque.core import NotationError
from ludotheque.games.cheese.rules import ANIMAL_NAMES, ANIMALS, KIND_CODES, KINDS

#: The largest frame (4 players: 13 x 13); rows and columns of the structured form are below it.
_MAX_FRAME = 13

#: The structured form of a move (``to_json``): a seat places a card from its hand, chance draws an animal.
MOVE_SCHEMA: dict[str, Any] = {
    "title": "cheese move",
    "oneOf": [
        {
            "type": "object",
            "required": ["type", "card", "row", "col"],
            "additionalProperties": False,
            "properties": {
                "type": {"const": "place"},
                "card": {"enum": list(KIND_CODES)},
                "row": {"type": "integer", "minimum": 0, "maximum": _MAX_FRAME - 1},
                "col": {"type": "integer", "minimum": 0, "maximum": _MAX_FRAME - 1},
            },
        },
        {
            "type": "object",
            "required": ["type", "card"],
            "additionalProperties": False,
            "properties": {"type": {"const": "draw"}, "card": {"enum": [KIND_CODES[a] for a in ANIMALS]}},
        },
    ],
}

_KIND_WORDS = {code.lower(): kind for kind, code in enumerate(KIND_CODES)}
_KIND_WORDS.update({name: kind for kind, name in enumerate(ANIMAL_NAMES)})
_COLUMNS = "abcdefghijklm"


def cell_name(cell: int, frame: int) -> str:
    row, col = divmod(cell, frame)
    return f"{_COLUMNS[col]}{frame - row}"


def parse_cell(text: str, frame: int, game_id: str = "cheese") -> int:
    word = text.strip().lower()
    if len(word) >= 2 and word[0] in _COLUMNS[:frame] and word[1:].isdigit():
        col = _COLUMNS.index(word[0])
        number = int(word[1:])
        if 1 <= number <= frame:
            return (frame - number) * frame + col
    last = _COLUMNS[frame - 1]
    raise NotationError(f"{game_id}: {text!r} is not a cell (columns a..{last}, rows 1..{frame}, e.g. a1)")


def to_json(action: int, frame: int, chance: bool) -> dict[str, Any]:
    """``{"type": "place", "card": "C", "row": 5, "col": 4}`` (row and column from the frame's top left), or
    chance's ``{"type": "draw", "card": "M"}``."""
    if chance:
        return {"type": "draw", "card": KIND_CODES[action]}
    kind, cell = divmod(action, frame * frame)
    row, col = divmod(cell, frame)
    return {"type": "place", "card": KIND_CODES[kind], "row": row, "col": col}


def format_action(action: int, frame: int, chance: bool) -> str:
    if chance:
        return ANIMAL_NAMES[action]
    kind, cell = divmod(action, frame * frame)
    return f"{KIND_CODES[kind]} {cell_name(cell, frame)}"


def parse_action(text: str, frame: int, chance: bool, game_id: str = "cheese") -> int:
    """The action a text names, before any legality check; ``NotationError`` if it is not notation."""
    if not isinstance(text, str):
        raise NotationError(f"{game_id}: a move is written as text, not {text!r}")
    word = text.strip().lower()
    if chance:
        if word in ANIMAL_NAMES:
            return ANIMAL_NAMES.index(word)
        raise NotationError(f"{game_id}: {text!r} is not a draw (write dog, cat or mouse)")
    parts = word.replace("@", " ").split()
    if len(parts) == 1 and len(word) >= 3:
        parts = [word[0], word[1:]]  # "ce4" = "C e4"
    if len(parts) != 2 or parts[0] not in _KIND_WORDS:
        raise NotationError(
            f"{game_id}: {text!r} is not a placement (write a kind D, C, M, 1, 2 or 3 and a cell, e.g. 'C e4')"
        )
    kind = _KIND_WORDS[parts[0]]
    assert kind < KINDS
    return kind * frame * frame + parse_cell(parts[1], frame, game_id)
