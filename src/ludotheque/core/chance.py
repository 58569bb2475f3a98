"""Sampling chance outcomes: the only place the platform turns an RNG into a chance action."""

from __future__ import annotations

import random

from ludotheque.core.state import State


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw one chance action of ``state`` with the outcomes' probabilities."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError("sample_chance needs a chance node")
    actions = [action for action, _ in outcomes]
    weights = [probability for _, probability in outcomes]
    return rng.choices(actions, weights)[0]
