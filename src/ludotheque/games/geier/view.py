"""What a Geier seat may see: the one place where hidden information is filtered (DECISIONS all-3).

Hidden: the face-down cards of this round (a seat sees only its own).  Everything else is public, including
each seat's cards not yet revealed, which anyone can work out from the open piles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ludotheque.games.geier.rules import POINT_CARDS, POINT_INDEX

if TYPE_CHECKING:
    from ludotheque.games.geier.game import GeierState


_INTS = {"type": "array", "items": {"type": "integer"}}
_CARD = {"type": "integer", "minimum": 1, "maximum": 15}
_CARDS = {"type": "array", "items": _CARD}

#: JSON Schema of ``view["table"]``; ``hand`` and ``my_choice`` are a seat's own, absent for a spectator.
TABLE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["round", "pot", "pot_sum", "points", "won", "points_to_come", "unrevealed", "chosen", "rounds",
                 "lost"],
    "properties": {
        "round": {"type": "integer", "minimum": 0, "maximum": 15},
        "pot": _INTS,
        "pot_sum": {"type": "integer"},
        "points": _INTS,
        "won": {"type": "array", "items": _INTS},
        "points_to_come": _INTS,
        "unrevealed": {"type": "array", "items": _CARDS},
        "chosen": {"type": "array", "items": {"type": "boolean"}},
        "rounds": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["pot", "played", "taker"],
                "properties": {"pot": _INTS, "played": _CARDS, "taker": {"type": ["integer", "null"]}},
            },
        },
        "lost": _INTS,
        "hand": _CARDS,
        "my_choice": {"oneOf": [_CARD, {"type": "null"}]},
    },
}


# The cards (or point values) set in each byte of a bitmask: a mask's list is two lookups and one concatenation,
# a new list every time (a view is the caller's to keep), instead of a test per card.
_CARDS_LOW: tuple[list[int], ...] = tuple([c for c in range(8) if byte >> c & 1] for byte in range(256))
_CARDS_HIGH: tuple[list[int], ...] = tuple([c + 8 for c in range(8) if byte >> c & 1] for byte in range(256))
_POINTS_LOW: tuple[list[int], ...] = tuple([POINT_CARDS[i] for i in range(8) if byte >> i & 1] for byte in range(256))
_POINTS_HIGH: tuple[list[int], ...] = tuple(
    [POINT_CARDS[i + 8] for i in range(7) if byte >> i & 1] for byte in range(128)
)

_BIT: tuple[int, ...] = (0, *(1 << card for card in range(1, 16)))  # a face-down card's bit; 0 (none chosen): none


def _cards(mask: int) -> list[int]:
    """The cards 1..15 of a hand bitmask (bit ``c`` for card ``c``), ascending."""
    return _CARDS_LOW[mask & 255] + _CARDS_HIGH[mask >> 8]


def table_view(state: GeierState, player: int | None) -> dict[str, Any]:
    """The table as every seat sees it, plus ``player``'s hand and face-down card.

    ``rounds`` holds the state's own records of the resolved rounds, shared rather than copied: a record is
    never changed once its round is resolved (``GeierState._resolve_round`` gives the state new lists), it is
    public, and a view is read, never written.  ``_reference_table_view`` in the tests builds every part anew.
    """
    hands = state.hands
    chosen = state.chosen
    deck = state.deck
    pot = state.pot
    data: dict[str, Any] = {
        "round": len(state.rounds) + (0 if state.awaiting_card else 1),
        "pot": list(pot),
        "pot_sum": sum(pot),
        "points": list(state.points),
        "won": list(map(list, state.won)),
        "points_to_come": _POINTS_LOW[deck & 255] + _POINTS_HIGH[deck >> 8],
        # a face-down card is not revealed yet: it counts with its seat's hand
        "unrevealed": [_cards(hand | _BIT[card]) for hand, card in zip(hands, chosen, strict=True)],
        "chosen": list(map(bool, chosen)),
        "rounds": list(state.rounds),
        "lost": list(state.lost),
    }
    if player is not None:
        data["hand"] = _cards(hands[player])
        data["my_choice"] = chosen[player] or None
    return data


def observation_shape(players: int) -> tuple[int, ...]:
    return (4 * 15 + players * 17 + 1,)


def encode(view: dict[str, Any]) -> NDArray[np.float32]:
    """Layout (all 0/1 unless said): own hand [15], own face-down card [15], pot cards [15] and point cards
    to come [15] (both indexed like POINT_CARDS), then per seat starting with the observer (seat 0 for a
    spectator) and going clockwise: unrevealed cards [15], has chosen [1], points / 40 [1]; last, round / 15."""
    table = view["table"]
    n = view["players"]
    out = np.zeros(observation_shape(n), dtype=np.float32)
    for card in table.get("hand", []):
        out[card - 1] = 1
    if table.get("my_choice"):
        out[15 + table["my_choice"] - 1] = 1
    for value in table["pot"]:
        out[30 + POINT_INDEX[value]] = 1
    for value in table["points_to_come"]:
        out[45 + POINT_INDEX[value]] = 1
    first = view["seat"] or 0
    for offset in range(n):
        seat = (first + offset) % n
        base = 60 + offset * 17
        for card in table["unrevealed"][seat]:
            out[base + card - 1] = 1
        out[base + 15] = float(table["chosen"][seat])
        out[base + 16] = table["points"][seat] / 40.0
    out[-1] = table["round"] / 15.0
    return out
