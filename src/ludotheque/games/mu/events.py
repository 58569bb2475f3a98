"""What each Mü seat saw happen (DECISIONS all-3): the one place events are filtered, beside the view.

Secret: a dealt card, seen by the seat it is dealt to; the others see that the seat got a card.  Everything else
is public at the table: the colours removed, every card laid in the auction (face up), the auction's end, the
trumps and the partner (mu-5), every card played and every trick (mu-7), the hand's score with the rules'
breakdown (mu-3, mu-8) and the end of the match (mu-9).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ludotheque.core import CHANCE, Actor
from ludotheque.core.events import Event, public, secret
from ludotheque.games.mu import notation as nt
from ludotheque.games.mu import rules
from ludotheque.games.mu.rules import COLOURS

if TYPE_CHECKING:
    from ludotheque.games.mu.game import MuState

NAMES = nt.CARD_NAMES


def trump_fields(trump: int) -> dict[str, Any]:
    """A trump choice as the move names it: ``{"colour": "G"}`` or ``{"number": 5}`` (no trump: ``{}``)."""
    if rules.is_colour_trump(trump):
        return {"colour": COLOURS[trump]}
    if rules.is_number_trump(trump):
        return {"number": trump - 10}
    return {}


def _card(seat: int, kind: int, from_table: bool) -> dict[str, Any]:
    return {"seat": seat, "card": NAMES[kind], "from": "table" if from_table else "hand"}


def describe(before: MuState, actor: Actor, action: int, after: MuState) -> list[Event]:
    events: list[Event] = []
    if len(before.history()) == before.hand_start:  # the hand's first action
        events.append(public({"type": "new_hand", "hand": len(before.log) + 1, "dealer": before.dealer}))
    if actor == CHANCE:
        events.append(_chance(before, action))
    else:
        seat = int(actor)
        if before.phase == "auction":
            events += _auction(before, seat, action, after)
        elif before.phase in ("vice_trump", "chief_trump"):
            role = "vice" if before.phase == "vice_trump" else "chief"
            trump = after.vice_trump if role == "vice" else after.chief_trump
            kind = "trump" if trump != rules.NO_TRUMP else "no_trump"
            events.append(public({"type": kind, "seat": seat, "role": role, **trump_fields(trump)}))
        elif before.phase == "partner":
            events.append(public({"type": "partner", "seat": seat, "partner": action - nt.PARTNER}))
        else:
            events += _play(before, seat, action)
    if len(after.log) > len(before.log):
        summary = after.log[-1]
        if summary["result"] != "redeal":
            events.append(public({"type": "hand_scored", **summary}))
    if after.is_terminal():
        events.append(public({"type": "match_end", "returns": after.returns(), "winners": after.winners()}))
    return events


def _chance(before: MuState, action: int) -> Event:
    if action >= nt.REMOVE:
        return public({"type": "remove", "colour": COLOURS[action - nt.REMOVE]})
    receiver = (before.dealer + 1 + before.dealt) % before.game.players  # dealing starts left of the dealer
    return secret(
        receiver,
        {"type": "deal", "seat": receiver, "card": NAMES[action - nt.DEAL]},
        {"type": "deal", "seat": receiver},
    )


def _auction(before: MuState, seat: int, action: int, after: MuState) -> list[Event]:
    bid = before.bids[seat]
    if action == nt.PASS:
        events = [public({"type": "pass", "seat": seat})]
    elif action == nt.DONE:
        events = [public({"type": "done", "seat": seat, "bid": bid})]
    else:  # mu-2: a card laid in the auction is laid face up
        events = [public({"type": "lay", "seat": seat, "card": NAMES[action - nt.FROM_HAND], "bid": bid + 1})]
    if action == nt.PASS and before.passes + 1 == before.game.players:  # mu-2: everyone passed in a row
        bids = list(before.bids)
        if len(after.log) > len(before.log):  # nobody bid (redeal) or a shared highest bid (égalité, mu-3)
            result, chief, vice, contract = after.log[-1]["result"], None, None, None
        else:  # mu-4
            assert after.chief is not None
            result, chief, vice = "chief", after.chief, after.vice
            contract = rules.contract(before.game.players, bids[after.chief])
        end = {
            "type": "auction_end",
            "bids": bids,
            "result": result,
            "chief": chief,
            "vice": vice,
            "contract": contract,
        }
        events.append(public(end))
    return events


def _play(before: MuState, seat: int, action: int) -> list[Event]:
    from_table = action >= nt.FROM_TABLE
    kind = action - nt.FROM_TABLE if from_table else action
    events = [public({"type": "play", **_card(seat, kind, from_table)})]
    if len(before.trick) + 1 == before.game.players:  # the trick is complete (mu-7)
        cards = [*before.trick, (seat, kind, from_table)]
        kinds = [card[1] for card in cards]
        winner = cards[rules.trick_winner(kinds, before.chief_trump, before.vice_trump)][0]
        events.append(
            public(
                {
                    "type": "trick",
                    "number": len(before.tricks) + 1,
                    "leader": before.leader,
                    "cards": [_card(*card) for card in cards],
                    "winner": winner,
                    "triangles": sum(rules.triangles(k) for k in kinds),
                }
            )
        )
    return events
