"""Rummü's compiled engine held to the Python reference (DECISIONS rummu-1..11, all-1..4): differential walks over
every player count and option (partnerships at 4 and 6, a target, a cap on hands), determinization across
reshuffles, the heuristic, playouts and the search."""

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
from ludotheque.games.rummu import native
from ludotheque.games.rummu import notation as nt
from ludotheque.games.rummu.game import RummuState
from ludotheque.native import simulate

from . import differential
from .differential import arena_score, chi_square_same, replayed, same_node

pytestmark = pytest.mark.skipif(native.state_class() is None, reason="the native core is not built")

LONG = os.environ.get("LUDOTHEQUE_FUZZ") == "long"
#: every player count, partnerships at 4 and 6 (rummu-2/9), a target within reach of random play (rummu-10) and the
#: cap on hands (all-4) that makes random matches end
CONFIGURATIONS: list[tuple[int, dict[str, Any]]] = [
    *((players, {"hands": 1}) for players in range(3, 7)),
    *((players, {"hands": 2}) for players in range(3, 7)),
    (4, {"partnerships": True, "hands": 2}),
    (6, {"partnerships": True, "hands": 2}),
    (3, {"target": 10, "hands": 3}),
    (6, {"partnerships": True, "target": 15, "hands": 3}),
]


class FirstChoice(random.Random):
    """The heuristic's random choice made deterministic: the first candidate (the compiled ``heuristic_first``)."""

    def choice(self, seq: Sequence[Any]) -> Any:
        return seq[0]


def pair(players: int, **options: Any) -> tuple[State, State]:
    return differential.pair("rummu", players, **options)


def walk(players: int, options: dict[str, Any], seed: int, views_every: int = 1, events: bool = True) -> int:
    return differential.walk(*pair(players, **options), seed, views_every, events)


@pytest.mark.parametrize(("players", "options"), CONFIGURATIONS)
def test_random_games_agree_node_by_node(players: int, options: dict[str, Any]) -> None:
    compiled, reference = pair(players, **options)
    walk(players, options, seed=players, views_every=3)
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
    assert compiled.deals_completed() == reference.deals_completed()
    assert compiled.view(0) == reference.view(0)


@pytest.mark.fuzz
def test_many_random_games_agree() -> None:
    games = 100_000 if LONG else 30
    for index in range(games):
        players, options = CONFIGURATIONS[index % len(CONFIGURATIONS)]
        walk(players, options, seed=10_000 + index, views_every=64, events=False)
    print(f"rummu native differential: {games} games agreed at every node")


def test_the_engine_setting_chooses_the_state() -> None:
    game = load_game("rummu", players=3)
    assert native_state_class(game) is native.NativeRummuState
    use_engine("python")
    assert native_state_class(game) is None
    assert not isinstance(game.new_initial_state(), NativeState)


def play(compiled: State, reference: State, rng: random.Random, decisions: int) -> None:
    """Both states through chance and ``decisions`` random decisions, in lockstep."""
    while (decisions > 0 or compiled.is_chance_node()) and not compiled.is_terminal():
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
    compiled, reference = pair(3, hands=1)

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
    for _ in range(20):  # into the deal
        action = sample_chance(reference, rng)
        compiled.apply_action(action)
        reference.apply_action(action)
    dealt_out = [t for t in range(50) if t not in dict(reference.chance_outcomes())]  # no copy left in the pile
    assert dealt_out
    refused(
        [(50, None), (-1, None), (3, 0), ("R5", None), (1.0, CHANCE), (nt.DRAW, 1), *((t, None) for t in dealt_out)]
    )
    play(compiled, reference, rng, 0)
    seat = compiled.current_players()[0]
    other = (seat + 1) % 3
    tries: list[tuple[Any, Any]] = [(nt.DRAW, other), (nt.CLOSE, seat), (nt.CANCEL, seat), (nt.DISCARD, seat)]
    tries += [(nt.NUM_ACTIONS, seat), (-1, seat), ("draw", seat), (0, 0.0), (True, seat), (0, 3), (0, -2), (0, CHANCE)]
    tries += [(nt.TAKE + 1, seat), (nt.PUT, seat), (nt.SWAP + 5, seat)]
    refused(tries)
    play(compiled, reference, rng, 1)  # drawn: the play phase
    while compiled.current_players() and nt.DRAW in compiled.legal_actions(compiled.current_players()[0]):
        play(compiled, reference, rng, 1)
    seat = compiled.current_players()[0]
    held = {a - nt.DISCARD for a in reference.legal_actions(seat) if nt.DISCARD <= a < nt.PUT}
    absent = [t for t in range(50) if t not in held][:4]
    refused([(nt.DISCARD + t, seat) for t in absent] + [(nt.START + t, seat) for t in absent] + [(nt.ADD, seat)])
    for text in ("Z9", "draw", "take 1", "discard R5 R6", "put R5 21", "swap R5", "close", "", "start Q1"):
        errors = []
        for state in (compiled, reference):
            try:
                state.string_to_action(text, seat)
                errors.append(("ok", ""))
            except Exception as error:
                errors.append((type(error).__name__, str(error)))
        assert errors[0] == errors[1], text
    for seat_given in (-1, 3, True, 1.5):
        raised = []
        for state in (compiled, reference):
            with pytest.raises(Exception) as error:
                state.view(seat_given)
            raised.append((error.type, str(error.value)))
        assert raised[0] == raised[1]
    # the compiled view reads the match's log replayed up to the state: a log of other actions is refused
    actions = [action for _, action in compiled.history()]
    short = native._native.RummuGameLog(compiled._native)
    short.advance(actions[:-1])
    with pytest.raises(ValueError):
        compiled._native.table_view(0, short, 1)
    with pytest.raises(ValueError):
        short.advance([nt.NUM_ACTIONS])  # not legal where the log stands: nothing replayed
    assert short.position() == len(actions) - 1
    with pytest.raises(ValueError):
        native._native.RummuState(3, True, 0, 0)  # partnerships at 3 (rummu-2)
    with pytest.raises(ValueError):
        native._native.RummuState(7, False, 0, 0)
    with pytest.raises(ValueError):
        native._native.RummuState(2, False, 0, 0)
    same_node(compiled, reference)


def reshuffled(players: int, seed: int) -> tuple[State, RummuState]:
    """A hand played at random in lockstep until, after a reshuffle (rummu-3), the other seats hold unseen cards of
    both pile generations: a determinization redeals each generation's cards among themselves."""

    def mixed(reference: RummuState) -> bool:
        """Both other seats hold unseen cards of an earlier generation, and the current one's cards unseen by seat 0
        (the pile's and another seat's) are three or more."""
        unseen = [event for event in reference.hidden if event[1] != 0 and not event[4]]
        earlier = {event[1] for event in unseen if event[3] < reference.epoch}
        current = [event for event in unseen if event[3] == reference.epoch]
        return earlier == {1, 2} and bool(current) and len(current) + reference.pile_size >= 3

    for attempt in range(200):
        compiled, reference = pair(players, hands=1)
        assert isinstance(reference, RummuState)
        rng = random.Random(seed * 1000 + attempt)
        while not reference.is_terminal() and not mixed(reference):
            play(compiled, reference, rng, 1)
        if not reference.is_terminal():
            return compiled, reference
    raise AssertionError("no such hand in 200")


def state_after(players: int, decisions: int, seed: int) -> tuple[State, RummuState]:
    compiled, reference = pair(players, hands=1)
    assert isinstance(reference, RummuState)
    play(compiled, reference, random.Random(seed), decisions)
    return compiled, reference


@pytest.mark.parametrize("where", ["deal", "early", "reshuffled"])
def test_determinizations_keep_the_view_and_draw_like_the_reference(where: str) -> None:
    """A resample for seat 0 keeps its view (and its node key), its history replays to it, and it deals the cards
    seat 0 cannot see as the reference's resampler does: a chi-square over a signature of what seats 1 and 2 hold
    and of the pile (the card types summed modulo 4, 4 and 3)."""
    if where == "reshuffled":
        compiled, reference = reshuffled(3, 1)
    else:
        compiled, reference = state_after(3, 0 if where == "deal" else 14, 4)
    assert isinstance(compiled, NativeState)

    def signature(hands: Sequence[Sequence[int]], pile: Sequence[int]) -> tuple[int, int, int]:
        def total(counts: Sequence[int]) -> int:
            return sum(t * c for t, c in enumerate(counts))

        return total(hands[0]) % 4, total(hands[1]) % 4, total(pile) % 3

    key = compiled._native.info_key(0)
    for index in range(12):  # whole determinizations: the view kept, the history replaying to them
        sample = compiled.resample(0, random.Random(index))
        assert sample.view(0) == compiled.view(0)
        assert sample.view(None) == compiled.view(None)
        assert sample._native.info_key(0) == key
        again = replayed(sample)
        same_node(sample, again)
        for seat in range(3):
            assert sample._native.hand_counts(seat) == again.hands[seat]  # type: ignore[attr-defined]
        assert sample._native.pile_counts() == again.pile  # type: ignore[attr-defined]
    counts: list[Counter[Any]] = [Counter(), Counter()]
    for index in range(3000):
        twin = compiled._native.resample(0, index)
        counts[0][signature([twin.hand_counts(1), twin.hand_counts(2)], twin.pile_counts())] += 1
    draw = random.Random(5)
    for _ in range(3000):
        sample = reference.resample(0, draw)
        counts[1][signature(sample.hands[1:], sample.pile)] += 1
    assert len(counts[0]) > 2
    assert chi_square_same(counts[0], counts[1]) > 1e-3


def test_node_keys_follow_what_a_seat_has_seen() -> None:
    """A determinization for a seat keeps its key; another seat, or another hand, gives another key."""
    compiled, _ = state_after(4, 6, 2)
    state = compiled._native
    assert len({state.info_key(seat) for seat in range(4)}) == 4
    for seed in range(40):
        twin = state.resample(1, seed)
        assert twin.info_key(1) == state.info_key(1)
        if twin.hand_counts(2) != state.hand_counts(2):
            assert twin.info_key(2) != state.info_key(2)
            break
    else:
        raise AssertionError("no determinization changed seat 2's hand")


def heuristic_states(players: int, options: dict[str, Any], seed: int) -> Iterator[State]:
    """Every decision of a game played half at random, half by the heuristic."""
    game = load_game("rummu", players=players, **options)
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
    budget = 40_000 if LONG else 2_500
    checked = 0
    for index in range(10**6):
        players, options = CONFIGURATIONS[index % len(CONFIGURATIONS)]
        bot = load_game("rummu", players=players, **options).heuristic_bot()
        for state in heuristic_states(players, options, seed=index):
            seat = state.current_players()[0]
            legal = state.legal_actions(seat)
            expected = bot.choose(state.view(seat), legal, FirstChoice(0))
            assert state._native.heuristic_first(seat) == expected, (state.history(), seat)
            assert state._native.heuristic(seat, index) in legal
            checked += 1
        if checked >= budget:
            break
    print(f"rummu native heuristic: {checked} states agreed")


def test_playouts_and_batches_play_whole_legal_games() -> None:
    compiled, _ = pair(4, partnerships=True, hands=2)
    finals = compiled._native.playouts(50, [0.15], 7)
    assert finals.shape == (50, 4)
    # partners share their team's total (rummu-9): opposite seats score alike
    assert (finals[:, 0] == finals[:, 2]).all() and (finals[:, 1] == finals[:, 3]).all()
    mixed = compiled._native.playouts(20, [0.0, 1.0, 0.5, 0.15], 1)
    assert mixed.shape == (20, 4)
    returns, lengths = simulate("rummu", players=3, n=100, policies="random", seed=3, hands=1)
    assert returns.shape == (100, 3) and (lengths > 10).all()
    again, _ = simulate("rummu", players=3, n=100, policies="random", seed=3, hands=1)
    assert (again == returns).all()
    # the heuristic lays combinations and goes out: its hands score far above random play's
    heuristic, _ = simulate("rummu", players=3, n=100, policies="heuristic", seed=1, hands=1)
    assert heuristic.mean() > returns.mean()
    # a target the heuristic reaches ends the match (rummu-10)
    target, _ = simulate("rummu", players=5, n=20, policies="heuristic", seed=2, target=20, hands=10)
    assert (target.max(axis=1) >= 20).mean() > 0.5


def test_uniform_playouts_score_like_the_references() -> None:
    """Seat 0's mean points over uniform random hands, compiled and reference, agree within their noise."""
    returns, _ = simulate("rummu", players=3, n=4000, seed=11, hands=1)
    compiled_mean = float(returns[:, 0].mean())
    game = load_game("rummu", players=3, hands=1)
    rng = random.Random(4)
    points = []
    for _ in range(150):
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
    assert abs(compiled_mean - mean) < 4 * sd * math.sqrt(1 / 150 + 1 / 4000)


def test_the_compiled_search_runs_and_reports() -> None:
    for players, options in ((3, {"hands": 1}), (6, {"partnerships": True, "hands": 1})):
        game = load_game("rummu", players=players, **options)
        compiled, _ = pair(players, **options)
        rng = random.Random(1)
        while compiled.is_chance_node() or len(compiled.legal_actions(compiled.current_players()[0])) < 2:
            if compiled.is_chance_node():
                compiled.apply_action(sample_chance(compiled, rng))
            else:
                seat = compiled.current_players()[0]
                compiled.apply_action(compiled.legal_actions(seat)[0], seat)
        seat = compiled.current_players()[0]
        for selection in ("puct", "halving"):
            bot = ISMCTSBot(game, iterations=200, max_rollout_steps=100, selection=selection)
            view = compiled.view(seat)
            action = bot.choose(view, compiled.legal_actions(seat), rng, make_sampler(compiled, seat))
            assert action in compiled.legal_actions(seat)
            assert bot.last.iterations <= 200 and sum(bot.last.visits.values()) == bot.last.iterations
            if selection == "puct":
                assert bot.last.iterations == 200 and bot.last.nodes > 1


@pytest.mark.fuzz
def test_the_compiled_search_plays_as_well_as_the_reference() -> None:
    """Rummü 3, one hand, at equal iterations: the compiled search wins its third of the games (one seat of three)
    within its 99 % interval (a smoke share in make test; 300 games at 20 iterations in the long share)."""
    games, iterations = (300, 20) if LONG else (2, 3)
    score = arena_score(load_game("rummu", players=3, hands=1), games, iterations)
    share = 1 / 3
    half_width = 2.58 * math.sqrt(share * (1 - share) / games)
    print(f"rummu 3, native vs python ISMCTS at {iterations} iterations: {score:.3f} over {games} games")
    assert abs(score - share) <= half_width
