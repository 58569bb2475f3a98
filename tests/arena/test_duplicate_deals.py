"""Duplicate deals: keyed chance replays the same outcomes when the seats are permuted."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ludotheque.arena.chance import KeyedChance
from ludotheque.arena.tournament import ArenaSpec, play_one, seatings
from ludotheque.bots import RandomBot, make_bot, play_game
from ludotheque.games import load_game
from ludotheque.games.geier.rules import POINT_CARDS


class Node:
    """A stand-in chance node: only ``chance_outcomes`` is used."""

    def __init__(self, outcomes: list[int], weights: list[float] | None = None) -> None:
        weights = weights or [1.0] * len(outcomes)
        total = sum(weights)
        self.outcomes = [(a, w / total) for a, w in zip(outcomes, weights, strict=True)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.outcomes


def draw_deck(chance: KeyedChance, cards: int, rolls_between: list[int]) -> list[int]:
    """Draw a whole deck card by card, rolling a die ``rolls_between[i]`` times before draw i."""
    deck = list(range(cards))
    order = []
    for i in range(cards):
        for _ in range(rolls_between[i % len(rolls_between)]):
            chance(Node(list(range(100, 106))))  # type: ignore[arg-type]
        card = chance(Node(deck))  # type: ignore[arg-type]
        deck.remove(card)
        order.append(card)
    return order


def test_the_deck_order_does_not_depend_on_what_happens_between_draws() -> None:
    a = draw_deck(KeyedChance("7:0"), 12, [0])
    b = draw_deck(KeyedChance("7:0"), 12, [2, 0, 1])
    c = draw_deck(KeyedChance("7:1"), 12, [0])
    assert a == b
    assert sorted(a) == list(range(12))
    assert a != c  # another deal, another deck


def test_the_kth_roll_of_a_die_replays() -> None:
    first, second = KeyedChance(3), KeyedChance(3)
    die = Node(list(range(1, 7)))
    rolls = [first(die) for _ in range(20)]  # type: ignore[arg-type]
    replay = []
    for _ in range(20):
        second(Node([50, 51]))  # type: ignore[arg-type]  # other chance nodes in between
        replay.append(second(die))  # type: ignore[arg-type]
    assert rolls == replay


def test_keyed_chance_has_the_right_distribution() -> None:
    counts: Counter[int] = Counter()
    node = Node([0, 1, 2], [0.5, 0.3, 0.2])
    for deal in range(3000):
        counts[KeyedChance(deal)(node)] += 1  # type: ignore[arg-type]
    assert abs(counts[0] / 3000 - 0.5) < 0.03
    assert abs(counts[1] / 3000 - 0.3) < 0.03
    assert abs(counts[2] / 3000 - 0.2) < 0.03
    # and a die rolled many times within one game is uniform
    chance = KeyedChance("die")
    die = Node(list(range(6)))
    faces = Counter(chance(die) for _ in range(6000))  # type: ignore[arg-type]
    assert all(abs(faces[f] / 6000 - 1 / 6) < 0.02 for f in range(6))


def test_geier_point_cards_are_identical_with_the_seats_permuted() -> None:
    game = load_game("geier", players=3)
    bots = [RandomBot(), make_bot("heuristic", game), make_bot("noisy:0.5", game)]
    orders = []
    for shift in range(3):
        seated = bots[shift:] + bots[:shift]
        chance = KeyedChance("42:5")
        state = play_game(game, seated, bot_rng=random.Random(shift), chance=chance)
        cards = [POINT_CARDS[a] for actor, a in state.history() if actor == "chance"]
        orders.append(cards)
        assert chance.drawn == [a for actor, a in state.history() if actor == "chance"]
    assert orders[0] == orders[1] == orders[2]
    assert sorted(orders[0]) == sorted(POINT_CARDS)


def test_arena_games_of_one_deal_share_their_chance_outcomes() -> None:
    spec = ArenaSpec("geier", 2, {}, ("random", "heuristic"), games=4, seed=9)
    results = [play_one(spec, deal, s) for deal, s in spec.tasks()]
    by_deal: dict[int, list[list[int]]] = {}
    for r in results:
        by_deal.setdefault(r.deal, []).append(r.chance)
    assert len(by_deal) == 2
    for chances in by_deal.values():
        assert chances[0] == chances[1]
    assert by_deal[0][0] != by_deal[1][0]
    assert [r.seats for r in results[:2]] == [["random", "heuristic"], ["heuristic", "random"]]


def test_seatings_put_every_bot_in_every_seat() -> None:
    for players in range(1, 6):
        for bots in range(1, players + 1):
            table = seatings(players, bots)
            for bot in range(bots):
                for seat in range(players):
                    assert any(s[seat] == bot for s in table)
    assert seatings(2, 2) == [[0, 1], [1, 0]]
    assert seatings(4, 2) == [[0, 1, 0, 1], [1, 0, 1, 0]]
    assert len(seatings(3, 3)) == 3


def test_partners_always_get_the_same_bot() -> None:
    # safaru-2: opposite seats are partners at 4 players, so four bots cannot sit there, two rotate over the teams
    teams = load_game("safaru", players=4).teams()
    assert teams == [0, 1, 0, 1]
    assert seatings(4, 2, teams) == [[0, 1, 0, 1], [1, 0, 1, 0]]
    with pytest.raises(ValueError, match="2 teams"):
        seatings(4, 4, teams)
    # rummu-2: six players in partnerships make three teams (seats s and s + 3)
    six = load_game("rummu", players=6, partnerships=True).teams()
    assert six == [0, 1, 2, 0, 1, 2]
    for table in seatings(6, 2, six):
        assert all(table[seat] == table[seat + 3] for seat in range(3))
    assert {tuple(t) for t in seatings(6, 3, six)} == {(0, 1, 2, 0, 1, 2), (1, 2, 0, 1, 2, 0), (2, 0, 1, 2, 0, 1)}
    # without partnerships every seat is its own team, as before
    assert load_game("rummu", players=6).teams() == list(range(6))
    assert seatings(6, 2, list(range(6))) == seatings(6, 2)


def test_a_team_game_is_seated_by_teams_in_the_arena() -> None:
    spec = ArenaSpec("rummu", 6, {"partnerships": True}, ("random", "heuristic"), games=2, seed=3)
    for table in spec.seatings():
        assert all(table[seat] == table[seat + 3] for seat in range(3))


def test_duplicate_games_share_their_deal_and_no_duplicate_games_do_not() -> None:
    """``--duplicate`` (the default) gives every seating of a deal the same cards; ``--no-duplicate`` a deal a game."""
    same = ArenaSpec("geier", 2, {}, ("random", "heuristic"), 4, seed=3)
    apart = ArenaSpec("geier", 2, {}, ("random", "heuristic"), 4, seed=3, duplicate=False)
    for deal in range(2):
        shared = [play_one(same, deal, seating).chance for seating in range(2)]
        own = [play_one(apart, deal, seating).chance for seating in range(2)]
        assert shared[0] == shared[1]
        assert own[0] != own[1]
        assert own[0] == shared[0] or own[1] != shared[1]  # keys differ from the duplicate ones per seating
    one = ArenaSpec("geier", 2, {}, ("random",), 4)
    assert one.chance_key(1, 0) == one.chance_key(1, 1)
