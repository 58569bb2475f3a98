"""A Geier baseline: bid in proportion to what the pot is worth.

The pot's absolute value is ranked among the absolute values still in play (the pot and the point cards to
come); the bot plays the card of the same rank in its own hand.  A big mouse draws a high card to win it; a
big vulture draws a high card too, so as not to be the lowest.  Small pots get the low cards.

With ``spread`` the bid is drawn around that rank instead (a normal curve over the hand's positions, ``spread``
cards wide): a mixed strategy.  Why: tied cards cancel (geier-3), so at four or five seats bots that bid alike
knock each other out and a player who bids like nobody collects the pots (docs/games/geier.md measures it).

With ``mirror`` the bid is drawn that way (``mirror`` cards wide) only when another seat holds exactly the bot's
cards (the cards not yet revealed are public): there a bid decided by the same rule would be the same card, which
ties and cancels, and leaves the hands equal again.  Elsewhere the bot bids as without it.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from typing import Any

from ludotheque.core.bot import Sampler


@functools.cache
def _cumulative(cards: int, position: float, spread: float) -> tuple[float, ...]:
    """Cumulative weights of a hand's positions around ``position`` (memoised: rollouts ask for the same ones)."""
    weights = (math.exp(-0.5 * ((i - position) / spread) ** 2) for i in range(cards))
    return tuple(itertools.accumulate(weights))


class GeierHeuristicBot:
    def __init__(self, spread: float = 0.0, mirror: float = 0.0) -> None:
        spread, mirror = float(spread), float(mirror)
        for value in (spread, mirror):
            if not 0.0 <= value < math.inf:
                raise ValueError(f"the bid's spread must be a finite number of cards >= 0, not {value}")
        self.spread = spread
        self.mirror = mirror
        self.name = "heuristic" + (f":spread={spread:g}" if spread else "") + (f":mirror={mirror:g}" if mirror else "")

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
        table = view["table"]
        hand: list[int] = table["hand"]
        worth = abs(table["pot_sum"])
        # the rank of the pot among what is left (the pot and the point cards to come), scaled to the hand (ties:
        # the middle of the tied run); counted without sorting, the pot itself being neither below nor apart
        others = [abs(v) for v in table["points_to_come"]]
        below = sum([v < worth for v in others])
        equal = others.count(worth) + 1
        fraction = (below + (equal - 1) / 2) / max(1, len(others))
        position = fraction * (len(hand) - 1)
        spread = self.spread
        if self.mirror and not spread and any(
            seat != view["seat"] and cards == hand for seat, cards in enumerate(table["unrevealed"])
        ):
            spread = self.mirror  # another seat holds these very cards: a bid by rule would be its bid too
        if spread == 0:
            index = round(position)
        else:
            index = rng.choices(range(len(hand)), cum_weights=_cumulative(len(hand), position, spread))[0]
        action = hand[index] - 1
        return action if action in legal_actions else rng.choice(legal_actions)
