"""What each Rummü seat saw happen (DECISIONS all-3): the one place events are filtered, beside the view.

Hidden at the table: the cards dealt and the cards drawn from the pile.  Their receiver sees them; everyone else
sees that a card went to that seat (``deal``, ``draw``).  Everything else is done face up: cards taken from the
discard pile, every card laid, put, swapped or taken back (``cancel``), every discard, the reshuffles, and the
count at the end of a hand (``score``: the combinations with their values, the going-out bonus, the cards laid
open and their penalty, team sums), then ``match_end`` or the next hand's ``new_hand``.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from ludotheque.core import CHANCE, Actor
from ludotheque.core.events import Event, EventData, public, secret
from ludotheque.games.rummu import rules
from ludotheque.games.rummu.notation import ADD, CANCEL, CLOSE, DISCARD, DRAW, PUT, START, SWAP, TAKE
from ludotheque.games.rummu.rules import TYPES, card_str

if TYPE_CHECKING:
    from ludotheque.games.rummu.game import RummuState


def _cards(cards: list[int]) -> list[str]:
    return [card_str(c) for c in cards]


def describe(before: RummuState, actor: Actor, action: int, after: RummuState) -> list[Event]:
    if actor == CHANCE:
        return _chance(before, action, after)
    seat = int(actor)
    events: list[Event] = []
    if action == DRAW:
        return events  # the card comes with chance's next action (``draw``)
    if action < START:
        taken = before.discard[len(before.discard) - (action - TAKE + 1) :][::-1]  # rummu-3: top card first
        events.append(public({"type": "take", "seat": seat, "cards": _cards(taken)}))
    elif action < ADD:
        events.append(public({"type": "start", "seat": seat, "card": card_str(action - START)}))
    elif action < CLOSE:
        events.append(
            public({"type": "add", "seat": seat, "card": card_str(action - ADD), "laying": _cards(after.partial)})
        )
    elif action == CLOSE:
        cards = after.combos[-1]
        events.append(
            public(
                {
                    "type": "close",
                    "seat": seat,
                    "combo": len(after.combos),
                    "cards": _cards(cards),
                    "opening": not before.opened[seat],
                    "points": rules.combo_points(cards),
                }
            )
        )
    elif action == CANCEL:
        events.append(public({"type": "cancel", "seat": seat, "cards": _cards(before.partial)}))
    elif action < PUT:
        events.append(public({"type": "discard", "seat": seat, "card": card_str(action - DISCARD)}))
        if len(after.results) > len(before.results):
            events.extend(_hand_end(after))
    elif action < SWAP:
        j, card = divmod(action - PUT, TYPES)
        events.append(
            public(
                {"type": "put", "seat": seat, "card": card_str(card), "combo": j + 1, "cards": _cards(after.combos[j])}
            )
        )
    else:
        j, card = divmod(action - SWAP, TYPES)
        events.append(
            public(
                {
                    "type": "swap",
                    "seat": seat,
                    "card": card_str(card),
                    "joker": card_str(rules.YELLOW * 10 + card % 10),
                    "combo": j + 1,
                    "cards": _cards(after.combos[j]),
                }
            )
        )
    return events


def _chance(before: RummuState, card: int, after: RummuState) -> list[Event]:
    events: list[Event] = []
    text = card_str(card)
    if before.phase == "deal":
        n = before.game.players
        dealt = rules.HAND_SIZE[n] * n - before.to_deal
        if dealt == 0:
            events.append(
                public(
                    {
                        "type": "new_hand",
                        "hand": before.hand_no + 1,
                        "dealer": before.dealer,
                        "needs": list(before.needs),
                        "scores": [before._unit_total(s) for s in range(n)],
                    }
                )
            )
        seat = (before.dealer + 1 + dealt) % n
        events.append(secret(seat, {"type": "deal", "seat": seat, "card": text}, {"type": "deal", "seat": seat}))
    elif before.phase == "flip":
        events.append(public({"type": "flip", "card": text, "first": after.current}))
    else:
        seat = before.current
        events.append(secret(seat, {"type": "draw", "seat": seat, "card": text}, {"type": "draw", "seat": seat}))
        if after.epoch > before.epoch:  # rummu-3: the discard pile but its top becomes the draw pile
            events.append(public({"type": "reshuffle", "cards": after.pile_size, "discard": _cards(after.discard)}))
        elif after.exhausted:
            events.append(public({"type": "pile_empty"}))  # nothing to reshuffle: the hand ends after this turn
    return events


def _hand_end(after: RummuState) -> list[Event]:
    """rummu-8/9: the count, as every seat watched it; then the match's end (rummu-10) if it is over."""
    result: dict[str, Any] = after.results[-1]
    score: EventData = {"type": "score", **copy.deepcopy(result)}
    events = [public(score)]
    if after.is_terminal():
        events.append(
            public(
                {
                    "type": "match_end",
                    "hands": after.hand_no,
                    "totals": list(after.totals),
                    "returns": after.returns(),
                    "winners": after.winners(),
                }
            )
        )
    return events
