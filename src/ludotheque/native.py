"""The batch API for research: whole games played in compiled code, the results as NumPy arrays.

``simulate("geier", players=5, n=100_000, policies="random", seed=1)`` plays ``n`` games from the start and returns
``(returns, lengths)``: an ``n x players`` float array of each seat's points and the seat moves each game took.
``policies`` is one policy for every seat or one per seat: ``"random"`` (uniform over the legal moves),
``"heuristic"`` (the game's heuristic) or a number, the share of random moves mixed into the heuristic's (the
search's rollouts use 0.15).  Only games with a compiled engine (``has_compiled_engine``) can be simulated; the
others are played through the protocol (``ludotheque.bench``, the RL adapters).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ludotheque.core import Game
from ludotheque.core.native import EngineError
from ludotheque.games import load_game

Policy = str | float
SHARES: dict[str, float] = {"random": 1.0, "heuristic": 0.0}


def has_compiled_engine(game: Game | str) -> bool:
    """Whether ``game`` (a configured game or an id) has a compiled engine in this build."""
    declared = (load_game(game, players=_some_players(game)) if isinstance(game, str) else game).game_type
    return "native" in declared.optional_parts and declared.part("native").state_class() is not None


def _some_players(game_id: str) -> int:
    from ludotheque.games import game_type

    return game_type(game_id).min_players


def _share(policy: Policy) -> float:
    if isinstance(policy, str):
        if policy not in SHARES:
            raise ValueError(f"unknown policy {policy!r} (random, heuristic, or a share of random moves)")
        return SHARES[policy]
    share = float(policy)
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"a share of random moves is within [0, 1], not {share}")
    return share


def simulate(
    game: Game | str,
    players: int | None = None,
    n: int = 1000,
    policies: Policy | Sequence[Policy] = "random",
    seed: int = 0,
    max_steps: int = 100_000,
    **options: Any,
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """``n`` games of ``game`` (an id with ``players`` and options, or a configured game) played compiled."""
    if isinstance(game, str):
        if players is None:
            raise ValueError("simulate(game_id, ...) needs players")
        game = load_game(game, players=players, **options)
    elif players is not None and players != game.players:
        raise ValueError(f"the game is configured for {game.players} players, not {players}")
    if not 0 <= n <= 10_000_000:
        raise ValueError(f"n within 0..10,000,000, not {n}")
    eps = [_share(policies)] if isinstance(policies, str | int | float) else [_share(p) for p in policies]
    if len(eps) not in (1, game.players):
        raise ValueError(f"one policy for every seat or one per seat ({game.players}), not {len(eps)}")
    if not has_compiled_engine(game):
        raise EngineError(f"{game.id} has no compiled engine in this build")
    returns, lengths = game.game_type.part("native").simulate(game, n, eps, seed, max_steps)
    return np.asarray(returns), np.asarray(lengths)
