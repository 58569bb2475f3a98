"""What each MICE seat saw happen (DECISIONS all-3): the one place events are described, beside the view.

Everything in MICE is public (mice-1), and dice are chance (all-1): every event is the same for every seat and
the spectator.  An action gives its own event first, then what it set off by itself (the state's ``notes``: a
forced failure, the dice left to the others, a passive seat that cannot use them, the solo bonus nut), then the
end of the game.  So after a seat's own move, its stream shows every die rolled, every nut paid and every die
changed, and every passive turn (mice-6) until it acts again.

A nut's way is ``{"from": ..., "to": ...}``, each a seat, ``"supply"`` (the general supply, mice-3) or
``"middle"`` (the solo game's middle of the table, mice-8).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from ludotheque.core import CHANCE, Actor
from ludotheque.core.events import Event, EventData, public
from ludotheque.games.mice import notation, rules
from ludotheque.games.mice.view import slot_names

if TYPE_CHECKING:
    from ludotheque.games.mice.game import MiceState


def describe(before: MiceState, actor: Actor, action: int, after: MiceState) -> list[Event]:
    events = _roll(before, action) if actor == CHANCE else [_move(before, int(actor), action, after)]
    events.extend(copy.deepcopy(note) for note in after.notes)  # the event's data is its own, not the state's
    if after.is_terminal():
        events.append(_game_over(after))
    return [public(data) for data in events]


def _roll(before: MiceState, action: int) -> list[EventData]:
    """A die rolled; the first die of a turn opens it (whose turn, and how many dice its dice cards give)."""
    seat = before.active
    out: list[EventData] = []
    if before.roll_index == 0:
        red, yellow = rules.dice_counts(before.face_up[seat])
        out.append({"type": "turn", "seat": seat, "turn": before.turn, "red_dice": red, "yellow_dice": yellow})
    slot = before.rolled[before.roll_index]
    out.append({"type": "roll", "seat": seat, "die": rules.SLOT_NAMES[slot], "value": action + 1})
    return out


def _dice(state: MiceState, mask: int) -> dict[str, Any]:
    values = [state.dice[s] for s in range(5) if mask >> s & 1]
    return {"dice": slot_names(mask), "values": values, "sum": sum(values)}


def _move(before: MiceState, seat: int, action: int, after: MiceState) -> EventData:
    """A seat's own move as the table saw it (mice-4..8)."""
    if action < notation.FAIL:
        return {"type": "use", "seat": seat, **_dice(after, after.used)}
    if action == notation.FAIL:
        return {"type": "fail", "seat": seat, "forced": False}
    nut: dict[str, int | str]
    if action < notation.CAGE:
        slot = (action - notation.ADJUST) // 2
        nut = {"from": seat, "to": "middle" if before.solo else "supply"}
        return {
            "type": "adjust",
            "seat": seat,
            "die": rules.SLOT_NAMES[slot],
            "from": before.dice[slot],
            "to": after.dice[slot],
            "sum": _dice(after, after.used)["sum"],
            "nut": nut,
        }
    if action == notation.PAY:
        if before.solo:  # mice-8: a nut to the middle buys a second card
            nut = {"from": seat, "to": "middle"}
        else:  # mice-6: the active seat gets a nut, from the supply while it has one
            nut = {"from": "supply" if before.supply > 0 else seat, "to": before.active}
        return {"type": "pay", "seat": seat, **_dice(after, after.used), "nut": nut}
    if action == notation.TAKE_BACK:
        return {"type": "take_back", "seat": seat, "card": before.cages[seat][-1]}
    if action == notation.PASS:
        return {"type": "pass", "seat": seat}
    move = notation.to_json(action)  # cage, flip, unflip: the move's own form, with the seat
    return {"type": move.pop("type"), "seat": seat, **move}


def _game_over(after: MiceState) -> EventData:
    """mice-7 (solo: mice-8): the final count, with returns and winners."""
    data: EventData = {"type": "game_over"}
    if after.solo:
        data["cards_left"] = len(rules.hand_cards(after.hands[0]))
        data["face_up"] = bin(after.face_up[0]).count("1")
        data["rating"] = rules.RATINGS[after._solo_rank()]
    else:
        data["totals"] = [rules.hand_total(hand) for hand in after.hands]
        data["face_down"] = [4 - bin(face_up).count("1") for face_up in after.face_up]
        data["nuts"] = list(after.nuts)
    data["returns"] = after.returns()
    data["winners"] = after.winners()
    return data
