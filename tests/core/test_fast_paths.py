"""Each game's fast public methods against ``State``'s own, the reference.

A game may answer ``apply_action``, ``legal_actions``, ``current_players`` and ``chance_outcomes`` itself in one
step for the common case and hand everything else to ``State``'s methods, which validate through the game's
hooks; and it may keep its chance nodes' cumulative probabilities ready for ``sample_chance``.  Along random
games, at every node, both paths must give the same answers, the same errors and the same resulting state.
"""

from __future__ import annotations

import os
import random
from itertools import accumulate
from typing import Any

import numpy as np
import pytest

import ludotheque
from ludotheque.core import CHANCE, State, sample_chance
from ludotheque.games import game_class, game_ids

#: options that keep a match short enough here (random Rummü players never reach the target)
OPTIONS: dict[str, dict[str, Any]] = {"rummu": {"hands": 2}, "mu": {"target": 60}}
#: actions walked by the quick test: Calcory's deal alone is 60 chance actions, and its seats' moves come after
QUICK_ACTIONS: dict[str, int] = {"calcory": 130}


def _outcome(call: Any) -> tuple[str, Any]:
    try:
        return ("ok", call())
    except Exception as error:  # the reference's exceptions are part of the answer
        return (type(error).__name__, str(error))


def _same_state(a: State, b: State) -> None:
    assert a.history() == b.history()
    assert a.is_terminal() == b.is_terminal() and a.is_chance_node() == b.is_chance_node()
    assert a.view(None) == b.view(None)
    for seat in range(a.game.players):
        assert a.view(seat) == b.view(seat)


def _check_node(state: State, rng: random.Random) -> None:
    n = state.game.players
    assert state.current_players() == State.current_players(state)
    assert state.chance_outcomes() == State.chance_outcomes(state)
    for player in (None, *range(n), -1, n, True, CHANCE):
        assert _outcome(lambda p=player: state.legal_actions(p)) == _outcome(
            lambda p=player: State.legal_actions(state, p)
        )
    ready = state._chance_cumulative()
    if ready is not None:
        outcomes = State.chance_outcomes(state)
        assert list(ready[0]) == [a for a, _ in outcomes]
        assert list(ready[1]) == list(accumulate([p for _, p in outcomes]))
        seed = rng.randrange(2**32)
        actions, weights = zip(*outcomes, strict=True)
        assert sample_chance(state, random.Random(seed)) == random.Random(seed).choices(actions, weights)[0]
    # a legal move of each actor, and moves that are not: wrong seat, wrong action, wrong types
    tries: list[tuple[Any, Any]] = []
    if state.is_chance_node() and not state.is_terminal():
        action = State.legal_actions(state)[0]
        tries += [(action, None), (action, CHANCE), (action, 0)]
    for seat in State.current_players(state):
        legal = State.legal_actions(state, seat)
        assert legal == sorted(set(legal))  # the protocol's promise, which games build without sorting
        tries += [(rng.choice(legal), seat), (np.int64(legal[0]), seat), (legal[0], (seat + 1) % n)]
    top = state.game.num_distinct_actions()
    tries += [(rng.randrange(top), rng.randrange(n)), (-1, 0), (top, 0), (True, 0), (2.0, 0), (0, n), (0, -1)]
    for action, player in tries:
        fast, reference = state.clone(), state.clone()
        got = _outcome(lambda s=fast, a=action, p=player: s.apply_action(a, p))
        expected = _outcome(lambda s=reference, a=action, p=player: State.apply_action(s, a, p))
        assert got == expected, (action, player)
        _same_state(fast, reference)


def _walk(game_id: str, players: int, seed: int, actions: int) -> None:
    game = ludotheque.load_game(game_id, players=players, **OPTIONS.get(game_id, {}))
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(actions):
        _check_node(state, rng)
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            seat = rng.choice(state.current_players())
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)


@pytest.mark.parametrize("game_id", game_ids())
def test_fast_paths_agree_with_the_reference(game_id: str) -> None:
    cls = game_class(game_id)
    for players in sorted({cls.min_players, cls.max_players}):
        _walk(game_id, players, seed=players, actions=QUICK_ACTIONS.get(game_id, 60))


@pytest.mark.fuzz
@pytest.mark.skipif(os.environ.get("LUDOTHEQUE_FUZZ") != "long", reason="whole games at every count: make fuzz")
@pytest.mark.parametrize("game_id", game_ids())
def test_fast_paths_agree_along_whole_games(game_id: str) -> None:
    cls = game_class(game_id)
    for players in range(cls.min_players, cls.max_players + 1):
        for seed in range(3):
            _walk(game_id, players, seed=seed, actions=3000)
