"""PettingZoo AEC environments for every ludotheque game.

``env("geier", players=3)`` follows PettingZoo's conventions for classic games:

- agents ``player_0 .. player_{n-1}`` (seat numbers);
- each observation is ``{"observation": float32 array, "action_mask": int8 array}``: the array is
  ``state.observation_tensor(seat)`` (built from ``view(seat)`` only), the mask marks the seat's legal actions
  in the fixed space ``Discrete(game.num_distinct_actions())`` (all zeros when the seat does not act);
- chance (shuffles, deals, dice) is resolved inside ``reset``/``step`` with the environment's RNG, which
  ``reset(seed=...)`` seeds, so a seeded episode replays exactly;
- a simultaneous decision (every seat in ``current_players()``) is taken in turn, seat by seat: a seat's
  observation never shows the choices made before it in the same decision, because views hide pending choices;
- rewards come only at the end: ``reward_mode="returns"`` (default) gives each seat its points as the rules
  count them (``state.returns()``), signed by the game's score order so that more is always better (minus the
  points where the lowest total wins); ``reward_mode="win_loss"`` gives +1 to each winner and -1 to the others
  (0 to everybody when the game names no winner);
- ``max_moves=N`` truncates an episode after N moves (every agent's ``truncations`` becomes True, reward 0); the
  default, ``DEFAULT_MAX_MOVES``, is far past the longest random game of every game that ends, so that random
  play ends on every game (Rummü's match to 200 points otherwise never does); ``max_moves=None``: no cut.

Illegal actions raise ``ludotheque.IllegalActionError`` (a ``ValueError``); use the action mask.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ludotheque.core import State
from ludotheque.interop._common import (
    DEFAULT_MAX_MOVES,
    action_mask,
    check_max_moves,
    check_reward_mode,
    final_rewards,
    load,
    render_text,
)
from ludotheque.table import Table

__all__ = ["LudothequeAECEnv", "env", "raw_env"]


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class LudothequeAECEnv(AECEnv):  # type: ignore[misc]
    """One ludotheque game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "ludotheque_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        *,
        reward_mode: str = "returns",
        max_moves: int | None = DEFAULT_MAX_MOVES,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.max_moves = check_max_moves(max_moves)
        self._moves = 0
        self.game = load(game_id, players, options)
        self.reward_mode = check_reward_mode(reward_mode)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "name": f"ludotheque_{game_id}_v0"}  # type: ignore[misc]
        n = self.game.players
        self.possible_agents: list[str] = [agent_name(seat) for seat in range(n)]
        self._seat = {name: seat for seat, name in enumerate(self.possible_agents)}
        shape = self.game.observation_tensor_shape()
        size = self.game.num_distinct_actions()
        self.observation_spaces = {
            name: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(size,), dtype=np.int8),
                }
            )
            for name in self.possible_agents
        }
        self.action_spaces = {name: spaces.Discrete(size) for name in self.possible_agents}
        self._rng: random.Random | None = None
        self.table: Table | None = None

    # -- PettingZoo API -------------------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        elif self._rng is None:
            self._rng = random.Random()
        self.table = Table(self.game, [None] * self.game.players, chance_rng=self._rng)
        self.table.advance()  # chance only: every seat is an agent
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._moves = 0
        self._after_move()

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        state = self._live_state()
        seat = self._seat[agent]
        return {"observation": state.observation_tensor(seat), "action_mask": action_mask(state, seat)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} acts now: None is only for agents whose game is over")
        table = self._live_table()
        table.submit(self._seat[agent], int(action))  # IllegalActionError leaves everything unchanged
        table.advance()
        self._moves += 1
        self._cumulative_rewards[agent] = 0.0
        self._after_move()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use 'human' or 'ansi')")
            return None
        if self.state is None:
            return None
        text = render_text(self.game, self.state.view(None))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass

    # -- helpers ----------------------------------------------------------------------------------

    @property
    def state(self) -> State | None:
        """The live state (``None`` before the first ``reset()``)."""
        return None if self.table is None else self.table.state

    def _live_table(self) -> Table:
        if self.table is None:
            raise RuntimeError("call reset() before using the environment")
        return self.table

    def _live_state(self) -> State:
        return self._live_table().state

    def _after_move(self) -> None:
        """Set rewards, terminations and the next agent after reset or a move."""
        state = self._live_state()
        if state.is_terminal():
            final = final_rewards(state, self.reward_mode)
            for agent in self.agents:
                self.rewards[agent] = final[self._seat[agent]]
                self.terminations[agent] = True
            self.agent_selection = self.agents[0]
        elif self.max_moves is not None and self._moves >= self.max_moves:
            for agent in self.agents:
                self.rewards[agent] = 0.0
                self.truncations[agent] = True
            self.agent_selection = self.agents[0]
        else:
            for agent in self.agents:
                self.rewards[agent] = 0.0
            self.agent_selection = agent_name(state.current_players()[0])
        self._accumulate_rewards()


def raw_env(game_id: str, players: int | None = None, **kwargs: Any) -> LudothequeAECEnv:
    """The environment without PettingZoo's order-enforcing wrapper."""
    return LudothequeAECEnv(game_id, players, **kwargs)


def env(game_id: str, players: int | None = None, **kwargs: Any) -> AECEnv:
    """``game_id`` for ``players`` seats (default: the fewest it allows) as a PettingZoo AEC environment.

    Keyword arguments: ``reward_mode`` (``"returns"`` or ``"win_loss"``), ``max_moves`` (truncation; ``None``: none),
    ``render_mode`` (``"human"``, ``"ansi"``) and the game's own options (``tie_rule="single"``...).
    """
    return wrappers.OrderEnforcingWrapper(raw_env(game_id, players, **kwargs))
