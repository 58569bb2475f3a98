"""Cheese Rescue random-play fuzzing: protocol checks plus the game's invariants, at every player count.

The game has no options (DECISIONS cheese-1..5 list none), so the player counts are the whole matrix.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ludotheque.core import State
from ludotheque.games import load_game
from ludotheque.games.cheese import rules
from ludotheque.games.cheese.game import CheeseState
from ludotheque.testing import fuzz_games, random_sim_test


def recount(state: CheeseState) -> tuple[set[tuple[int, int]], set[tuple[int, int]], set[tuple[int, int]]]:
    """An independent cascade over (row, col) coordinates: dogs scare cats, surviving cats chase mice,
    surviving mice eat cheese (DECISIONS cheese-5)."""
    grid = {divmod(cell, state.frame): kind for cell, kind in enumerate(state.cells) if kind != rules.EMPTY}

    def sides(rc: tuple[int, int]) -> list[tuple[int, int]]:
        r, c = rc
        return [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]

    cats = {p for p, k in grid.items() if k == rules.CAT and rules.DOG in [grid.get(q) for q in sides(p)]}
    mice = set()
    for p, k in grid.items():
        if k == rules.MOUSE and any(grid.get(q) == rules.CAT and q not in cats for q in sides(p)):
            mice.add(p)
    cheeses = set()
    for p, k in grid.items():
        if k in rules.CHEESES and any(grid.get(q) == rules.MOUSE and q not in mice for q in sides(p)):
            cheeses.add(p)
    return cats, mice, cheeses


def invariants(generic: State) -> None:
    state = generic
    assert isinstance(state, CheeseState)
    n = state.game.players
    side, frame = state.side, state.frame
    # every card in exactly one place: box (set aside), pile, hands, grid (and at the end, discarded = hands)
    on_grid = [0] * rules.KINDS
    per_seat_cheese = [[0, 0, 0] for _ in range(n)]
    for cell, kind, seat in state.order:
        assert state.cells[cell] == kind and state.owners[cell] == seat
        on_grid[kind] += 1
        if kind in rules.CHEESES:
            per_seat_cheese[seat][kind - rules.CHEESE1] += 1
    assert sum(1 for k in state.cells if k not in (rules.EMPTY, rules.START)) == len(state.order)
    for animal in rules.ANIMALS:
        held = sum(h[animal] for h in state.hands)
        assert rules.SET_ASIDE[n][animal] + state.pile[animal] + held + on_grid[animal] == rules.ALL_ANIMALS[animal]
    for seat in range(n):
        for i, kind in enumerate(rules.CHEESES):
            assert state.hands[seat][kind] + per_seat_cheese[seat][i] == rules.CHEESE_SET[i]
        assert sum(state.hands[seat]) <= 8
    # turns: clockwise, one card each; every card touches an earlier one; all fit in an N x N square
    assert max(state.placed) - min(state.placed) <= 1
    assert state.placed == sorted(state.placed, reverse=True)
    seen = {state.centre} if rules.has_start_card(n) else set()
    for index, (cell, _, _) in enumerate(state.order):
        if index or seen:
            assert any(near in seen for near in rules.neighbours(frame)[cell])
        else:
            assert cell == state.centre
        seen.add(cell)
    rows = {c // frame for c in seen}
    cols = {c % frame for c in seen}
    assert max(rows) - min(rows) < side and max(cols) - min(cols) < side if seen else True
    if not state.is_terminal():
        assert state.returns() == [0.0] * n and state.winners() == []
        # cheese-3, recounted: empty, sharing a side with a card, and the cards still fit in N x N
        expected = set()
        for cell in range(frame * frame):
            if cell in seen or not any(near in seen for near in rules.neighbours(frame)[cell]):
                continue
            rs, cs = rows | {cell // frame}, cols | {cell % frame}
            if max(rs) - min(rs) < side and max(cs) - min(cs) < side:
                expected.add(cell)
        assert set(state.legal_cells()) == (expected if seen else {state.centre})
        return
    # the end: 12 cards each, the square exactly full, the pile empty, three cards each discarded
    assert state.placed == [rules.PLACEMENTS] * n
    assert len(seen) == side * side and len(rows) == side and len(cols) == side
    assert sum(state.pile) == 0 and [sum(h) for h in state.hands] == [3] * n
    cats, mice, cheeses = recount(state)
    removed = state.removed
    assert removed is not None
    assert {divmod(c, frame) for c in removed[0]} == cats
    assert {divmod(c, frame) for c in removed[1]} == mice
    assert {divmod(c, frame) for c in removed[2]} == cheeses
    points = [0] * n
    cards = [0] * n
    for cell, kind, seat in state.order:
        if kind in rules.CHEESES and divmod(cell, frame) not in cheeses:
            points[seat] += kind - rules.CHEESE1 + 1
            cards[seat] += 1
    assert state.returns() == [float(p) for p in points]
    top = max(points)
    leaders = [s for s in range(n) if points[s] == top]
    assert state.winners() == [s for s in leaders if cards[s] == max(cards[x] for x in leaders)]
    view = state.view(None)
    assert view["returns"] == state.returns() and view["winners"] == state.winners()


@pytest.mark.fuzz
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_play(players: int) -> None:
    stats = random_sim_test(
        load_game("cheese", players=players),
        games=fuzz_games(40, 2000),
        seed=players,
        invariants=invariants,
        deep_every=9,
    )
    print(f"cheese {players} players: {stats}, winners {stats.winners_count}")
    assert stats.games == fuzz_games(40, 2000)


@pytest.mark.fuzz
@pytest.mark.parametrize("players", [2, 3, 4])
def test_heuristic_play_keeps_invariants(players: int) -> None:
    game = load_game("cheese", players=players)
    bot = game.heuristic_bot()
    rng = random.Random(players)
    for _ in range(fuzz_games(3, 100)):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                seat = state.current_players()[0]
                state.apply_action(bot.choose(state.view(seat), state.legal_actions(seat), rng), seat)
        invariants(state)


@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_property_resample_and_invariants(players: int, seed: int, cut: float) -> None:
    """Random deals and moves: invariants hold, and resample keeps every seat's view at a random point."""
    rng = random.Random(seed)
    state = load_game("cheese", players=players).new_initial_state()
    assert isinstance(state, CheeseState)
    stop = int(cut * 42 * players)
    while not state.is_terminal() and len(state.history()) < stop:
        state.apply_action(rng.choice(state.legal_actions()))
    invariants(state)
    for seat in range(players):
        twin = state.resample(seat, rng)
        invariants(twin)
        assert twin.view(seat) == state.view(seat)
        assert twin.legal_actions(seat) == state.legal_actions(seat)
