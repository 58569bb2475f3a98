"""What a Safarü seat may see: the one place where hidden information is filtered (DECISIONS all-3).

Hidden: the other seats' hands and the pile.  Everything else was seen by everyone at the table and is kept
with perfect recall: the table, every card played, every catch (caught cards are laid face down, but every
player watched them being caught), the deals to the table, hand sizes.  A seat also sees its own hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ludotheque.games.safaru import rules as r
from ludotheque.games.safaru.notation import parse_card

if TYPE_CHECKING:
    from ludotheque.games.safaru.game import SafaruState


_CARD: dict[str, Any] = {"type": "string", "pattern": "^[RYGBK][0-9]$"}  # a card name, as in the notation
_CARDS: dict[str, Any] = {"type": "array", "items": _CARD}
_SEAT: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": 3}
_SEAT_OR_NULL: dict[str, Any] = {"type": ["integer", "null"], "minimum": 0, "maximum": 3}
_NUMBERS: dict[str, Any] = {"type": "array", "items": {"type": "number"}}
_CATCH: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["method", "cards"],
    "properties": {"method": {"enum": list(r.METHOD_NAMES)}, "cards": _CARDS},
}
_DEAL_KEYS = ["deal", "starter", "table", "hands"]
_TURN_KEYS = ["seat", "card", "table_before", "catches", "released", "picked_by"]
#: A log entry is a deal (exactly ``_DEAL_KEYS``) or a turn (exactly ``_TURN_KEYS``).  One object schema declares
#: every key once and the two shapes differ only in their required keys and size, so each entry's values are
#: checked once (the view repeats the whole log: this is what its validation spends its time on).
_LOG_ENTRY: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "deal": {"type": "integer", "minimum": 0},
        "starter": _SEAT,
        "table": _CARDS,
        "hands": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": r.HAND_SIZE}},
        "seat": _SEAT,
        "card": _CARD,
        "table_before": _CARDS,
        "catches": {"type": "array", "items": _CATCH},
        "released": {"type": "boolean"},
        "picked_by": _SEAT_OR_NULL,
    },
    "oneOf": [
        {"required": _DEAL_KEYS, "maxProperties": len(_DEAL_KEYS)},
        {"required": _TURN_KEYS, "maxProperties": len(_TURN_KEYS)},
    ],
}

#: JSON Schema of ``view["table"]``; ``hand`` is a seat's own, absent for a spectator.
TABLE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["game_number", "deal", "starter", "to_move", "phase", "table", "pile", "hand_sizes", "caught",
                 "partners", "turn", "log", "scores", "totals", "results"],
    "properties": {
        "game_number": {"type": "integer", "minimum": 1},
        "deal": {"type": "integer", "minimum": 0},
        "starter": _SEAT,
        "to_move": _SEAT_OR_NULL,
        "phase": {"enum": ["deal", "play", "catch", "build", "pick", "pair", "over"]},
        "table": _CARDS,
        "pile": {"type": "integer", "minimum": 0, "maximum": r.DECK_SIZE},
        "hand_sizes": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": r.HAND_SIZE}},
        "caught": {"type": "array", "items": _CARDS},
        "partners": {"type": "array", "items": {"type": "array", "items": _SEAT}},
        "turn": {
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["seat", "card", "table_before", "zero_required", "catches", "building", "picked_by"],
                    "properties": {
                        "seat": _SEAT,
                        "card": _CARD,
                        "table_before": _CARDS,
                        "zero_required": {"type": "boolean"},
                        "catches": {"type": "array", "items": _CATCH},
                        "building": {
                            "oneOf": [
                                {"type": "null"},
                                {
                                    "type": "object",
                                    "additionalProperties": False,
                                    "required": ["method", "cards"],
                                    "properties": {"method": {"enum": ["add", "17"]}, "cards": _CARDS},
                                },
                            ]
                        },
                        "picked_by": _SEAT_OR_NULL,
                    },
                },
            ]
        },
        "log": {"type": "array", "items": _LOG_ENTRY},
        "scores": _NUMBERS,
        "totals": _NUMBERS,
        "results": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["scores", "caught", "left"],
                "properties": {"scores": _NUMBERS, "caught": {"type": "array", "items": _CARDS}, "left": _CARDS},
            },
        },
        "hand": _CARDS,
    },
}


def table_view(state: SafaruState, player: int | None) -> dict[str, Any]:
    """The table as every seat sees it, plus ``player``'s hand.

    ``log`` and ``results`` hold the state's own records, shared rather than copied: a finished turn, a finished
    deal and a finished game are never changed once recorded (the state starts new lists for the next ones),
    they are public, and a view is read, never written.  ``_reference_table_view`` in the tests copies them.
    """
    turn: dict[str, Any] | None = None
    if state.played >= 0 and not state.finished:
        turn = {
            "seat": state.to_move,
            "card": r.card_name(state.played),
            "table_before": list(state.table_before),
            "zero_required": state.zero_required,
            "catches": [{"method": c["method"], "cards": list(c["cards"])} for c in state.catches],
            "building": None
            if state.method < 0
            else {"method": r.METHOD_NAMES[state.method], "cards": [r.card_name(k) for k in state.build]},
            "picked_by": state.picked_by,
        }
    data: dict[str, Any] = {
        "game_number": len(state.results) + (0 if state.finished else 1),
        "deal": state.round,
        "starter": state.starter,
        "to_move": None if state.finished else state.to_move,
        "phase": "deal" if state.deal_queue else ("over" if state.finished else state.phase),
        "table": r.names(state.table),
        "pile": state.pile_size,
        "hand_sizes": [sum(h) for h in state.hands],
        "caught": [r.names(c) for c in state.caught],
        "partners": [[s, s + 2] for s in range(2)] if state.partners else [],
        "turn": turn,
        "log": list(state.log),
        "scores": state.current_scores(),
        "totals": list(state.totals),
        "results": list(state.results),
    }
    if player is not None:
        data["hand"] = r.names(state.hands[player])
    return data


def observation_shape(players: int) -> tuple[int, ...]:
    return (4 * r.KINDS + players * (r.KINDS + 3) + 11,)


PHASES = ("play", "catch", "build", "pick", "pair")
#: the kind of every card name as the view writes it (``parse_card`` reads any other spelling)
_KIND_OF: dict[str, int | None] = {name: parse_card(name) for name in r.NAMES}


def encode(view: dict[str, Any]) -> NDArray[np.float32]:
    """Layout: own hand [50] (copies per kind / 2; kind = colour*10 + number, colours R Y G B K), table [50] (/2),
    card in play [50] (one-hot), cards in the catch being built [50]; then per seat, starting with the observer
    (seat 0 for a spectator) clockwise: caught cards [50] (/2), hand size / 4, running game score / 50, match
    total / 100; then pile / 60, phase one-hot [play, catch, build, pick, pair], methods used this turn
    [add, 17, pair], zero rule in force, observer is the one to act."""
    table = view["table"]
    n = view["players"]
    # filled as a list and converted once (every step of the RL adapters encodes a view): the same float32 values
    out = [0.0] * observation_shape(n)[0]
    kind_of = _KIND_OF

    def put(base: int, cards: list[str], scale: float) -> None:
        for name in cards:
            kind = kind_of[name] if name in kind_of else parse_card(name)
            if kind is not None:
                out[base + kind] += scale

    put(0, table.get("hand", []), 0.5)
    put(50, table["table"], 0.5)
    turn = table["turn"]
    if turn is not None:
        put(100, [turn["card"]], 1.0)
        if turn["building"] is not None:
            put(150, turn["building"]["cards"], 0.5)
    first = view["seat"] or 0
    for offset in range(n):
        seat = (first + offset) % n
        base = 200 + offset * (r.KINDS + 3)
        put(base, table["caught"][seat], 0.5)
        out[base + 50] = table["hand_sizes"][seat] / 4.0
        out[base + 51] = table["scores"][seat] / 50.0
        out[base + 52] = table["totals"][seat] / 100.0
    base = 200 + n * (r.KINDS + 3)
    out[base] = table["pile"] / 60.0
    if table["phase"] in PHASES:
        out[base + 1 + PHASES.index(table["phase"])] = 1
    if turn is not None:
        for catch in turn["catches"]:
            out[base + 6 + r.METHOD_NAMES.index(catch["method"])] = 1
        out[base + 9] = float(turn["zero_required"])
    out[base + 10] = float(view["seat"] is not None and view["seat"] in view["to_act"])
    return np.array(out, dtype=np.float32)
