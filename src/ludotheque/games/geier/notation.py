"""Geier notation (a contract): a seat plays ``"14"``; chance turns a point card ``"+7"`` or ``"-3"``."""

from __future__ import annotations

from typing import Any

from ludotheque.core import NotationError
from ludotheque.games.geier.rules import POINT_CARDS, POINT_INDEX

#: The structured form of a move (``to_json``): a seat plays a card from hand, chance turns a point card.
MOVE_SCHEMA: dict[str, Any] = {
    "title": "geier move",
    "oneOf": [
        {
            "type": "object",
            "required": ["type", "card"],
            "additionalProperties": False,
            "properties": {"type": {"const": "play"}, "card": {"type": "integer", "minimum": 1, "maximum": 15}},
        },
        {
            "type": "object",
            "required": ["type", "points"],
            "additionalProperties": False,
            "properties": {"type": {"const": "turn"}, "points": {"enum": list(POINT_CARDS)}},
        },
    ],
}


def to_json(action: int, chance: bool) -> dict[str, Any]:
    """``{"type": "play", "card": 14}``, or chance's ``{"type": "turn", "points": -3}``."""
    if chance:
        return {"type": "turn", "points": POINT_CARDS[action]}
    return {"type": "play", "card": action + 1}


def format_action(action: int, chance: bool) -> str:
    if chance:
        return f"{POINT_CARDS[action]:+d}"
    return str(action + 1)


def parse_action(text: str, chance: bool, game_id: str = "geier") -> int:
    """The action a text names, before any legality check; ``NotationError`` if it is not notation."""
    if not isinstance(text, str):
        raise NotationError(f"{game_id}: a move is written as text, not {text!r}")
    word = text.strip()
    if chance:
        if word[:1] in "+-" and word[1:].isdigit() and int(word) in POINT_INDEX:
            return POINT_INDEX[int(word)]
        raise NotationError(f"{game_id}: {text!r} is not a point card (write +1..+10 or -1..-5)")
    if word.isdigit() and 1 <= int(word) <= 15:
        return int(word) - 1
    raise NotationError(f"{game_id}: {text!r} is not a card (write a number from 1 to 15)")
