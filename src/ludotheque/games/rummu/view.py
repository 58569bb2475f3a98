"""What a Rummü seat may see: the one place where hidden information is filtered (DECISIONS all-3).

Hidden: the other hands (except the cards everyone saw go into them: taken from the discard pile, jokers won
by a swap, cards taken back from a cancelled combination) and the draw pile.  Everything else is public with
perfect recall: the whole discard pile (each card was seen when discarded), the table, the count of every
finished hand (``results``, the breakdown of the ``score`` event) and the last lines of this hand in words
(``log``, for bots; the event stream of ``events.py`` is the whole story).  A seat also sees its own hand and
its own draws in the log.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ludotheque.games.rummu import rules
from ludotheque.games.rummu.notation import MAX_COMBOS, parse_card
from ludotheque.games.rummu.rules import CARD_STRS, TYPES

LOG = 30  # recent events shown (for bots); everything they imply is kept in the other keys (known cards, table...)

_INT = {"type": "integer"}
_SEAT = {"type": "integer", "minimum": 0}
_CARD = {"type": "string", "pattern": "^[RYGBK][0-9]$"}
_CARDS = {"type": "array", "items": _CARD}
_INTS = {"type": "array", "items": _INT}


def _object(**properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": list(properties), "properties": properties}


#: One table combination as it stands (``combos``) or as it was scored (``results``, with its kind and purity).
_COMBO = _object(owner=_SEAT, cards=_CARDS, points=_INT)
_SCORED_COMBO = _object(owner=_SEAT, cards=_CARDS, kind={"enum": ["set", "run"]}, pure={"type": "boolean"}, points=_INT)

#: A finished hand's count (rummu-8/9): per seat, in seat order, the going-out bonus, the penalty of the cards
#: left (0 where waived: the partner of the player out) and the hand's points; the combinations with their owners.
RESULT_SCHEMA: dict[str, Any] = _object(
    hand={"type": "integer", "minimum": 1},
    dealer=_SEAT,
    out={"type": ["integer", "null"], "minimum": 0},
    combos={"type": "array", "items": _SCORED_COMBO},
    left={"type": "array", "items": _CARDS},
    penalties=_INTS,
    waived={"type": "array", "items": {"type": "boolean"}},
    bonus=_INTS,
    points=_INTS,
    totals=_INTS,
    teams={
        "oneOf": [
            {"type": "null"},
            {"type": "array", "items": _object(seats={"type": "array", "items": _SEAT}, points=_INT, total=_INT)},
        ]
    },
)

_TABLE_PROPERTIES: dict[str, Any] = {
    "hand_number": {"type": "integer", "minimum": 1},
    "dealer": _SEAT,
    "phase": {"enum": ["deal", "flip", "draw", "draw-card", "play", "over"]},
    "current": {"type": ["integer", "null"], "minimum": 0},
    "target": {"type": "integer", "minimum": 1},
    "hand_limit": {"type": "integer", "minimum": 0},
    "teams": {"oneOf": [{"type": "null"}, {"type": "array", "items": _SEAT}]},
    "totals": _INTS,
    "scores": _INTS,
    "needs": {"type": "array", "items": {"type": "integer", "minimum": 3, "maximum": 6}},
    "opened": {"type": "array", "items": {"type": "boolean"}},
    "hand_sizes": {"type": "array", "items": {"type": "integer", "minimum": 0}},
    "known": {"type": "array", "items": _CARDS},
    "pile_size": {"type": "integer", "minimum": 0},
    "discard": _CARDS,
    "combos": {"type": "array", "items": _COMBO},
    "laying": _CARDS,
    "cancels": {"type": "integer", "minimum": 0},
    "log": {"type": "array", "items": {"type": "string"}, "maxItems": LOG},
    "results": {"type": "array", "items": RESULT_SCHEMA},
}

#: JSON Schema of ``view["table"]``: ``hand`` is the seat's own, absent for a spectator.
TABLE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": list(_TABLE_PROPERTIES),
    "properties": {**_TABLE_PROPERTIES, "hand": _CARDS},
}

if TYPE_CHECKING:
    from ludotheque.games.rummu.game import RummuState


def _cards(counts: list[int]) -> list[str]:
    """The cards of a multiset given as counts per type, in type order (``count_list``, written for speed)."""
    out: list[str] = []
    for t in compress(_TYPE_RANGE, counts):
        out.append(CARD_STRS[t])
        if counts[t] > 1:
            out.extend((CARD_STRS[t],) * (counts[t] - 1))
    return out


_TYPE_RANGE = range(TYPES)


@lru_cache(maxsize=1 << 12)
def _combo_points(cards: tuple[int, ...]) -> int:
    """``rules.combo_points``, memoised: a view shows every combination of the table."""
    return rules.combo_points(cards)


def table_view(state: RummuState, player: int | None) -> dict[str, Any]:
    game = state.game
    n = game.players
    data: dict[str, Any] = {
        "hand_number": state.hand_no + (0 if state.phase == "over" else 1),
        "dealer": state.dealer,
        "phase": state.phase,
        "current": None if state.phase == "over" else state.current,
        "target": game.target,
        "hand_limit": int(game.options["hands"]),
        "teams": [game.team_of(s) for s in range(n)] if game.partnerships else None,
        "totals": list(state.totals),
        "scores": [state._unit_total(s) for s in range(n)],
        "needs": list(state.needs),
        "opened": list(state.opened),
        "hand_sizes": list(state.sizes),
        "known": [_cards(k) for k in state.known],
        "pile_size": state.pile_size,
        "discard": [CARD_STRS[c] for c in state.discard],
        "combos": [
            {"owner": owner, "cards": [CARD_STRS[c] for c in cards], "points": _combo_points(tuple(cards))}
            for cards, owner in zip(state.combos, state.owners, strict=True)
        ],
        "laying": [CARD_STRS[c] for c in state.partial],
        "cancels": state.cancels,
        "log": [private if seat == player and private else public for seat, public, private in state.log[-LOG:]],
        "results": list(state.results),
    }
    if player is not None:
        data["hand"] = _cards(state.hands[player])
    return data


def observation_shape(players: int) -> tuple[int, ...]:
    return (5 * TYPES + players * (TYPES + 5) + MAX_COMBOS * (TYPES + players) + 5,)


def encode(view: dict[str, Any]) -> NDArray[np.float32]:
    """Layout (card blocks are indexed by card type colour*10+number, colours R Y G B K):
    own hand counts/2 [50], combination being laid [50], discard pile counts/2 [50], discard top [50],
    cards on the table counts/2 [50]; then per seat from the observer clockwise (seat 0 first for a spectator):
    hand size/20, opened, opening need/6, score/target, to act [5], publicly known cards counts/2 [50];
    then per table combination slot (20): its cards [50], owner relative to the observer one-hot [players];
    last: draw pile/60, phase draw, phase play, other phase, hand number/10."""
    table = view["table"]
    n = view["players"]
    out = np.zeros(observation_shape(n), dtype=np.float32)

    def add_cards(base: int, cards: list[str], weight: float = 0.5) -> None:
        for text in cards:
            out[base + parse_card(text)] += weight

    add_cards(0, table.get("hand", []))
    add_cards(TYPES, table["laying"], 1.0)
    add_cards(2 * TYPES, table["discard"])
    if table["discard"]:
        add_cards(3 * TYPES, table["discard"][-1:], 1.0)
    for combo in table["combos"]:
        add_cards(4 * TYPES, combo["cards"])
    first = view["seat"] or 0
    base = 5 * TYPES
    for offset in range(n):
        seat = (first + offset) % n
        out[base] = table["hand_sizes"][seat] / 20.0
        out[base + 1] = float(table["opened"][seat])
        out[base + 2] = table["needs"][seat] / 6.0
        out[base + 3] = table["scores"][seat] / table["target"]
        out[base + 4] = float(table["current"] == seat)
        add_cards(base + 5, table["known"][seat])
        base += TYPES + 5
    for j, combo in enumerate(table["combos"][:MAX_COMBOS]):
        slot = base + j * (TYPES + n)
        add_cards(slot, combo["cards"], 1.0)
        out[slot + TYPES + (combo["owner"] - first) % n] = 1.0
    base = out.shape[0] - 5
    out[base] = table["pile_size"] / 60.0
    phase = table["phase"]
    out[base + 1] = float(phase == "draw")
    out[base + 2] = float(phase == "play")
    out[base + 3] = float(phase not in ("draw", "play"))
    out[base + 4] = table["hand_number"] / 10.0
    return out
