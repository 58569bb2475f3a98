"""A Geier baseline: bid in proportion to what the pot is worth.

The pot's absolute value is ranked among the absolute values still in play (the pot and the point cards to
come); the bot plays the card of the same rank in its own hand.  A big mouse draws a high card to win it; a
big vulture draws a high card too, so as not to be the lowest.  Small pots get the low cards.
"""

from __future__ import annotations

import random
from typing import Any


class GeierHeuristicBot:
    name = "heuristic"

    def choose(self, view: dict[str, Any], legal_actions: list[int], rng: random.Random) -> int:
        table = view["table"]
        hand: list[int] = table["hand"]
        worth = abs(table["pot_sum"])
        field = sorted([abs(v) for v in table["points_to_come"]] + [worth])
        # the rank of the pot among what is left, scaled to the hand (ties: the middle of the tied run)
        below = sum(1 for v in field if v < worth)
        equal = sum(1 for v in field if v == worth)
        fraction = (below + (equal - 1) / 2) / max(1, len(field) - 1)
        card = hand[round(fraction * (len(hand) - 1))]
        action = card - 1
        return action if action in legal_actions else rng.choice(legal_actions)
