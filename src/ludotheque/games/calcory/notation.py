"""Calcory notation (a contract, see docs/games/calcory.md).

Seat moves: ``"C4"`` flips cell C4 (rows A..F, columns 1..10); ``"stop"``; ``"pass"``; ``"7@C4"`` puts a 7
back face down on the empty cell C4.  Chance deals the next cell: ``"A1=7"`` (a bare ``"7"`` is accepted too).
Parsing ignores case and spaces.
"""

from __future__ import annotations

from typing import Any

from ludotheque.core import NotationError
from ludotheque.core.schema import move_object
from ludotheque.games.calcory import rules

GAME = "calcory"

_CELL = {"type": "string", "pattern": "^[A-F]([1-9]|10)$"}
_VALUE = {"type": "integer", "minimum": 0, "maximum": 9}




#: The structured form of a move (``to_json``): a seat flips a cell, stops, passes, or puts a held value back on
#: an empty cell; chance deals a value to the next cell of the grid (``cell`` absent once the grid is full).
MOVE_SCHEMA: dict[str, Any] = {
    "title": "calcory move",
    "oneOf": [
        move_object("flip", cell=_CELL),
        move_object("stop"),
        move_object("pass"),
        move_object("put_back", value=_VALUE, cell=_CELL),
        {
            "type": "object",
            "required": ["type", "value"],
            "additionalProperties": False,
            "properties": {"type": {"const": "deal"}, "value": _VALUE, "cell": _CELL},
        },
    ],
}


def to_json(action: int) -> dict[str, Any]:
    """A seat's move: ``{"type": "flip", "cell": "C4"}``, ``{"type": "stop"}``, ``{"type": "pass"}`` or
    ``{"type": "put_back", "value": 7, "cell": "C4"}``."""
    if 0 <= action < rules.CELLS:
        return {"type": "flip", "cell": rules.CELL_NAMES[action]}
    if action == rules.STOP:
        return {"type": "stop"}
    if action == rules.PASS:
        return {"type": "pass"}
    if rules.PUT_BASE <= action < rules.NUM_ACTIONS:
        value, cell = rules.split_put(action)
        return {"type": "put_back", "value": value, "cell": rules.CELL_NAMES[cell]}
    raise NotationError(f"{GAME}: {action!r} is not an action (0..{rules.NUM_ACTIONS - 1})")


def deal_to_json(next_cell: int, value: int) -> dict[str, Any]:
    """Chance's move: ``{"type": "deal", "cell": "A1", "value": 7}`` (the cell the value lands on, face down)."""
    if not 0 <= value <= 9:
        raise NotationError(f"{GAME}: {value!r} is not a card value (0..9)")
    if 0 <= next_cell < rules.CELLS:
        return {"type": "deal", "cell": rules.CELL_NAMES[next_cell], "value": value}
    return {"type": "deal", "value": value}


def format_action(action: int) -> str:
    if 0 <= action < rules.CELLS:
        return rules.CELL_NAMES[action]
    if action == rules.STOP:
        return "stop"
    if action == rules.PASS:
        return "pass"
    if rules.PUT_BASE <= action < rules.NUM_ACTIONS:
        value, cell = rules.split_put(action)
        return f"{value}@{rules.CELL_NAMES[cell]}"
    raise NotationError(f"{GAME}: {action!r} is not an action (0..{rules.NUM_ACTIONS - 1})")


def format_deal(next_cell: int, value: int) -> str:
    if not 0 <= value <= 9:
        raise NotationError(f"{GAME}: {value!r} is not a card value (0..9)")
    if 0 <= next_cell < rules.CELLS:
        return f"{rules.CELL_NAMES[next_cell]}={value}"
    return str(value)


def _clean(text: str) -> str:
    if not isinstance(text, str):
        raise NotationError(f"{GAME}: a move is written as text, not {text!r}")
    return "".join(text.split()).upper()


def _cell(word: str, text: str) -> int:
    if word not in rules.CELL_INDEX:
        raise NotationError(f"{GAME}: {text!r} does not name a cell (rows A-F, columns 1-10, e.g. C4)")
    return rules.CELL_INDEX[word]


def _value(word: str, text: str) -> int:
    if len(word) != 1 or not word.isdigit():
        raise NotationError(f"{GAME}: {text!r} does not name a card value (0..9)")
    return int(word)


def parse_action(text: str) -> int:
    """The seat action a text names, before any legality check; ``NotationError`` if it is not notation."""
    word = _clean(text)
    if word == "STOP":
        return rules.STOP
    if word == "PASS":
        return rules.PASS
    if "@" in word:
        value, _, cell = word.partition("@")
        return rules.put_action(_value(value, text), _cell(cell, text))
    if not word:
        raise NotationError(f"{GAME}: empty move (write a cell like C4, stop, pass, or 7@C4)")
    if word[0].isalpha():
        return _cell(word, text)
    raise NotationError(f"{GAME}: {text!r} is not a move (write a cell like C4, stop, pass, or 7@C4)")


def parse_deal(text: str, next_cell: int | None) -> int:
    """The chance action of a deal text; the cell, if written, must be the next one dealt."""
    word = _clean(text)
    if "=" in word:
        cell, _, value = word.partition("=")
        if next_cell is None or _cell(cell, text) != next_cell:
            expected = "no cell" if next_cell is None else rules.CELL_NAMES[next_cell]
            raise NotationError(f"{GAME}: {text!r} deals the wrong cell (next: {expected})")
        return _value(value, text)
    return _value(word, text)
