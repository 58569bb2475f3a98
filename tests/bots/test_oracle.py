"""The oracle: a search over the true state, for measurements only (the arena), refused everywhere else."""

from __future__ import annotations

import random

import pytest

from ludotheque.arena.tournament import ArenaSpec, run_arena
from ludotheque.bots import make_bot
from ludotheque.bots.ismcts import ISMCTSBot
from ludotheque.core import sample_chance
from ludotheque.core.bot import OmniscientBotError, ask_bot
from ludotheque.core.native import use_engine
from ludotheque.games import load_game
from ludotheque.table import Table


def test_the_oracle_is_refused_where_people_play() -> None:
    game = load_game("geier", players=2)
    oracle = make_bot("oracle:medium", game)
    assert oracle.name == "oracle:medium" and getattr(oracle, "omniscient", False)
    state = game.new_initial_state()
    state.apply_action(sample_chance(state, random.Random(1)))
    with pytest.raises(OmniscientBotError, match="sees every card"):
        ask_bot(oracle, state, 0, random.Random(0))
    table = Table(game, [oracle, make_bot("random", game)], chance_rng=random.Random(2))
    with pytest.raises(OmniscientBotError):
        table.play_out()


@pytest.mark.parametrize("engine", ["python", "native"])
def test_the_oracle_reads_the_face_down_card_a_search_cannot(engine: str) -> None:
    """Geier 2: seat 1 chooses after seat 0 put a card face down.  Two tables that differ only in that card look
    the same from seat 1: a search from its view answers both alike, move for move, while the oracle, seeing the
    card, answers them differently."""
    previous = use_engine(engine)
    try:
        game = load_game("geier", players=2)
        oracle = make_bot("oracle:medium:it=300", game)
        blind = ISMCTSBot(game, iterations=300)
        differs = 0
        for seed in range(6):
            answers: dict[str, list[int]] = {"oracle": [], "blind": []}
            for card in (3, 13):
                state = game.new_initial_state()
                state.apply_action(14)  # +10 on the table
                state.apply_action(card - 1, 0)
                answers["oracle"].append(ask_bot(oracle, state, 1, random.Random(seed), omniscient=True))
                answers["blind"].append(ask_bot(blind, state, 1, random.Random(seed)))
            assert answers["blind"][0] == answers["blind"][1]
            differs += answers["oracle"][0] != answers["oracle"][1]
        assert differs >= 5
    finally:
        use_engine(previous)


def test_the_arena_seats_the_oracle_and_it_beats_the_heuristic() -> None:
    spec = ArenaSpec("geier", 2, {}, ("oracle:medium:it=200", "heuristic"), 8, seed=1)
    result = run_arena(spec).to_json()
    oracle = result["summary"]["oracle:medium:it=200"]
    assert result["games"] == 8 and oracle["score"]["estimate"] > 0.5
