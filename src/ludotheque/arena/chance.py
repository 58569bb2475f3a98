"""Duplicate deals: chance outcomes that replay when the same chance nodes are met with the seats permuted.

Chance is explicit (DECISIONS all-1), but the sequence of chance nodes depends on what the players do (how
many cards get drawn, when a pile is reshuffled).  Recording a game's chance actions and replaying them in order
would therefore give different cards as soon as the play differs.  Instead, ``KeyedChance`` draws each chance
outcome from a uniform number that is a hash of

* the deal's seed,
* the chance node's *outcome set* (the possible actions with their probabilities), and
* how many chance nodes with that same outcome set this game has met before.

So the outcome is a fixed function of "what could happen here" for the deal:

* a deck drawn card by card has, after the same cards were drawn, the same remaining set, hence the same next
  card whenever it is drawn: the deal's deck order is identical in every replay, whoever draws and however many;
* a die (the same outcome set every roll) gives the same k-th roll of that die in every replay;
* Geier's point cards come out in the same order whatever the seats play.

Each node of one game gets a fresh key (the occurrence count grows), so within a game the outcomes are drawn
independently with exactly the probabilities the game gives: the hash stands in for an independent uniform.
When play changes a deck's content (cards shuffled back in), the outcome sets differ and the replays diverge
from there on: no scheme can replay what did not happen.
"""

from __future__ import annotations

import hashlib
import struct
from collections import Counter

from ludotheque.core import State


class KeyedChance:
    """A chance sampler for one game of one deal: ``KeyedChance(deal_seed)(state) -> chance action``."""

    def __init__(self, deal_seed: int | str) -> None:
        self.deal_seed = str(deal_seed)
        self._met: Counter[str] = Counter()
        self.drawn: list[int] = []

    def uniform(self, signature: str) -> float:
        occurrence = self._met[signature]
        self._met[signature] += 1
        digest = hashlib.blake2b(f"{self.deal_seed}|{signature}|{occurrence}".encode(), digest_size=8).digest()
        value: int = struct.unpack(">Q", digest)[0]
        return value / 2.0**64

    def __call__(self, state: State) -> int:
        outcomes = state.chance_outcomes()
        if not outcomes:
            raise ValueError("KeyedChance needs a chance node")
        signature = ";".join(f"{action}:{probability:.12g}" for action, probability in outcomes)
        u = self.uniform(signature) * sum(probability for _, probability in outcomes)
        total = 0.0
        for action, probability in outcomes:
            total += probability
            if u < total:
                self.drawn.append(action)
                return action
        action = outcomes[-1][0]
        self.drawn.append(action)
        return action
