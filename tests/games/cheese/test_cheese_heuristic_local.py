"""The heuristic re-values only the cheeses near each placement; it must choose exactly as the full-board estimate."""

from __future__ import annotations

import random
from typing import Any

import pytest

import ludotheque
from ludotheque.core import sample_chance
from ludotheque.games.cheese import rules
from ludotheque.games.cheese.heuristics import IN_HAND, CheeseHeuristicBot, _estimate


def reference_choice(view: dict[str, Any], legal_actions: list[int], rng: random.Random) -> int:
    """The heuristic written plainly: every placement scored by the full-board ``_estimate``."""
    table = view["table"]
    me, n, frame = view["seat"], view["players"], table["frame"]
    near = rules.neighbours(frame)
    board = {cell: kind for cell, kind, _ in table["placed"]}
    owners = {cell: seat for cell, _, seat in table["placed"]}
    if table["start"] is not None:
        board[table["start"]] = rules.START
        owners[table["start"]] = -1
    turns_after = rules.PLACEMENTS - table["placed_count"][me] - 1
    best_score, best = float("-inf"), []
    for action in legal_actions:
        kind, cell = divmod(action, frame * frame)
        board[cell], owners[cell] = kind, me
        worth = _estimate(board, owners, near, n)
        del board[cell], owners[cell]
        kept = sorted(
            (rules.value_of(k) for k in rules.CHEESES for _ in range(table["hand"][k] - (k == kind))), reverse=True
        )
        score = worth[me] + IN_HAND * sum(kept[: max(0, turns_after)])
        others = [worth[s] for s in range(n) if s != me]
        score -= sum(others) / len(others)
        if score > best_score + 1e-9:
            best_score, best = score, [action]
        elif abs(score - best_score) <= 1e-9:
            best.append(action)
    return rng.choice(best)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_local_revaluation_chooses_like_the_full_estimate(players: int) -> None:
    bot = CheeseHeuristicBot()
    play_rng = random.Random(players)
    compared = 0
    for _ in range(6):
        state = ludotheque.load_game("cheese", players=players).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, play_rng))
                continue
            seat = state.current_players()[0]
            view, legal = state.view(seat), state.legal_actions(seat)
            seed = play_rng.random()
            mine, theirs = random.Random(seed), random.Random(seed)
            assert bot.choose(view, legal, mine) == reference_choice(view, legal, theirs)
            assert mine.getstate() == theirs.getstate()
            compared += 1
            # mostly the heuristic's own moves (the boards it meets in rollouts), some random ones for variety
            action = bot.choose(view, legal, play_rng) if play_rng.random() < 0.7 else play_rng.choice(legal)
            state.apply_action(action, seat)
    assert compared > 6 * 12 * players - 1
