"""Safarü's compiled engine held to the Python reference (DECISIONS safaru-1..8, all-1): differential walks over
every player count and option (renversé, matches of several games or to a target, renversé's individual play at
4), determinization, the heuristic, playouts and the search."""

from __future__ import annotations

import math
import os
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from ludotheque.bots.ismcts import ISMCTSBot
from ludotheque.core import CHANCE, State, sample_chance
from ludotheque.core.bot import make_sampler
from ludotheque.core.native import NativeState, native_state_class, use_engine
from ludotheque.games import load_game
from ludotheque.games.safaru import native
from ludotheque.games.safaru import notation as nt
from ludotheque.native import simulate

from . import differential
from .differential import arena_score, chi_square_same, replayed, same_node

pytestmark = pytest.mark.skipif(native.state_class() is None, reason="the native core is not built")

LONG = os.environ.get("LUDOTHEQUE_FUZZ") == "long"
#: every player count with and without renversé (safaru-7), and the match options: several games, a target
#: (safaru-6, all-4) and renversé's individual play at 4 (safaru-2 / safaru-7)
CONFIGURATIONS: list[tuple[int, dict[str, Any]]] = [
    (players, options)
    for players in range(2, 5)
    for options in ({}, {"renverse": True}, {"games": 2}, {"renverse": True, "games": 2}, {"target": 25})
] + [(4, {"renverse": True, "individual": True}), (4, {"renverse": True, "individual": True, "target": 12})]


def pair(players: int, **options: Any) -> tuple[State, State]:
    return differential.pair("safaru", players, **options)


def walk(players: int, options: dict[str, Any], seed: int, views_every: int = 1, events: bool = True) -> int:
    return differential.walk(*pair(players, **options), seed, views_every, events)


@pytest.mark.parametrize(("players", "options"), CONFIGURATIONS)
def test_random_games_agree_node_by_node(players: int, options: dict[str, Any]) -> None:
    compiled, reference = pair(players, **options)
    walk(players, options, seed=players)
    # records: a game played compiled writes the reference's record
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
    games = 100_000 if LONG else 300
    for index in range(games):
        players, options = CONFIGURATIONS[index % len(CONFIGURATIONS)]
        walk(players, options, seed=10_000 + index, views_every=16, events=False)
    print(f"safaru native differential: {games} games agreed at every node")


def test_the_engine_setting_chooses_the_state() -> None:
    game = load_game("safaru", players=3)
    assert native_state_class(game) is native.NativeSafaruState
    use_engine("python")
    assert native_state_class(game) is None
    assert not isinstance(game.new_initial_state(), NativeState)


def deal_and_play(compiled: State, reference: State, rng: random.Random, decisions: int) -> None:
    """Both states through the deal and ``decisions`` random decisions, in lockstep."""
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


def test_bad_input_is_refused_with_the_references_errors_and_changes_nothing() -> None:
    compiled, reference = pair(3)
    chance_tries: list[tuple[Any, Any]] = [(60, None), (-1, None), (3, 0), ("B7", None), (1.0, CHANCE)]
    tries: list[tuple[Any, Any]] = [(nt.DONE, 0), (nt.CLOSE, 0), (0, 1), (0, 3), (0, -2), (0, CHANCE), (True, 0)]
    tries += [(nt.NUM_ACTIONS, 0), (-1, 0), ("0", 0), (0, 0.0), (nt.CHOOSE, 0), (nt.TAKE + 1, 0)]

    def refused(cases: list[tuple[Any, Any]]) -> None:
        for action, player in cases:
            outcomes = []
            for state in (compiled, reference):
                try:
                    state.apply_action(action, player)
                    outcomes.append(("ok", ""))
                except Exception as error:
                    outcomes.append((type(error).__name__, str(error)))
            assert outcomes[0] == outcomes[1] and outcomes[0][0] != "ok", (action, player)
        same_node(compiled, reference)
        assert compiled.history() == reference.history()

    rng = random.Random(3)
    for _ in range(6):  # into the deal
        action = sample_chance(reference, rng)
        compiled.apply_action(action)
        reference.apply_action(action)
    dealt_out = [k for k in range(50) if k not in dict(reference.chance_outcomes())]  # no copy left in the pile
    assert dealt_out
    refused(chance_tries + [(k, None) for k in dealt_out])
    deal_and_play(compiled, reference, rng, 0)
    refused(tries + [(k, 0) for k in range(50) if k not in reference.legal_actions(0)][:5])
    for text in ("Z9", "pick", "+", "B7 B7", "done"):  # notation: not a move, or not legal here
        errors = []
        for state in (compiled, reference):
            try:
                state.string_to_action(text, 0)
                errors.append(("ok", ""))
            except Exception as error:
                errors.append((type(error).__name__, str(error)))
        assert errors[0] == errors[1] and errors[0][0] != "ok", text
    for seat in (-1, 3, True, 1.5):
        raised = []
        for state in (compiled, reference):
            with pytest.raises(Exception) as error:
                state.view(seat)
            raised.append((error.type, str(error.value)))
        assert raised[0] == raised[1]
    # the compiled view reads the game's log replayed up to the state: a log of other actions is refused
    actions = [action for _, action in compiled.history()]
    short = native._native.SafaruGameLog(compiled._native)
    short.advance(actions[:-1])
    with pytest.raises(ValueError):
        compiled._native.table_view(0, short)
    with pytest.raises(ValueError):
        short.advance([nt.DONE])  # not legal where the log stands: nothing replayed
    assert short.position() == len(actions) - 1
    elsewhere = native._native.SafaruGameLog(compiled._native)
    elsewhere.advance([*actions[:-1], next(k for k in range(50) if elsewhere_legal(actions, k))])
    with pytest.raises(ValueError):
        compiled._native.table_view(0, elsewhere)
    with pytest.raises(ValueError):
        native._native.SafaruState(3, False, 0, 1, True)  # partners at 3
    with pytest.raises(ValueError):
        native._native.SafaruState(5, False, 0, 1, False)
    same_node(compiled, reference)


def elsewhere_legal(actions: list[int], kind: int) -> bool:
    """Whether playing or dealing ``kind`` instead of the last of ``actions`` is legal (a different history)."""
    if kind == actions[-1]:
        return False
    probe = native._native.SafaruGameLog(native._native.SafaruState(3, False, 0, 1, False))
    probe.advance(actions[:-1])
    try:
        probe.advance([kind])
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("decisions", [0, 5, 12])
def test_determinizations_keep_the_view_and_draw_like_the_reference(decisions: int) -> None:
    """A resample for seat 0 keeps its view (and its node key) and deals the other hands as the reference's
    resampler does: a chi-square over where one card seat 0 cannot see lands and what seat 1 holds."""
    compiled, reference = pair(3)
    rng = random.Random(8)
    deal_and_play(compiled, reference, rng, decisions)
    hand = Counter(reference.view(0)["table"]["hand"])
    seen = set(reference.view(None)["table"]["table"]) | set(hand)
    watched = next(name for name in ("B7", "R1", "G9", "Y7", "K0", "B3") if name not in seen)
    key = compiled._native.info_key(0)
    counts: list[Counter[Any]] = [Counter(), Counter()]
    for index, state in enumerate((compiled, reference)):
        draw = random.Random(index)
        for sample_index in range(2500):
            sample = state.resample(0, draw)
            assert sample.view(0) == state.view(0)
            table = sample.view(None)["table"]
            hands = [Counter(sample.view(seat)["table"]["hand"]) for seat in (1, 2)]
            blues = sum(c for name, c in hands[0].items() if name[0] == "B")
            counts[index][(hands[0][watched], hands[1][watched], min(blues, 2))] += 1
            if index == 0:
                assert sample._native.info_key(0) == key
                assert table == state.view(None)["table"]
                if sample_index < 15:  # the compiled sample's history replays to the same state
                    again = replayed(sample)
                    assert all(again.view(seat) == sample.view(seat) for seat in range(3))
    assert len(counts[0]) > 2
    assert chi_square_same(counts[0], counts[1]) > 1e-3


def test_node_keys_follow_what_a_seat_has_seen() -> None:
    """Equal views give equal keys (a determinization for the seat, whatever the other hands); another seat, or
    a different hand, gives another key."""
    compiled, reference = pair(4, renverse=True)
    deal_and_play(compiled, reference, random.Random(2), 3)
    state = compiled._native
    keys = {state.info_key(seat) for seat in range(4)}
    assert len(keys) == 4
    for seed in range(40):
        twin = state.resample(1, seed)
        assert twin.info_key(1) == state.info_key(1)
        if Counter(compiled.resample(1, random.Random(seed)).view(2)["table"]["hand"]) != Counter(
            compiled.view(2)["table"]["hand"]
        ):
            break
    else:
        raise AssertionError("no determinization changed seat 2's hand")
    other = compiled.resample(1, random.Random(seed))
    assert other._native.info_key(2) != state.info_key(2)


def heuristic_states(players: int, options: dict[str, Any], seed: int) -> Iterator[State]:
    """Every decision of a game played half at random, half by the heuristic (the walk's own choice)."""
    game = load_game("safaru", players=players, **options)
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
    budget = 10_000 if LONG else 2_500
    checked = 0
    configurations = [(p, o) for p, o in CONFIGURATIONS if "games" not in o and "target" not in o]
    for index in range(10**6):
        players, options = configurations[index % len(configurations)]
        bot = load_game("safaru", players=players, **options).heuristic_bot()
        for state in heuristic_states(players, options, seed=index):
            seat = state.current_players()[0]
            legal = state.legal_actions(seat)
            expected = bot.choose(state.view(seat), legal, random.Random(0))
            assert state._native.heuristic(seat, 0) == expected, (state.history(), seat)
            checked += 1
        if checked >= budget:
            break
    print(f"safaru native heuristic: {checked} states agreed")


def test_playouts_and_batches_play_whole_legal_games() -> None:
    compiled, _ = pair(4)
    finals = compiled._native.playouts(100, [0.15], 7)
    assert finals.shape == (100, 4)
    # partners pool their cards (safaru-2, safaru-6): opposite seats score alike
    assert (finals[:, 0] == finals[:, 2]).all() and (finals[:, 1] == finals[:, 3]).all()
    mixed = compiled._native.playouts(50, [0.0, 1.0, 0.5, 0.15], 1)
    assert mixed.shape == (50, 4)
    returns, lengths = simulate("safaru", players=3, n=200, policies="random", seed=3, renverse=True)
    assert returns.shape == (200, 3) and (lengths > 30).all()
    # renversé: most cards +24, most hedgehogs +18 and a point a triangle, so every game hands out at least 42
    assert (returns.sum(axis=1) >= 42).all()
    again, _ = simulate("safaru", players=3, n=200, policies="random", seed=3, renverse=True)
    assert (again == returns).all()
    matches, _ = simulate("safaru", players=2, n=20, policies="heuristic", seed=1, games=3)
    assert matches.shape == (20, 2)


def test_uniform_playouts_score_like_the_references() -> None:
    """Seat 0's mean points over uniform random games, compiled and reference, agree within their noise."""
    returns, _ = simulate("safaru", players=2, n=4000, seed=11)
    compiled_mean = float(returns[:, 0].mean())
    game = load_game("safaru", players=2)
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


def test_the_compiled_search_runs_and_reports() -> None:
    for options in ({}, {"renverse": True}):
        game = load_game("safaru", players=2, **options)
        compiled, _ = pair(2, **options)
        rng = random.Random(1)
        while compiled.is_chance_node() or len(compiled.legal_actions(compiled.current_players()[0])) < 2:
            if compiled.is_chance_node():
                compiled.apply_action(sample_chance(compiled, rng))
            else:
                seat = compiled.current_players()[0]
                compiled.apply_action(compiled.legal_actions(seat)[0], seat)
        seat = compiled.current_players()[0]
        bot = ISMCTSBot(game, iterations=300)
        action = bot.choose(compiled.view(seat), compiled.legal_actions(seat), rng, make_sampler(compiled, seat))
        assert action in compiled.legal_actions(seat)
        assert bot.last.iterations == 300 and sum(bot.last.visits.values()) == 300 and bot.last.nodes > 1


@pytest.mark.fuzz
def test_the_compiled_search_plays_as_well_as_the_reference() -> None:
    """Safarü 2 at equal iterations: the compiled search wins half the games within its 99 % interval (a smoke
    share in make test; 200 games at 40 iterations in the long share)."""
    games, iterations = (200, 40) if LONG else (2, 4)
    score = arena_score(load_game("safaru", players=2), games, iterations)
    half_width = 2.58 * math.sqrt(0.25 / games)
    print(f"safaru 2, native vs python ISMCTS at {iterations} iterations: {score:.3f} over {games} games")
    assert abs(score - 0.5) <= half_width
