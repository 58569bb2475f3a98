"""Geier notation (a contract): a seat plays ``"14"``; chance turns a point card ``"+7"`` or ``"-3"``."""

from __future__ import annotations

from ludotheque.core import NotationError
from ludotheque.games.geier.rules import POINT_CARDS, POINT_INDEX


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
