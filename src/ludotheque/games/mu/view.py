"""What a Mü seat may see: the one place where hidden information is filtered (DECISIONS all-3).

Hidden from a seat: the other seats' hands and the undealt cards.  Public: the removed colours, how many cards
each seat holds, every card laid in the auction and every card played (and whether it came from the hand or the
table), trumps, roles, scores and the summaries of finished hands.  Cards are named by kind (``R7``): the two
copies of a 1 or a 7 cannot be told apart at the table, so no view can tell them apart either.
"""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ludotheque.games.mu import notation as nt
from ludotheque.games.mu import rules
from ludotheque.games.mu.rules import COLOURS, KINDS

if TYPE_CHECKING:
    from ludotheque.games.mu.game import MuState

PHASE_ORDER = ("remove", "deal", "auction", "vice_trump", "chief_trump", "partner", "play", "over")


NAMES = tuple(nt.card_name(kind) for kind in range(KINDS))
MOVES = tuple(nt.format_action(action) for action in range(nt.NUM_ACTIONS))

_INT = {"type": "integer"}
_COUNT = {"type": "integer", "minimum": 0}
_SEAT = {"type": "integer", "minimum": 0, "maximum": 5}
_SEAT_OR_NULL = {"type": ["integer", "null"], "minimum": 0, "maximum": 5}
_INTS = {"type": "array", "items": _INT}
_COUNTS = {"type": "array", "items": _COUNT}
_CARD = nt.CARD_SCHEMA
_CARDS = {"type": "array", "items": _CARD}
_TRUMP = {"enum": [*COLOURS, *(str(d) for d in range(10)), "none"]}  # rules.trump_name
_TRUMP_OR_NULL = {"enum": [*_TRUMP["enum"], None]}
_PLAYED = {  # [seat, card, from the table]
    "type": "array",
    "prefixItems": [_SEAT, _CARD, {"type": "boolean"}],
    "items": False,
    "minItems": 3,
}


def _summary(result: list[str], **extra: Any) -> dict[str, Any]:
    properties = {
        "hand": {"type": "integer", "minimum": 1},
        "dealer": _SEAT,
        "bids": _COUNTS,
        "result": {"enum": result},
        **extra,
        "deltas": _INTS,
        "scores": _INTS,
    }
    return {"type": "object", "additionalProperties": False, "required": list(properties), "properties": properties}


#: A finished hand's summary (``view["table"]["hands"]``, and the ``hand_scored`` event): nobody bid (``redeal``),
#: a shared highest bid (``egalite``, mu-3), or a played hand (``made`` / ``missed``, with mu-8's breakdown).
HAND_SUMMARY_SCHEMA: dict[str, Any] = {
    "oneOf": [
        _summary(["redeal"]),
        _summary(["egalite"], tied={"type": "array", "items": _SEAT, "minItems": 2}, tie_maker=_SEAT),
        _summary(
            ["made", "missed"],
            chief=_SEAT,
            vice=_SEAT_OR_NULL,
            partner=_SEAT_OR_NULL,
            chief_trump=_TRUMP,
            vice_trump=_TRUMP_OR_NULL,
            bid={"type": "integer", "minimum": 1},
            contract=_COUNT,
            triangles=_COUNTS,
            team_triangles=_COUNT,
            bonus={"type": ["integer", "null"], "minimum": 0},
            k={"type": ["integer", "null"], "minimum": 0},
            chief_loss={"type": ["integer", "null"], "minimum": 0},
            opponent_gain={"type": ["integer", "null"], "minimum": 0},
        ),
    ],
}

_TABLE_PROPERTIES: dict[str, Any] = {
    "hand_number": {"type": "integer", "minimum": 1},
    "phase": {"enum": list(PHASE_ORDER)},
    "dealer": _SEAT,
    "target": {"type": "integer", "minimum": 1},
    "scores": _INTS,
    "removed": {"type": "array", "items": {"enum": list(COLOURS)}, "maxItems": 2},
    "hand_sizes": _COUNTS,
    "bids": _COUNTS,
    "laid": {"type": "array", "items": _CARDS},
    "auction": {  # [seat, move in notation]
        "type": "array",
        "items": {"type": "array", "prefixItems": [_SEAT, {"type": "string"}], "items": False, "minItems": 2},
    },
    "turn_limit": {"type": ["integer", "null"], "minimum": 1},
    "turn_laid": {"type": ["integer", "null"], "minimum": 0},
    "chief": _SEAT_OR_NULL,
    "vice": _SEAT_OR_NULL,
    "partner": _SEAT_OR_NULL,
    "vice_trump": _TRUMP_OR_NULL,
    "chief_trump": _TRUMP_OR_NULL,
    "contract": {"type": ["integer", "null"], "minimum": 0},
    "leader": _SEAT_OR_NULL,
    "trick": {"type": "array", "items": _PLAYED},
    "tricks": {
        "type": "array",
        "items": {
            "type": "object",
            "additionalProperties": False,
            "required": ["leader", "cards", "winner"],
            "properties": {"leader": _SEAT, "cards": {"type": "array", "items": _PLAYED}, "winner": _SEAT},
        },
    },
    "won": _COUNTS,
    "hands": {"type": "array", "items": HAND_SUMMARY_SCHEMA},
}

#: JSON Schema of ``view["table"]``; ``hand`` (the seat's own cards) is absent from a spectator's view.
TABLE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": list(_TABLE_PROPERTIES),
    "properties": {**_TABLE_PROPERTIES, "hand": _CARDS},
}


def _cards(counts: list[int]) -> list[str]:
    """The names of a multiset of kinds (at most two copies of a kind, mu-1), in kind order."""
    out: list[str] = []
    for kind in compress(_KIND_RANGE, counts):  # the kinds held, picked at C speed
        out.append(NAMES[kind])
        if counts[kind] > 1:
            out.append(NAMES[kind])
    return out


_KIND_RANGE = range(KINDS)


def _trick(cards: Any) -> list[list[Any]]:
    return [[seat, NAMES[kind], table] for seat, kind, table in cards]


def table_view(state: MuState, player: int | None) -> dict[str, Any]:
    n = state.game.players
    named = state.phase in ("play", "partner", "chief_trump", "over") and state.chief is not None
    chief_named = state.phase in ("play", "partner") or (state.phase == "over" and state.chief is not None)
    data: dict[str, Any] = {
        "hand_number": len(state.log) + (0 if state.phase == "over" else 1),
        "phase": state.phase,
        "dealer": state.dealer,
        "target": state.target,
        "scores": list(state.scores),
        "removed": [COLOURS[c] for c in state.removed],
        "hand_sizes": list(state.hand_sizes),
        "bids": list(state.bids),
        "laid": [_cards(state.laid[seat]) for seat in range(n)],
        "auction": [[seat, MOVES[action]] for seat, action in state.auction],
        "turn_limit": state.turn_limit if state.phase == "auction" else None,
        "turn_laid": state.turn_laid if state.phase == "auction" else None,
        "chief": state.chief,
        "vice": state.vice,
        "partner": state.partner,
        "vice_trump": rules.trump_name(state.vice_trump) if named and state.vice is not None else None,
        "chief_trump": rules.trump_name(state.chief_trump) if chief_named else None,
        "contract": rules.contract(n, state.bids[state.chief]) if state.chief is not None else None,
        "leader": state.leader if state.phase == "play" else None,
        "trick": _trick(state.trick),
        "tricks": [
            {"leader": leader, "cards": _trick(cards), "winner": winner} for leader, cards, winner in state.tricks
        ],
        "won": list(state.won),
        "hands": [{k: list(v) if isinstance(v, list) else v for k, v in s.items()} for s in state.log],
    }
    if player is not None:
        data["hand"] = _cards(state.hands[player])
    return data


def _kind(name: str) -> int:
    return COLOURS.index(name[0]) * 10 + int(name[1])


def _trump_code(name: str | None) -> int | None:
    if name is None:
        return None
    if name == "none":
        return rules.NO_TRUMP
    if name in COLOURS:
        return COLOURS.index(name)
    return 10 + int(name)


PER_SEAT = KINDS + 9


def observation_shape(players: int) -> tuple[int, ...]:
    return (3 * KINDS + PER_SEAT * players + 2 * 16 + len(PHASE_ORDER) + 1,)


def encode(view: dict[str, Any]) -> NDArray[np.float32]:
    """Layout: own hand counts per kind / 2 [50]; cards played this hand per kind / 2 [50]; the current
    trick's cards [50]; then per seat from the observer clockwise (seat 0 first for a spectator): cards laid on
    the table per kind / 2 [50], bid / 15, hand size / 15, triangles won this hand / 60, score / target,
    is chief, is vice, is partner, is dealer, is to act [9]; the chief's trump, then the vice's trump, each
    one-hot colour [5] + number [10] + none [1] (all zero while unnamed); the phase one-hot [8]; the tricks
    played this hand / 15 [1]."""
    table = view["table"]
    n = view["players"]
    out = np.zeros(observation_shape(n), dtype=np.float32)
    for name in table.get("hand", []):
        out[_kind(name)] += 0.5
    played = [card for trick in table["tricks"] for card in trick["cards"]] + table["trick"]
    for _, name, _ in played:
        out[KINDS + _kind(name)] += 0.5
    for _, name, _ in table["trick"]:
        out[2 * KINDS + _kind(name)] = 1.0
    first = view["seat"] or 0
    target = max(1, table["target"])
    for offset in range(n):
        seat = (first + offset) % n
        base = 3 * KINDS + offset * PER_SEAT
        for name in table["laid"][seat]:
            out[base + _kind(name)] += 0.5
        extra = base + KINDS
        out[extra] = table["bids"][seat] / 15.0
        out[extra + 1] = table["hand_sizes"][seat] / 15.0
        out[extra + 2] = table["won"][seat] / 60.0
        out[extra + 3] = table["scores"][seat] / target
        out[extra + 4] = float(table["chief"] == seat)
        out[extra + 5] = float(table["vice"] == seat)
        out[extra + 6] = float(table["partner"] == seat)
        out[extra + 7] = float(table["dealer"] == seat)
        out[extra + 8] = float(seat in view["to_act"])
    base = 3 * KINDS + PER_SEAT * n
    for index, key in enumerate(("chief_trump", "vice_trump")):
        code = _trump_code(table[key])
        start = base + 16 * index
        if code is None:
            continue
        if code == rules.NO_TRUMP:
            out[start + 15] = 1.0
        elif code < 5:
            out[start + code] = 1.0
        else:
            out[start + 5 + code - 10] = 1.0
    base += 32
    out[base + PHASE_ORDER.index(table["phase"])] = 1.0
    out[base + len(PHASE_ORDER)] = len(table["tricks"]) / 15.0
    return out
