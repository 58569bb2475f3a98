"""What every compiled game's differential tests share: comparing a node on both engines, a seeded random walk in
lockstep, a chi-square between two samples, and the compiled search against the Python one at equal iterations."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import accumulate
from typing import Any

from ludotheque.bots.ismcts import ISMCTSBot
from ludotheque.core import CHANCE, Game, State, sample_chance
from ludotheque.core.bot import make_sampler
from ludotheque.core.native import NativeState
from ludotheque.games import load_game


def pair(game_id: str, players: int, **options: Any) -> tuple[State, State]:
    """A new game's state on the compiled engine and on the reference."""
    game = load_game(game_id, players=players, **options)
    compiled = game.new_initial_state()
    assert isinstance(compiled, NativeState)
    return compiled, game.new_reference_state()


def same_node(compiled: State, reference: State, views: bool = True) -> None:
    """Everything a reader of the state can ask agrees: terminality, chance, the seats to move, every seat's legal
    actions and their notation, the views (every seat's and the spectator's), returns and winners."""
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
        if views:
            assert compiled.view(seat) == reference.view(seat)
    if reference.is_chance_node():  # the running sums a seeded draw reads: the same floats
        ready = compiled._chance_cumulative()
        assert ready is not None
        assert (list(ready[0]), list(ready[1])) == reference_sums(reference)
        outcomes = reference.legal_actions()
        assert [compiled.action_to_json(a) for a in outcomes] == [reference.action_to_json(a) for a in outcomes]
        assert [compiled.action_to_string(a) for a in outcomes] == [reference.action_to_string(a) for a in outcomes]
    else:
        assert compiled._chance_cumulative() is None
    if views:
        assert compiled.view(None) == reference.view(None)
    assert compiled.returns() == reference.returns()
    assert compiled.winners() == reference.winners()


def reference_sums(reference: State) -> tuple[list[int], list[float]]:
    """The running sums of the reference's chance outcomes as ``sample_chance`` reads them: the ones the state
    keeps ready, or else the sums it adds up from ``chance_outcomes``."""
    ready = reference._chance_cumulative()
    if ready is not None:
        return list(ready[0]), list(ready[1])
    outcomes = reference.chance_outcomes()
    return [action for action, _ in outcomes], list(accumulate(p for _, p in outcomes))


def walk(compiled: State, reference: State, seed: int, views_every: int = 1, events: bool = True) -> int:
    """One seeded random game on both engines in lockstep from the states given: every node compared (every seat's
    view at every ``views_every``-th node), and every action's events; returns the number of actions."""
    game = reference.game
    rng = random.Random(seed)
    steps = 0
    while not reference.is_terminal():
        same_node(compiled, reference, views=steps % views_every == seed % views_every)
        if reference.is_chance_node():
            actor: Any = CHANCE
            action = sample_chance(reference, rng)
        else:
            actor = rng.choice(reference.current_players())
            action = rng.choice(reference.legal_actions(actor))
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


def replayed(state: State) -> State:
    """The reference state a history gives."""
    reference = state.game.new_reference_state()
    for actor, action in state.history():
        reference.apply_action(action, None if actor == CHANCE else actor)
    return reference


def chi_square_same(a: Counter[Any], b: Counter[Any]) -> float:
    """The homogeneity chi-square statistic of two samples over the same categories, folded into a p-value by the
    Wilson-Hilferty approximation."""
    keys = sorted(set(a) | set(b))
    na, nb = sum(a.values()), sum(b.values())
    statistic = 0.0
    for key in keys:
        total = a[key] + b[key]
        for count, n in ((a[key], na), (b[key], nb)):
            expected = total * n / (na + nb)
            statistic += (count - expected) ** 2 / expected
    k = len(keys) - 1
    z = ((statistic / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


def arena_score(game: Game, games: int, iterations: int) -> float:
    """The compiled search's share of the wins against the Python search at equal iterations, seats rotated (a
    shared win counts its share); simultaneous seats each choose from the same node."""
    players = game.players
    native_bot = ISMCTSBot(game, iterations=iterations)
    python_bot = ISMCTSBot(game, iterations=iterations, native=False)
    score = 0.0
    for index in range(games):
        rng = random.Random(index)
        state = game.new_initial_state()
        native_seat = index % players
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            for seat in state.current_players():
                bot = native_bot if seat == native_seat else python_bot
                action = bot.choose(state.view(seat), state.legal_actions(seat), rng, make_sampler(state, seat))
                state.apply_action(action, seat)
        winners = state.winners()
        score += (1.0 / len(winners)) if native_seat in winners else 0.0
    return score / games
