"""Geier's compiled engine held to the Python reference (DECISIONS geier-1..5): differential walks over every
player count and option, determinization, the heuristic, playouts and the search."""

from __future__ import annotations

import math
import os
import random
from collections import Counter
from typing import Any

import pytest

from ludotheque.bots.ismcts import ISMCTSBot
from ludotheque.core import CHANCE, State, sample_chance
from ludotheque.core.bot import make_sampler
from ludotheque.core.native import NativeState, native_state_class, use_engine
from ludotheque.games import load_game
from ludotheque.games.geier import native
from ludotheque.native import simulate

from .differential import arena_score, chi_square_same

pytestmark = pytest.mark.skipif(native.state_class() is None, reason="the native core is not built")

LONG = os.environ.get("LUDOTHEQUE_FUZZ") == "long"
CONFIGURATIONS = [
    (players, tie_rule, final_tie)
    for players in range(2, 6)
    for tie_rule in ("cascade", "single")
    for final_tie in ("next-best", "highest-mouse")
]


def pair(players: int, tie_rule: str, final_tie: str) -> tuple[State, State]:
    game = load_game("geier", players=players, tie_rule=tie_rule, final_tie=final_tie)
    compiled = game.new_initial_state()
    assert isinstance(compiled, NativeState)
    return compiled, game.new_reference_state()


def same_node(compiled: State, reference: State) -> None:
    game = reference.game
    assert compiled.is_terminal() == reference.is_terminal()
    assert compiled.is_chance_node() == reference.is_chance_node()
    assert compiled.chance_outcomes() == reference.chance_outcomes()
    assert compiled.current_players() == reference.current_players()
    for seat in range(game.players):
        legal = reference.legal_actions(seat)
        assert compiled.legal_actions(seat) == legal
        names = [reference.action_to_string(action, seat) for action in legal]
        assert [compiled.action_to_string(action, seat) for action in legal] == names
        assert compiled.view(seat) == reference.view(seat)
    assert compiled.view(None) == reference.view(None)
    assert compiled.returns() == reference.returns()
    assert compiled.winners() == reference.winners()


def walk(players: int, tie_rule: str, final_tie: str, seed: int) -> int:
    """One seeded random game on both engines in lockstep; every node and every action's events compared."""
    compiled, reference = pair(players, tie_rule, final_tie)
    game = reference.game
    rng = random.Random(seed)
    steps = 0
    while not reference.is_terminal():
        same_node(compiled, reference)
        if reference.is_chance_node():
            actor: Any = CHANCE
            action = sample_chance(reference, rng)
        else:
            actor = rng.choice(reference.current_players())
            action = rng.choice(reference.legal_actions(actor))
        before_c, before_r = compiled.clone(), reference.clone()
        compiled.apply_action(action, actor)
        reference.apply_action(action, actor)
        assert game.describe(before_c, actor, action, compiled) == game.describe(before_r, actor, action, reference)
        steps += 1
    same_node(compiled, reference)
    assert compiled.history() == reference.history()
    assert compiled.to_record() == reference.to_record()
    return steps


@pytest.mark.parametrize(("players", "tie_rule", "final_tie"), CONFIGURATIONS)
def test_random_games_agree_node_by_node(players: int, tie_rule: str, final_tie: str) -> None:
    for seed in range(3):
        assert walk(players, tie_rule, final_tie, seed) == 15 * (players + 1)


@pytest.mark.fuzz
def test_many_random_games_agree() -> None:
    games = 100_000 if LONG else 300
    for index in range(games):
        walk(*CONFIGURATIONS[index % len(CONFIGURATIONS)], seed=10_000 + index)
    print(f"geier native differential: {games} games agreed at every node")


def test_the_engine_setting_chooses_the_state() -> None:
    game = load_game("geier", players=3)
    assert native_state_class(game) is native.NativeGeierState
    use_engine("python")
    assert native_state_class(game) is None
    assert not isinstance(game.new_initial_state(), NativeState)


def test_bad_input_is_refused_with_the_references_errors_and_changes_nothing() -> None:
    compiled, reference = pair(3, "cascade", "next-best")
    for state in (compiled, reference):
        state.apply_action(14)  # chance turns +10
        state.apply_action(14, 0)
    tries: list[tuple[Any, Any]] = [(14, 0), (14, 1.0), (15, 1), (-1, 1), (3, -1), (3, 3), (3, CHANCE), (True, 1)]
    tries.append(("3", 1))
    for action, player in tries:
        outcomes = []
        for state in (compiled, reference):
            try:
                state.apply_action(action, player)
                outcomes.append(("ok", None))
            except Exception as error:
                outcomes.append((type(error).__name__, str(error)))
        assert outcomes[0] == outcomes[1] and outcomes[0][0] != "ok", (action, player)
    same_node(compiled, reference)
    assert compiled.history() == reference.history()


def test_determinizations_keep_the_view_and_draw_like_the_reference() -> None:
    """After seats 0 and 1 chose, seat 2 cannot see their cards: a resample for seat 2 keeps its view and redraws
    them as the reference's resampler does (a chi-square over where seat 0's card lands)."""
    compiled, reference = pair(3, "cascade", "next-best")
    rng = random.Random(5)
    for _ in range(4):  # a few rounds, so that hands differ
        action = sample_chance(reference, rng)
        compiled.apply_action(action)
        reference.apply_action(action)
        for seat in range(3):
            card = rng.choice(reference.legal_actions(seat))
            compiled.apply_action(card, seat)
            reference.apply_action(card, seat)
    action = sample_chance(reference, rng)
    for state in (compiled, reference):
        state.apply_action(action)
        state.apply_action(state.legal_actions(0)[3], 0)
        state.apply_action(state.legal_actions(1)[5], 1)
    counts: list[Counter[int]] = [Counter(), Counter()]
    for index, state in enumerate((compiled, reference)):
        draw = random.Random(index)
        for _ in range(3000):
            sample = state.resample(2, draw)
            assert sample.view(2) == state.view(2)
            counts[index][sample.history()[-2][1]] += 1
            if index == 0 and len(counts[0]) < 12:  # the compiled sample's history replays to the same state
                replayed = load_game("geier", players=3).new_reference_state()
                for actor, act in sample.history():
                    replayed.apply_action(act, actor)
                assert replayed.view(0) == sample.view(0) and replayed.view(1) == sample.view(1)
    assert chi_square_same(counts[0], counts[1]) > 1e-3


def test_the_heuristic_picks_the_references_move() -> None:
    game = load_game("geier", players=4)
    bot = game.heuristic_bot()
    rng = random.Random(2)
    checked = 0
    for seed in range(40):
        compiled = game.new_initial_state()
        draw = random.Random(seed)
        while not compiled.is_terminal():
            if compiled.is_chance_node():
                compiled.apply_action(sample_chance(compiled, draw))
                continue
            seat = compiled.current_players()[0]
            legal = compiled.legal_actions(seat)
            expected = bot.choose(compiled.view(seat), legal, rng)
            assert compiled._native.heuristic(seat, 0) == expected
            checked += 1
            compiled.apply_action(draw.choice(legal), seat)
    assert checked > 1000


def test_playouts_and_batches_play_whole_legal_games() -> None:
    compiled, _ = pair(4, "single", "next-best")
    finals = compiled._native.playouts(200, [0.15], 7)
    assert finals.shape == (200, 4)
    # every prize card is won by someone or lost in the last pot: the totals never exceed the cards' sum
    assert (finals.sum(axis=1) <= sum(range(1, 11)) - 0).all()
    returns, lengths = simulate("geier", players=4, n=300, policies="random", seed=3, tie_rule="single")
    assert returns.shape == (300, 4) and (lengths == 60).all()


def test_uniform_playouts_score_like_the_references() -> None:
    """Seat 0's mean points over uniform random games, compiled and reference, agree within their noise."""
    returns, _ = simulate("geier", players=3, n=4000, seed=11)
    compiled_mean = float(returns[:, 0].mean())
    game = load_game("geier", players=3)
    rng = random.Random(4)
    points = []
    for _ in range(1500):
        state = game.new_reference_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            for seat in state.current_players():
                state.apply_action(rng.choice(state.legal_actions(seat)), seat)
        points.append(state.returns()[0])
    mean = sum(points) / len(points)
    sd = math.sqrt(sum((p - mean) ** 2 for p in points) / (len(points) - 1))
    assert abs(compiled_mean - mean) < 4 * sd * math.sqrt(1 / 1500 + 1 / 4000)


def test_the_compiled_search_runs_and_reports() -> None:
    game = load_game("geier", players=2)
    state = game.new_initial_state()
    state.apply_action(14)
    bot = ISMCTSBot(game, iterations=300)
    action = bot.choose(state.view(0), state.legal_actions(0), random.Random(1), make_sampler(state, 0))
    assert action in state.legal_actions(0)
    assert bot.last.iterations == 300 and sum(bot.last.visits.values()) == 300 and bot.last.nodes > 1


@pytest.mark.fuzz
def test_the_compiled_search_plays_as_well_as_the_reference() -> None:
    """Geier 2 at equal iterations (200 in the long share): the compiled search wins half the games within its
    99 % interval."""
    games, iterations = (400, 200) if LONG else (24, 60)
    score = arena_score(load_game("geier", players=2), games, iterations)
    half_width = 2.58 * math.sqrt(0.25 / games)
    print(f"geier 2, native vs python ISMCTS at {iterations} iterations: {score:.3f} over {games} games")
    assert abs(score - 0.5) <= half_width


def test_a_determinization_is_the_references_own_draw() -> None:
    """From the same random numbers, the compiled state's determinization is the reference's, card for card: a
    hint or a review does not depend on the engine (DECISIONS all-3: only the face-down cards are redrawn)."""
    compiled, reference = pair(4, "cascade", "next-best")
    rng = random.Random(9)
    checked = 0
    while not reference.is_terminal():
        if reference.is_chance_node():
            action = sample_chance(reference, rng)
            compiled.apply_action(action)
            reference.apply_action(action)
            continue
        for seat in range(4):
            seed = rng.random()
            ours, theirs = compiled.resample(seat, random.Random(seed)), reference.resample(seat, random.Random(seed))
            assert ours.history() == theirs.history()
            assert [ours.view(s) for s in range(4)] == [theirs.view(s) for s in range(4)]
            checked += 1
        seat = rng.choice(reference.current_players())
        action = rng.choice(reference.legal_actions(seat))
        compiled.apply_action(action, seat)
        reference.apply_action(action, seat)
    assert checked > 100
