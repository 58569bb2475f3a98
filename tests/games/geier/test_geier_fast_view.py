"""Geier's view and heuristic against the references they replaced, at every node of random games.

``_reference_table_view`` builds every part of the view anew (the previous ``view.table_view``); the view in
use reads bitmasks through byte tables and shares the resolved rounds' records.  Equality with ``==`` on the
whole dict, at every node, for every seat and a spectator, with determinizations and views kept from earlier
moments included, shows it carries neither more nor less.  ``_reference_choose`` is the heuristic's previous
rank of the pot (by sorting); the heuristic must choose the same card from the same view and random state.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque.core import State, sample_chance
from ludotheque.games.geier.game import GeierState
from ludotheque.games.geier.heuristics import GeierHeuristicBot, _cumulative
from ludotheque.games.geier.rules import HAND_CARDS, POINT_CARDS
from ludotheque.games.geier.view import table_view


def _reference_table_view(state: GeierState, player: int | None) -> dict[str, Any]:
    n = state.game.players
    unrevealed = []
    for seat in range(n):
        mask = state.hands[seat] | (1 << state.chosen[seat] if state.chosen[seat] else 0)
        unrevealed.append([c for c in HAND_CARDS if mask >> c & 1])
    data: dict[str, Any] = {
        "round": len(state.rounds) + (0 if state.awaiting_card else 1),
        "pot": list(state.pot),
        "pot_sum": sum(state.pot),
        "points": list(state.points),
        "won": [list(cards) for cards in state.won],
        "points_to_come": [v for i, v in enumerate(POINT_CARDS) if state.deck >> i & 1],
        "unrevealed": unrevealed,
        "chosen": [bool(card) for card in state.chosen],
        "rounds": [
            {"pot": list(r["pot"]), "played": list(r["played"]), "taker": r["taker"]} for r in state.rounds
        ],
        "lost": list(state.lost),
    }
    if player is not None:
        data["hand"] = [c for c in HAND_CARDS if state.hands[player] >> c & 1]
        data["my_choice"] = state.chosen[player] or None
    return data


def _reference_choose(spread: float, view: dict[str, Any], legal_actions: list[int], rng: random.Random) -> int:
    table = view["table"]
    hand: list[int] = table["hand"]
    worth = abs(table["pot_sum"])
    field = sorted([abs(v) for v in table["points_to_come"]] + [worth])
    below = sum(1 for v in field if v < worth)
    equal = sum(1 for v in field if v == worth)
    fraction = (below + (equal - 1) / 2) / max(1, len(field) - 1)
    position = fraction * (len(hand) - 1)
    if spread == 0:
        index = round(position)
    else:
        index = rng.choices(range(len(hand)), cum_weights=_cumulative(len(hand), position, spread))[0]
    action = hand[index] - 1
    return action if action in legal_actions else rng.choice(legal_actions)


def _check(state: GeierState) -> None:
    for player in (None, *range(state.game.players)):
        assert table_view(state, player) == _reference_table_view(state, player)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 5), tie_rule=st.sampled_from(["cascade", "single"]), seed=st.integers(0, 2**32 - 1))
def test_views_and_heuristic_choices_equal_the_references(players: int, tie_rule: str, seed: int) -> None:
    state: State = ludotheque.load_game("geier", players=players, tie_rule=tie_rule).new_initial_state()
    assert isinstance(state, GeierState)
    rng = random.Random(seed)
    views: list[tuple[int, dict[str, Any], GeierState]] = []
    while not state.is_terminal():
        _check(state)
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = rng.choice(state.current_players())
        view, legal = state.view(seat), state.legal_actions(seat)
        for spread in (0.0, 1.5):
            choice_seed = rng.randrange(2**32)
            expected = _reference_choose(spread, view, legal, random.Random(choice_seed))
            assert GeierHeuristicBot(spread).choose(view, legal, random.Random(choice_seed)) == expected
        twin = state.resample(seat, rng)
        _check(twin)
        views.append((seat, table_view(state, seat), state.clone()))
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    _check(state)
    # views taken earlier still describe their own moment: sharing records did not let later rounds in
    for seat, seen, then in views:
        assert seen == _reference_table_view(then, seat)
