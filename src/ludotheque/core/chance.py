"""Sampling chance outcomes: the only place the platform turns an RNG into a chance action."""

from __future__ import annotations

import math
import random
from bisect import bisect
from itertools import accumulate

from ludotheque.core.state import State


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw one chance action of ``state`` with the outcomes' probabilities.

    The draw is exactly ``rng.choices(actions, weights)[0]`` (the same single ``rng.random()`` and the same
    cumulative sums), so seeds give the same games as ever, written without the two lists ``choices`` needs:
    every random playout and every search iteration passes here at each chance node.
    """
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError("sample_chance needs a chance node")
    cumulative = list(accumulate([probability for _, probability in outcomes]))
    total = cumulative[-1] + 0.0
    if not 0.0 < total < math.inf:
        raise ValueError(f"chance outcomes must have a positive finite total probability, not {total}")
    return outcomes[bisect(cumulative, rng.random() * total, 0, len(cumulative) - 1)][0]
