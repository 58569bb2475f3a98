"""The NumPy batch simulator gives exactly the engine's returns and winners for the same decks and plays."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import ludotheque
from ludotheque.core import OptionError
from ludotheque.fast import geier as fast
from ludotheque.games.geier.heuristics import GeierHeuristicBot
from ludotheque.games.geier.rules import FINAL_TIES, POINT_INDEX, TIE_RULES
from ludotheque.testing import fuzz_games

CONFIGS = list(itertools.product(range(2, 6), TIE_RULES, FINAL_TIES))


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
@pytest.mark.parametrize(("players", "tie_rule", "final_tie"), CONFIGS)
def test_resolve_equals_engine(players: int, tie_rule: str, final_tie: str) -> None:
    games = fuzz_games(150, 3000)
    rng = np.random.default_rng(players)
    decks = fast.POINTS[np.argsort(rng.random((games, 15)), axis=1)]
    plays = biased_plays(rng, games, players)
    returns, winners = fast.resolve(decks, plays, tie_rule=tie_rule, final_tie=final_tie)
    drawn = 0
    for g in range(games):
        expected = engine_result(
            players, decks[g].tolist(), plays[g].tolist(), tie_rule=tie_rule, final_tie=final_tie
        )
        assert returns[g].tolist() == expected[0], g
        assert np.flatnonzero(winners[g]).tolist() == expected[1], g
        drawn += not expected[1]
    print(f"fast geier {players}p {tie_rule} {final_tie}: {games} games equal to the engine, {drawn} drawn")


@pytest.mark.parametrize("players", [2, 3, 5])
def test_simulate_replays_in_the_engine(players: int) -> None:
    result = fast.simulate(300, players, "random", seed=players, tie_rule="single", final_tie="highest-mouse")
    for g in range(300):
        expected = engine_result(
            players, result.decks[g].tolist(), result.plays[g].tolist(), tie_rule="single", final_tie="highest-mouse"
        )
        assert result.returns[g].tolist() == expected[0]
        assert np.flatnonzero(result.winners[g]).tolist() == expected[1]
    for g in range(300):
        for seat in range(players):
            assert sorted(result.plays[g, :, seat].tolist()) == list(range(1, 16))


def test_heuristic_policy_is_the_engine_bot() -> None:
    # the vectorised heuristic chooses exactly what GeierHeuristicBot chooses from the same views
    players = 3
    result = fast.simulate(200, players, ["heuristic", "random", "heuristic"], seed=9)
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


def test_bad_arguments() -> None:
    with pytest.raises(OptionError, match="2 to 5"):
        fast.simulate(10, 6)
    with pytest.raises(OptionError, match="tie_rule"):
        fast.simulate(10, 2, tie_rule="double")
    with pytest.raises(OptionError, match="no option 'colour'"):
        fast.simulate(10, 2, colour="red")
    with pytest.raises(OptionError, match="3 policies"):
        fast.simulate(10, 3, ["random", "random"])
