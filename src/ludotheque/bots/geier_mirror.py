"""Geier at any number of seats: the round's equilibrium at first, a best response if no seat plays like this bot.

A precise best response to the spread heuristic (``qre`` with no sweeps, ``final=best``) exploits heuristic-like
players well, but two copies of it at one table pick the same card and cancel each other (geier-3): in seed-2
probes at 5 players (sessions 14 and 15) it finished first in 16 % of the games against a fair 40 % at the table of
two copies and three ``medium`` bots, and ahead of ``medium`` in 59.5 % at the table of one bot of each level
(docs/bots.md).  The
round's logit equilibrium (``qre`` with sweeps) draws its cards, so its copies rarely collide, but it exploits less.

``GeierMirrorBot`` plays the equilibrium in the first ``rounds`` rounds, with its rollouts and its draw seeded by
the position (``positional``), so it can work out, for every other seat, the card a copy of itself would play
there.  After those rounds it decides for the rest of the game: if some seat played exactly the copy's card in
each of them, it goes on with the equilibrium; if none did, it plays the best response.  A time cap applies to the
equilibrium's sweeps after the first rounds only: a capped card could not be foreseen, and the best response has no
sweeps.  It reads only its view: every card it foresees is worked out from the open piles.
"""

from __future__ import annotations

import random
from typing import Any

from ludotheque.bots.geier_qre import GeierQREBot, _signature
from ludotheque.core import Game


class GeierMirrorBot:
    """The round's equilibrium while it looks for copies of itself; then the best response if it found none."""

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
        #: the equilibrium while looking for copies (no time cap: a copy's card is foreseen only without one) ...
        self.look = GeierQREBot(game, rollouts=256, sweeps=3, temperature=0.03, positional=True)
        #: ... and after, when a copy was found (the time cap applies to its sweeps)
        self.mix = GeierQREBot(game, rollouts=256, sweeps=3, temperature=0.03, positional=True, time_limit=time_limit)
        #: which of the three played the last move: "look", "mix" or "exploit" (for tests and analysis)
        self.mode = "look"
        #: per decision in the first rounds of this game (``_signature``): each seat's card if it were a copy
        self._copy_cards: dict[tuple[Any, ...], list[int]] = {}
        #: the seats taken for copies in this game; None while the first ``rounds`` rounds are being played
        self.mirrors: set[int] | None = None

    def _copies(self, rounds: list[dict[str, Any]], me: int) -> set[int]:
        """The seats that played the card a copy of this bot would have played in each of the first rounds."""
        found = set(range(self.players)) - {me}
        for index, record in enumerate(rounds[: self.rounds]):
            foreseen = self._copy_cards.get(_signature(rounds[:index], record["pot"]))
            if foreseen is None:
                return set()  # a round this bot did not see decided (it joined late): no evidence
            found = {seat for seat in found if record["played"][seat] == foreseen[seat]}
        return found

    def choose(self, view: dict[str, Any], legal_actions: list[int], rng: random.Random) -> int:
        table = view["table"]
        rounds = table["rounds"]
        if not rounds:  # a new game: the last one's evidence does not count
            self._copy_cards.clear()
            self.mirrors = None
        if len(legal_actions) == 1:
            return legal_actions[0]
        if len(rounds) >= self.rounds:
            if self.mirrors is None:
                self.mirrors = self._copies(rounds, view["seat"])
            self.mode = "mix" if self.mirrors else "exploit"
            return (self.mix if self.mirrors else self.exploit).choose(view, legal_actions, rng)
        self.mode = "look"
        cards = self.look.copy_cards(view)
        self._copy_cards[_signature(rounds, table["pot"])] = cards
        card = cards[view["seat"]]
        action = card - 1
        return action if action in legal_actions else rng.choice(legal_actions)
