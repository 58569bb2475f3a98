"""What each Cheese Rescue seat saw happen (DECISIONS all-3, cheese-4, cheese-5): the one place events are
filtered, beside the view.

- ``draw``: an animal drawn from the pile (the opening deal included).  The drawer sees which (``card``); the
  others and a spectator see that it drew a card (hands are secret, cheese-4).  ``pile`` is what is left.
- ``place``: a card put on the table, face up for everyone: its kind letter, its row and column in the frame
  (from the top left, as in ``notation.to_json``) and the cell's name.
- ``end``: after the last placement, the scoring of cheese-5, step by step (the cats, mice and cheeses removed),
  then each seat's points and remaining cheese cards, and the winners.  Hands left over are discarded face down
  and appear nowhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ludotheque.core import CHANCE, Actor
from ludotheque.core.events import Event, public, secret
from ludotheque.games.cheese import rules
from ludotheque.games.cheese.notation import cell_name

if TYPE_CHECKING:
    from ludotheque.games.cheese.game import CheeseState


def _where(cell: int, frame: int) -> dict[str, Any]:
    row, col = divmod(cell, frame)
    return {"row": row, "col": col, "cell": cell_name(cell, frame)}


def describe(before: CheeseState, actor: Actor, action: int, after: CheeseState) -> list[Event]:
    frame = after.frame
    if actor == CHANCE:
        seat = before.to_draw[0]
        left = sum(after.pile)
        seen = {"type": "draw", "seat": seat, "card": rules.KIND_CODES[action], "pile": left}
        return [secret(seat, seen, {"type": "draw", "seat": seat, "pile": left})]
    seat = int(actor)
    kind, cell = divmod(action, frame * frame)
    events = [public({"type": "place", "seat": seat, "card": rules.KIND_CODES[kind], **_where(cell, frame)})]
    if after.removed is not None:
        cats, mice, cheeses = after.removed
        points, cards = after.final_scores()
        removed = {
            "cats": [_where(c, frame) for c in cats],
            "mice": [_where(c, frame) for c in mice],
            "cheeses": [
                {**_where(c, frame), "seat": after.owners[c], "card": rules.KIND_CODES[after.cells[c]]} for c in cheeses
            ],
        }
        events.append(
            public(
                {
                    "type": "end",
                    "removed": removed,
                    "points": points,
                    "cheese_cards": cards,
                    "winners": after.winners(),
                }
            )
        )
    return events
