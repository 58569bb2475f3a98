"""A bot that plays a person's seat (``registry.takeover_spec``): the table's level, drawing its own bids where bots
of one level would bid alike.  Two people's seats taken over at a Geier table used to tie round after round: equal
hands, the same level, the same card, cancelled (geier-3), and equal hands again."""

from __future__ import annotations

import random

from ludotheque.bots.registry import make_bot, takeover_spec
from ludotheque.core import CHANCE
from ludotheque.core.bot import ask_bot
from ludotheque.games import load_game


def test_a_takeover_keeps_the_level_and_adds_only_the_game_s_mixing() -> None:
    geier = load_game("geier", players=2)
    assert takeover_spec("medium", geier) == "medium:h.mirror=2:final=visits"
    assert takeover_spec("easy", geier) == "easy:h.mirror=2"  # a heuristic level has no search to draw from
    assert takeover_spec("hard:time=3", geier) == "hard:time=3"  # a spec with settings is kept as it was given
    assert takeover_spec("random", geier) == "random"
    assert takeover_spec("medium", load_game("mu", players=3)) == "medium"  # turns in order: nothing to mirror
    for spec in ("medium", "easy", "hard"):
        make_bot(takeover_spec(spec, geier), geier)


def _first_round_ties(spec: str, seeds: int) -> int:
    """How often two bots of ``spec``, each deciding for its seat on the first round (equal hands), bid alike."""
    game = load_game("geier", players=2)
    ties = 0
    for seed in range(seeds):
        state = game.new_initial_state()
        state.apply_action(state.chance_outcomes()[seed % 15][0], CHANCE)
        bids = [ask_bot(make_bot(spec, game), state, seat, random.Random(seed * 2 + seat)) for seat in (0, 1)]
        ties += bids[0] == bids[1]
    return ties


def test_two_taken_over_seats_do_not_bid_alike_as_two_bots_of_the_level_do() -> None:
    game = load_game("geier", players=2)
    plain = _first_round_ties("easy", 300)
    drawn = _first_round_ties(takeover_spec("easy", game), 300)
    assert drawn * 2 < plain, (drawn, plain)
    searched = _first_round_ties("medium:it=60", 16)
    mixed = _first_round_ties("medium:it=60:h.mirror=2:final=visits", 16)
    assert mixed < searched, (mixed, searched)
