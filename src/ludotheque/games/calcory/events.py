"""What each Calcory seat saw happen (DECISIONS all-3, calcory-5): the one place events are described, beside the view.

Calcory has no private information: every card is turned face up in front of everybody, and a card put back
is one that everybody saw, so every event is public.  The deal shows where a card lands, never its value.  A
flip shows the card's value to everyone, the card that breaks the sum included; the consequence follows as its
own event (``bust``, ``thirteen``), as does the start of the next turn when it collects surviving marks
(``collect``) and the end of the game (``end``).

Events say what happened at that moment.  A card turned back face down keeps its value only in the events and
the view's ``log`` (calcory-5): the view's ``cells`` never show it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ludotheque.core import CHANCE, Actor
from ludotheque.core.events import Event, public
from ludotheque.games.calcory import rules

if TYPE_CHECKING:
    from ludotheque.games.calcory.game import CalcoryState

_NAMES = rules.CELL_NAMES


def _cards(state: CalcoryState, cells: list[int]) -> dict[str, Any]:
    """The cells, their values, sum and count: a group of face-up cards as the table shows it."""
    values = [state.card[c] for c in cells]
    return {"cells": [_NAMES[c] for c in cells], "values": values, "sum": sum(values), "count": len(cells)}


def describe(before: CalcoryState, actor: Actor, action: int, after: CalcoryState) -> list[Event]:
    if actor == CHANCE:
        return [public({"type": "deal", "cell": _NAMES[before.dealt]})]  # face down: no value
    seat = int(actor)
    events: list[Event] = []
    if action < rules.CELLS:
        events.extend(_flip(before, seat, action))
    elif action == rules.STOP:
        events.append(_stop(before, seat))
    elif action == rules.PASS:
        # calcory-4: nothing to flip; or (our reading) nothing to flip and no stop allowed: the flipped cards turn back
        events.append(public({"type": "pass", "seat": seat, "cells": [_NAMES[c] for c in before.flipped]}))
    else:
        value, cell = rules.split_put(action)
        kept = list(before.holding)
        kept.remove(value)
        reason = "collect" if before.collecting else "thirteen"
        events.append(
            public(
                {"type": "put_back", "seat": seat, "value": value, "cell": _NAMES[cell], "kept": kept,
                 "reason": reason}
            )
        )
    if after.turn != before.turn:
        events.extend(_turn_start(before, after))
    return events


def _flip(before: CalcoryState, seat: int, cell: int) -> list[Event]:
    value = before.card[cell]
    total = before.total + value
    zeros = before.zeros + (value == 0)
    cells = [*before.flipped, cell]
    events = [public({"type": "flip", "seat": seat, "cell": _NAMES[cell], "value": value, "sum": total})]
    if rules.busts(total, zeros):
        # calcory-2: over 13, or a second 0: the turn fails and the flipped cards turn back face down
        reason = "second_zero" if value == 0 and zeros >= 2 else "over"
        events.append(public({"type": "bust", "seat": seat, "reason": reason, **_cards(before, cells)}))
    elif total == rules.TARGET:
        # calcory-2: exactly 13, the player takes the flipped cards; one of them must go back (put_back)
        events.append(public({"type": "thirteen", "seat": seat, **_cards(before, cells)}))
    return events


def _stop(before: CalcoryState, seat: int) -> Event:
    mine = _cards(before, before.flipped)
    if before.marked_owner < 0:
        # calcory-3: nothing marked, the flipped cards stay face up with the player's markers
        return public({"type": "mark", "seat": seat, **mine})
    theirs = {"seat": before.marked_owner, **_cards(before, before.marked)}
    if rules.beats(mine["sum"], mine["count"], theirs["sum"], theirs["count"]):
        # calcory-3: the old cards turn back and their markers go home; the new cards are marked
        return public({"type": "beat", "seat": seat, **mine, "beaten": theirs})
    # calcory-3: stopping without beating the marked cards fails; the flipped cards turn back
    return public({"type": "fail", "seat": seat, **mine, "marked": theirs})


def _turn_start(before: CalcoryState, after: CalcoryState) -> list[Event]:
    """The consequences a new turn shows at once: surviving marks collected (calcory-4), the end of the game."""
    owner = after.current
    collected = after.ending is not None or (after.phase == "put_back" and after.collecting)
    if not collected:
        return []
    # the marks were on the table before the action and have not moved since (a beat would have replaced them)
    events = [public({"type": "collect", "seat": owner, **_cards(before, before.marked)})]
    if after.is_terminal():
        won = [len(pile) for pile in after.piles]
        events.append(public({"type": "end", "cards_won": won, "returns": after.returns(), "winners": after.winners()}))
    return events
