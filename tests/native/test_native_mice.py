"""MICE's compiled engine held to the Python reference (DECISIONS mice-1..8): differential walks over every player
count and the solo game at every level, determinization (an exact copy: nothing is hidden), the heuristic,
playouts and the search."""

from __future__ import annotations

import math
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

from ludotheque.bots.ismcts import ISMCTSBot
from ludotheque.core import CHANCE, Game, State, sample_chance
from ludotheque.core.bot import make_sampler
from ludotheque.core.native import NativeState, native_state_class, use_engine
from ludotheque.games import load_game
from ludotheque.games.mice import native
from ludotheque.games.mice import notation as nt
from ludotheque.native import simulate

from . import differential
from .differential import arena_score, same_node

pytestmark = pytest.mark.skipif(native.state_class() is None, reason="the native core is not built")

LONG = os.environ.get("LUDOTHEQUE_FUZZ") == "long"
#: the solo game at every level (mice-8) and every multiplayer table (mice-3..7)
CONFIGURATIONS: list[tuple[int, dict[str, Any]]] = [
    (1, {"level": level}) for level in ("normal", "advanced", "hardest")
] + [(players, {}) for players in range(2, 6)]


def pair(players: int, **options: Any) -> tuple[State, State]:
    return differential.pair("mice", players, **options)


def walk(players: int, options: dict[str, Any], seed: int, views_every: int = 1, events: bool = True) -> int:
    return differential.walk(*pair(players, **options), seed, views_every, events)


def guided_walk(players: int, options: dict[str, Any], seed: int, share: float, views_every: int = 1) -> int:
    """``differential.walk`` with the heuristic choosing (from the reference's view) all but a ``share`` of random
    moves: uniform play never drains the supply, the heuristic does, so a passive seat then pays from its own
    reserve (mice-6); every node and every action's events compared."""
    compiled, reference = pair(players, **options)
    game = reference.game
    bot = game.heuristic_bot()
    rng = random.Random(seed)
    steps = 0
    while not reference.is_terminal():
        same_node(compiled, reference, views=steps % views_every == 0)
        if reference.is_chance_node():
            actor: Any = CHANCE
            action = sample_chance(reference, rng)
        else:
            actor = reference.current_players()[0]
            legal = reference.legal_actions(actor)
            action = rng.choice(legal) if rng.random() < share else bot.choose(reference.view(actor), legal, rng)
        before_c, before_r = compiled.clone(), reference.clone()
        compiled.apply_action(action, actor)
        reference.apply_action(action, actor)
        assert game.describe(before_c, actor, action, compiled) == game.describe(before_r, actor, action, reference)
        steps += 1
    same_node(compiled, reference)
    assert compiled.history() == reference.history()
    assert compiled.to_record() == reference.to_record()
    return steps


def lockstep(compiled: State, reference: State, rng: random.Random, decisions: int) -> None:
    """Both states through ``decisions`` random decisions (and the rolls between), in lockstep."""
    while not reference.is_terminal() and (decisions > 0 or reference.is_chance_node()):
        if reference.is_chance_node():
            actor: Any = CHANCE
            action = sample_chance(reference, rng)
        else:
            actor = reference.current_players()[0]
            action = rng.choice(reference.legal_actions(actor))
            decisions -= 1
        compiled.apply_action(action, actor)
        reference.apply_action(action, actor)


@pytest.mark.parametrize(("players", "options"), CONFIGURATIONS)
def test_random_games_agree_node_by_node(players: int, options: dict[str, Any]) -> None:
    for seed in range(40 if players == 1 else 6):  # solo games are short: more of them
        walk(players, options, seed=seed, views_every=1 if seed < 2 else 3)
    for seed in range(10 if players == 1 else 3):
        guided_walk(players, options, seed=seed, share=0.2, views_every=1 if seed == 0 else 3)
    # records: a game played compiled writes the reference's record
    compiled, reference = pair(players, **options)
    lockstep(compiled, reference, random.Random(7), 10**6)
    assert compiled.is_terminal()
    assert compiled.to_record() == reference.to_record()
    assert compiled.view(0) == reference.view(0)


@pytest.mark.fuzz
def test_many_random_games_agree() -> None:
    games = 100_000 if LONG else 300
    for index in range(games):
        players, options = CONFIGURATIONS[index % len(CONFIGURATIONS)]
        if index % 4 == 3:  # a share of the games played mostly by the heuristic
            guided_walk(players, options, seed=10_000 + index, share=0.2, views_every=16)
        else:
            walk(players, options, seed=10_000 + index, views_every=16, events=False)
    print(f"mice native differential: {games} games agreed at every node")


def test_the_engine_setting_chooses_the_state() -> None:
    game = load_game("mice", players=3)
    assert native_state_class(game) is native.NativeMiceState
    use_engine("python")
    assert native_state_class(game) is None
    assert not isinstance(game.new_initial_state(), NativeState)


def outcome(call: Any, *args: Any) -> tuple[str, str]:
    """What ``call(*args)`` gives: ``("ok", "")``, or the error's type and text."""
    try:
        call(*args)
        return ("ok", "")
    except Exception as error:
        return (type(error).__name__, str(error))


@pytest.mark.parametrize("players", [1, 3])
def test_bad_input_is_refused_with_the_references_errors_and_changes_nothing(players: int) -> None:
    compiled, reference = pair(players)
    states = (compiled, reference)

    def refused(cases: list[tuple[Any, Any]]) -> None:
        for action, player in cases:
            outcomes = [outcome(state.apply_action, action, player) for state in states]
            assert outcomes[0] == outcomes[1] and outcomes[0][0] != "ok", (action, player)
        same_node(compiled, reference)
        assert compiled.history() == reference.history()

    refused([(6, None), (-1, None), (2, 0), ("3", None), (1.0, CHANCE), (True, None), (0, players)])
    rng = random.Random(5)
    for _ in range(40):  # to a decision with some choice
        lockstep(compiled, reference, rng, 1)
        if reference.is_terminal():
            break
        seat = reference.current_players()[0]
        if len(reference.legal_actions(seat)) > 1:
            break
    seat = reference.current_players()[0]
    illegal = [a for a in range(nt.NUM_ACTIONS) if a not in reference.legal_actions(seat)][:6]
    tries: list[tuple[Any, Any]] = [(a, seat) for a in illegal]
    tries += [(nt.NUM_ACTIONS, seat), (-1, seat), ("0", seat), (0, float(seat)), (0, CHANCE), (0, -2)]
    tries += [(reference.legal_actions(seat)[0], (seat + 1) % players or players)]
    refused(tries)
    for text in ("Z9", "cage 40", "R1+2", "use R+Y2+Y1", "take back 3", "flip 7", "R4", "unflip 6", ""):
        errors = [outcome(state.string_to_action, text, seat) for state in states]
        assert errors[0] == errors[1], text
    for text in ("R4", "Y2", "cage 3", "q"):
        errors = [outcome(state.string_to_action, text, CHANCE) for state in states]
        assert errors[0] == errors[1], text
    for bad_seat in (-1, players, True, 1.5):
        raised = [outcome(state.view, bad_seat) for state in states]
        assert raised[0] == raised[1] and raised[0][0] != "ok"
    with pytest.raises(ValueError):
        native._native.MiceState(2, "hardest")  # the level is for the solo game
    with pytest.raises(ValueError):
        native._native.MiceState(6, "normal")
    same_node(compiled, reference)


def test_notation_reads_like_the_references() -> None:
    """Every legal move's text (and its variants) reads back to the same action on both engines."""
    for players, options in CONFIGURATIONS:
        compiled, reference = pair(players, **options)
        rng = random.Random(players)
        while not reference.is_terminal():
            if reference.is_chance_node():
                for action in range(6):
                    text = reference.action_to_string(action, CHANCE)
                    assert compiled.string_to_action(text.lower(), CHANCE) == action
            else:
                seat = reference.current_players()[0]
                for action in reference.legal_actions(seat):
                    text = reference.action_to_string(action, seat)
                    for variant in (text, text.upper().replace(" ", "")):
                        expected = outcome(reference.string_to_action, variant, seat)
                        assert outcome(compiled.string_to_action, variant, seat) == expected
                        assert compiled.string_to_action(text, seat) == action
            lockstep(compiled, reference, rng, 1)


def test_a_determinization_is_the_state_itself() -> None:
    """Nothing is hidden (mice-1): a resample keeps every seat's view, the history and the node key, and draws no
    random number, as the reference's does."""
    for players, options in ((1, {"level": "advanced"}), (4, {})):
        compiled, reference = pair(players, **options)
        rng = random.Random(3)
        checked = 0
        while not reference.is_terminal():
            if not reference.is_chance_node():
                for seat in range(players):
                    draws = [random.Random(seat), random.Random(seat)]
                    ours, theirs = compiled.resample(seat, draws[0]), reference.resample(seat, draws[1])
                    assert draws[0].random() == draws[1].random()
                    assert ours.history() == theirs.history() == reference.history()
                    assert [ours.view(s) for s in range(players)] == [theirs.view(s) for s in range(players)]
                    assert ours._native.info_key(seat) == compiled._native.info_key(seat)  # type: ignore[attr-defined]
                    assert compiled._native.resample(seat, checked).info_key(seat) == ours._native.info_key(seat)  # type: ignore[attr-defined]
                    checked += 1
            lockstep(compiled, reference, rng, 1)
        assert checked > 5
        with pytest.raises(Exception) as ours_error:
            compiled.resample(players, random.Random(0))
        with pytest.raises(Exception) as theirs_error:
            reference.resample(players, random.Random(0))
        assert (ours_error.type, str(ours_error.value)) == (theirs_error.type, str(theirs_error.value))


def test_node_keys_follow_the_state_and_the_seat() -> None:
    compiled, reference = pair(3)
    lockstep(compiled, reference, random.Random(2), 3)
    state = compiled._native  # type: ignore[attr-defined]
    assert len({state.info_key(seat) for seat in range(3)}) == 3
    before = state.info_key(0)
    lockstep(compiled, reference, random.Random(2), 1)
    assert compiled._native.info_key(0) != before  # type: ignore[attr-defined]


def heuristic_states(game: Game, seed: int) -> Iterator[State]:
    """Every decision of a game played half at random, half by the heuristic."""
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
    budget = 100_000 if LONG else 20_000
    checked = 0
    for index in range(10**6):
        players, options = CONFIGURATIONS[index % len(CONFIGURATIONS)]
        game = load_game("mice", players=players, **options)
        bot = game.heuristic_bot()
        for state in heuristic_states(game, seed=index):
            seat = state.current_players()[0]
            legal = state.legal_actions(seat)
            expected = bot.choose(state.view(seat), legal, random.Random(0))
            assert state._native.heuristic(seat, 0) == expected, (state.history(), seat)  # type: ignore[attr-defined]
            checked += 1
        if checked >= budget:
            break
    print(f"mice native heuristic: {checked} states agreed")


def test_playouts_and_batches_play_whole_legal_games() -> None:
    compiled, _ = pair(4)
    finals = compiled._native.playouts(100, [0.15], 7)  # type: ignore[attr-defined]
    assert finals.shape == (100, 4)
    assert ((finals >= 0) & (finals <= 171)).all()  # hand totals (mice-7)
    mixed = compiled._native.playouts(50, [0.0, 1.0, 0.5, 0.15], 1)  # type: ignore[attr-defined]
    assert mixed.shape == (50, 4)
    returns, lengths = simulate("mice", players=3, n=200, policies="random", seed=3)
    assert returns.shape == (200, 3) and (lengths > 0).all()
    again, _ = simulate("mice", players=3, n=200, policies="random", seed=3)
    assert (again == returns).all()
    for level in ("normal", "advanced", "hardest"):
        solo, _ = simulate("mice", players=1, n=200, policies="heuristic", seed=1, level=level)
        assert solo.shape == (200, 1) and ((solo >= 0) & (solo <= 6)).all()


def reference_means(game: Game, games: int, seed: int) -> tuple[float, float]:
    """Seat 0's mean return over uniform random games on the reference, and its standard deviation."""
    rng = random.Random(seed)
    points = []
    for _ in range(games):
        state = game.new_reference_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            seat = state.current_players()[0]
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
        points.append(state.returns()[0])
    mean = sum(points) / len(points)
    return mean, math.sqrt(sum((p - mean) ** 2 for p in points) / (len(points) - 1))


@pytest.mark.parametrize(("players", "options"), [(1, {"level": "normal"}), (3, {})])
def test_uniform_playouts_score_like_the_references(players: int, options: dict[str, Any]) -> None:
    """Seat 0's mean return over uniform random games, compiled and reference, agree within their noise."""
    returns, _ = simulate("mice", players=players, n=4000, seed=11, **options)
    compiled_mean = float(returns[:, 0].mean())
    mean, sd = reference_means(load_game("mice", players=players, **options), 400, 4)
    assert abs(compiled_mean - mean) < 4 * sd * math.sqrt(1 / 400 + 1 / 4000)


@pytest.mark.parametrize("players", [1, 2])
def test_the_compiled_search_runs_and_reports(players: int) -> None:
    game = load_game("mice", players=players)
    compiled, _ = pair(players)
    rng = random.Random(1)
    while compiled.is_chance_node() or len(compiled.legal_actions(compiled.current_players()[0])) < 2:
        if compiled.is_chance_node():
            compiled.apply_action(sample_chance(compiled, rng))
        else:
            seat = compiled.current_players()[0]
            compiled.apply_action(compiled.legal_actions(seat)[0], seat)
    seat = compiled.current_players()[0]
    for halving in (False, True):
        bot = ISMCTSBot(game, iterations=300, selection="halving" if halving else "puct")
        action = bot.choose(compiled.view(seat), compiled.legal_actions(seat), rng, make_sampler(compiled, seat))
        assert action in compiled.legal_actions(seat)
        assert bot.last.iterations == 300 and sum(bot.last.visits.values()) == 300
        assert halving or bot.last.nodes > 1


def solo_mean(game: Game, games: int, iterations: int, native_search: bool) -> tuple[float, float]:
    """The solo game's mean rank (mice-8) with the compiled or the Python search, and its standard deviation."""
    bot = ISMCTSBot(game, iterations=iterations, native=native_search)
    ranks = []
    for index in range(games):
        rng = random.Random(index)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            action = bot.choose(state.view(0), state.legal_actions(0), rng, make_sampler(state, 0))
            state.apply_action(action, 0)
        ranks.append(state.returns()[0])
    mean = sum(ranks) / len(ranks)
    return mean, math.sqrt(sum((r - mean) ** 2 for r in ranks) / max(1, len(ranks) - 1))


@pytest.mark.fuzz
def test_the_compiled_search_plays_as_well_as_the_reference() -> None:
    """MICE 2 at equal iterations: the compiled search wins half the games within its 99 % interval (a smoke share
    in make test; 200 games at 20 iterations in the long share)."""
    games, iterations = (200, 20) if LONG else (2, 4)
    score = arena_score(load_game("mice", players=2), games, iterations)
    half_width = 2.58 * math.sqrt(0.25 / games)
    print(f"mice 2, native vs python ISMCTS at {iterations} iterations: {score:.3f} over {games} games")
    assert abs(score - 0.5) <= half_width


@pytest.mark.fuzz
def test_the_compiled_solo_search_scores_like_the_reference() -> None:
    """The solo game (one seat: no one to beat) at equal iterations: the mean ranks of the compiled and the Python
    search agree within the 99 % interval of their difference."""
    games, iterations = (150, 20) if LONG else (2, 4)
    game = load_game("mice", players=1)
    ours, our_sd = solo_mean(game, games, iterations, True)
    theirs, their_sd = solo_mean(game, games, iterations, False)
    print(f"mice solo, native vs python ISMCTS at {iterations} iterations: {ours:.3f} vs {theirs:.3f} over {games}")
    if games > 2:
        assert abs(ours - theirs) <= 2.58 * math.sqrt((our_sd**2 + their_sd**2) / games)
