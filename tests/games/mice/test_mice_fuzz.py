"""MICE random-play fuzzing over every player count and level, with the game's invariants after every action."""

from __future__ import annotations

import pytest

from ludotheque.core import State
from ludotheque.games import load_game
from ludotheque.games.mice import rules
from ludotheque.games.mice.game import MiceState
from ludotheque.testing import fuzz_games, random_sim_test


def check_invariants(state: State) -> None:
    assert isinstance(state, MiceState)
    n = state.game.players
    table = state.view(None)["table"]
    for seat in range(n):
        info = table["seats"][seat]
        # each seat's cards in hand plus cage are exactly 1..18 (mice-1)
        assert sorted(info["hand"] + info["cage"]) == list(range(1, 19))
        assert info["hand_total"] == sum(info["hand"])
        # the 6 is flipped last (mice-2)
        assert 6 in info["face_up"] or info["face_up"] == []
        assert (info["red_dice"], info["yellow_dice"]) == rules.dice_counts(state.face_up[seat])
        assert info["nuts"] >= 0
    # nuts are conserved: supply (solo: the middle) plus every reserve (mice-3, mice-8)
    assert table["supply"] >= 0
    assert table["supply"] + sum(s["nuts"] for s in table["seats"]) == 3 * n
    # the dice rolled this turn match the active seat's face-up dice cards when the roll is used (mice-2)
    if table["phase"] in ("roll", "select"):
        active = table["seats"][table["active"]]
        dice = [d["die"] for d in table["dice"]]
        assert sum(d.startswith("R") for d in dice) == active["red_dice"] >= 1
        assert sum(d.startswith("Y") for d in dice) == active["yellow_dice"]
    for die in table["dice"]:
        assert die["value"] is None or 1 <= die["value"] <= 6
    # the game ends exactly when mice-7 (solo: mice-8) says
    if state.solo:
        info = table["seats"][0]
        assert state.is_terminal() == (info["face_up"] == [] or info["hand"] == [])
    else:
        assert state.is_terminal() == any(s["face_up"] == [] for s in table["seats"])
        assert sum(s["face_up"] == [] for s in table["seats"]) <= 1
    if state.is_terminal():
        if state.solo:
            info = table["seats"][0]
            assert table["rating"] == rules.RATINGS[rules.solo_rank(state.hands[0], state.face_up[0])]
            assert state.winners() == ([0] if info["hand"] == [] else [])
        else:
            # lowest hand total wins; ties: more face-down dice cards, then more nuts (mice-7); the returns are
            # the hand totals and the game declares that lower is better
            keys = [(s["hand_total"], -len(s["face_down"]), -s["nuts"]) for s in table["seats"]]
            assert state.winners() == [i for i, k in enumerate(keys) if k == min(keys)]
            assert state.returns() == [float(s["hand_total"]) for s in table["seats"]]
            assert state.game.score_order() == "lower"


CONFIGS = [(1, "normal"), (1, "advanced"), (1, "hardest"), (2, "normal"), (3, "normal"), (4, "normal"),
           (5, "normal")]


@pytest.mark.fuzz
@pytest.mark.parametrize(("players", "level"), CONFIGS)
def test_random_play(players: int, level: str) -> None:
    game = load_game("mice", players=players, level=level)
    # a random multiplayer game is long (100-150 turns): the quick share stays small
    games = fuzz_games(40, 1500) if players == 1 else fuzz_games(10, 300)
    stats = random_sim_test(game, games, seed=players * 10 + len(level), invariants=check_invariants)
    print(f"mice players={players} level={level}: {stats}")
    assert stats.games == games


@pytest.mark.fuzz
@pytest.mark.parametrize("players", [1, 2, 4])
def test_heuristic_play(players: int) -> None:
    """The heuristic bots take other paths than random play (nut changes, empty hands, flips to the end)."""
    import random

    from ludotheque.bots import play_game

    game = load_game("mice", players=players)
    games = fuzz_games(8, 200)
    for i in range(games):
        state = play_game(game, [game.heuristic_bot() for _ in range(players)], random.Random(i),
                          on_step=check_invariants)
        assert state.is_terminal()
    print(f"mice heuristic self-play players={players}: {games} games")
