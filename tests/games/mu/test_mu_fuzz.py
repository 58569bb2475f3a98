"""Random-play fuzzing of Mü over every player count and target, checking the game's invariants.

Uniformly random players lay nearly every card, so most of their hands end in an égalité (mu-3); a second
fuzz uses players that pass often, so that most hands reach the tricks.  Both check, after every action:
every card is in exactly one place; each lay kept the mu-2 limit; each card played followed suit (mu-7); at the
end of a hand every card was played once, the triangles sum to the deck's and the scores follow mu-3/mu-8.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from ludotheque.core import CHANCE, replay_record
from ludotheque.games import load_game
from ludotheque.games.mu import notation as nt
from ludotheque.games.mu import rules
from ludotheque.games.mu.game import MuState
from ludotheque.testing import SimStats, check_step, fuzz_games, random_sim_test

CONTRACT = {3: (10, 2), 4: (28, 2), 5: (21, 3), 6: (16, 4)}  # mu-8, written out again on purpose


def expected_deltas(n: int, hand: dict[str, Any], auction: list[tuple[int, int]]) -> list[int]:
    """mu-3 and mu-8 recomputed from a hand's public summary and its auction, independently of rules.py."""
    bids = hand["bids"]
    if hand["result"] == "redeal":
        return [0] * n
    if hand["result"] == "egalite":
        top = max(bids)
        # mu-3: the tie maker is the tied seat that laid a card last
        maker = [seat for seat, action in auction if action < nt.FROM_TABLE and bids[seat] == top][-1]
        assert hand["tie_maker"] == maker and hand["tied"] == [s for s, b in enumerate(bids) if b == top]
        return [(-10 * b if s == maker else 5 * b) if b == top else 0 for s, b in enumerate(bids)]
    tri, chief, partner = hand["triangles"], hand["chief"], hand["partner"]
    bid = bids[chief]
    base, step = CONTRACT[n]
    team = tri[chief] + (tri[partner] if partner is not None else 0)
    out = list(tri)
    if team >= base + step * bid:
        trump = hand["chief_trump"]
        extra = 30 if trump == "none" else 10 if trump in ("1", "7") else 20 if trump.isdigit() else 0
        for seat in {chief, partner} - {None}:
            out[seat] += 10 * bid + extra
        return out
    k = 0
    for smaller in range(1, bid):
        if team >= base + step * smaller:
            k = smaller
    for seat in range(n):
        if seat == chief:
            out[seat] -= 10 * (bid - k)
        elif seat != partner:
            out[seat] += 5 * (bid - k)
    return out


def check_auction(entries: list[tuple[int, int]], n: int) -> None:
    """mu-2 from the auction log alone: turns are runs of one seat's entries; a turn is a pass, or one or more
    lays (then ``done`` or the turn ended at its limit); after it the seat is at most one above the highest
    total before it."""
    bids = [0] * n
    index = 0
    while index < len(entries):
        seat = entries[index][0]
        run = []
        while index < len(entries) and entries[index][0] == seat:
            run.append(entries[index][1])
            index += 1
        limit = max(bids) + 1
        if run == [nt.PASS]:
            continue
        lays = [a for a in run if a < nt.FROM_TABLE]
        assert lays and all(a == nt.DONE for a in run[len(lays) :]) and len(run) - len(lays) <= 1, run
        bids[seat] += len(lays)
        assert bids[seat] <= limit, f"seat {seat} reached {bids[seat]}, limit {limit}"


class Invariants:
    def __init__(self) -> None:
        self.prev: MuState | None = None
        self.hands_seen = 0
        self.tricks_seen = 0

    def __call__(self, state: Any) -> None:
        assert isinstance(state, MuState)
        n = state.game.players
        prev = self.prev
        if prev is not None and len(state.history()) == len(prev.history()) + 1:
            self.transition(prev, state, n)
        deck = rules.full_deck(state.removed)
        for kind in range(rules.KINDS):
            where = sum(h[kind] for h in state.hands) + sum(t[kind] for t in state.laid)
            assert where + state.played[kind] + state.deck[kind] == deck[kind], nt.card_name(kind)
        self.prev = state.clone()

    def transition(self, prev: MuState, state: MuState, n: int) -> None:
        actor, action = state.history()[-1]
        if actor != CHANCE and prev.phase == "auction":
            check_auction([*prev.auction, (int(actor), action)], n)
        if actor != CHANCE and prev.phase == "play":
            seat = int(actor)
            kind = action % rules.KINDS
            if prev.trick:
                cat = prev._category
                led = cat(prev.trick[0][1])
                held = [k for k in range(rules.KINDS) if prev.hands[seat][k] or prev.laid[seat][k]]
                if any(cat(k) == led for k in held):
                    assert cat(kind) == led, f"seat {seat} did not follow with {nt.card_name(kind)}"
            if len(state.log) > len(prev.log):  # the last card of the hand
                played = list(prev.played)
                played[kind] += 1
                assert played == rules.full_deck(prev.removed), "every card is played exactly once"
                self.tricks_seen += 1
        if len(state.log) > len(prev.log):
            hand = state.log[-1]
            self.hands_seen += 1
            if hand["result"] in ("made", "missed"):
                assert sum(hand["triangles"]) == (36 if n == 3 else 60)
                assert max(hand["bids"]) == hand["bids"][hand["chief"]]
            assert hand["deltas"] == expected_deltas(n, hand, prev.auction), hand
            assert state.scores == [p + d for p, d in zip(prev.scores, hand["deltas"], strict=True)]
            assert state.is_terminal() == (max(state.scores) >= state.target)


def passing_sim(game: Any, games: int, seed: int, invariants: Invariants, pass_bias: float) -> SimStats:
    """Like ``random_sim_test`` but players pass with probability ``pass_bias`` when they may."""
    rng = random.Random(seed)
    stats = SimStats()
    for _ in range(games):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            check_step(state, rng, stats, steps % 7 == 0)
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                stats.chance_actions += 1
            else:
                seat = state.current_players()[0]
                legal = state.legal_actions(seat)
                if nt.PASS in legal and rng.random() < pass_bias:
                    state.apply_action(nt.PASS, seat)
                elif nt.DONE in legal and rng.random() < pass_bias:
                    state.apply_action(nt.DONE, seat)
                else:
                    state.apply_action(rng.choice(legal), seat)
            stats.actions += 1
            steps += 1
            invariants(state)
        again = replay_record(json.loads(json.dumps(state.to_record())), load_game)
        assert again.history() == state.history() and again.returns() == state.returns()
        assert again.winners() == state.winners() == rules.match_winners(state.scores)
        stats.games += 1
    return stats


@pytest.mark.fuzz
@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("target", [1, 50, 200])
def test_uniform_random_play(players: int, target: int) -> None:
    # DECISIONS mu-9, all-4: every target value plays to an end
    game = load_game("mu", players=players, target=target)
    invariants = Invariants()
    quick, long = (4, 60) if target == 200 else (10, 350)  # matches to 200 are long: fewer of them
    stats = random_sim_test(game, fuzz_games(quick, long), seed=players * 1000 + target, invariants=invariants)
    print(f"mu {players}p target {target}: {stats}; {invariants.hands_seen} hands")
    assert invariants.hands_seen >= stats.games


@pytest.mark.fuzz
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_passing_random_play_reaches_the_tricks(players: int) -> None:
    game = load_game("mu", players=players, target=60)
    invariants = Invariants()
    stats = passing_sim(game, fuzz_games(10, 300), seed=players, invariants=invariants, pass_bias=0.5)
    print(f"mu {players}p passing players: {stats}; {invariants.hands_seen} hands, "
          f"{invariants.tricks_seen} played to the last trick")
    assert invariants.tricks_seen > 0
