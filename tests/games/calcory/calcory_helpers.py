"""Building Calcory states by hand: a forced deal, then moves in notation."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping

import ludotheque
from ludotheque.core import CHANCE, State
from ludotheque.games.calcory import rules
from ludotheque.games.calcory.game import CalcoryState


def arrange(placed: Mapping[str, int]) -> list[int]:
    """A full deal (value per cell A1..F10) with ``placed`` values on the named cells; the other cells get
    the rest of the deck in ascending order."""
    counts = list(rules.DECK_COUNTS)
    for value in placed.values():
        counts[value] -= 1
        assert counts[value] >= 0, f"the deck has only {rules.DECK_COUNTS[value]} cards of {value}"
    rest = [v for v, count in enumerate(counts) for _ in range(count)]
    deal = []
    for name in rules.CELL_NAMES:
        deal.append(placed[name] if name in placed else rest.pop(0))
    return deal


def dealt_state(players: int, placed: Mapping[str, int] | None = None) -> CalcoryState:
    """A state right after a forced deal (chance actions only)."""
    state = ludotheque.load_game("calcory", players=players).new_initial_state()
    assert isinstance(state, CalcoryState)
    for value in arrange(placed or {}):
        state.apply_action(value)
    return state


def play(state: State, *moves: str) -> None:
    """Apply moves in notation, each by whoever acts."""
    for move in moves:
        seat = state.current_players()[0]
        state.apply_action(state.string_to_action(move, seat), seat)


def random_state(players: int, seed: int, steps: int) -> CalcoryState:
    """A state after ``steps`` uniformly random actions (fewer if the game ends)."""
    rng = random.Random(seed)
    state = ludotheque.load_game("calcory", players=players).new_initial_state()
    assert isinstance(state, CalcoryState)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def replay_history(players: int, history: list[tuple[object, int]]) -> CalcoryState:
    state = ludotheque.load_game("calcory", players=players).new_initial_state()
    assert isinstance(state, CalcoryState)
    for actor, action in history:
        state.apply_action(action, None if actor == CHANCE else int(str(actor)))
    return state


def snapshot(state: State) -> str:
    seats: list[int | None] = [None, *range(state.game.players)]
    return json.dumps({"history": state.history(), "views": [state.view(s) for s in seats]}, sort_keys=True)
