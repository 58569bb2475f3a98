"""Safarü notation (a contract, documented in docs/games/safaru.md).

A card is its colour letter and number: ``R`` red, ``Y`` yellow (hedgehogs), ``G`` green, ``B`` blue
(unicorns), ``K`` black; ``B7`` is a blue 7.  Moves:

- ``B7``        play (or release) the blue 7 from the hand; chance deals are written the same way (the card dealt)
- ``add``       begin a catch by adding;  ``17`` begin a catch by seventeen
- ``+R3``       take the red 3 from the table into the catch being built;  ``ok`` close that catch
- ``=Y7``       catch by pairing with the yellow 7 of the table
- ``done``      end the turn after one or more catches
- ``pick add`` / ``pick 17`` / ``pick pair``   (renverse) the left neighbour names the method

Case and spaces around a move do not matter.
"""

from __future__ import annotations

from typing import Any

from ludotheque.core import NotationError
from ludotheque.core.schema import move_object
from ludotheque.games.safaru.rules import ADD, KINDS, LETTERS, METHOD_NAMES, NAMES, PAIR, SEVENTEEN, card_name

# the player action space
PLAY = 0  # + kind
TAKE = KINDS  # + kind
PAIR_WITH = 2 * KINDS  # + kind
BEGIN_ADD = 3 * KINDS
BEGIN_17 = BEGIN_ADD + 1
CLOSE = BEGIN_ADD + 2
DONE = BEGIN_ADD + 3
CHOOSE = BEGIN_ADD + 4  # + method (ADD, SEVENTEEN, PAIR)
NUM_ACTIONS = CHOOSE + 3

_WORDS = {"add": BEGIN_ADD, "17": BEGIN_17, "ok": CLOSE, "done": DONE}
_PICKS = {"add": ADD, "17": SEVENTEEN, "pair": PAIR}
_PICK_NAMES = {ADD: "add", SEVENTEEN: "17", PAIR: "pair"}


_CARD: dict[str, Any] = {"enum": list(NAMES)}




#: The structured form of a move (``to_json``), one shape per type.  ``card`` is a card name as in the notation.
MOVE_SCHEMA: dict[str, Any] = {
    "title": "safaru move",
    "oneOf": [
        move_object("play", card=_CARD),
        move_object("begin", method={"enum": ["add", "17"]}),
        move_object("take", card=_CARD),
        move_object("close"),
        move_object("pair", card=_CARD),
        move_object("done"),
        move_object("pick", method={"enum": list(METHOD_NAMES)}),
        {
            "type": "object",
            "required": ["type", "card"],
            "additionalProperties": False,
            "properties": {
                "type": {"const": "deal"},
                "card": _CARD,
                "to": {"oneOf": [{"type": "integer", "minimum": 0}, {"const": "table"}]},
            },
        },
    ],
}


def to_json(action: int, chance: bool, to: int | str | None = None) -> dict[str, Any]:
    """The structured form of an action: ``{"type": "play", "card": "B7"}``, ``{"type": "begin", "method": "17"}``,
    ``{"type": "take", "card": "R3"}``, ``{"type": "close"}``, ``{"type": "pair", "card": "Y7"}``,
    ``{"type": "done"}``, ``{"type": "pick", "method": "pair"}``; chance's ``{"type": "deal", "card": "B7", "to": 1}``
    (``to``: the receiving seat or ``"table"``, given when known)."""
    if chance:
        move: dict[str, Any] = {"type": "deal", "card": card_name(action)}
        if to is not None:
            move["to"] = to
        return move
    if action < TAKE:
        return {"type": "play", "card": card_name(action)}
    if action < PAIR_WITH:
        return {"type": "take", "card": card_name(action - TAKE)}
    if action < BEGIN_ADD:
        return {"type": "pair", "card": card_name(action - PAIR_WITH)}
    if action in (BEGIN_ADD, BEGIN_17):
        return {"type": "begin", "method": METHOD_NAMES[ADD if action == BEGIN_ADD else SEVENTEEN]}
    if action == CLOSE:
        return {"type": "close"}
    if action == DONE:
        return {"type": "done"}
    return {"type": "pick", "method": METHOD_NAMES[action - CHOOSE]}


def format_action(action: int, chance: bool) -> str:
    if chance or action < TAKE:
        return card_name(action)
    if action < PAIR_WITH:
        return "+" + card_name(action - TAKE)
    if action < BEGIN_ADD:
        return "=" + card_name(action - PAIR_WITH)
    for word, value in _WORDS.items():
        if value == action:
            return word
    return "pick " + _PICK_NAMES[action - CHOOSE]


def parse_card(word: str) -> int | None:
    """The kind a card name names (``B7``, ``b7``), or ``None``."""
    if len(word) == 2 and word[0].upper() in LETTERS and word[1].isdigit():
        return LETTERS.index(word[0].upper()) * 10 + int(word[1])
    return None


def parse_action(text: str, chance: bool, game_id: str = "safaru") -> int:
    """The action a text names, before any legality check; ``NotationError`` if it is not notation."""
    if not isinstance(text, str):
        raise NotationError(f"{game_id}: a move is written as text, not {text!r}")
    word = " ".join(text.split()).lower()
    if chance:
        kind = parse_card(word)
        if kind is None:
            raise NotationError(f"{game_id}: {text!r} is not a card (write a colour letter R Y G B K and 0-9)")
        return kind
    if word in _WORDS:
        return _WORDS[word]
    if word.startswith("pick ") and word[5:] in _PICKS:
        return CHOOSE + _PICKS[word[5:]]
    prefix = {"+": TAKE, "=": PAIR_WITH}.get(word[:1], PLAY)
    kind = parse_card(word[1:] if prefix != PLAY else word)
    if kind is None:
        raise NotationError(
            f"{game_id}: {text!r} is not a move (write a card like B7, +R3, =Y7, or add, 17, ok, done, pick add)"
        )
    return prefix + kind
