"""Cheese Rescue's compiled engine held to the Python reference (DECISIONS cheese-1..5): differential walks at every
player count (the game has no options), bad input, determinization, the heuristic, playouts and the search."""

from __future__ import annotations

import math
import os
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from ludotheque.bots.ismcts import ISMCTSBot
from ludotheque.core import CHANCE, State, sample_chance
from ludotheque.core.bot import make_sampler
from ludotheque.core.native import NativeState, native_state_class, use_engine
from ludotheque.games import load_game
from ludotheque.games.cheese import CheeseState, native, rules
from ludotheque.games.cheese.heuristics import CheeseHeuristicBot
from ludotheque.native import simulate

from . import differential
from .differential import arena_score, chi_square_same, replayed, same_node

pytestmark = pytest.mark.skipif(native.state_class() is None, reason="the native core is not built")

LONG = os.environ.get("LUDOTHEQUE_FUZZ") == "long"
PLAYERS = (2, 3, 4)


def pair(players: int) -> tuple[State, State]:
    return differential.pair("cheese", players)


def walk(players: int, seed: int, views_every: int = 1, events: bool = True) -> int:
    """One seeded random game on both engines in lockstep: every node compared (the views and the notation at every
    ``views_every``-th node and at the end), seeded chance draws, the notation read back, every action's events,
    and the history."""
    compiled, reference = pair(players)
    game = reference.game
    rng = random.Random(seed)
    steps = 0
    while not reference.is_terminal():
        views = steps % views_every == seed % views_every
        same_node(compiled, reference, views)
        if reference.is_chance_node():
            actor: Any = CHANCE
            probe = seed * 1000 + steps
            assert sample_chance(compiled, random.Random(probe)) == sample_chance(reference, random.Random(probe))
            action = sample_chance(reference, rng)
        else:
            actor = reference.current_players()[0]
            action = rng.choice(reference.legal_actions(actor))
        if views:
            text = reference.action_to_string(action, actor)
            assert compiled.string_to_action(text, actor) == action
        if events:
            before_c, before_r = compiled.clone(), reference.clone()
        compiled.apply_action(action, actor)
        reference.apply_action(action, actor)
        if events:
            assert game.describe(before_c, actor, action, compiled) == game.describe(before_r, actor, action, reference)
        steps += 1
    same_node(compiled, reference)
    assert compiled.history() == reference.history()
    return steps


@pytest.mark.parametrize("players", PLAYERS)
def test_random_games_agree_node_by_node(players: int) -> None:
    for seed in range(3):
        walk(players, seed=100 * players + seed)
    # records: a game played compiled writes the reference's record
    compiled, reference = pair(players)
    rng = random.Random(1)
    while not compiled.is_terminal():
        if compiled.is_chance_node():
            action = sample_chance(compiled, rng)
            compiled.apply_action(action)
            reference.apply_action(action)
            continue
        seat = compiled.current_players()[0]
        action = rng.choice(compiled.legal_actions(seat))
        compiled.apply_action(action, seat)
        reference.apply_action(action, seat)
    assert compiled.to_record() == reference.to_record()
    assert compiled.view(0) == reference.view(0)


@pytest.mark.fuzz
def test_many_random_games_agree() -> None:
    games = 100_000 if LONG else 500
    steps = 0
    for index in range(games):
        steps += walk(PLAYERS[index % 3], seed=10_000 + index, views_every=16, events=index % 8 == 0)
    print(f"cheese native differential: {games} games, {steps} actions agreed at every node")


def test_the_engine_setting_chooses_the_state() -> None:
    game = load_game("cheese", players=3)
    assert native_state_class(game) is native.NativeCheeseState
    use_engine("python")
    assert native_state_class(game) is None
    assert not isinstance(game.new_initial_state(), NativeState)


def play_to(compiled: State, reference: State, rng: random.Random, decisions: int) -> None:
    """Both states through the deal and ``decisions`` random placements, in lockstep (and the draw after)."""
    while decisions > 0 or compiled.is_chance_node():
        if compiled.is_chance_node():
            action = sample_chance(reference, rng)
            actor: Any = CHANCE
        else:
            actor = compiled.current_players()[0]
            action = rng.choice(compiled.legal_actions(actor))
            decisions -= 1
        compiled.apply_action(action, actor)
        reference.apply_action(action, actor)


def outcome(call: Any, *args: Any) -> tuple[str, str]:
    """What ``call(*args)`` gives: ``("ok", "")`` or the error's type and message."""
    try:
        call(*args)
    except Exception as error:
        return type(error).__name__, str(error)
    return "ok", ""


def test_bad_input_is_refused_with_the_references_errors_and_changes_nothing() -> None:
    compiled, reference = pair(2)
    size = 9 * 9

    def refused(cases: list[tuple[Any, Any]]) -> None:
        for action, player in cases:
            outcomes = [outcome(state.apply_action, action, player) for state in (compiled, reference)]
            assert outcomes[0] == outcomes[1] and outcomes[0][0] != "ok", (action, player, outcomes)
        same_node(compiled, reference)
        assert compiled.history() == reference.history()

    chance_tries: list[tuple[Any, Any]] = [(3, None), (-1, None), (0, 0), ("dog", None), (1.0, CHANCE), (True, None)]
    refused(chance_tries)
    rng = random.Random(3)
    play_to(compiled, reference, rng, 0)
    # seat 0 holds no animal it has not drawn, seat 1 does not move, cells off the frame, taken or not touching
    hand = reference.view(0)["table"]["hand"]
    missing = next(kind for kind in rules.ANIMALS if not hand[kind])
    tries: list[tuple[Any, Any]] = [
        (missing * size + 31, 0),  # a card seat 0 does not hold, on a legal cell
        (rules.CHEESE1 * size + 40, 0),  # the start card's cell
        (rules.CHEESE1 * size + 0, 0),  # a corner, touching nothing
        (rules.CHEESE1 * size + 31, 1),  # not seat 1's turn
        (rules.CHEESE1 * size + 31, 2),  # no seat 2
        (rules.CHEESE1 * size + 31, -2),
        (rules.CHEESE1 * size + 31, CHANCE),
        (rules.KINDS * size, 0),
        (-1, 0),
        ("3 e4", 0),
        (rules.CHEESE1 * size + 31.0, 0),
        (True, 0),
    ]
    refused(tries)
    play_to(compiled, reference, rng, 6)
    assert isinstance(reference, CheeseState)
    seat = reference.current_players()[0]
    held = next(kind for kind in range(rules.KINDS) if reference.hands[seat][kind])
    # taken, touching nothing, or (some of them) no longer fitting in the square with the other cards
    off = [c for c in range(size) if c not in reference.legal_cells()]
    refused([(held * size + c, seat) for c in off[::7]])
    for text in ("Z9", "3 z1", "cheese", "3 e5", "D a1", "dog", "4 e4", "", "1 e40", "M"):
        errors = [outcome(state.string_to_action, text, 0) for state in (compiled, reference)]
        assert errors[0] == errors[1], (text, errors)
    for text in ("dog", "cat", "D e4"):
        errors = [outcome(state.string_to_action, text, CHANCE) for state in (compiled, reference)]
        assert errors[0] == errors[1], (text, errors)
    for seat in (-1, 2, True, 1.5, "0"):
        raised = [outcome(state.view, seat) for state in (compiled, reference)]
        assert raised[0] == raised[1] and raised[0][0] != "ok", (seat, raised)
    for seat in (-1, 2):
        raised = [outcome(state.legal_actions, seat) for state in (compiled, reference)]
        assert raised[0] == raised[1], (seat, raised)
    with pytest.raises(ValueError):
        native._native.CheeseState(5)
    with pytest.raises(ValueError):
        native._native.CheeseState(1)
    with pytest.raises(ValueError):
        compiled._native.heuristic_best(1)  # not seat 1's turn
    same_node(compiled, reference)


def determinization_counts(state: State, seat: int, samples: int, seed: int, check: bool) -> Counter[Any]:
    """What the other seats hold in ``samples`` determinizations for ``seat``; with ``check``, that each keeps the
    seat's view and node key, the public table, and replays from its history."""
    players = state.game.players
    draw = random.Random(seed)
    counts: Counter[Any] = Counter()
    view = state.view(seat)
    public = state.view(None)
    key = state._native.info_key(seat) if isinstance(state, NativeState) else None
    for index in range(samples):
        sample = state.resample(seat, draw)
        if check:
            assert sample.view(seat) == view
            assert sample.view(None) == public
            assert sample._native.info_key(seat) == key
            if index < 10:  # the sample's history replays to the same state
                again = replayed(sample)
                assert all(again.view(s) == sample.view(s) for s in range(players))
                assert sample.history() == again.history()
        others = [sample.view(s)["table"]["hand"] for s in range(players) if s != seat]
        # the next other seat's animals, and the dogs the others hold (a coarse summary, so no category is thin)
        hands = (tuple(others[0][: len(rules.ANIMALS)]), min(2, sum(hand[rules.DOG] for hand in others[1:])))
        counts[hands] += 1
    return counts


@pytest.mark.parametrize(("players", "decisions"), [(2, 0), (2, 9), (3, 4), (4, 17)])
def test_determinizations_keep_the_view_and_draw_like_the_reference(players: int, decisions: int) -> None:
    """A resample for a seat keeps its view (and its node key) and deals the other hands as the reference's
    resampler does: a chi-square over the other seats' animals."""
    compiled, reference = pair(players)
    play_to(compiled, reference, random.Random(8 + decisions), decisions)
    seat = compiled.current_players()[0]
    native_counts = determinization_counts(compiled, seat, 2000, 0, check=True)
    reference_counts = determinization_counts(reference, seat, 2000, 1, check=False)
    assert len(native_counts) > 2
    assert chi_square_same(native_counts, reference_counts) > 1e-3


def test_node_keys_follow_what_a_seat_has_seen() -> None:
    """Equal views give equal keys (a determinization for the seat, whatever the other hands); another seat, or a
    different hand, gives another key."""
    compiled, reference = pair(4)
    play_to(compiled, reference, random.Random(2), 9)
    state = compiled._native
    assert len({state.info_key(seat) for seat in range(4)}) == 4
    for seed in range(40):
        twin = state.resample(1, seed)
        assert twin.info_key(1) == state.info_key(1)
        if twin.hands()[2] != state.hands()[2]:
            assert twin.info_key(2) != state.info_key(2)
            break
    else:
        raise AssertionError("no determinization changed seat 2's hand")


class Recording(random.Random):
    """The heuristic's random tie-break recorded and made deterministic: the first of the tied moves."""

    def choice(self, seq: Sequence[Any]) -> Any:
        self.tied = list(seq)
        return seq[0]


def heuristic_states(players: int, seed: int) -> Iterator[State]:
    """Every decision of a game played half at random, half by the heuristic."""
    game = load_game("cheese", players=players)
    bot = game.heuristic_bot()
    state = game.new_initial_state()
    draw = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, draw))
            continue
        seat = state.current_players()[0]
        yield state
        legal = state.legal_actions(seat)
        move = draw.choice(legal) if draw.random() < 0.5 else bot.choose(state.view(seat), legal, draw)
        state.apply_action(move, seat)


def test_the_heuristic_picks_the_references_move() -> None:
    """The compiled heuristic's tied best moves are the Python heuristic's (the list it draws from, in its order),
    on every decision of many games; a seeded compiled draw is one of them."""
    budget = 20_000 if LONG else 5_000
    bot = CheeseHeuristicBot()
    checked = ties = 0
    for index in range(10**6):
        players = PLAYERS[index % 3]
        for state in heuristic_states(players, seed=index):
            seat = state.current_players()[0]
            legal = state.legal_actions(seat)
            recording = Recording(0)
            expected = bot.choose(state.view(seat), legal, recording)
            best = state._native.heuristic_best(seat)
            assert best == recording.tied, (state.history(), seat)
            assert best[0] == expected
            assert state._native.heuristic(seat, checked) in best
            checked += 1
            ties += len(best) > 1
        if checked >= budget:
            break
    assert ties > 0
    print(f"cheese native heuristic: {checked} decisions agreed ({ties} with tied moves)")


def test_playouts_and_batches_play_whole_legal_games() -> None:
    compiled, _ = pair(4)
    finals = compiled._native.playouts(100, [0.15], 7)
    assert finals.shape == (100, 4)
    # cheese-1, cheese-5: each seat scores at most its 10 points of cheese
    assert (finals >= 0).all() and (finals <= 10).all() and (finals.sum(axis=1) > 0).all()
    mixed = compiled._native.playouts(50, [0.0, 1.0, 0.5, 0.15], 1)
    assert mixed.shape == (50, 4)
    for players in PLAYERS:
        returns, lengths = simulate("cheese", players=players, n=200, policies="random", seed=3)
        assert returns.shape == (200, players)
        assert (lengths == rules.PLACEMENTS * players).all()  # cheese-3: every seat places 12 cards
        again, _ = simulate("cheese", players=players, n=200, policies="random", seed=3)
        assert (again == returns).all()
    heuristic, _ = simulate("cheese", players=2, n=50, policies="heuristic", seed=1)
    assert heuristic.shape == (50, 2)


@pytest.mark.parametrize("players", [2, 4])
def test_uniform_playouts_score_like_the_references(players: int) -> None:
    """Seat 0's mean points over uniform random games, compiled and reference, agree within their noise."""
    returns, _ = simulate("cheese", players=players, n=4000, seed=11)
    compiled_mean = float(returns[:, 0].mean())
    game = load_game("cheese", players=players)
    rng = random.Random(4)
    points = []
    for _ in range(300):
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
    assert abs(compiled_mean - mean) < 4 * sd * math.sqrt(1 / 300 + 1 / 4000)


@pytest.mark.parametrize("selection", ["puct", "halving"])
def test_the_compiled_search_runs_and_reports(selection: str) -> None:
    game = load_game("cheese", players=3)
    compiled, reference = pair(3)
    rng = random.Random(1)
    play_to(compiled, reference, rng, 5)
    seat = compiled.current_players()[0]
    bot = ISMCTSBot(game, iterations=300, selection=selection)
    action = bot.choose(compiled.view(seat), compiled.legal_actions(seat), rng, make_sampler(compiled, seat))
    assert action in compiled.legal_actions(seat)
    assert bot.last.iterations == 300 and sum(bot.last.visits.values()) == 300
    if selection == "puct":
        assert bot.last.nodes > 1


@pytest.mark.fuzz
def test_the_compiled_search_plays_as_well_as_the_reference() -> None:
    """Cheese Rescue 2 at equal iterations: the compiled search wins half the games within its 99 % interval (a
    smoke share in make test; 200 games at 40 iterations in the long share)."""
    games, iterations = (200, 40) if LONG else (2, 4)
    score = arena_score(load_game("cheese", players=2), games, iterations)
    half_width = 2.58 * math.sqrt(0.25 / games)
    print(f"cheese 2, native vs python ISMCTS at {iterations} iterations: {score:.3f} over {games} games")
    assert abs(score - 0.5) <= half_width
