"""What the adapters share: loading a game, final rewards, action masks, text rendering.

Nothing here knows a game by name: games come from ``ludotheque.game_ids()`` / ``load_game``.
"""

from __future__ import annotations

import io
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from ludotheque.core import Game, State
from ludotheque.games import game_class, game_ids, load_game

REWARD_MODES: Final = ("returns", "win_loss")

#: The adapters' default cut, in decisions (OpenSpiel, where a decision every seat takes at once counts once) or
#: moves (PettingZoo and Gymnasium, every seat's move counting): an episode still running then ends, truncated.
#: It is there for Rummü's match to 200 points, which random players never finish.  Measured uniformly random
#: play (``python -m ludotheque.bench.lengths``, ``docs/interop.md``): every other game and player count ends in
#: at most 1,400 decisions, except Mü at 3 players, whose matches have a long tail (median 382, 99th percentile
#: 2,846, longest of 1,000: 10,788); so the cut leaves about one random Mü match in 1,000 unfinished, and costs a
#: Rummü rollout under a second through the OpenSpiel adapter.
DEFAULT_MAX_MOVES: Final = 10_000



def player_counts(game_id: str) -> list[int]:
    """Every player count ``game_id`` is played with."""
    cls = game_class(game_id)
    return list(range(cls.min_players, cls.max_players + 1))


def game_configurations() -> list[tuple[str, int]]:
    """``(game_id, players)`` for every registered game and player count, in registry order."""
    return [(game_id, n) for game_id in game_ids() for n in player_counts(game_id)]


def load(game_id: str, players: int | None, options: dict[str, Any]) -> Game:
    """``load_game`` with the smallest player count as the default."""
    if players is None:
        players = game_class(game_id).min_players
    return load_game(game_id, players=players, **options)


def check_max_moves(max_moves: int | None) -> int | None:
    """``max_moves`` if it is a cut (positive) or ``None`` (no cut)."""
    if max_moves is not None and (isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves <= 0):
        raise ValueError(f"max_moves must be a positive number of moves or None (no cut), not {max_moves!r}")
    return max_moves


def check_reward_mode(mode: str) -> str:
    if mode not in REWARD_MODES:
        raise ValueError(f"reward_mode must be one of {', '.join(REWARD_MODES)}, not {mode!r}")
    return mode


def final_rewards(state: State, mode: str) -> list[float]:
    """Each seat's reward at the end of the game.

    ``returns``: the points as the rules count them (``state.returns()``), times the game's score sign, so that
    more reward is always better (minus the points where the lowest total wins).  ``win_loss``: +1 for every
    winner, -1 for every other seat, 0 for everybody when the game names no winner.
    """
    if mode == "returns":
        sign = state.game.score_sign()
        return [sign * float(r) for r in state.returns()]
    winners = set(state.winners())
    if not winners:
        return [0.0] * state.game.players
    return [1.0 if seat in winners else -1.0 for seat in range(state.game.players)]


def action_mask(state: State, seat: int) -> NDArray[np.int8]:
    """1 for each legal action of ``seat`` now (all zeros when it does not act)."""
    mask = np.zeros(state.game.num_distinct_actions(), dtype=np.int8)
    if not state.is_terminal() and seat in state.current_players():
        mask[state.legal_actions(seat)] = 1
    return mask


def render_text(game: Game, view: dict[str, Any]) -> str:
    """A view rendered by the game's ``render`` as plain text (Rich renderables are printed without colour)."""
    shown = game.render(view)
    if isinstance(shown, str):
        return shown
    from rich.console import Console

    buffer = io.StringIO()
    Console(file=buffer, width=100, color_system=None, force_terminal=False).print(shown)
    return buffer.getvalue()


def has_joint_decisions(game: Game) -> bool:
    """Whether some decision has every seat choose at once (Geier's face-down cards): the game declares it
    (``GameType.simultaneous``); a table of one has no one to choose with."""
    return game.game_type.simultaneous and game.players > 1
