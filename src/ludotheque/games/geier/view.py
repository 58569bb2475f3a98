"""What a Geier seat may see: the one place where hidden information is filtered (DECISIONS all-3).

Hidden: the face-down cards of this round (a seat sees only its own).  Everything else is public, including
each seat's cards not yet revealed, which anyone can work out from the open piles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ludotheque.games.geier.rules import HAND_CARDS, POINT_CARDS, POINT_INDEX

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


def table_view(state: GeierState, player: int | None) -> dict[str, Any]:
    n = state.game.players
    unrevealed = []
    for seat in range(n):
        mask = state.hands[seat] | (1 << state.chosen[seat] if state.chosen[seat] else 0)
        unrevealed.append([c for c in HAND_CARDS if mask >> c & 1])
    data: dict[str, Any] = {
        "round": len(state.rounds) + (0 if state.awaiting_card else 1),
        "pot": list(state.pot),
        "pot_sum": sum(state.pot),
        "points": list(state.points),
        "won": [list(cards) for cards in state.won],
        "points_to_come": [v for i, v in enumerate(POINT_CARDS) if state.deck >> i & 1],
        "unrevealed": unrevealed,
        "chosen": [bool(card) for card in state.chosen],
        "rounds": [
            {"pot": list(r["pot"]), "played": list(r["played"]), "taker": r["taker"]} for r in state.rounds
        ],
        "lost": list(state.lost),
    }
    if player is not None:
        data["hand"] = [c for c in HAND_CARDS if state.hands[player] >> c & 1]
        data["my_choice"] = state.chosen[player] or None
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
