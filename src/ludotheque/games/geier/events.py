"""What each Geier seat saw happen (DECISIONS all-3, geier-2): the one place events are filtered, beside the view.

A seat's card is face down until every seat has chosen: its owner sees it, the others see that it chose.  The
round's resolution reveals every card at once (``reveal``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ludotheque.core import CHANCE, Actor
from ludotheque.core.events import Event, public, secret
from ludotheque.games.geier.rules import POINT_CARDS

if TYPE_CHECKING:
    from ludotheque.games.geier.game import GeierState


def describe(before: GeierState, actor: Actor, action: int, after: GeierState) -> list[Event]:
    if actor == CHANCE:
        return [public({"type": "turn", "points": POINT_CARDS[action], "pot": list(after.pot)})]
    seat = int(actor)
    events = [secret(seat, {"type": "choose", "seat": seat, "card": action + 1}, {"type": "choose", "seat": seat})]
    if len(after.rounds) > len(before.rounds):
        resolved = after.rounds[-1]
        events.append(
            public(
                {
                    "type": "reveal",
                    "played": list(resolved["played"]),
                    "pot": list(resolved["pot"]),
                    "taker": resolved["taker"],
                    "lost": list(after.lost) if after.is_terminal() else [],
                }
            )
        )
    return events
