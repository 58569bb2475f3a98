"""Calcory's compiled engine held to the Python reference (DECISIONS calcory-1..5): differential walks over every
player count (Calcory has no options), determinization, the heuristic, playouts and the search."""

from __future__ import annotations

import math
import os
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from ludotheque.bots.ismcts import ISMCTSBot
from ludotheque.core import CHANCE, NotationError, State, sample_chance
from ludotheque.core.bot import make_sampler
from ludotheque.core.native import NativeState, native_state_class, use_engine
from ludotheque.games import load_game
from ludotheque.games.calcory import native, rules
from ludotheque.games.calcory.heuristics import CalcoryHeuristicBot
from ludotheque.native import simulate

from .differential import arena_score, chi_square_same

pytestmark = pytest.mark.skipif(native.state_class() is None, reason="the native core is not built")

LONG = os.environ.get("LUDOTHEQUE_FUZZ") == "long"
PLAYERS = (2, 3, 4)


class FirstChoice(random.Random):
    """The heuristic's random choices made deterministic: the first candidate (the compiled ``heuristic_first``)."""

    def choice(self, seq: Sequence[Any]) -> Any:
        return seq[0]


def pair(players: int) -> tuple[State, State]:
    game = load_game("calcory", players=players)
    compiled = game.new_initial_state()
    assert isinstance(compiled, NativeState)
    return compiled, game.new_reference_state()


def same_node(compiled: State, reference: State, views: bool = True) -> None:
    game = reference.game
    assert compiled.is_terminal() == reference.is_terminal()
    assert compiled.is_chance_node() == reference.is_chance_node()
    assert compiled.chance_outcomes() == reference.chance_outcomes()
    ready = compiled._chance_cumulative()
    assert (ready and (list(ready[0]), list(ready[1]))) == reference._chance_cumulative()
    assert compiled.current_players() == reference.current_players()
    for seat in range(game.players):
        legal = reference.legal_actions(seat)
        assert compiled.legal_actions(seat) == legal
        if views:
            names = [reference.action_to_string(action, seat) for action in legal]
            assert [compiled.action_to_string(action, seat) for action in legal] == names
            assert compiled.view(seat) == reference.view(seat)
    if views:
        assert compiled.view(None) == reference.view(None)
    assert compiled.returns() == reference.returns()
    assert compiled.winners() == reference.winners()


def walk(players: int, seed: int, heuristic_share: float = 0.0, views_every: int = 1) -> int:
    """One seeded game on both engines in lockstep (random moves, a share of them the heuristic's); every node
    compared (the views and every legal action's notation at every ``views_every``-th node and at the end), and
    every action's events and notation."""
    compiled, reference = pair(players)
    game = reference.game
    rng = random.Random(seed)
    bot = CalcoryHeuristicBot()
    steps = 0
    while not reference.is_terminal():
        same_node(compiled, reference, views=steps % views_every == 0)
        if reference.is_chance_node():
            actor: Any = CHANCE
            action = sample_chance(reference, rng)
            assert sample_chance(compiled, random.Random(seed + steps)) == sample_chance(
                reference, random.Random(seed + steps)
            )
            text = reference.action_to_string(action, CHANCE)
            assert compiled.string_to_action(text, CHANCE) == action
        else:
            actor = reference.current_players()[0]
            legal = reference.legal_actions(actor)
            if rng.random() < heuristic_share:
                action = bot.choose(reference.view(actor), legal, rng)
            else:
                action = rng.choice(legal)
            text = reference.action_to_string(action, actor)
            assert compiled.string_to_action(text, actor) == action
            assert compiled.action_to_json(action, actor) == reference.action_to_json(action, actor)
        before_c, before_r = compiled.clone(), reference.clone()
        compiled.apply_action(action, actor)
        reference.apply_action(action, actor)
        assert game.describe(before_c, actor, action, compiled) == game.describe(before_r, actor, action, reference)
        steps += 1
    same_node(compiled, reference)
    assert compiled.history() == reference.history()
    assert compiled.to_record() == reference.to_record()
    return steps


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("heuristic_share", [0.0, 0.8])
def test_games_agree_node_by_node(players: int, heuristic_share: float) -> None:
    for seed in range(2):
        assert walk(players, seed, heuristic_share) > rules.CELLS


@pytest.mark.fuzz
def test_many_games_agree() -> None:
    """The quick share compares every node's protocol answers, events and notation, and the views at every 15th
    node (the walks above compare them at every node)."""
    games = 100_000 if LONG else 300
    for index in range(games):
        walk(PLAYERS[index % 3], seed=10_000 + index, heuristic_share=(index % 4) / 4, views_every=1 if LONG else 15)
    print(f"calcory native differential: {games} games agreed")


def test_the_engine_setting_chooses_the_state() -> None:
    game = load_game("calcory", players=3)
    assert native_state_class(game) is native.NativeCalcoryState
    use_engine("python")
    assert native_state_class(game) is None
    assert not isinstance(game.new_initial_state(), NativeState)


def dealt_pair(players: int, seed: int) -> tuple[State, State]:
    compiled, reference = pair(players)
    rng = random.Random(seed)
    while reference.is_chance_node():
        action = sample_chance(reference, rng)
        compiled.apply_action(action)
        reference.apply_action(action)
    return compiled, reference


def outcome(state: State, method: str, *args: Any) -> tuple[str, Any]:
    try:
        return ("ok", getattr(state, method)(*args))
    except Exception as error:
        return (type(error).__name__, str(error))


def test_bad_input_is_refused_with_the_references_errors_and_changes_nothing() -> None:
    compiled, reference = pair(3)
    # during the deal: a value with none left, a seat move, a bad type
    for state in (compiled, reference):
        for _ in range(5):
            state.apply_action(0)  # the five 0s
    tries: list[tuple[Any, Any]] = [(0, CHANCE), (10, CHANCE), (-1, None), (3, 0), (True, CHANCE), ("3", CHANCE)]
    for action, player in tries:
        results = [outcome(s, "apply_action", action, player) for s in (compiled, reference)]
        assert results[0] == results[1] and results[0][0] != "ok", (action, player)
    same_node(compiled, reference)
    compiled, reference = dealt_pair(3, 1)
    for state in (compiled, reference):
        state.apply_action(0, 0)  # A1 flipped
    tries = [
        (0, 0),
        (0, 1),
        (rules.STOP, 0),
        (rules.PASS, 0),
        (rules.NUM_ACTIONS, 0),
        (rules.PUT_BASE, 0),
        (-1, 0),
        (5, 3),
        (5, -2),
        (5, CHANCE),
        (5, 1.0),
        (True, 0),
        ("B1", 0),
    ]
    for action, player in tries:
        results = [outcome(s, "apply_action", action, player) for s in (compiled, reference)]
        assert results[0] == results[1] and results[0][0] != "ok", (action, player)
    for text, player in [
        ("A1", 0),
        ("Z9", 0),
        ("stop", 0),
        ("7@A1", 0),
        ("", 0),
        ("B1", 1),
        ("A1=3", CHANCE),
        (7, 0),
        ("B1", 7),
    ]:
        results = [outcome(s, "string_to_action", text, player) for s in (compiled, reference)]
        assert results[0] == results[1] and results[0][0] != "ok", (text, player)
    for seat in (-1, 3, 1.0, True):
        results = [outcome(s, "view", seat) for s in (compiled, reference)]
        assert results[0] == results[1] and results[0][0] != "ok", seat
    with pytest.raises(NotationError):
        compiled.string_to_action("A2=3", CHANCE)
    same_node(compiled, reference)
    assert compiled.history() == reference.history()
    with pytest.raises(ValueError):
        native._native.CalcoryState(5)


def played_pair(players: int, seed: int, moves: int) -> tuple[State, State]:
    compiled, reference = dealt_pair(players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if reference.is_terminal():
            break
        seat = reference.current_players()[0]
        action = rng.choice(reference.legal_actions(seat))
        compiled.apply_action(action, seat)
        reference.apply_action(action, seat)
    return compiled, reference


def test_determinizations_keep_the_view_and_draw_like_the_reference() -> None:
    """Some cards were seen and turned back: a resample keeps every seat's view (and the information key),
    replays from its history, and deals the never-seen cards as the reference does (a chi-square over the value
    on the first never-seen cell, and over where a given value lands)."""
    compiled, reference = played_pair(2, 3, 40)
    assert not compiled.is_terminal()
    hidden = [
        c
        for c, (status, seen) in enumerate(zip(reference.status, reference.seen, strict=True))
        if status == 1 and not seen
    ]
    assert 5 < len(hidden) < rules.CELLS
    first = hidden[0]
    rare = min({reference.card[c] for c in hidden}, key=lambda v: sum(reference.card[c] == v for c in hidden))
    counts: list[Counter[int]] = [Counter(), Counter()]
    places: list[Counter[int]] = [Counter(), Counter()]
    key = compiled._native.info_key(1)
    for index, state in enumerate((compiled, reference)):
        draw = random.Random(index)
        for n in range(3000):
            sample = state.resample(1, draw)
            history = sample.history()
            counts[index][history[first][1]] += 1
            places[index][next(c for c in hidden if history[c][1] == rare)] += 1
            if n < 30:
                for seat in (0, 1, None):
                    assert sample.view(seat) == state.view(seat)
            if index == 0 and n < 30:
                assert sample._native.info_key(1) == key
                replayed = load_game("calcory", players=2).new_reference_state()
                for actor, act in history:
                    replayed.apply_action(act, actor)
                assert replayed.view(0) == sample.view(0)
                assert all(replayed.card[c] == v for c, v in sample._native.hidden_cards())
    assert len(counts[0]) > 3 and len(places[0]) > 3
    assert chi_square_same(counts[0], counts[1]) > 1e-3
    assert chi_square_same(places[0], places[1]) > 1e-3


def test_the_information_key_follows_the_view() -> None:
    """Keys differ where views differ (along a game), and a seat's key is its own."""
    compiled, _ = played_pair(3, 8, 0)
    rng = random.Random(8)
    keys = set()
    steps = 0
    while not compiled.is_terminal() and steps < 200:
        keys.add(compiled._native.info_key(0))
        assert compiled._native.info_key(0) != compiled._native.info_key(1)
        seat = compiled.current_players()[0]
        compiled.apply_action(rng.choice(compiled.legal_actions(seat)), seat)
        steps += 1
    assert len(keys) == steps


def heuristic_states(games: int, seed: int) -> Iterator[State]:
    """Decision states of games played at random, by the heuristic, or half and half, at every player count."""
    bot = CalcoryHeuristicBot()
    for index in range(games):
        game = load_game("calcory", players=PLAYERS[index % 3])
        state = game.new_initial_state()
        draw = random.Random(seed + index)
        share = (index // 3 % 3) / 2  # every mix at every player count
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, draw))
                continue
            seat = state.current_players()[0]
            yield state
            legal = state.legal_actions(seat)
            action = bot.choose(state.view(seat), legal, draw) if draw.random() < share else draw.choice(legal)
            state.apply_action(action, seat)


def test_the_heuristic_picks_the_references_move() -> None:
    """With its random choices made deterministic in both (the first candidate), the compiled heuristic picks
    the Python heuristic's move; with them random, it picks one the Python one could pick."""
    bot = CalcoryHeuristicBot()
    first = FirstChoice(0)
    checked = 0
    states = 100_000 if LONG else 10_000
    for state in heuristic_states(100_000, 40):
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        view = state.view(seat)
        expected = bot.choose(view, legal, first)
        assert state._native.heuristic_first(seat) == expected
        drawn = state._native.heuristic(seat, checked)
        assert drawn in legal
        checked += 1
        if checked >= states:
            break
    assert checked == states


def test_playouts_and_batches_play_whole_legal_games() -> None:
    compiled, _ = dealt_pair(4, 2)
    finals = compiled._native.playouts(200, [0.15], 7)
    assert finals.shape == (200, 4)
    assert (finals.sum(axis=1) <= rules.DECK_SIZE).all() and (finals.sum(axis=1) > 0).all()
    returns, lengths = simulate("calcory", players=4, n=300, policies="random", seed=3)
    assert returns.shape == (300, 4) and (lengths > 0).all()
    returns, lengths = simulate("calcory", players=2, n=100, policies=["heuristic", 0.5], seed=4)
    assert returns.shape == (100, 2) and (returns.max(axis=1) > 0).all()


def test_uniform_games_score_like_the_references() -> None:
    """Seat 0's mean cards over uniform random games, compiled and reference, agree within their noise."""
    returns, _ = simulate("calcory", players=3, n=4000, seed=11)
    compiled_mean = float(returns[:, 0].mean())
    game = load_game("calcory", players=3)
    rng = random.Random(4)
    points = []
    for _ in range(400):
        state = game.new_reference_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            seat = state.current_players()[0]
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
        points.append(state.returns()[0])
    mean = sum(points) / len(points)
    sd = math.sqrt(sum((p - mean) ** 2 for p in points) / (len(points) - 1))
    assert abs(compiled_mean - mean) < 4 * sd * math.sqrt(1 / 400 + 1 / 4000)


def test_the_compiled_search_runs_and_reports() -> None:
    compiled, _ = dealt_pair(2, 5)
    game = compiled.game
    for selection in ("puct", "halving"):
        bot = ISMCTSBot(game, iterations=300, selection=selection)
        action = bot.choose(compiled.view(0), compiled.legal_actions(0), random.Random(1), make_sampler(compiled, 0))
        assert action in compiled.legal_actions(0)
        assert 0 < bot.last.iterations <= 300 and sum(bot.last.visits.values()) == bot.last.iterations
        if selection == "puct":
            assert bot.last.iterations == 300 and bot.last.nodes > 1


@pytest.mark.fuzz
def test_the_compiled_search_plays_as_well_as_the_reference() -> None:
    """Calcory 2 at equal iterations: the compiled search wins half the games within its 99 % interval."""
    games, iterations = (400, 100) if LONG else (8, 8)
    score = arena_score(load_game("calcory", players=2), games, iterations)
    half_width = 2.58 * math.sqrt(0.25 / games)
    print(f"calcory 2, native vs python ISMCTS at {iterations} iterations: {score:.3f} over {games} games")
    assert abs(score - 0.5) <= half_width
