"""PettingZoo's own test suite (api_test, seed_test) on every game and player count, plus our end-of-game checks."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

import ludotheque
from ludotheque.interop._common import game_configurations, has_joint_decisions
from ludotheque.interop.pettingzoo import LudothequeAECEnv, env, raw_env

CONFIGS = [pytest.param(game_id, players, id=f"{game_id}-{players}p") for game_id, players in game_configurations()]
JOINT = [
    pytest.param(game_id, players, id=f"{game_id}-{players}p")
    for game_id, players in game_configurations()
    if has_joint_decisions(ludotheque.load_game(game_id, players=players))
]
MAX_MOVES = 300  # random games are capped: some games' uniformly random play may last very long


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # PettingZoo warns about dict observations for every env not in its own list; the test still checks them.
    warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
    warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
    warnings.filterwarnings("ignore", message="Action mask numpy array is all zeros")


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_api_test(game_id: str, players: int) -> None:
    api_test(env(game_id, players=players), num_cycles=5)


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_seed_test(game_id: str, players: int) -> None:
    seed_test(lambda: env(game_id, players=players), num_cycles=5)


def play_out(aec: LudothequeAECEnv, seed: int) -> dict[str, float]:
    """Masked random play until every agent is removed; the cumulative reward of each agent."""
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        mask = observation["action_mask"]
        assert observation["observation"].shape == aec.game.observation_tensor_shape()
        assert mask.dtype == np.int8 and mask.any()
        aec.step(int(rng.choice(np.flatnonzero(mask))))
    return totals


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_full_episode_rewards_are_returns(game_id: str, players: int) -> None:
    aec = raw_env(game_id, players, max_moves=MAX_MOVES)
    totals = play_out(aec, seed=players)
    assert aec.agents == []
    assert aec.state is not None
    if aec.state.is_terminal():
        # the points, signed so that more is better (MICE: the lowest total wins)
        sign = aec.game.score_sign()
        assert totals == {f"player_{s}": sign * r for s, r in enumerate(aec.state.returns())}
    else:  # truncated by max_moves: no reward
        assert set(totals.values()) == {0.0}


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_win_loss_rewards(game_id: str, players: int) -> None:
    aec = raw_env(game_id, players, reward_mode="win_loss", max_moves=MAX_MOVES)
    totals = play_out(aec, seed=100 + players)
    assert aec.state is not None
    if aec.state.is_terminal():
        winners = aec.state.winners()
        expected = {f"player_{s}": (1.0 if s in winners else -1.0) if winners else 0.0 for s in range(players)}
        assert totals == expected


@pytest.mark.parametrize(("game_id", "players"), JOINT)
def test_joint_decisions_are_taken_in_turn_without_revealing(game_id: str, players: int) -> None:
    """At a decision several seats take together, what the first seat chooses never shows to the next."""
    rng = random.Random(players)
    one = raw_env(game_id, players, max_moves=MAX_MOVES)
    one.reset(seed=7)
    assert one.state is not None
    for _ in range(MAX_MOVES):
        state = one.state
        if state.is_terminal():
            break
        acting = state.current_players()
        if len(acting) >= 2 and len(state.legal_actions(acting[0])) >= 2:
            first, second = acting[0], acting[1]
            assert one.agent_selection == f"player_{first}"
            outcomes = []
            for action in state.legal_actions(first)[:2]:
                twin = raw_env(game_id, players)
                twin.reset(seed=7)
                assert twin.state is not None
                for actor, move in state.history()[len(twin.state.history()) :]:
                    if actor != "chance":  # chance replays from the same seed
                        twin.step(move)
                assert twin.state.history() == state.history()
                twin.step(action)
                assert twin.agent_selection == f"player_{second}"
                outcomes.append(twin.observe(f"player_{second}"))
            assert np.array_equal(outcomes[0]["observation"], outcomes[1]["observation"])
            assert np.array_equal(outcomes[0]["action_mask"], outcomes[1]["action_mask"])
            return
        mask = one.observe(one.agent_selection)["action_mask"]
        one.step(rng.choice(list(np.flatnonzero(mask))))
    raise AssertionError("no decision taken by several seats at once was reached")


def test_render_and_errors() -> None:
    game_id, players = game_configurations()[0]
    aec = raw_env(game_id, players, render_mode="ansi")
    aec.reset(seed=1)
    assert isinstance(aec.render(), str)
    agent = aec.agent_selection
    mask = aec.observe(agent)["action_mask"]
    illegal = np.flatnonzero(mask == 0)
    if illegal.size:
        with pytest.raises(ValueError):
            aec.step(int(illegal[0]))
    with pytest.raises(ValueError):
        raw_env(game_id, players, reward_mode="points")


def test_a_match_random_players_never_finish_is_truncated() -> None:
    # Rummü's match to 200 (rummu-10): random agents never finish it; the cut truncates every agent, reward 0
    from ludotheque.interop._common import DEFAULT_MAX_MOVES

    assert raw_env("rummu").max_moves == DEFAULT_MAX_MOVES
    aec = raw_env("rummu", max_moves=400)
    totals = play_out(aec, seed=4)
    assert aec.state is not None and not aec.state.is_terminal()
    assert sum(1 for actor, _ in aec.state.history() if actor != "chance") == 400
    assert set(totals.values()) == {0.0}
    with pytest.raises(ValueError, match="max_moves"):
        raw_env("rummu", max_moves=0)
