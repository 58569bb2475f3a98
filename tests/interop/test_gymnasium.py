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


def test_make_vec_env_falls_back_from_rgb_array_as_stable_baselines3_does() -> None:
    # Stable-Baselines3's make_vec_env asks for render_mode="rgb_array" and retries without it on a TypeError
    import gymnasium

    try:
        env = gymnasium.make(env_id("geier"), render_mode="rgb_array")
    except TypeError:
        env = gymnasium.make(env_id("geier"))
    assert env.unwrapped.render_mode is None
    with pytest.raises(ValueError, match="render_mode must be one of"):
        LudothequeEnv("geier", render_mode="rgb_array")  # still a ValueError to code that expects one


def test_action_masks_before_reset_allow_every_action_then_follow_the_game() -> None:
    env = LudothequeEnv("geier", players=2)
    before = env.action_masks()
    assert before.dtype == bool and before.all() and before.shape == (env.game.num_distinct_actions(),)
    env.reset(seed=1)
    assert env.action_masks().tolist() == [True] * 15  # the whole hand at the start
    env.step(14)
    assert env.action_masks()[14] == False  # noqa: E712 (numpy bool)


@pytest.mark.parametrize(
    ("game_id", "players", "options"), [("safaru", 3, {"renverse": True}), ("mice", 3, {}), ("geier", 3, {})]
)
def test_the_returns_reward_never_rewards_losing(game_id: str, players: int, options: dict[str, object]) -> None:
    # Safarü renversé and MICE: the lowest total wins (safaru-7, mice-7); the reward is the points signed by the
    # game's declared order, so every winner's reward is the highest at the table
    for seed in range(4):
        env = LudothequeEnv(game_id, players=players, opponents="heuristic", **options)
        _, info = env.reset(seed=seed)
        terminated = truncated = False
        reward = 0.0
        rng = np.random.default_rng(seed)
        while not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, truncated, info = env.step(action)
        returns, winners = info["returns"], info["winners"]
        sign = env.game.score_sign()
        assert reward == sign * returns[env.seat]
        signed = [sign * r for r in returns]
        assert all(signed[w] == max(signed) for w in winners), (returns, winners)
        if env.seat in winners:
            assert reward == max(signed)
        elif winners and signed[env.seat] < max(signed):
            assert reward < sign * returns[winners[0]]


def test_a_match_random_players_never_finish_is_truncated() -> None:
    # Rummü's match to 200 (rummu-10) between random players: the cut ends the episode, truncated, reward 0
    from ludotheque.interop._common import DEFAULT_MAX_MOVES

    assert LudothequeEnv("rummu", opponents="random").max_moves == DEFAULT_MAX_MOVES
    env = LudothequeEnv("rummu", opponents="random", max_moves=400)
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    steps = 0
    while True:
        _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        steps += 1
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0.0
    assert env.state is not None and not env.state.is_terminal()
    moves = sum(1 for actor, _ in env.state.history() if actor != "chance")
    assert 400 <= moves < 400 + env.game.players  # the opponents finish their turns, at most a round past the cut
    assert 0 < steps < moves
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    with pytest.raises(ValueError, match="max_moves"):
        LudothequeEnv("rummu", max_moves=0)
    assert LudothequeEnv("rummu", max_moves=None).max_moves is None
