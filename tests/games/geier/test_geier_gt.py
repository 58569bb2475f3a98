"""The matrix-game solver, the exact Geier solver on small decks, and the game-theoretic bot ``gt``."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ludotheque.bots import UnknownBotError, bot_names, make_bot, play_game
from ludotheque.games import load_game
from ludotheque.games.geier.gt import GeierGTBot, GeierSolver, exploitability, heuristic_policy, nash_policy
from ludotheque.games.geier.matrix_game import solve


def test_matrix_games() -> None:
    rps = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=float)
    value, p, q = solve(rps)
    assert value == pytest.approx(0.0, abs=1e-9)
    assert p == pytest.approx([1 / 3] * 3) and q == pytest.approx([1 / 3] * 3)
    pennies = np.array([[2, -1], [-1, 1]], dtype=float)  # value 1/5, p = (2/5, 3/5)
    value, p, q = solve(pennies)
    assert value == pytest.approx(0.2) and p == pytest.approx([0.4, 0.6]) and q == pytest.approx([0.4, 0.6])
    saddle = np.array([[3, 1, 4], [2, 0, 1]], dtype=float)
    value, p, q = solve(saddle)
    assert value == 1.0 and list(p) == [1.0, 0.0] and list(q) == [0.0, 1.0, 0.0]
    rng = np.random.default_rng(1)
    for _ in range(50):
        a = rng.normal(size=tuple(rng.integers(1, 7, 2)))
        value, p, q = solve(a)
        assert (p @ a).min() >= value - 1e-9 and (a @ q).max() <= value + 1e-9


def test_small_geier_is_solved_exactly() -> None:
    solver = GeierSolver((-1, 1, 2, 3))
    assert solver.game_value() == pytest.approx(0.0, abs=1e-9)  # a symmetric game
    assert exploitability(solver, nash_policy(solver)) == pytest.approx(0.0, abs=1e-9)
    assert exploitability(solver, heuristic_policy(solver)) > 0.5  # a deterministic bot is read and beaten


def test_solver_transitions() -> None:
    solver = GeierSolver((-1, 1, 2))
    assert solver.after_round(3, 2, 5, 0, (0, 0, 0))[:2] == (0, 5)  # mouse: the higher card takes it
    assert solver.after_round(3, 2, -2, 0, (0, 0, 0))[:2] == (0, 2)  # vulture: the lower card takes it
    assert solver.after_round(2, 2, 4, 1, (0, 0, 0))[:2] == (4, 1)  # tie: the pot stays
    assert solver.outcome(0, (0, 0, 0)) == 0.0 and solver.outcome(3, (0, 0, 0)) == 1.0
    mouse = GeierSolver((-1, 1, 2), final_tie="highest-mouse")
    assert mouse.outcome(0, (5, 2, 0)) == 1.0


def test_gt_bot_plays_legal_cards_from_either_seat() -> None:
    game = load_game("geier", players=2)
    bot = GeierGTBot(game, rollouts=2, exact_cards=3)
    for seats in ([bot, make_bot("heuristic", game)], [make_bot("random", game), bot]):
        state = play_game(game, seats, random.Random(4), random.Random(5))
        assert state.is_terminal()
    assert abs(sum(bot.last_strategy.values()) - 1.0) < 1e-9 or not bot.last_strategy


def test_gt_is_geiers_own_bot_for_two_players() -> None:
    two = load_game("geier", players=2)
    assert "gt" in bot_names(two)
    assert "gt" not in bot_names(load_game("geier", players=3)) and "gt" not in bot_names()
    bot = make_bot("gt:it=8:time=1.5", two)
    assert isinstance(bot, GeierGTBot) and bot.name == "gt"
    assert (bot.policy.rollouts, bot.policy.time_limit) == (8, 1.5)
    assert make_bot("gt:iterations=5", two).policy.rollouts == 5  # type: ignore[attr-defined]
    with pytest.raises(UnknownBotError, match="'gt' plays geier with 2 players, not 3"):
        make_bot("gt", load_game("geier", players=3))
    with pytest.raises(UnknownBotError, match=r"unknown gt argument 'eps=0\.2'"):
        make_bot("gt:eps=0.2", two)
    with pytest.raises(ValueError, match="plays geier with 2 players"):
        GeierGTBot(load_game("geier", players=4))
