"""The benchmark's figures: deals counted for matches of several hands, the loop it times is the protocol's."""

from __future__ import annotations

import itertools
import random

import pytest

import ludotheque
from ludotheque import bench
from ludotheque.core import sample_chance


def test_one_deal_games_report_games_only() -> None:
    figures = bench.playouts(ludotheque.load_game("geier", players=2), seconds=0.02, runs=1)
    assert figures["games_per_s"]["per_second"] > 0
    assert "deals_per_s" not in figures


def test_matches_report_deals_per_second() -> None:
    # rummu with a cap of 2 hands: random players never reach a target, so every match is exactly 2 deals
    game = ludotheque.load_game("rummu", players=3, hands=2)
    figures = bench.playouts(game, seconds=0.02, runs=1)
    assert figures["deals_per_game"] == 2
    assert figures["deals_per_s"]["per_second"] == pytest.approx(2 * figures["games_per_s"]["per_second"])


@pytest.mark.parametrize(("game_id", "players", "options"), [("mu", 3, {"target": 60}), ("rummu", 4, {"hands": 3})])
def test_deals_completed_counts_finished_hands(game_id: str, players: int, options: dict[str, int]) -> None:
    rng = random.Random(5)
    state = ludotheque.load_game(game_id, players=players, **options).new_initial_state()
    counts = [state.deals_completed()]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            seat = state.current_players()[0]
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
        counts.append(state.deals_completed())
    assert counts[0] == 0
    assert all(b - a in (0, 1) for a, b in itertools.pairwise(counts))  # one hand at a time
    assert counts[-1] >= 1
    assert counts[-2] == counts[-1] - 1  # the last action finished the last hand, and the match with it
    if game_id == "rummu":
        assert counts[-1] == 3


def test_one_deal_game_completes_its_deal_at_the_end() -> None:
    rng = random.Random(1)
    state = ludotheque.load_game("cheese", players=2).new_initial_state()
    while not state.is_terminal():
        assert state.deals_completed() == 0
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            seat = state.current_players()[0]
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    assert state.deals_completed() == 1
