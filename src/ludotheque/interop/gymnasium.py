"""Gymnasium single-agent environments: one seat learns, our bots play the other seats.

``import ludotheque.interop.gymnasium`` registers ``ludotheque/<game>-v0`` for every registered game, so
``gymnasium.make("ludotheque/geier-v0", players=3, opponents="heuristic")`` works.  Keyword arguments:

- ``players``: the player count (default: the fewest the game allows);
- ``seat``: the learner's seat (default 0), or ``"random"`` for a seat drawn at every reset;
- ``opponents``: a bot name from ``ludotheque.bots`` for every other seat (``"random"``, ``"heuristic"``,
  ``"ismcts:medium"``, ...), or a list with one name per other seat, in seat order (default ``"heuristic"``);
- ``reward_mode``: ``"returns"`` (the learner's points at the end, signed by the game's score order so that more
  reward is always better: minus the points where the lowest total wins, as in MICE or Safarü renversé) or
  ``"win_loss"`` (+1 win, -1 loss, 0 when nobody wins); rewards are 0 before the end;
- ``illegal_action``: ``"lose"`` (default: the episode ends with ``illegal_reward``, ``info["illegal_action"]``
  is True) or ``"raise"`` (``IllegalActionError``);
- ``max_moves``: the episode is truncated (``truncated=True``, reward 0) once that many moves were made at the
  table, the learner's and the opponents' (chance not counted); the default, ``DEFAULT_MAX_MOVES``, is far past
  the longest random game of every game that ends, so that every episode ends (Rummü's match to 200 points
  between random players otherwise never does); ``None``: no cut.  ``gymnasium.make(...,
  max_episode_steps=N)`` counts the learner's steps instead;
- the game's own options (``tie_rule="single"`` ...).

The observation is ``state.observation_tensor(seat)`` (a ``Box`` of float32 built from the seat's view); the
legal actions are ``info["action_mask"]`` (int8, one per action of ``Discrete(num_distinct_actions())``) and
``env.action_masks()`` (the name sb3-contrib's MaskablePPO looks for; before the first ``reset()`` it allows every
action, since no position exists yet).  ``render_mode`` is ``"human"`` or ``"ansi"``; another mode raises
``UnsupportedRenderMode``, a ``TypeError`` as well as a ``ValueError``, because Stable-Baselines3's
``make_vec_env`` asks for ``"rgb_array"`` and falls back to no render mode on a ``TypeError``.

Chance and the bots draw from RNGs seeded from ``np_random``, so ``reset(seed=...)`` makes an episode (deal and
opponents' moves) reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from ludotheque.core import CHANCE, Bot, State
from ludotheque.games import game_ids
from ludotheque.interop._common import (
    DEFAULT_MAX_MOVES,
    action_mask,
    check_max_moves,
    check_reward_mode,
    final_rewards,
    load,
    render_text,
)
from ludotheque.table import LogEntry, Table

__all__ = ["ENV_PREFIX", "LudothequeEnv", "UnsupportedRenderMode", "env_id", "register"]

ENV_PREFIX: Final = "ludotheque/"
ILLEGAL_ACTION_MODES: Final = ("lose", "raise")


def env_id(game_id: str) -> str:
    """The Gymnasium id of a game: ``ludotheque/<game>-v0``."""
    return f"{ENV_PREFIX}{game_id}-v0"


ObsType = NDArray[np.float32]


class UnsupportedRenderMode(TypeError, ValueError):
    """A render mode the environment does not draw (it renders text: ``human`` and ``ansi``)."""


class LudothequeEnv(gymnasium.Env[ObsType, np.int64]):
    """One seat of a ludotheque game against bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        *,
        seat: int | str = 0,
        opponents: str | Sequence[str] = "heuristic",
        reward_mode: str = "returns",
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
        max_moves: int | None = DEFAULT_MAX_MOVES,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        from ludotheque.bots import make_bot

        self.game = load(game_id, players, options)
        n = self.game.players
        if seat != "random" and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1} or 'random', not {seat!r}")
        self.seat_option = seat
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"{n - 1} opponents are needed, not {len(names)} ({opponents!r})")
        self.opponent_names = names
        self._bots: list[Bot] = [make_bot(name, self.game) for name in names]
        self.reward_mode = check_reward_mode(reward_mode)
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL_ACTION_MODES)}, not {illegal_action!r}")
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.max_moves = check_max_moves(max_moves)
        self._moves = 0  # moves made at the table this episode, every seat's (for max_moves)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UnsupportedRenderMode(
                f"render_mode must be one of {self.metadata['render_modes']} or None, not {render_mode!r}"
            )
        self.render_mode = render_mode
        self.observation_space = spaces.Box(
            -np.inf, np.inf, shape=self.game.observation_tensor_shape(), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self.table: Table | None = None
        self.seat = 0 if seat == "random" else int(seat)
        self._done = True

    # -- Gymnasium API -----------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        super().reset(seed=seed)
        draw = self.np_random.integers(0, 2**62, size=3)
        n = self.game.players
        self.seat = int(draw[2]) % n if self.seat_option == "random" else int(self.seat_option)
        others = iter(self._bots)
        seats: list[Bot | None] = [None if s == self.seat else next(others) for s in range(n)]
        self.table = Table(
            self.game, seats, chance_rng=random.Random(int(draw[0])), bot_rng=random.Random(int(draw[1]))
        )
        self._done = False
        self._moves = _moves_in(self.table.advance())
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[ObsType, float, bool, bool, dict[str, Any]]:
        state = self._live_state()
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        move = int(action)
        if self.illegal_action == "lose" and move not in state.legal_actions(self.seat):
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        table = self._live_table()
        table.submit(self.seat, move)  # IllegalActionError under illegal_action="raise"
        self._moves += 1 + _moves_in(table.advance())
        reward = 0.0
        terminated = state.is_terminal()
        truncated = not terminated and self.max_moves is not None and self._moves >= self.max_moves
        if terminated:
            reward = final_rewards(state, self.reward_mode)[self.seat]
        self._done = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, self._info()

    @property
    def state(self) -> State | None:
        """The live state (``None`` before the first ``reset()``)."""
        return None if self.table is None else self.table.state

    def action_masks(self) -> NDArray[np.bool_]:
        """The learner's legal actions as booleans (sb3-contrib's MaskablePPO calls this); every action before
        the first ``reset()``."""
        if self.table is None:
            return np.ones(self.game.num_distinct_actions(), dtype=bool)
        return action_mask(self.table.state, self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        text = render_text(self.game, self.state.view(self.seat))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    # -- helpers ----------------------------------------------------------------------------------

    def _live_table(self) -> Table:
        if self.table is None:
            raise RuntimeError("call reset() before using the environment")
        return self.table

    def _live_state(self) -> State:
        return self._live_table().state

    def _observation(self) -> ObsType:
        return self._live_state().observation_tensor(self.seat)

    def _info(self) -> dict[str, Any]:
        state = self._live_state()
        info: dict[str, Any] = {"action_mask": action_mask(state, self.seat), "seat": self.seat}
        if state.is_terminal():
            info["returns"] = [float(r) for r in state.returns()]
            info["winners"] = list(state.winners())
        return info


def _moves_in(entries: Sequence[LogEntry]) -> int:
    """The seats' moves among table log entries (chance's are not moves)."""
    return sum(1 for entry in entries if entry.actor != CHANCE)


def register() -> list[str]:
    """Register ``ludotheque/<game>-v0`` for every registered game (idempotent); returns the ids."""
    ids = []
    for game_id in game_ids():
        name = env_id(game_id)
        if name not in gymnasium.registry:
            gymnasium.register(
                id=name,
                entry_point="ludotheque.interop.gymnasium:LudothequeEnv",
                kwargs={"game_id": game_id},
                nondeterministic=False,
            )
        ids.append(name)
    return ids


register()
