"""What a MICE seat may see (DECISIONS all-3), its JSON Schema, and its observation encoding.

Nothing is hidden in MICE (mice-1: every move is public, so every hand is known), so every seat and the
spectator get the same table; dice not rolled yet are not state at all (chance decides them when rolled).
This module is still the one place a view is built, so that a hidden part would have one place to go.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ludotheque.games.mice import rules

if TYPE_CHECKING:
    from ludotheque.games.mice.game import MiceState

PHASES = ("roll", "select", "adjust", "fail", "pay", "over")
SEAT_WIDTH = 44
GLOBAL_WIDTH = 1 + 5 * 9 + len(PHASES) + 2


_INT = {"type": "integer", "minimum": 0}
_MOUSE_CARDS = {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 18}}
_DICE_CARDS = {"type": "array", "items": {"enum": list(rules.DICE_CARDS)}, "uniqueItems": True, "maxItems": 4}
_DIE_NAMES = {"type": "array", "items": {"enum": list(rules.SLOT_NAMES)}, "uniqueItems": True, "maxItems": 5}
_STRINGS = {"type": "array", "items": {"type": "string"}}


def _strict(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": list(properties), "properties": properties}


#: JSON Schema of ``view["table"]``: the same for every seat and the spectator (mice-1), every key always present.
TABLE_SCHEMA: dict[str, Any] = _strict(
    {
        "solo": {"type": "boolean"},
        "turn": {"type": "integer", "minimum": 1},
        "active": _INT,
        "phase": {"enum": list(PHASES)},
        "actor": {"type": ["integer", "null"], "minimum": 0},
        "supply": _INT,
        "seats": {
            "type": "array",
            "minItems": 1,
            "maxItems": 5,
            "items": _strict(
                {
                    "hand": _MOUSE_CARDS,
                    "hand_total": {"type": "integer", "minimum": 0, "maximum": 171},
                    "cage": _MOUSE_CARDS,
                    "face_up": _DICE_CARDS,
                    "face_down": _DICE_CARDS,
                    "nuts": _INT,
                    "red_dice": {"type": "integer", "minimum": 0, "maximum": 2},
                    "yellow_dice": {"type": "integer", "minimum": 0, "maximum": 3},
                }
            ),
        },
        "dice": {
            "type": "array",
            "maxItems": 5,
            "items": _strict(
                {
                    "die": {"enum": list(rules.SLOT_NAMES)},
                    "value": {"type": ["integer", "null"], "minimum": 1, "maximum": 6},
                    "active_used": {"type": "boolean"},
                    "pool": {"type": "boolean"},
                    "using": {"type": "boolean"},
                }
            ),
        },
        "using": _DIE_NAMES,
        "sum": {"type": ["integer", "null"], "minimum": 1, "maximum": 30},
        "pool": _DIE_NAMES,
        "pool_sum": {"type": "integer", "minimum": 0, "maximum": 30},
        "failed": {"type": "boolean"},
        "second_card": {"type": "boolean"},
        "this_turn": _STRINGS,
        "last_turn": _STRINGS,
        "rating": {"oneOf": [{"enum": list(rules.RATINGS)}, {"type": "null"}]},
    }
)


#: per slot mask, the names of its dice; per face-up mask, the face-up and face-down dice cards and the dice rolled
#: (tables: a search builds a view at every node)
_SLOT_NAMES: tuple[tuple[str, ...], ...] = tuple(
    tuple(rules.SLOT_NAMES[s] for s in range(5) if mask >> s & 1) for mask in range(32)
)
_FACE_UP = tuple(tuple(v for i, v in enumerate(rules.DICE_CARDS) if face_up >> i & 1) for face_up in range(16))
_FACE_DOWN = tuple(tuple(v for i, v in enumerate(rules.DICE_CARDS) if not face_up >> i & 1) for face_up in range(16))
_DICE_COUNTS = tuple(rules.dice_counts(face_up) for face_up in range(16))
_SLOT_BITS = tuple(1 << s for s in range(5))


def slot_names(mask: int) -> list[str]:
    """The names of the dice in a slot mask, in slot order: ``["R1", "Y2"]``."""
    return list(_SLOT_NAMES[mask])


@lru_cache(maxsize=1 << 12)
def _hand(hand: int) -> tuple[tuple[int, ...], int]:
    """The cards of a hand mask and their total."""
    cards = tuple(rules.hand_cards(hand))
    return cards, sum(cards)


def table_view(state: MiceState, player: int | None) -> dict[str, Any]:
    seats = []
    hands, cages, face_ups, nuts = state.hands, state.cages, state.face_up, state.nuts
    for seat in range(state.game.players):
        face_up = face_ups[seat]
        red, yellow = _DICE_COUNTS[face_up]
        cards, total = _hand(hands[seat])
        seats.append(
            {
                "hand": list(cards),
                "hand_total": total,
                "cage": list(cages[seat]),
                "face_up": list(_FACE_UP[face_up]),
                "face_down": list(_FACE_DOWN[face_up]),
                "nuts": nuts[seat],
                "red_dice": red,
                "yellow_dice": yellow,
            }
        )
    phase = state.phase
    using = state.used if phase == "adjust" else 0
    values, active_used, pool = state.dice, state.active_used, state.pool
    dice = [
        {
            "die": rules.SLOT_NAMES[slot],
            "value": values[slot] or None,
            "active_used": bool(active_used & _SLOT_BITS[slot]),
            "pool": bool(pool & _SLOT_BITS[slot]),
            "using": bool(using & _SLOT_BITS[slot]),
        }
        for slot in state.rolled
    ]
    data: dict[str, Any] = {
        "solo": state.solo,
        "turn": state.turn,
        "active": state.active,
        "phase": phase,
        "actor": state.actor if phase != "roll" and phase != "over" else None,
        "supply": state.supply,
        "seats": seats,
        "dice": dice,
        "using": list(_SLOT_NAMES[using]),
        "sum": sum([values[s] for s in range(5) if using >> s & 1]) if using else None,
        "pool": list(_SLOT_NAMES[pool]),
        "pool_sum": sum([values[s] for s in range(5) if pool >> s & 1]) if pool else 0,
        "failed": state.failed,
        "second_card": state.second,
        "this_turn": list(state.this_turn),
        "last_turn": list(state.last_turn),
        "rating": None,
    }
    if state.solo and phase == "over":
        data["rating"] = rules.RATINGS[state._solo_rank()]
    return data


def observation_shape(players: int) -> tuple[int, ...]:
    return (SEAT_WIDTH * players + GLOBAL_WIDTH,)


def encode(view: dict[str, Any]) -> NDArray[np.float32]:
    """Layout (0/1 unless said), documented in docs/games/mice.md.

    Per seat, starting with the observer (seat 0 for a spectator) and going clockwise, 44 values: hand [18],
    cage top card one-hot [18], cage size / 18 [1], dice cards 6, 9, 12, 15 face up [4], nuts / 15 [1],
    is the active seat [1], is the deciding seat [1].  Then: supply (solo: middle) / 15 [1]; per dice slot
    R1, R2, Y1, Y2, Y3, 9 values: face one-hot [6] (zero if not rolled), used by the active seat, in the pool
    left to the others, being used now; phase one-hot (roll, select, adjust, fail, pay, over) [6]; the roll
    failed [1]; solo second card paid [1].
    """
    table = view["table"]
    n = view["players"]
    out = np.zeros(observation_shape(n), dtype=np.float32)
    first = view["seat"] or 0
    for offset in range(n):
        seat = (first + offset) % n
        info = table["seats"][seat]
        base = offset * SEAT_WIDTH
        for card in info["hand"]:
            out[base + card - 1] = 1
        if info["cage"]:
            out[base + 18 + info["cage"][-1] - 1] = 1
        out[base + 36] = len(info["cage"]) / 18.0
        for value in info["face_up"]:
            out[base + 37 + rules.DICE_CARD_INDEX[value]] = 1
        out[base + 41] = info["nuts"] / 15.0
        out[base + 42] = float(table["active"] == seat)
        out[base + 43] = float(table["actor"] == seat)
    base = n * SEAT_WIDTH
    out[base] = table["supply"] / 15.0
    for die in table["dice"]:
        at = base + 1 + rules.SLOT_NAMES.index(die["die"]) * 9
        if die["value"]:
            out[at + die["value"] - 1] = 1
        out[at + 6] = float(die["active_used"])
        out[at + 7] = float(die["pool"])
        out[at + 8] = float(die["using"])
    at = base + 1 + 45
    out[at + PHASES.index(table["phase"])] = 1
    out[at + len(PHASES)] = float(table["failed"])
    out[at + len(PHASES) + 1] = float(table["second_card"])
    return out
