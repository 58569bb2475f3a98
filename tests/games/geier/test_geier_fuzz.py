"""Random-play fuzzing of Geier over every player count and option (quick share here, long in make fuzz)."""

from __future__ import annotations

import itertools

import pytest

import ludotheque
from ludotheque.core import State
from ludotheque.games.geier import rules
from ludotheque.games.geier.game import GeierState
from ludotheque.testing import fuzz_games, random_sim_test

CONFIGS = [
    (players, tie_rule, final_tie)
    for players, tie_rule, final_tie in itertools.product(range(2, 6), rules.TIE_RULES, rules.FINAL_TIES)
]


def check_invariants(state: State) -> None:
    assert isinstance(state, GeierState)
    n = state.game.players
    played = [[r["played"][seat] for r in state.rounds] for seat in range(n)]
    for seat in range(n):
        in_hand = [c for c in rules.HAND_CARDS if state.hands[seat] >> c & 1]
        pending = [state.chosen[seat]] if state.chosen[seat] else []
        # every card is in exactly one place: hand, face down this round, or the open pile
        assert sorted(in_hand + pending + played[seat]) == list(rules.HAND_CARDS)
    turned = [v for r in state.rounds for v in r["pot"]]
    # each point card is won, in the pot, lost, or still to come; never twice
    won = [c for w in state.won for c in w]
    to_come = [v for i, v in enumerate(rules.POINT_CARDS) if state.deck >> i & 1]
    assert sorted(won + state.pot + state.lost + to_come) == sorted(rules.POINT_CARDS)
    assert set(turned) | set(state.pot) == set(won) | set(state.pot) | set(state.lost)
    assert state.points == [sum(w) for w in state.won]
    if state.is_terminal():
        # every card played once; points won plus the points lost on the last round = 40
        assert all(sorted(p) == list(rules.HAND_CARDS) for p in played)
        assert sum(state.points) + sum(state.lost) == 40
        assert state.winners() == rules.final_winners(state.points, state.won, str(state.game.options["final_tie"]))


@pytest.mark.fuzz
@pytest.mark.parametrize(("players", "tie_rule", "final_tie"), CONFIGS)
def test_random_play(players: int, tie_rule: str, final_tie: str) -> None:
    game = ludotheque.load_game("geier", players=players, tie_rule=tie_rule, final_tie=final_tie)
    stats = random_sim_test(game, fuzz_games(40, 1500), seed=players, invariants=check_invariants)
    print(f"geier players={players} {tie_rule} {final_tie}: {stats}")
    assert stats.games == fuzz_games(40, 1500)
