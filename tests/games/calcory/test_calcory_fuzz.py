"""Random-play fuzzing of Calcory over every player count (quick share here, long in make fuzz), with the
game's invariants: 60 cards conserved, 6 markers per player, every turn ends in one allowed way, the view's
memory is true, most cards wins."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ludotheque
from ludotheque.core import State
from ludotheque.games.calcory import rules
from ludotheque.games.calcory.game import DOWN, EMPTY, MARKED, UP, CalcoryState
from ludotheque.games.calcory.view import memory, unseen_counts
from ludotheque.testing import fuzz_games, random_sim_test

from .calcory_helpers import random_state

DECK = Counter({v: c for v, c in enumerate(rules.DECK_COUNTS)})
OUTCOMES = {"bust", "13", "mark", "beat", "fail", "stuck", "pass", "collect"}


class Invariants:
    """Checks a state after every action; remembers the previous observation of the same game."""

    def __init__(self) -> None:
        self.key = -1
        self.before: dict[str, Any] = {}
        self.turns: Counter[str] = Counter()

    def __call__(self, state: State) -> None:
        assert isinstance(state, CalcoryState)
        check_static(state)
        now = {
            "turn": state.turn,
            "seat": state.current,
            "piles": [len(p) for p in state.piles],
            "owner": state.marked_owner,
            "marked": len(state.marked),
            "phase": state.phase,
        }
        if self.key == id(state) and self.before and self.before["turn"] >= 1:
            self.check_turn(state, self.before, now)
        self.key = id(state)
        self.before = now

    def check_turn(self, state: CalcoryState, old: dict[str, Any], now: dict[str, Any]) -> None:
        changed = now["turn"] != old["turn"]
        assert now["turn"] - old["turn"] in (0, 1), "at most one turn ends per action"
        if not changed:
            return
        grown = [a - b for a, b in zip(now["piles"], old["piles"], strict=True)]
        if state.is_terminal():
            # calcory-4: the turn that just ended handed over to a seat whose single marked card survived
            ending = state.ending
            assert ending is not None and ending["seat"] == state.current == (old["seat"] + 1) % state.game.players
            assert grown[ending["seat"]] >= 1
            grown[ending["seat"]] -= 1
            self.turns["end"] += 1
        last = state.last_turn
        assert last is not None and last["outcome"] in OUTCOMES
        outcome = last["outcome"]
        self.turns[outcome] += 1
        flips = [v for _, v in last["flips"]]
        seat = last["seat"]
        assert seat == old["seat"] and last["turn"] == old["turn"], "the turn that ended is the one played"
        if outcome == "collect":
            assert old["phase"] == "put_back"
        if outcome == "bust":
            assert sum(flips) > 13 or flips.count(0) == 2
            assert sum(grown) == 0
        elif outcome == "13":
            assert sum(flips) == 13 and grown[seat] == len(flips) - 1 and sum(grown) == grown[seat]
        elif outcome in ("mark", "beat"):
            assert sum(flips) < 13 and state.marked_owner == seat and len(state.marked) == len(flips)
            assert (outcome == "beat") == (old["owner"] >= 0)
            assert sum(grown) == 0
        elif outcome == "fail":
            assert old["owner"] >= 0 and sum(grown) == 0
            # the marks stay, unless their owner is next and collects them at once (calcory-4)
            collected = state.current == old["owner"] and (state.phase == "put_back" or state.is_terminal())
            assert state.marked_owner == old["owner"] or collected
        elif outcome == "collect":
            assert not flips and grown[seat] >= 1 and sum(grown) == grown[seat]
        else:  # stuck / pass
            assert sum(grown) == 0
        # a new turn begins for the next seat (possibly a collection or a forced pass)
        if not state.is_terminal():
            assert state.current == (seat + 1) % state.game.players


def check_static(state: CalcoryState) -> None:
    n = state.game.players
    if state.dealt < rules.CELLS:
        assert state.status.count(DOWN) == state.dealt
        assert Counter(state.card[: state.dealt]) + Counter({v: c for v, c in enumerate(state.to_deal)}) == DECK
        return
    # 60 cards conserved: on the grid (face down, face up, marked), held for a put-back, or in a pile
    on_grid = [state.card[c] for c in range(rules.CELLS) if state.status[c] != EMPTY]
    assert all(state.card[c] == -1 for c in range(rules.CELLS) if state.status[c] == EMPTY)
    everything = Counter(on_grid) + Counter(state.holding) + Counter(v for p in state.piles for v in p)
    assert everything == DECK, "the 60 cards are conserved"
    # a card always goes back to the grid; only the collection of the very last card can empty it (the end)
    assert len(on_grid) >= 1 or state.holding or state.is_terminal()
    # markers conserved: 6 per player, at home or on the marked cards
    for seat in range(n):
        on_table = len(state.marked) if state.marked_owner == seat else 0
        assert state.markers[seat] + on_table == rules.MARKERS
    assert state.status.count(MARKED) == len(state.marked) <= rules.MARKERS
    assert (state.marked_owner >= 0) == bool(state.marked)
    assert all(state.status[c] == MARKED for c in state.marked)
    # the turn in progress
    assert sorted(c for c in range(rules.CELLS) if state.status[c] == UP) == sorted(state.flipped)
    assert state.total == sum(state.card[c] for c in state.flipped) < 13 or state.phase == "put_back"
    assert state.face_down == state.status.count(DOWN)
    assert state.down_cells == [c for c in range(rules.CELLS) if state.status[c] == DOWN]
    assert bool(state.holding) == (state.phase == "put_back")
    if state.is_terminal():
        counts = [len(p) for p in state.piles]
        assert state.winners() == [s for s in range(n) if counts[s] == max(counts)], "most cards wins"
        assert state.ending is not None and state.piles[state.ending["seat"]][-1] == state.ending["value"]
    if state.turn % 5 == 0:
        check_memory(state)


def check_memory(state: CalcoryState) -> None:
    """The view's memory (rebuilt from the public log) is true, and its never-seen counts are exact."""
    table = state.view(None)["table"]
    remembered = memory(table)
    for cell, value in remembered.items():
        assert state.card[cell] == value and state.seen[cell]
    hidden = [c for c in range(rules.CELLS) if state.status[c] == DOWN and not state.seen[c]]
    assert set(hidden) | set(remembered) == {c for c in range(rules.CELLS) if state.status[c] == DOWN}
    actual = Counter(state.card[c] for c in hidden)
    assert unseen_counts(table, remembered) == [actual[v] for v in range(10)]


@pytest.mark.fuzz
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_play(players: int) -> None:
    # calcory has no option: every player count is every configuration
    game = ludotheque.load_game("calcory", players=players)
    checks = Invariants()
    games = fuzz_games(25, 1500)
    stats = random_sim_test(game, games, seed=100 + players, invariants=checks)
    print(f"calcory players={players}: {stats}; turn endings {dict(checks.turns)}")
    assert stats.games == games
    assert checks.turns["end"] == games
    assert {"bust", "13", "mark", "collect"} <= set(checks.turns)  # the rarer endings have their own tests


@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), steps=st.integers(0, 400))
def test_invariants_hold_anywhere(players: int, seed: int, steps: int) -> None:
    state = random_state(players, seed, steps)
    check_static(state)
    check_memory(state) if state.dealt == rules.CELLS else None
