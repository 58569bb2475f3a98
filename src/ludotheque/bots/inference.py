"""Inference: determinizations weighted by how likely the other seats' observed moves were under a model of them.

A uniform determinization deals the unseen cards as if the other seats' moves told nothing; people read them (a
player who never led trumps probably has few).  Here a pool of determinizations is drawn by ``resample`` as
usual, then each is weighted by the likelihood of the moves the other seats made in it: replaying the
determinization's history, each decision of another seat with more than one legal move counts the probability the
model gave the move made.  The model is the game's heuristic with a share ``epsilon`` of uniform moves (what
``easy`` plays): ``(1 - epsilon) * [move == heuristic's] + epsilon / legal moves``.  The search then draws its
determinizations from the pool by weight (importance resampling), as Kermit's hidden-card inference does for
Skat (Buro, Long, Furtak & Sturtevant 2009).

Only the determinization is replayed, never the true state: its history is the seat's own observations with the
hidden parts redrawn, so the weights read nothing the seat could not see.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from typing import Any

from ludotheque.core import CHANCE, Bot, State
from ludotheque.core.bot import Sampler
from ludotheque.core.native import NativeState


def log_likelihood(
    determinization: State,
    seat: int,
    model: Bot,
    epsilon: float,
    rng: random.Random,
    heuristic_settings: Mapping[str, Any] | None = None,
) -> float:
    """The log-probability of the other seats' moves in ``determinization``'s history under the model."""
    game = determinization.game
    state = game.new_initial_state() if isinstance(determinization, NativeState) else game.new_reference_state()
    compiled = isinstance(state, NativeState)
    tuned = dict(heuristic_settings or {})
    total = 0.0
    for actor, action in determinization.history():
        if actor != CHANCE and actor != seat:
            legal = state.legal_actions(actor)
            if len(legal) > 1:
                if compiled:
                    assert isinstance(state, NativeState)
                    guess = state.heuristic_action(actor, rng, tuned)
                else:
                    guess = model.choose(state.view(actor), legal, rng)
                chance = (1.0 - epsilon) * (guess == action) + epsilon / len(legal)
                total += math.log(chance) if chance > 0 else -math.inf
        state.apply_action(action, None if actor == CHANCE else actor)
    return total


def weighted_pool(
    sampler: Sampler,
    seat: int,
    size: int,
    model: Bot,
    epsilon: float,
    rng: random.Random,
    heuristic_settings: Mapping[str, Any] | None = None,
) -> tuple[list[State], list[float]]:
    """``size`` determinizations for ``seat`` and their weights (the likelihoods scaled so that the largest is 1)."""
    pool = [sampler(rng) for _ in range(size)]
    logs = [log_likelihood(d, seat, model, epsilon, rng, heuristic_settings) for d in pool]
    top = max(logs)
    if top == -math.inf:  # nothing the model could explain (epsilon 0 and moves it would never make): uniform
        return pool, [1.0] * size
    return pool, [math.exp(value - top) for value in logs]


def pool_sampler(pool: list[State], weights: list[float]) -> Callable[[random.Random], State]:
    """A sampler drawing a copy of one of the pool's determinizations by weight."""
    return lambda rng: rng.choices(pool, weights)[0].clone()


def effective_size(weights: list[float]) -> float:
    """Kish's effective sample size of the weights: how many equally weighted draws the pool is worth (for
    benchmarks: near the pool's size when the moves tell little, near 1 when one hand explains them best)."""
    total = sum(weights)
    return total * total / sum(w * w for w in weights) if total > 0 else 0.0
