"""Every compiled game's determinizations read nothing a seat cannot see: two games that differ only in cards
hidden from the seat give it the same determinizations from the same random numbers, as the reference's do
(``tests/games/<id>/test_<id>_resample_canonical.py``).  A review or a hint then never depends on hidden cards."""

from __future__ import annotations

import random

import pytest

from ludotheque.core import State, sample_chance
from ludotheque.core.native import NativeState
from ludotheque.games import game_ids, game_type, load_game

COMPILED = [
    (game_id, players)
    for game_id in game_ids()
    if "native" in game_type(game_id).optional_parts
    for players in range(game_type(game_id).min_players, game_type(game_id).max_players + 1)
]


def played(game_id: str, players: int, moves: int, seed: int) -> State:
    game = load_game(game_id, players=players)
    state = game.new_initial_state()
    if not isinstance(state, NativeState):
        pytest.skip("the native core is not built")
    rng = random.Random(seed)
    done = 0
    while not state.is_terminal() and (done < moves or state.is_chance_node()):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_players()[0]
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)
        done += 1
    return state


@pytest.mark.parametrize(("game_id", "players"), COMPILED, ids=[f"{g}-{p}" for g, p in COMPILED])
def test_determinizations_do_not_depend_on_hidden_cards(game_id: str, players: int) -> None:
    compared = 0
    for seed in range(4):
        state = played(game_id, players, 4 + 3 * seed, seed)
        if state.is_terminal():
            continue
        seat = state.current_players()[0]
        twin = state.resample(seat, random.Random(99))  # the same view for the seat, other hidden cards
        assert twin.view(seat) == state.view(seat)
        for k in range(3):
            ours, theirs = state.resample(seat, random.Random(k)), twin.resample(seat, random.Random(k))
            assert ours.history() == theirs.history()
            compared += 1
    assert compared > 0
