"""OpenSpiel's random_sim_test (serialization on) on every game and player count, plus ISMCTS on each game."""

from __future__ import annotations

import os
import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import ludotheque  # noqa: E402
import ludotheque.games  # noqa: E402
from ludotheque.interop import openspiel  # noqa: E402
from ludotheque.interop._common import game_configurations, has_joint_decisions  # noqa: E402

CONFIGS = [pytest.param(game_id, players, id=f"{game_id}-{players}p") for game_id, players in game_configurations()]
JOINT = [
    pytest.param(game_id, players, id=f"{game_id}-{players}p")
    for game_id, players in game_configurations()
    if has_joint_decisions(ludotheque.load_game(game_id, players=players))
]
GAMES = ludotheque.game_ids()
MAX_MOVES = 100  # random games are capped: some games' uniformly random play may last very long


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    openspiel.register()


def load(game_id: str, players: int, **params: object) -> object:
    return pyspiel.load_game(openspiel.game_name(game_id), {"players": players, **params})


def test_every_game_is_registered() -> None:
    assert openspiel.register() == [openspiel.game_name(g) for g in GAMES]
    assert set(openspiel.register()) <= set(pyspiel.registered_names())


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_random_sim_test(game_id: str, players: int) -> None:
    game = load(game_id, players, max_moves=MAX_MOVES)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_dynamics(game_id: str, players: int) -> None:
    joint = has_joint_decisions(ludotheque.load_game(game_id, players=players))
    dynamics = pyspiel.GameType.Dynamics
    assert load(game_id, players).get_type().dynamics == (dynamics.SIMULTANEOUS if joint else dynamics.SEQUENTIAL)


@pytest.mark.parametrize(("game_id", "players"), JOINT)
def test_random_sim_test_turn_based(game_id: str, players: int) -> None:
    """Games with simultaneous nodes also load as sequential games (joint decisions taken in turn)."""
    game = load(game_id, players, turn_based=True, utility="win_loss", max_moves=MAX_MOVES)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def random_state(game: object, moves: int, seed: int) -> object:
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game_id", GAMES)
def test_observations_serialization_and_resampling(game_id: str) -> None:
    cls = ludotheque.games.game_class(game_id)
    game = load(game_id, cls.min_players, turn_based=True)
    ludo_game = ludotheque.load_game(game_id, players=cls.min_players)
    state = random_state(game, 40, seed=1)
    assert list(game.observation_tensor_shape()) == list(ludo_game.observation_tensor_shape())
    for player in range(game.num_players()):
        tensor = np.array(state.observation_tensor(player), dtype=np.float32)
        assert np.array_equal(tensor, state.ludo_state.observation_tensor(player).ravel())
        assert isinstance(state.observation_string(player), str)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) and copy.history() == state.history()
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.history() == state.history()
    if state.is_terminal() or state.is_chance_node():
        return
    player = state.current_player()
    key = state.information_state_string(player)
    for _ in range(3):
        twin = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert twin.information_state_string(player) == key
        assert twin.observation_string(player) == state.observation_string(player)
        assert twin.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_ismcts_plays_every_game(game_id: str) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    cls = ludotheque.games.game_class(game_id)
    game = load(game_id, cls.min_players, turn_based=True, utility="win_loss", max_moves=40)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=5, random_state=rng)
    state = random_state(game, 0, seed=0)
    while not state.is_terminal() and len(state.history()) < 60:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)


def test_turn_based_replay_gives_each_simultaneous_move_to_its_own_seat() -> None:
    # Geier: every seat picks a card at once (geier-2).  If seat 1 chose first, OpenSpiel's turn-based state must
    # hold seat 1's card for seat 1, not hand it to current_players()[0]
    game = load("geier", 2, turn_based=True)
    state = game.ludo.new_initial_state()
    state.apply_action(state.string_to_action("+5"))
    state.apply_action(state.string_to_action("3", 1), 1)  # seat 1 first
    spiel = openspiel.from_ludotheque(game, state)  # type: ignore[arg-type]
    assert spiel.ludo_state.history() == state.history()
    assert spiel.current_player() == 0 and spiel.legal_actions() == list(range(15))
    spiel.apply_action(14)
    assert spiel.ludo_state.view(0)["table"]["rounds"][0]["played"] == [15, 3]


def test_perfect_recall_trail_is_the_same_built_lazily() -> None:
    # the information state reads the seat's views before each of its moves; built when asked, it must equal
    # what is seen by asking at every step
    game = load("mu", 3)
    rng = random.Random(3)
    asked, lazy = game.new_initial_state(), game.new_initial_state()
    for _ in range(40):
        if asked.is_terminal():
            break
        if asked.is_chance_node():
            action = rng.choice([a for a, _ in asked.chance_outcomes()])
        else:
            action = rng.choice(asked.legal_actions())
        for seat in range(3):
            asked.information_state_string(seat)
        asked.apply_action(action)
        lazy.apply_action(action)
    assert [lazy.information_state_string(s) for s in range(3)] == [asked.information_state_string(s)
                                                                    for s in range(3)]
    assert len({asked.information_state_string(s) for s in range(3)}) == 3


def random_decisions(state: object, rng: random.Random, players: int) -> int:
    """Random play to the end through the OpenSpiel API (no checks: fast); the decisions taken."""
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        if state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(players)])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        decisions += 1
    return decisions


@pytest.mark.parametrize("game_id", GAMES)
def test_random_play_ends_with_default_parameters(game_id: str) -> None:
    # Rummü's match to 200 (rummu-10: no cap on hands) never ends between random players: the default cut does
    # it, as declared in max_game_length; the games that end do so well before it
    game = pyspiel.load_game(openspiel.game_name(game_id))
    assert game.max_game_length() == openspiel.DEFAULT_MAX_MOVES == game.get_parameters()["max_moves"]
    state = game.new_initial_state()
    decisions = random_decisions(state, random.Random(1), game.num_players())
    assert decisions <= game.max_game_length()
    assert state.is_truncated() == (game_id == "rummu")
    if state.is_truncated():
        assert decisions == game.max_game_length() and not state.ludo_state.is_terminal()
        assert all(-openspiel.UTILITY_BOUND <= r <= openspiel.UTILITY_BOUND for r in state.returns())
    unbounded = load(game_id, game.num_players(), max_moves=0)
    assert unbounded.max_game_length() == openspiel.MAX_GAME_LENGTH


@pytest.mark.fuzz
@pytest.mark.skipif(os.environ.get("LUDOTHEQUE_FUZZ") != "long", reason="Rummü runs to the cut: make fuzz")
@pytest.mark.parametrize("game_id", GAMES)
def test_random_sim_test_ends_with_default_parameters(game_id: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(openspiel.game_name(game_id)), num_sims=1, serialize=True,
                            verbose=False)


def test_mcts_rollouts_end_on_a_match_random_players_never_finish() -> None:
    from open_spiel.python.algorithms import mcts

    game = load("rummu", 3)  # default parameters: the rollout runs to the default cut
    rng = np.random.RandomState(0)
    state = random_state(game, 5, seed=0)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    values = mcts.RandomRolloutEvaluator(1, rng).evaluate(state)
    assert len(values) == 3
