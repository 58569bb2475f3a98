"""Mü notation (a contract, documented in docs/games/mu.md).

Seat moves:
  ``R7``        lay (auction) or play (tricks) a red 7 from the hand
  ``R7*``       play a red 7 from the cards laid face up on the table (tricks only)
  ``done``      end an auction turn after laying at least one card
  ``pass``      pass in the auction
  ``trump G`` / ``trump 5`` / ``no trump``   name a colour trump, a number trump, or none (chief only)
  ``partner 3`` the chief picks seat 3 as partner
Chance moves: ``R7`` deals a red 7 to the next seat; ``out G`` removes the green colour (3 players).
Colours: R red, Y yellow, G green, B blue, K black.  Letters are read case-insensitively.
The structured form of every move, for user interfaces, is ``to_json`` (schema ``MOVE_SCHEMA``).
"""

from __future__ import annotations

from typing import Any, Final

from ludotheque.core import NotationError
from ludotheque.games.mu.rules import COLOURS, KINDS

# Seat action layout (fixed for every configuration).
FROM_HAND: Final = 0  # + kind
FROM_TABLE: Final = KINDS  # + kind
DONE: Final = 2 * KINDS  # 100
PASS: Final = DONE + 1  # 101
TRUMP_COLOUR: Final = PASS + 1  # 102 + colour
TRUMP_NUMBER: Final = TRUMP_COLOUR + 5  # 107 + number
NO_TRUMP_ACTION: Final = TRUMP_NUMBER + 10  # 117
PARTNER: Final = NO_TRUMP_ACTION + 1  # 118 + seat
NUM_ACTIONS: Final = PARTNER + 6  # 124

# Chance action layout.
DEAL: Final = 0  # + kind
REMOVE: Final = KINDS  # + colour
NUM_CHANCE: Final = REMOVE + 5  # 55


def card_name(kind: int) -> str:
    return f"{COLOURS[kind // 10]}{kind % 10}"


def parse_card(word: str) -> int | None:
    """The kind a word like ``r7`` names, or ``None``."""
    if len(word) != 2:
        return None
    colour, number = word[0].upper(), word[1]
    if colour not in COLOURS or not number.isdigit():
        return None
    return COLOURS.index(colour) * 10 + int(number)


def format_action(action: int) -> str:
    if action < FROM_TABLE:
        return card_name(action)
    if action < DONE:
        return card_name(action - FROM_TABLE) + "*"
    if action == DONE:
        return "done"
    if action == PASS:
        return "pass"
    if action < TRUMP_NUMBER:
        return f"trump {COLOURS[action - TRUMP_COLOUR]}"
    if action < NO_TRUMP_ACTION:
        return f"trump {action - TRUMP_NUMBER}"
    if action == NO_TRUMP_ACTION:
        return "no trump"
    if action < NUM_ACTIONS:
        return f"partner {action - PARTNER}"
    raise ValueError(f"mu: {action} is not an action")


def format_chance(action: int) -> str:
    if action < REMOVE:
        return card_name(action)
    if action < NUM_CHANCE:
        return f"out {COLOURS[action - REMOVE]}"
    raise ValueError(f"mu: {action} is not a chance action")


HELP: Final = "write a card (R7, or R7* from the table), done, pass, trump G, trump 5, no trump or partner 2"


def parse_action(text: str) -> int:
    """The seat action a text names, before any legality check; ``NotationError`` if it is not notation.

    ``R7`` is the hand's red 7 (the caller may fall back to the table's when the hand has none to play).
    """
    words = text.strip().lower().split()
    if len(words) == 1:
        word = words[0]
        if word == "done":
            return DONE
        if word == "pass":
            return PASS
        table = word.endswith("*")
        kind = parse_card(word[:-1] if table else word)
        if kind is not None:
            return (FROM_TABLE if table else FROM_HAND) + kind
    elif len(words) == 2:
        head, tail = words
        if head == "no" and tail == "trump":
            return NO_TRUMP_ACTION
        if head == "trump" and tail.upper() in COLOURS:
            return TRUMP_COLOUR + COLOURS.index(tail.upper())
        if head == "trump" and tail.isdigit() and int(tail) < 10:
            return TRUMP_NUMBER + int(tail)
        if head == "partner" and tail.isdigit() and int(tail) < 6:
            return PARTNER + int(tail)
    raise NotationError(f"mu: {text!r} is not a Mü move ({HELP})")


def parse_chance(text: str) -> int:
    words = text.strip().split()
    if len(words) == 1:
        kind = parse_card(words[0])
        if kind is not None:
            return DEAL + kind
    if len(words) == 2 and words[0].lower() == "out" and words[1].upper() in COLOURS:
        return REMOVE + COLOURS.index(words[1].upper())
    raise NotationError(f"mu: {text!r} is not a Mü chance move (write a card like R7, or out G)")


# --------------------------------------------------------------------------------------------------
# Structured moves
# --------------------------------------------------------------------------------------------------

CARD_NAMES: Final = tuple(card_name(kind) for kind in range(KINDS))


def _object(kind: str, **properties: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["type", *properties],
        "additionalProperties": False,
        "properties": {"type": {"const": kind}, **properties},
    }


#: A card as the notation writes it (one of ``CARD_NAMES``): a pattern checks faster than a list of 50 names.
CARD_SCHEMA: Final = {"type": "string", "pattern": f"^[{''.join(COLOURS)}][0-9]$"}
_CARD: Final = CARD_SCHEMA
_SEAT: Final = {"type": "integer", "minimum": 0, "maximum": 5}

#: The structured form of a move (``to_json``).  Seats: ``lay`` a card in the auction, ``done``, ``pass``, name a
#: ``trump`` (a colour or a number) or ``no_trump``, pick a ``partner``, ``play`` a card in a trick from the hand
#: or from the table.  Chance: ``remove`` a colour (3 players), ``deal`` a card to a seat.
MOVE_SCHEMA: dict[str, Any] = {
    "title": "mu move",
    "oneOf": [
        _object("lay", card=_CARD),
        _object("done"),
        _object("pass"),
        _object("trump", colour={"enum": list(COLOURS)}),
        _object("trump", number={"type": "integer", "minimum": 0, "maximum": 9}),
        _object("no_trump"),
        _object("partner", seat=_SEAT),
        _object("play", card=_CARD, **{"from": {"enum": ["hand", "table"]}}),
        _object("remove", colour={"enum": list(COLOURS)}),
        _object("deal", card=_CARD, seat=_SEAT),
    ],
}


def to_json(action: int, chance: bool, *, auction: bool = False, receiver: int | None = None) -> dict[str, Any]:
    """An action as ``MOVE_SCHEMA`` has it.  A seat's card is ``{"type": "lay", "card": "R7"}`` during the auction
    (``auction``) and ``{"type": "play", "card": "R7", "from": "table"}`` in a trick; other seat moves are
    ``done``, ``pass``, ``{"type": "trump", "colour": "G"}``, ``{"type": "trump", "number": 5}``, ``no_trump`` and
    ``{"type": "partner", "seat": 3}``.  Chance: ``{"type": "deal", "card": "R7", "seat": 2}`` (the card goes to
    ``receiver``) or ``{"type": "remove", "colour": "G"}``."""
    if chance:
        if action < REMOVE:
            if receiver is None:
                raise ValueError("mu: a dealt card needs its receiver")
            return {"type": "deal", "card": CARD_NAMES[action], "seat": receiver}
        if action < NUM_CHANCE:
            return {"type": "remove", "colour": COLOURS[action - REMOVE]}
        raise ValueError(f"mu: {action} is not a chance action")
    if action < DONE:
        from_table = action >= FROM_TABLE
        card = CARD_NAMES[action - FROM_TABLE if from_table else action]
        if auction:
            return {"type": "lay", "card": card}
        return {"type": "play", "card": card, "from": "table" if from_table else "hand"}
    if action == DONE:
        return {"type": "done"}
    if action == PASS:
        return {"type": "pass"}
    if action < TRUMP_NUMBER:
        return {"type": "trump", "colour": COLOURS[action - TRUMP_COLOUR]}
    if action < NO_TRUMP_ACTION:
        return {"type": "trump", "number": action - TRUMP_NUMBER}
    if action == NO_TRUMP_ACTION:
        return {"type": "no_trump"}
    if action < NUM_ACTIONS:
        return {"type": "partner", "seat": action - PARTNER}
    raise ValueError(f"mu: {action} is not an action")
