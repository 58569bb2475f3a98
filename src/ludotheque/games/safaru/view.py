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


def _copy_entry(entry: dict[str, Any]) -> dict[str, Any]:
    out = dict(entry)
    for key in ("table_before", "table", "hands"):
        if key in out:
            out[key] = list(out[key])
    if "catches" in out:
        out["catches"] = [{"method": c["method"], "cards": list(c["cards"])} for c in out["catches"]]
    return out


def table_view(state: SafaruState, player: int | None) -> dict[str, Any]:
    n = state.game.players
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
        "partners": [[s, s + 2] for s in range(2)] if n == 4 else [],
        "turn": turn,
        "log": [_copy_entry(e) for e in state.log],
        "scores": state.current_scores(),
        "totals": list(state.totals),
        "results": [{"scores": list(x["scores"]), "caught": [list(c) for c in x["caught"]]} for x in state.results],
    }
    if player is not None:
        data["hand"] = r.names(state.hands[player])
    return data


def observation_shape(players: int) -> tuple[int, ...]:
    return (4 * r.KINDS + players * (r.KINDS + 3) + 11,)


PHASES = ("play", "catch", "build", "pick", "pair")


def encode(view: dict[str, Any]) -> NDArray[np.float32]:
    """Layout: own hand [50] (copies per kind / 2; kind = colour*10 + number, colours R Y G B K), table [50] (/2),
    card in play [50] (one-hot), cards in the catch being built [50]; then per seat, starting with the observer
    (seat 0 for a spectator) clockwise: caught cards [50] (/2), hand size / 4, running game score / 50, match
    total / 100; then pile / 60, phase one-hot [play, catch, build, pick, pair], methods used this turn
    [add, 17, pair], zero rule in force, observer is the one to act."""
    table = view["table"]
    n = view["players"]
    out = np.zeros(observation_shape(n), dtype=np.float32)

    def put(base: int, cards: list[str], scale: float) -> None:
        for name in cards:
            kind = parse_card(name)
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
    return out
