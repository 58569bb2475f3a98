"""What each Safarü seat saw happen (DECISIONS all-3): the one place events are filtered, beside the view.

Only the deal hides anything: a card dealt to a seat is seen by that seat, the others see that it got a card;
cards dealt to the table are face up.  Everything a seat does is done in front of everyone: the card it plays,
the method it begins, each card it takes, each catch (safaru-3), the left neighbour's pick in renversé
(safaru-7), and where the played card ends.  The end of a deal, each game's scoring with the rules' breakdown
per side (safaru-6 / safaru-7, partners pooled) and the end of the match follow the action that caused them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ludotheque.core import CHANCE, Actor
from ludotheque.core.events import Event, public, secret
from ludotheque.games.safaru import notation as nt
from ludotheque.games.safaru import rules as r

if TYPE_CHECKING:
    from ludotheque.games.safaru.game import SafaruState


def describe(before: SafaruState, actor: Actor, action: int, after: SafaruState) -> list[Event]:
    if actor == CHANCE:
        return _deal(before, action)
    seat = int(actor)
    events = [public(_step(before, seat, action))]
    if after.played >= 0:  # the turn goes on
        return events
    events.append(public(_turn_end(before, action)))
    new_deal = after.round != before.round or len(after.results) > len(before.results) or after.finished
    if new_deal:
        events.append(public({"type": "deal_end", "deal": before.round, "pile": before.pile_size}))
    if len(after.results) > len(before.results):
        events.append(public(_game_end(after)))
    if after.finished:
        events.append(public({"type": "end", "returns": after.returns(), "winners": after.winners()}))
    return events


def _deal(before: SafaruState, kind: int) -> list[Event]:
    events: list[Event] = []
    if len(before.deal_queue) == len(before.round_queue):  # the first card of a deal: say what the deal holds
        queue = before.round_queue
        events.append(
            public(
                {
                    "type": "new_deal",
                    "game": len(before.results) + 1,
                    "deal": before.round,
                    "starter": before.starter,
                    "hands": [queue.count(s) for s in range(before.game.players)],
                    "table": queue.count(r.TABLE),
                }
            )
        )
    to = before.deal_queue[0]
    card = r.card_name(kind)
    if to == r.TABLE:
        events.append(public({"type": "table_deal", "card": card}))
    else:
        events.append(secret(to, {"type": "deal", "to": to, "card": card}, {"type": "deal", "to": to}))
    return events


def _step(before: SafaruState, seat: int, action: int) -> dict[str, Any]:
    """The action itself, as everyone at the table saw it."""
    if before.phase == "play":
        kind = action - nt.PLAY
        methods = r.catch_methods(r.number(kind), before.tnum, before.tnum[0] > 0)
        can = [r.METHOD_NAMES[m] for m in methods]
        return {"type": "play", "seat": seat, "card": r.card_name(kind), "can_catch": can}
    if nt.CHOOSE <= action < nt.CHOOSE + 3:
        method = r.METHOD_NAMES[action - nt.CHOOSE]
        return {"type": "pick", "seat": seat, "player": before.to_move, "method": method}
    if action in (nt.BEGIN_ADD, nt.BEGIN_17):
        return {"type": "begin", "seat": seat, "method": "add" if action == nt.BEGIN_ADD else "17"}
    if nt.TAKE <= action < nt.PAIR_WITH:
        return {"type": "take", "seat": seat, "card": r.card_name(action - nt.TAKE)}
    if nt.PAIR_WITH <= action < nt.BEGIN_ADD:
        return {"type": "catch", "seat": seat, "method": "pair", "cards": [r.card_name(action - nt.PAIR_WITH)]}
    if action == nt.CLOSE:
        method = r.METHOD_NAMES[before.method]
        return {"type": "catch", "seat": seat, "method": method, "cards": [r.card_name(k) for k in before.build]}
    return {"type": "done", "seat": seat}


def _turn_end(before: SafaruState, action: int) -> dict[str, Any]:
    """The finished turn: the card played, every catch, and where the played card went (safaru-3, safaru-4)."""
    catches = [{"method": c["method"], "cards": list(c["cards"])} for c in before.catches]
    if before.phase != "play":
        step = _step(before, before.actor(), action)
        if step["type"] == "catch":
            catches.append({"method": step["method"], "cards": step["cards"]})
    kind = before.played if before.phase != "play" else action - nt.PLAY
    paired = any(c["method"] == "pair" for c in catches)
    return {
        "type": "turn_end",
        "seat": before.to_move,
        "card": r.card_name(kind),
        "catches": catches,
        "released": not catches,
        "card_to": "caught" if paired else "table",
        "picked_by": before.picked_by,
    }


def _counts(names: list[str]) -> list[int]:
    counts = [0] * r.KINDS
    for name in names:
        kind = nt.parse_card(name)
        assert kind is not None
        counts[kind] += 1
    return counts


def _game_end(after: SafaruState) -> dict[str, Any]:
    """A game's scoring as the rules count it, per side (partners pooled), with the match totals so far."""
    result = after.results[-1]
    caught = [_counts(names) for names in result["caught"]]
    sides = r.breakdown(caught, after.game.players, after.reverse, after.partners)
    return {
        "type": "game_end",
        "game": len(after.results),
        "sides": sides,
        "scores": list(result["scores"]),
        "totals": list(after.totals),
        "left": list(result["left"]),
    }
