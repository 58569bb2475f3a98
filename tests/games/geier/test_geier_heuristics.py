"""The Geier heuristic: a bid ranked like the pot, fixed or (with ``spread``) drawn around that rank."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque.bots import RandomBot, play_game
from ludotheque.core import OptionError
from ludotheque.games.geier.heuristics import GeierHeuristicBot

from .helpers import new_state, play_round


def bids(bot: GeierHeuristicBot, point: int, draws: int = 600) -> Counter[int]:
    """The cards ``bot`` plays at a fresh 4-seat table when ``point`` is the first pot."""
    state = new_state(4)
    state.apply_action(state.string_to_action(f"{point:+d}"))
    rng = random.Random(point)
    return Counter(bot.choose(state.view(0), state.legal_actions(0), rng) + 1 for _ in range(draws))


def test_the_plain_bid_is_the_card_ranked_like_the_pot() -> None:
    plain = GeierHeuristicBot()
    # 10 is the biggest absolute value in play: the 15; +1 and -1 are the smallest: the 1 or 2
    assert bids(plain, 10) == Counter({15: 600})
    assert set(bids(plain, 1)) <= {1, 2} and len(bids(plain, 1)) == 1
    assert bids(plain, -5) == bids(plain, 5)  # a vulture is fought for like a mouse of the same size


def test_a_spread_bid_is_drawn_around_that_card() -> None:
    mixed = GeierHeuristicBot(spread=2)
    top = bids(mixed, 10, draws=3000)
    # weights fall with the distance from the 15 (one spread away: 0.61 of its weight; two: 0.14)
    assert top.most_common(1)[0][0] in (14, 15) and top[15] > top[13] > top[11] > top[9]
    assert all(card >= 7 for card in top)  # four spreads away is all but never drawn
    low = bids(mixed, 1, draws=3000)
    assert low.most_common(1)[0][0] <= 3 and sum(low.values()) == 3000
    assert sum(card * n for card, n in top.items()) > sum(card * n for card, n in low.items())


def test_a_later_bid_reads_the_hand_left() -> None:
    state = new_state(2)
    play_round(state, 10, [15, 14])
    state.apply_action(state.string_to_action("+9"))
    # 9 is now the biggest value in play; seat 0 no longer holds the 15, so it bids its 14
    assert GeierHeuristicBot().choose(state.view(0), state.legal_actions(0), random.Random(0)) == 14 - 1


@given(seed=st.integers(0, 10**6), players=st.integers(2, 5), spread=st.floats(0.1, 6.0))
@settings(max_examples=40, deadline=None)
def test_mixed_bids_are_always_legal(seed: int, players: int, spread: float) -> None:
    game = ludotheque.load_game("geier", players=players)
    bots = [GeierHeuristicBot(spread=spread)] * (players - 1) + [RandomBot()]
    assert play_game(game, bots, random.Random(seed), random.Random(seed + 1)).is_terminal()  # raises if illegal


def test_the_game_tunes_its_heuristic_and_refuses_what_it_does_not_know() -> None:
    game = ludotheque.load_game("geier", players=4)
    tuned = game.heuristic_bot_with({"spread": 1.5})
    assert isinstance(tuned, GeierHeuristicBot) and tuned.spread == 1.5 and tuned.name == "heuristic:spread=1.5"
    assert game.heuristic_bot_with({}).name == "heuristic"
    with pytest.raises(OptionError, match="no setting width"):
        game.heuristic_bot_with({"width": 2})
    with pytest.raises(ValueError, match="spread"):
        game.heuristic_bot_with({"spread": -1})
    with pytest.raises(OptionError, match="cheese heuristic takes no settings"):
        ludotheque.load_game("cheese", players=2).heuristic_bot_with({"spread": 1})
