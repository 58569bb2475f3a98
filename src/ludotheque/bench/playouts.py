"""Random play through the public protocol (the loop a researcher writes), and states met along it."""

from __future__ import annotations

import random
import time
from dataclasses import asdict
from typing import Any, Protocol

from ludotheque.bench.timing import Rate, timed_runs
from ludotheque.core import Game, State, sample_chance


class PlayoutGame(Protocol):
    """What the loop needs of a game: the protocol's ``Game``, or a null engine (``ludotheque.bench.ceiling``)."""

    def new_initial_state(self) -> Any: ...


def random_playout(game: PlayoutGame, rng: random.Random, deals: list[int] | None = None) -> int:
    """One uniformly random game through the public protocol (the loop a researcher writes); its action count.

    ``deals``, if given, gets the number of deals (hands) the game completed appended."""
    state = game.new_initial_state()
    actions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            actions += 1
        else:
            for seat in state.current_players():
                state.apply_action(rng.choice(state.legal_actions(seat)), seat)
                actions += 1
    if deals is not None:
        deals.append(state.deals_completed())
    return actions


def playouts(game: Game, seconds: float = 1.0, runs: int = 5, seed: int = 0) -> dict[str, Any]:
    """Random games/s and actions/s; for matches of several hands also deals/s (the issue's unit for those)."""
    rng = random.Random(seed)
    deals: list[int] = []
    games, actions = timed_runs(lambda: random_playout(game, rng, deals), seconds, runs)
    figures: dict[str, Any] = {"games_per_s": asdict(Rate.of(games)), "actions_per_s": asdict(Rate.of(actions))}
    per_game = sum(deals) / len(deals)
    if per_game != 1:
        figures["deals_per_game"] = round(per_game, 2)
        figures["deals_per_s"] = asdict(Rate.of([g * per_game for g in games]))
    return figures


def sample_states(game: Game, count: int, seed: int = 0) -> list[State]:
    """Decision states met along random games (what a bot is asked to think about)."""
    rng = random.Random(seed)
    states: list[State] = []
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            if rng.random() < 0.1:
                states.append(state.clone())
            seat = rng.choice(state.current_players())
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    return states[:count]


def clone_and_resample(game: Game, samples: int = 200, seed: int = 0) -> dict[str, float]:
    """Microseconds per ``clone()`` and per ``resample()`` over states met in random play."""
    states = sample_states(game, samples, seed)
    rng = random.Random(seed)
    start = time.perf_counter()
    for state in states:
        state.clone()
    clone_us = (time.perf_counter() - start) / len(states) * 1e6
    start = time.perf_counter()
    for state in states:
        state.resample(state.current_players()[0], rng)
    resample_us = (time.perf_counter() - start) / len(states) * 1e6
    return {"clone_us": round(clone_us, 1), "resample_us": round(resample_us, 1)}
