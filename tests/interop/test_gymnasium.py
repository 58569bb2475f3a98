"""Gymnasium's env_checker on every game and player count, plus episodes against our bots."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import ludotheque  # noqa: E402
from ludotheque.interop._common import game_configurations  # noqa: E402
from ludotheque.interop.gymnasium import LudothequeEnv, env_id, register  # noqa: E402

CONFIGS = [pytest.param(game_id, players, id=f"{game_id}-{players}p") for game_id, players in game_configurations()]
GAMES = ludotheque.game_ids()
MAX_STEPS = 300  # random learners are capped: some games' random play may last very long


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", message=".*Box observation space (minimum|maximum) value is")


def test_every_game_is_registered() -> None:
    assert register() == [env_id(game_id) for game_id in GAMES]
    for game_id in GAMES:
        assert env_id(game_id) in gymnasium.registry


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_check_env(game_id: str, players: int) -> None:
    made = gymnasium.make(env_id(game_id), players=players, opponents="random", disable_env_checker=True)
    check_env(made.unwrapped)
    made.close()


def run_episode(made: gymnasium.Env[np.ndarray, np.int64], seed: int) -> tuple[list[int], float, dict[str, object]]:
    obs, info = made.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions, total = [], 0.0
    while True:
        assert obs.shape == made.observation_space.shape
        mask = info["action_mask"]
        assert np.array_equal(mask.astype(bool), made.unwrapped.action_masks())
        action = int(rng.choice(np.flatnonzero(mask)))
        actions.append(action)
        obs, reward, terminated, truncated, info = made.step(action)
        total += float(reward)
        if terminated or truncated:
            return actions, total, info


@pytest.mark.parametrize("game_id", GAMES)
def test_episode_against_heuristic_bots(game_id: str) -> None:
    made = gymnasium.make(env_id(game_id), seat="random", opponents="heuristic", max_episode_steps=MAX_STEPS)
    actions, total, info = run_episode(made, seed=3)
    env = made.unwrapped
    assert isinstance(env, LudothequeEnv) and env.state is not None
    if env.state.is_terminal():
        assert total == info["returns"][info["seat"]]  # type: ignore[index]
    else:
        assert total == 0.0 and len(actions) == MAX_STEPS
    again = run_episode(made, seed=3)
    assert again[0] == actions and again[1] == total


def test_search_bot_opponents() -> None:
    """Search bots (ISMCTS) get their sampler of determinizations from the environment."""
    from ludotheque.bots import UnknownBotError, make_bot

    game_id = GAMES[0]
    try:
        make_bot("ismcts:iterations=10", ludotheque.load_game(game_id, players=2))
    except UnknownBotError:
        pytest.skip("no ISMCTS bot in the bot registry")
    made = gymnasium.make(env_id(game_id), players=2, opponents="ismcts:iterations=10", max_episode_steps=30)
    actions, _, _ = run_episode(made, seed=5)
    assert actions


@pytest.mark.parametrize("game_id", GAMES)
def test_illegal_actions(game_id: str) -> None:
    env = LudothequeEnv(game_id, opponents="random")
    _, info = env.reset(seed=0)
    illegal = np.flatnonzero(info["action_mask"] == 0)
    if illegal.size == 0:
        pytest.skip("every action is legal at the start")
    _, reward, terminated, _, info = env.step(int(illegal[0]))
    assert terminated and reward == -1.0 and info["illegal_action"]
    strict = LudothequeEnv(game_id, opponents="random", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(ludotheque.IllegalActionError):
        strict.step(int(illegal[0]))


def test_bad_arguments() -> None:
    game_id = GAMES[0]
    with pytest.raises(ValueError):
        LudothequeEnv(game_id, seat=99)
    with pytest.raises(ValueError):
        LudothequeEnv(game_id, reward_mode="points")
    with pytest.raises(ValueError):
        LudothequeEnv(game_id, opponents=[])
