"""Geier at any number of seats: a best response to the table, until a seat shows it answers like this bot.

A precise best response to the spread heuristic (``qre`` with no sweeps, ``final=best``) exploits heuristic-like
players well, but two copies of it at one table pick the same card and cancel each other (geier-3): in the
session-14 probes it finished first in 16 % of the games against a fair 40 % at the table of two copies and three
``medium`` bots, and ahead of ``medium`` in 59.5 % at the table of one bot of each level (docs/bots.md).  The
round's logit equilibrium (``qre`` with sweeps) mixes its cards, so its copies rarely collide, but it exploits less.

``GeierMirrorBot`` plays the best response, computed from the position alone (``positional`` seeds), so it can
also work out, for every other seat, the card a copy of itself would play there.  A seat that played exactly
that card in every round of the game so far, ``rounds`` of them at least, is taken for a player who answers the
table like this bot; from then on, to the end of the game, the bot draws its card from the round's equilibrium.
It reads only its view: every card it predicts is worked out from the open piles.
"""

from __future__ import annotations

import random
from typing import Any

from ludotheque.bots.geier_qre import GeierQREBot, _signature
from ludotheque.core import Game


class GeierMirrorBot:
    """Best response to the spread heuristic; the round's equilibrium once a seat plays like a copy of this bot."""

    def __init__(
        self,
        game: Game,
        *,
        rounds: int = 2,
        rollouts: int = 1024,
        time_limit: float | None = None,
        name: str = "mirror",
    ) -> None:
        if rounds < 1:
            raise ValueError(f"rounds must be at least 1 (got {rounds})")
        self.name = name
        self.players = game.players
        self.rounds = rounds
        self.exploit = GeierQREBot(game, rollouts=rollouts, sweeps=0, final="best", positional=True)
        self.mix = GeierQREBot(game, rollouts=256, sweeps=3, temperature=0.03, positional=True, time_limit=time_limit)
        #: per decision of this game (``_signature``): the card a copy of this bot would have played in each seat
        self._copy_cards: dict[tuple[Any, ...], list[int]] = {}
        #: the seats taken for copies in this game (empty: the bot plays the best response)
        self.mirrors: set[int] = set()

    def _copies(self, rounds: list[dict[str, Any]], seat: int) -> bool:
        """Whether ``seat`` played the card a copy of this bot would have played in every round of this game so
        far, and in at least ``self.rounds`` of them.  From the first round on: late in the game hands are small
        and a chance match is likely, so a run of matches there is no evidence."""
        if len(rounds) < self.rounds:
            return False
        for index, record in enumerate(rounds):
            foreseen = self._copy_cards.get(_signature(rounds[:index], record["pot"]))
            if foreseen is None or record["played"][seat] != foreseen[seat]:
                return False
        return True

    def choose(self, view: dict[str, Any], legal_actions: list[int], rng: random.Random) -> int:
        table = view["table"]
        rounds = table["rounds"]
        if not rounds:  # a new game: the last one's evidence does not count
            self._copy_cards.clear()
            self.mirrors = set()
        me = view["seat"]
        if not self.mirrors:
            self.mirrors = {seat for seat in range(self.players) if seat != me and self._copies(rounds, seat)}
        if self.mirrors:
            return self.mix.choose(view, legal_actions, rng)
        if len(legal_actions) == 1:
            return legal_actions[0]
        cards = [self.exploit.copy_card(view, seat) for seat in range(self.players)]
        self._copy_cards[_signature(rounds, table["pot"])] = cards
        action = cards[me] - 1
        return action if action in legal_actions else rng.choice(legal_actions)
