"""Sampling chance outcomes: the only place the platform turns an RNG into a chance action."""

from __future__ import annotations

import math
import random
from bisect import bisect
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import Literal

from ludotheque.core.state import State

#: each state class's ``_chance_cumulative``, or ``False`` where there is none to call: a game that keeps no
#: table, or a state from elsewhere (OpenSpiel's, in the benchmarks), which has only ``chance_outcomes``.  One
#: dictionary lookup a draw, where ``isinstance`` on the abstract ``State`` costs more than the draw itself.
_READY_OF: dict[type, Callable[[State], tuple[Sequence[int], Sequence[float]] | None] | Literal[False]] = {}


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw one chance action of ``state`` with the outcomes' probabilities.

    The draw is exactly ``rng.choices(actions, weights)[0]`` (the same single ``rng.random()`` and the same
    cumulative sums), so seeds give the same games as ever, written without the two lists ``choices`` needs:
    every random playout and every search iteration passes here at each chance node.  A game that keeps its
    nodes' cumulative probabilities ready (``State._chance_cumulative``) skips even those.
    """
    kind = type(state)
    ready_of = _READY_OF.get(kind)
    if ready_of is None:
        hook = getattr(kind, "_chance_cumulative", None)
        ready_of = _READY_OF[kind] = False if hook is None or hook is State._chance_cumulative else hook
    if ready_of:
        ready = ready_of(state)
        if ready is not None:
            actions, cumulative = ready
            return actions[bisect(cumulative, rng.random() * (cumulative[-1] + 0.0), 0, len(cumulative) - 1)]
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError("sample_chance needs a chance node")
    cumulative = list(accumulate([probability for _, probability in outcomes]))
    total = cumulative[-1] + 0.0
    if not 0.0 < total < math.inf:
        raise ValueError(f"chance outcomes must have a positive finite total probability, not {total}")
    return outcomes[bisect(cumulative, rng.random() * total, 0, len(cumulative) - 1)][0]
