"""Both batch engines (Numba kernel, NumPy) give exactly the engine's returns and winners for the same decks and
plays, and their policies choose what the engine's bots choose."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import ludotheque
from ludotheque.core import OptionError
from ludotheque.games.geier import fast
from ludotheque.games.geier.heuristics import GeierHeuristicBot
from ludotheque.games.geier.rules import FINAL_TIES, POINT_INDEX, TIE_RULES
from ludotheque.testing import fuzz_games

CONFIGS = list(itertools.product(range(2, 6), TIE_RULES, FINAL_TIES))
ENGINES = ["numba", "numpy"]


def engine_result(players: int, deck: list[int], plays: list[list[int]], **options: str) -> tuple[list[int], list[int]]:
    state = ludotheque.load_game("geier", players=players, **options).new_initial_state()
    for value, cards in zip(deck, plays, strict=True):
        state.apply_action(POINT_INDEX[value])
        for seat, card in enumerate(cards):
            state.apply_action(card - 1, seat)
    assert state.is_terminal()
    return [int(r) for r in state.returns()], state.winners()


def biased_plays(rng: np.random.Generator, games: int, players: int) -> np.ndarray:
    """Random permutations, with seats often copying each other so that ties and carried pots are common."""
    plays = np.argsort(rng.random((games, players, 15)), axis=2) + 1
    copy = rng.random((games, players)) < 0.5
    copy[:, 0] = False
    plays[copy] = plays[:, 0, :].repeat(players, axis=0).reshape(games, players, 15)[copy]
    return plays.transpose(0, 2, 1)  # (games, rounds, players)


@pytest.mark.fuzz
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("players", "tie_rule", "final_tie"), CONFIGS)
def test_resolve_equals_engine(players: int, tie_rule: str, final_tie: str, engine: str) -> None:
    games = fuzz_games(150, 3000)
    rng = np.random.default_rng(players)
    decks = fast.POINTS[np.argsort(rng.random((games, 15)), axis=1)]
    plays = biased_plays(rng, games, players)
    returns, winners = fast.resolve(decks, plays, tie_rule=tie_rule, final_tie=final_tie, engine=engine)
    drawn = 0
    for g in range(games):
        expected = engine_result(players, decks[g].tolist(), plays[g].tolist(), tie_rule=tie_rule, final_tie=final_tie)
        assert returns[g].tolist() == expected[0], g
        assert np.flatnonzero(winners[g]).tolist() == expected[1], g
        drawn += not expected[1]
    print(f"fast geier ({engine}) {players}p {tie_rule} {final_tie}: {games} games equal to the engine, {drawn} drawn")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("players", "tie_rule", "final_tie"),
    [
        (2, "single", "highest-mouse"),
        (3, "cascade", "next-best"),
        (5, "single", "highest-mouse"),
        (5, "cascade", "next-best"),
    ],
)
def test_simulate_replays_in_the_engine(players: int, tie_rule: str, final_tie: str, engine: str) -> None:
    result = fast.simulate(300, players, "random", seed=players, engine=engine, tie_rule=tie_rule, final_tie=final_tie)
    for g in range(300):
        expected = engine_result(
            players, result.decks[g].tolist(), result.plays[g].tolist(), tie_rule=tie_rule, final_tie=final_tie
        )
        assert result.returns[g].tolist() == expected[0]
        assert np.flatnonzero(result.winners[g]).tolist() == expected[1]
    for g in range(300):
        for seat in range(players):
            assert sorted(result.plays[g, :, seat].tolist()) == list(range(1, 16))


@pytest.mark.parametrize("engine", ENGINES)
def test_heuristic_policy_is_the_engine_bot(engine: str) -> None:
    # the batch heuristic chooses exactly what GeierHeuristicBot chooses from the same views
    players = 3
    result = fast.simulate(200, players, ["heuristic", "random", "heuristic"], seed=9, engine=engine)
    bot = GeierHeuristicBot()
    rng = random.Random(0)
    for g in range(200):
        state = ludotheque.load_game("geier", players=players).new_initial_state()
        for value, cards in zip(result.decks[g].tolist(), result.plays[g].tolist(), strict=True):
            state.apply_action(POINT_INDEX[value])
            for seat in (0, 2):
                choice = bot.choose(state.view(seat), state.legal_actions(seat), rng)
                assert choice == cards[seat] - 1
            for seat, card in enumerate(cards):
                state.apply_action(card - 1, seat)
        assert [int(r) for r in state.returns()] == result.returns[g].tolist()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("final_tie", FINAL_TIES)
def test_lone_negative_score_beats_tied_leaders(engine: str, final_tie: str) -> None:
    # geier-5 next-best: with -2, 21, 21 the only unique score is -2, and it wins; highest-mouse: the leader
    # with the highest mouse wins.  (The NumPy engine once lost the -2 to an int16 overflow of its "no score" marker.)
    deck = [7, 2, -1, 3, 9, 6, 8, -3, 1, -5, 5, 4, -4, -2, 10]
    seat0 = [9, 7, 4, 11, 2, 13, 3, 5, 10, 12, 6, 8, 15, 14, 1]  # ends on -2
    seat1 = [5, 2, 6, 4, 9, 11, 12, 13, 10, 7, 1, 15, 3, 14, 8]  # 21
    seat2 = [11, 9, 13, 12, 6, 2, 4, 15, 7, 1, 14, 8, 3, 5, 10]  # 21
    plays = np.array([list(zip(seat0, seat1, seat2, strict=True))])
    expected_returns, expected_winners = engine_result(3, deck, plays[0].tolist(), final_tie=final_tie)
    returns, winners = fast.resolve(np.array([deck]), plays, final_tie=final_tie, engine=engine)
    assert returns[0].tolist() == expected_returns
    assert np.flatnonzero(winners[0]).tolist() == expected_winners
    leaders = [seat for seat, points in enumerate(expected_returns) if points == max(expected_returns)]
    assert len(leaders) == 2  # the situation the test is about
    assert expected_returns == [-2, 21, 21]
    if final_tie == "next-best":
        assert expected_winners == [0]
    else:
        assert len(expected_winners) == 1 and expected_winners[0] in (1, 2)


def test_numba_batch_does_not_depend_on_threads() -> None:
    numba = pytest.importorskip("numba")
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = fast.simulate(2000, 4, ["random", "heuristic", "random", "random"], seed=3, engine="numba")
        numba.set_num_threads(max(1, numba.config.NUMBA_NUM_THREADS))
        many = fast.simulate(2000, 4, ["random", "heuristic", "random", "random"], seed=3, engine="numba")
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one.decks, many.decks)
    assert np.array_equal(one.plays, many.plays)
    assert np.array_equal(one.returns, many.returns)
    assert not np.array_equal(one.plays, fast.simulate(2000, 4, "random", seed=4, engine="numba").plays)


def test_bad_arguments() -> None:
    with pytest.raises(OptionError, match="2 to 5"):
        fast.simulate(10, 6)
    with pytest.raises(OptionError, match="tie_rule"):
        fast.simulate(10, 2, tie_rule="double")
    with pytest.raises(OptionError, match="no option 'colour'"):
        fast.simulate(10, 2, colour="red")
    with pytest.raises(OptionError, match="3 policies"):
        fast.simulate(10, 3, ["random", "random"])
    with pytest.raises(OptionError, match="unknown engine 'cuda'"):
        fast.simulate(10, 2, engine="cuda")
    with pytest.raises(OptionError, match="unknown policy 'greedy'"):
        fast.simulate(10, 2, "greedy")
    with pytest.raises(OptionError, match="named policies only"):
        fast.simulate(10, 2, [fast.random_policy, "random"], engine="numba")
    with pytest.raises(OptionError, match="at least one game"):
        fast.simulate(0, 2)
