"""Random play through each adapter of ``ludotheque.interop``: the loops a Gymnasium, PettingZoo or OpenSpiel
user writes, each timed like the protocol's playouts (``None`` where the library is not installed)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ludotheque.bench.timing import timed_rates
from ludotheque.core import Game, State, sample_chance


def _gymnasium_rates(game: Game, seconds: float, runs: int, seed: int) -> dict[str, Any] | None:
    """The Gymnasium env (``gymnasium.make``), seat 0 playing random legal actions against random bots."""
    try:
        import gymnasium
        import numpy as np

        from ludotheque.interop.gymnasium import env_id
    except ImportError:
        return None
    options: dict[str, Any] = dict(game.options)
    env = gymnasium.make(env_id(game.id), players=game.players, opponents="random", **options)
    rng = random.Random(seed)
    episodes = iter(range(seed, 2**62))

    def one() -> int:
        _, info = env.reset(seed=next(episodes))
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, _, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
            done = terminated or truncated
        state: State = env.unwrapped.state  # type: ignore[attr-defined]
        return len(state.history())

    try:
        return timed_rates(one, seconds, runs)
    finally:
        env.close()


def _pettingzoo_rates(game: Game, seconds: float, runs: int, seed: int) -> dict[str, Any] | None:
    """The PettingZoo AEC env (``env(...)``, with its order-enforcing wrapper), every seat random and legal."""
    try:
        import numpy as np

        from ludotheque.interop.pettingzoo import env as make_env
    except ImportError:
        return None
    env = make_env(game.id, players=game.players, **game.options)
    rng = random.Random(seed)
    episodes = iter(range(seed, 2**62))

    def one() -> int:
        env.reset(seed=next(episodes))
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
        state: State = env.unwrapped.state
        return len(state.history())

    return timed_rates(one, seconds, runs)


def _openspiel_rates(game: Game, seconds: float, runs: int, seed: int) -> dict[str, Any] | None:
    """The OpenSpiel adapter (``python_ludotheque_<game>``, default parameters), the loop an OpenSpiel user
    writes: chance sampled, simultaneous nodes given one random action per seat."""
    try:
        from ludotheque.interop.openspiel import load
    except ImportError:
        return None
    spiel_game = load(game.id, game.players, **game.options)
    rng = random.Random(seed)

    def one() -> int:
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.players)])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return len(state.ludo_state.history())

    return timed_rates(one, seconds, runs)


#: The adapters timed, in ``interop/``: row key, label, measuring function.
ADAPTERS: tuple[tuple[str, str, Callable[[Game, float, int, int], dict[str, Any] | None]], ...] = (
    ("gymnasium", "Gymnasium", _gymnasium_rates),
    ("pettingzoo", "PettingZoo", _pettingzoo_rates),
    ("openspiel", "OpenSpiel", _openspiel_rates),
)


def adapter_rates(game: Game, seconds: float = 1.0, runs: int = 5, seed: int = 0) -> dict[str, Any]:
    """Random games/s through each adapter (``None`` for an adapter whose library is not installed)."""
    return {key: measure(game, seconds, runs, seed) for key, _, measure in ADAPTERS}
