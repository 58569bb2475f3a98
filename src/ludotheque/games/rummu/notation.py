"""Rummü notation (a contract, see docs/games/rummu.md) and the fixed action layout.

Cards are written colour letter + number: ``R5`` (red), ``Y6`` (yellow joker), ``G0`` (green), ``B9`` (blue),
``K7`` (black).  Table combinations are numbered from 1 in the order they were laid.

| actions      | notation       | meaning                                                        |
|--------------|----------------|----------------------------------------------------------------|
| 0            | ``draw``       | draw the top card of the draw pile                             |
| 1..60        | ``take 3``     | take the top 3 cards of the discard pile                       |
| 61..110      | ``start R5``   | start laying a new combination with R5                         |
| 111..160     | ``add R6``     | add R6 to the combination being laid                           |
| 161          | ``close``      | the combination being laid is complete: it goes on the table   |
| 162          | ``cancel``     | take the cards of the combination being laid back into hand    |
| 163..212     | ``discard K3`` | discard K3, ending the turn                                    |
| 213..1212    | ``put R8 2``   | add R8 to table combination 2                                  |
| 1213..2212   | ``swap R6 2``  | exchange R6 from hand for the joker Y6 in table combination 2  |

Chance actions are card types 0..49 written like cards (``R5``): the card dealt, turned up or drawn.

The structured form of a move (``to_json``, ``MOVE_SCHEMA``) names the same things without text to parse:
``{"type": "put", "card": "R8", "combo": 2}``; chance's card says what it was for (``deal``, ``flip`` or
``draw_card``) and, for a deal or a draw, which seat receives it.
"""

from __future__ import annotations

from typing import Any, Literal

from ludotheque.core import NotationError
from ludotheque.core.schema import move_object
from ludotheque.games.rummu.rules import COLOURS, TYPES, YELLOW, card_str

MAX_DISCARD = 60
MAX_COMBOS = 20  # 60 cards, 3 or more per combination

DRAW = 0
TAKE = 1  # TAKE + k - 1 takes k cards
START = TAKE + MAX_DISCARD
ADD = START + TYPES
CLOSE = ADD + TYPES
CANCEL = CLOSE + 1
DISCARD = CANCEL + 1
PUT = DISCARD + TYPES
SWAP = PUT + TYPES * MAX_COMBOS
NUM_ACTIONS = SWAP + TYPES * MAX_COMBOS

#: What a chance card is for: dealt to a seat, turned up to start the discard pile, drawn from the pile by a seat.
ChanceKind = Literal["deal", "flip", "draw_card"]

_CARD: dict[str, Any] = {"type": "string", "pattern": "^[RYGBK][0-9]$"}
_SEAT: dict[str, Any] = {"type": "integer", "minimum": 0}
_COMBO: dict[str, Any] = {"type": "integer", "minimum": 1, "maximum": MAX_COMBOS}


#: JSON Schema of ``to_json``: one object per kind of move, chance's cards included.
MOVE_SCHEMA: dict[str, Any] = {
    "title": "rummu move",
    "oneOf": [
        move_object("draw"),
        move_object("take", count={"type": "integer", "minimum": 1, "maximum": MAX_DISCARD}),
        move_object("start", card=_CARD),
        move_object("add", card=_CARD),
        move_object("close"),
        move_object("cancel"),
        move_object("discard", card=_CARD),
        move_object("put", card=_CARD, combo=_COMBO),
        move_object("swap", card=_CARD, combo=_COMBO, joker={"type": "string", "pattern": "^Y[0-9]$"}),
        move_object("deal", card=_CARD, seat=_SEAT),
        move_object("flip", card=_CARD),
        move_object("draw_card", card=_CARD, seat=_SEAT),
    ],
}


def to_json(action: int, chance: ChanceKind | None = None, seat: int = 0) -> dict[str, Any]:
    """The structured form of a seat's action (``chance`` None) or of chance's card of kind ``chance``, dealt or
    drawn to ``seat``: ``{"type": "take", "count": 3}``, ``{"type": "swap", "card": "R6", "combo": 2, "joker":
    "Y6"}``, ``{"type": "deal", "card": "R5", "seat": 2}``."""
    if chance == "flip":
        return {"type": "flip", "card": card_str(action)}
    if chance is not None:
        return {"type": chance, "card": card_str(action), "seat": seat}
    if action == DRAW:
        return {"type": "draw"}
    if action < START:
        return {"type": "take", "count": action - TAKE + 1}
    if action < ADD:
        return {"type": "start", "card": card_str(action - START)}
    if action < CLOSE:
        return {"type": "add", "card": card_str(action - ADD)}
    if action == CLOSE:
        return {"type": "close"}
    if action == CANCEL:
        return {"type": "cancel"}
    if action < PUT:
        return {"type": "discard", "card": card_str(action - DISCARD)}
    if action < SWAP:
        combo, card = divmod(action - PUT, TYPES)
        return {"type": "put", "card": card_str(card), "combo": combo + 1}
    combo, card = divmod(action - SWAP, TYPES)
    return {"type": "swap", "card": card_str(card), "combo": combo + 1, "joker": card_str(YELLOW * 10 + card % 10)}


def parse_card(word: str, game_id: str = "rummu") -> int:
    text = word.strip().upper()
    if len(text) == 2 and text[0] in COLOURS and text[1].isdigit():
        return COLOURS.index(text[0]) * 10 + int(text[1])
    raise NotationError(f"{game_id}: {word!r} is not a card (write a colour R, Y, G, B or K and a number 0-9, e.g. R5)")


def format_action(action: int) -> str:
    if action == DRAW:
        return "draw"
    if action < START:
        return f"take {action - TAKE + 1}"
    if action < ADD:
        return f"start {card_str(action - START)}"
    if action < CLOSE:
        return f"add {card_str(action - ADD)}"
    if action == CLOSE:
        return "close"
    if action == CANCEL:
        return "cancel"
    if action < PUT:
        return f"discard {card_str(action - DISCARD)}"
    if action < SWAP:
        combo, card = divmod(action - PUT, TYPES)
        return f"put {card_str(card)} {combo + 1}"
    combo, card = divmod(action - SWAP, TYPES)
    return f"swap {card_str(card)} {combo + 1}"


def parse_action(text: str, game_id: str = "rummu") -> int:
    """The action a text names, before any legality check; ``NotationError`` if it is not notation."""
    if not isinstance(text, str):
        raise NotationError(f"{game_id}: a move is written as text, not {text!r}")
    words = text.strip().lower().split()
    usage = "draw, take K, start C, add C, close, cancel, discard C, put C N, swap C N (C a card like R5)"
    if not words:
        raise NotationError(f"{game_id}: empty move (moves: {usage})")
    verb, args = words[0], words[1:]
    if verb in ("draw", "close", "cancel") and not args:
        return {"draw": DRAW, "close": CLOSE, "cancel": CANCEL}[verb]
    if verb == "take" and len(args) == 1 and args[0].isdigit() and 1 <= int(args[0]) <= MAX_DISCARD:
        return TAKE + int(args[0]) - 1
    if verb in ("start", "add", "discard") and len(args) == 1:
        return {"start": START, "add": ADD, "discard": DISCARD}[verb] + parse_card(args[0], game_id)
    if verb in ("put", "swap") and len(args) == 2:
        card = parse_card(args[0], game_id)
        if args[1].isdigit() and 1 <= int(args[1]) <= MAX_COMBOS:
            return (PUT if verb == "put" else SWAP) + (int(args[1]) - 1) * TYPES + card
    raise NotationError(f"{game_id}: {text!r} is not a move (moves: {usage})")


def format_chance(action: int) -> str:
    return card_str(action)


def parse_chance(text: str, game_id: str = "rummu") -> int:
    if not isinstance(text, str):
        raise NotationError(f"{game_id}: a card is written as text, not {text!r}")
    return parse_card(text, game_id)
