"""MICE notation (a contract, documented in docs/games/mice.md).

Seat actions (ints in ``range(NUM_ACTIONS)``)::

    use R, use R+Y1, use R+Y1+Y3   choose the dice to use: all red dice plus these yellow dice (0..7: yellow mask)
    fail                           give up the roll (8)
    R1+1, Y2-1                     pay a nut to change a die you use by +1 or -1 (9..18)
    cage 11                        move mouse card 11 from hand to cage with the exact sum (19..36)
    flip 9                         turn dice card 9 face down: with the exact sum, or after a failed solo roll (37..40)
    take back 7                    after a failed roll: take the top card of the cage (7) back into hand (41)
    unflip 12                      after a failed roll: turn dice card 12 face up again (42..45)
    pass, pay                      decline / pay a nut to use the remaining dice (46, 47)

Chance actions: ``face - 1`` for the next die, written with its colour: ``R5`` (a red die shows 5), ``Y3``.
Parsing ignores case and spaces, so ``Cage11`` and ``use r + y1`` are read too.

The structured form of the same moves (``to_json``, ``MOVE_SCHEMA``) names dice and cards the same way:
``{"type": "use", "yellow": ["Y1"]}``, ``{"type": "adjust", "die": "Y2", "change": -1}``, ``{"type": "cage",
"card": 11}``, and chance's ``{"type": "roll", "die": "R1", "value": 5}``.
"""

from __future__ import annotations

import re
from typing import Any

from ludotheque.core import NotationError
from ludotheque.core.schema import move_object
from ludotheque.games.mice.rules import DICE_CARD_INDEX, DICE_CARDS, SLOT_NAMES

USE = 0  # + yellow mask (bit k = yellow die Y(k+1))
FAIL = 8
ADJUST = 9  # + slot * 2 + (0 for +1, 1 for -1)
CAGE = 19  # + card - 1
FLIP = 37  # + dice card index
TAKE_BACK = 41
UNFLIP = 42  # + dice card index
PASS = 46
PAY = 47
NUM_ACTIONS = 48
NUM_CHANCE = 6

_YELLOW_NAMES = SLOT_NAMES[2:]
_MOUSE_CARD = {"type": "integer", "minimum": 1, "maximum": 18}
_DICE_CARD = {"enum": list(DICE_CARDS)}


#: The structured form of a move (``to_json``): one object per kind of move, and chance's die roll.
MOVE_SCHEMA: dict[str, Any] = {
    "title": "mice move",
    "oneOf": [
        move_object(
            "use", yellow={"type": "array", "items": {"enum": list(_YELLOW_NAMES)}, "uniqueItems": True, "maxItems": 3}
        ),
        move_object("fail"),
        move_object("adjust", die={"enum": list(SLOT_NAMES)}, change={"enum": [1, -1]}),
        move_object("cage", card=_MOUSE_CARD),
        move_object("flip", card=_DICE_CARD),
        {
            "type": "object",
            "required": ["type"],
            "additionalProperties": False,
            "properties": {"type": {"const": "take_back"}, "card": _MOUSE_CARD},
        },
        move_object("unflip", card=_DICE_CARD),
        move_object("pass"),
        move_object("pay"),
        move_object("roll", die={"enum": list(SLOT_NAMES)}, value={"type": "integer", "minimum": 1, "maximum": 6}),
    ],
}


def to_json(action: int, *, die: str | None = None, cage_top: int | None = None) -> dict[str, Any]:
    """The structured form of an action.  With ``die`` (its name, ``"R1"``..``"Y3"``) it is chance's roll of that
    die: ``{"type": "roll", "die": "R1", "value": 5}``.  Otherwise a seat's move; ``cage_top`` is the card that
    ``take back`` returns, included when known (as in the notation)."""
    if die is not None:
        if not 0 <= action < NUM_CHANCE:
            raise ValueError(f"mice: {action} is not a die face (0..{NUM_CHANCE - 1})")
        return {"type": "roll", "die": die, "value": action + 1}
    if USE <= action < FAIL:
        return {"type": "use", "yellow": [_YELLOW_NAMES[k] for k in range(3) if (action - USE) >> k & 1]}
    if action == FAIL:
        return {"type": "fail"}
    if ADJUST <= action < CAGE:
        slot, down = divmod(action - ADJUST, 2)
        return {"type": "adjust", "die": SLOT_NAMES[slot], "change": -1 if down else 1}
    if CAGE <= action < FLIP:
        return {"type": "cage", "card": action - CAGE + 1}
    if FLIP <= action < TAKE_BACK:
        return {"type": "flip", "card": DICE_CARDS[action - FLIP]}
    if action == TAKE_BACK:
        return {"type": "take_back"} if cage_top is None else {"type": "take_back", "card": cage_top}
    if UNFLIP <= action < PASS:
        return {"type": "unflip", "card": DICE_CARDS[action - UNFLIP]}
    if action == PASS:
        return {"type": "pass"}
    if action == PAY:
        return {"type": "pay"}
    raise ValueError(f"mice: {action} is not an action (0..{NUM_ACTIONS - 1})")


def use_text(mask: int) -> str:
    return "use " + "+".join(["R"] + [f"Y{k + 1}" for k in range(3) if mask >> k & 1])


def format_action(action: int, cage_top: int | None = None) -> str:
    """Notation of a seat action; ``cage_top`` names the card ``take back`` returns (when known)."""
    if USE <= action < FAIL:
        return use_text(action - USE)
    if action == FAIL:
        return "fail"
    if ADJUST <= action < CAGE:
        slot, down = divmod(action - ADJUST, 2)
        return f"{SLOT_NAMES[slot]}{'-1' if down else '+1'}"
    if CAGE <= action < FLIP:
        return f"cage {action - CAGE + 1}"
    if FLIP <= action < TAKE_BACK:
        return f"flip {DICE_CARDS[action - FLIP]}"
    if action == TAKE_BACK:
        return "take back" if cage_top is None else f"take back {cage_top}"
    if UNFLIP <= action < PASS:
        return f"unflip {DICE_CARDS[action - UNFLIP]}"
    if action == PASS:
        return "pass"
    if action == PAY:
        return "pay"
    raise ValueError(f"mice: {action} is not an action (0..{NUM_ACTIONS - 1})")


def format_chance(action: int, colour: str) -> str:
    """``R5``: the next die (its colour ``R`` or ``Y``) shows ``action + 1``."""
    return f"{colour}{action + 1}"


def squash(text: str) -> str:
    return "".join(text.split()).lower()


_USE = re.compile(r"user((?:\+y[123])*)")
_ADJUST = re.compile(r"([ry])([123])([+-])1")
_NUMBERED = re.compile(r"(cage|flip|unflip|takeback)(\d+)")


def parse_action(text: str) -> tuple[int, int | None]:
    """``(action, card)`` a text names before any legality check (``card`` is the one ``take back`` names).

    Raises ``NotationError`` when the text is not notation at all.
    """
    if not isinstance(text, str):
        raise NotationError(f"mice: a move is written as text, not {text!r}")
    word = squash(text)
    simple = {"fail": FAIL, "pass": PASS, "pay": PAY, "takeback": TAKE_BACK}
    if word in simple:
        return simple[word], None
    match = _USE.fullmatch(word)
    if match:
        picks = [int(p) for p in match.group(1).split("+y")[1:]]
        if len(set(picks)) == len(picks) and picks == sorted(picks):
            return USE + sum(1 << (p - 1) for p in picks), None
    match = _ADJUST.fullmatch(word)
    if match:
        name = f"{match.group(1).upper()}{match.group(2)}"
        if name in SLOT_NAMES:
            return ADJUST + SLOT_NAMES.index(name) * 2 + (match.group(3) == "-"), None
    match = _NUMBERED.fullmatch(word)
    if match:
        kind, number = match.group(1), int(match.group(2))
        if kind == "cage" and 1 <= number <= 18:
            return CAGE + number - 1, None
        if kind in ("flip", "unflip") and number in DICE_CARD_INDEX:
            return (FLIP if kind == "flip" else UNFLIP) + DICE_CARD_INDEX[number], None
        if kind == "takeback" and 1 <= number <= 18:
            return TAKE_BACK, number
    raise NotationError(
        f"mice: {text!r} is not a move (write e.g. 'use R+Y1', 'R1+1', 'cage 11', 'flip 9', 'fail', "
        "'take back 7', 'unflip 12', 'pay', 'pass')"
    )


def parse_chance(text: str) -> tuple[str, int]:
    """``(colour, action)`` of a die roll like ``R5``; ``NotationError`` otherwise."""
    if not isinstance(text, str):
        raise NotationError(f"mice: a die roll is written as text, not {text!r}")
    word = squash(text)
    if len(word) == 2 and word[0] in "ry" and word[1] in "123456":
        return word[0].upper(), int(word[1]) - 1
    raise NotationError(f"mice: {text!r} is not a die roll (write R1..R6 for a red die, Y1..Y6 for a yellow one)")
