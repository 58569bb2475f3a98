"""What a Cheese Rescue seat may see: the one place where hidden information is filtered (DECISIONS all-3).

Public: the board and who placed each card, in order; how many cards each seat holds; which cheeses each seat
still holds (cheeses are told apart by shape, and each seat's set is known); the size of the pile; at the end,
the cascade and the scores.  Hidden: the animals in the other seats' hands and the order of the pile; a seat
sees its own hand.  ``unseen`` (the animals the observer has not seen: pile plus other hands) follows from the
public counts, so it leaks nothing.  Hands left at the end are discarded face down and stay hidden.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ludotheque.games.cheese import rules

if TYPE_CHECKING:
    from ludotheque.games.cheese.game import CheeseState

_COUNT = {"type": "integer", "minimum": 0}
_COUNTS = {"type": "array", "items": _COUNT}
_SEAT = {"type": "integer", "minimum": 0, "maximum": 3}
_CELLS = {"type": "array", "items": _COUNT}  # cell numbers row * F + col, from the frame's top left

#: JSON Schema of ``view["table"]``.  ``hand`` is a seat's own (absent for a spectator); ``removed``, ``points``
#: and ``cheese_cards`` appear once the game is over.
TABLE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": [
        "side",
        "frame",
        "start",
        "placed",
        "legal_cells",
        "turn",
        "drawing",
        "placed_count",
        "pile",
        "unseen",
        "hands",
    ],
    "properties": {
        "side": {"enum": sorted(set(rules.SIDE.values()))},
        "frame": {"enum": sorted(2 * side - 1 for side in set(rules.SIDE.values()))},
        "start": {"type": ["integer", "null"], "minimum": 0},
        "placed": {
            "type": "array",
            "items": {
                "type": "array",
                "prefixItems": [_COUNT, {"type": "integer", "minimum": 0, "maximum": rules.KINDS - 1}, _SEAT],
                "items": False,
                "minItems": 3,
            },
        },
        "legal_cells": _CELLS,
        "turn": {"oneOf": [_SEAT, {"type": "null"}]},
        "drawing": {"oneOf": [_SEAT, {"type": "null"}]},
        "placed_count": _COUNTS,
        "pile": _COUNT,
        "unseen": {"type": "array", "items": _COUNT, "minItems": 3, "maxItems": 3},
        "hands": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["cheeses", "animals"],
                "properties": {
                    "cheeses": {"type": "array", "items": {"enum": [1, 2, 3]}},
                    "animals": _COUNT,
                },
            },
        },
        "hand": {"type": "array", "items": _COUNT, "minItems": rules.KINDS, "maxItems": rules.KINDS},
        "removed": {
            "type": "object",
            "additionalProperties": False,
            "required": ["cats", "mice", "cheeses"],
            "properties": {"cats": _CELLS, "mice": _CELLS, "cheeses": _CELLS},
        },
        "points": _COUNTS,
        "cheese_cards": _COUNTS,
    },
}


def table_view(state: CheeseState, player: int | None) -> dict[str, Any]:
    n = state.game.players
    unseen = list(state.pile)
    for seat in range(n):
        if seat != player:
            for animal in rules.ANIMALS:
                unseen[animal] += state.hands[seat][animal]
    hands = [
        {
            "cheeses": [rules.value_of(k) for k in rules.CHEESES for _ in range(state.hands[seat][k])],
            "animals": sum(state.hands[seat][a] for a in rules.ANIMALS),
        }
        for seat in range(n)
    ]
    data: dict[str, Any] = {
        "side": state.side,
        "frame": state.frame,
        "start": state.centre if rules.has_start_card(n) else None,
        "placed": [[cell, kind, seat] for cell, kind, seat in state.order],
        "legal_cells": [] if state.is_terminal() else list(state.legal_cells()),
        "turn": None if state.is_terminal() else state.turn,
        "drawing": state.to_draw[0] if state.to_draw else None,
        "placed_count": list(state.placed),
        "pile": sum(state.pile),
        "unseen": unseen,
        "hands": hands,
    }
    if player is not None:
        data["hand"] = list(state.hands[player])
    if state.removed is not None:
        points, cards = state.final_scores()
        cats, mice, cheeses = state.removed
        data["removed"] = {"cats": list(cats), "mice": list(mice), "cheeses": list(cheeses)}
        data["points"] = points
        data["cheese_cards"] = cards
    return data


def planes(players: int) -> int:
    return 4 + 3 * players


def observation_shape(players: int) -> tuple[int, ...]:
    frame = 2 * rules.SIDE[players] - 1
    return (planes(players) * frame * frame + rules.KINDS + 6 * players + 3 + 1,)


def encode(view: dict[str, Any]) -> NDArray[np.float32]:
    """Layout, flat: board planes [P x F x F] with P = 4 + 3n: start card, dog, cat, mouse, then for each seat
    starting with the observer (seat 0 for a spectator) and going clockwise its cheeses worth 1, 2, 3; then the
    observer's hand counts per kind / 3 [6] (zeros for a spectator); per seat in the same order: cheeses worth
    1, 2, 3 still in hand / 3, animals in hand / 8, cards placed / 12, is to act [6 per seat]; unseen dogs,
    cats, mice / 18 [3]; cards in the pile / 36 [1]."""
    table = view["table"]
    n = view["players"]
    frame = table["frame"]
    size = frame * frame
    out = np.zeros(observation_shape(n), dtype=np.float32)
    first = view["seat"] or 0
    if table["start"] is not None:
        out[table["start"]] = 1
    for cell, kind, seat in table["placed"]:
        if kind in rules.ANIMALS:
            out[(1 + kind) * size + cell] = 1
        else:
            relative = (seat - first) % n
            out[(4 + 3 * relative + kind - rules.CHEESE1) * size + cell] = 1
    base = planes(n) * size
    for kind, count in enumerate(table.get("hand", [0] * rules.KINDS)):
        out[base + kind] = count / 3.0
    base += rules.KINDS
    for offset in range(n):
        seat = (first + offset) % n
        hand = table["hands"][seat]
        for value in hand["cheeses"]:
            out[base + value - 1] += 1 / 3.0
        out[base + 3] = hand["animals"] / 8.0
        out[base + 4] = table["placed_count"][seat] / 12.0
        out[base + 5] = float(seat in view["to_act"])
        base += 6
    for animal, count in enumerate(table["unseen"]):
        out[base + animal] = count / 18.0
    out[base + 3] = table["pile"] / 36.0
    return out
