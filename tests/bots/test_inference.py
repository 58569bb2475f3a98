"""Inference (bots/inference.py): determinizations weighted by how likely the other seats' moves were under the
model, read from the determinization alone, the same on both engines, and used by the search."""

from __future__ import annotations

import math
import random

import pytest

from ludotheque.bots.inference import effective_size, log_likelihood, pool_sampler, weighted_pool
from ludotheque.bots.ismcts import ISMCTSBot
from ludotheque.bots.registry import make_bot
from ludotheque.core import CHANCE, State, sample_chance
from ludotheque.core.bot import make_sampler
from ludotheque.core.native import NativeState, use_engine
from ludotheque.games import load_game


def heuristic_position(game_id: str, players: int, moves: int, seed: int) -> State:
    """A position after ``moves`` decisions of every seat playing the plain heuristic (the model, epsilon 0)."""
    game = load_game(game_id, players=players)
    state = game.new_initial_state()
    rng = random.Random(seed)
    model = game.heuristic_bot_with({})
    done = 0
    while not state.is_terminal() and (done < moves or state.is_chance_node()):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        for seat in state.current_players():
            state.apply_action(model.choose(state.view(seat), state.legal_actions(seat), rng), seat)
            done += 1
    return state


def shared_cards(hand: list[str], truth: list[str]) -> float:
    """The share of ``hand``'s cards that the true hand holds too (copies counted)."""
    return sum(min(hand.count(card), truth.count(card)) for card in set(hand)) / max(1, len(hand))


def replayed_reference(state: State) -> State:
    reference = state.game.new_reference_state()
    for actor, action in state.history():
        reference.apply_action(action, None if actor == CHANCE else actor)
    return reference


@pytest.mark.parametrize(("game_id", "players"), [("safaru", 2), ("calcory", 2), ("geier", 3), ("mu", 3)])
def test_the_pool_keeps_the_view_and_weighs_alike_on_both_engines(game_id: str, players: int) -> None:
    state = heuristic_position(game_id, players, 12, seed=4)
    seat = state.current_players()[0]
    model = state.game.heuristic_bot_with({})
    pool, weights = weighted_pool(make_sampler(state, seat), seat, 24, model, 0.3, random.Random(1))
    assert len(pool) == len(weights) == 24 and max(weights) == 1.0 and min(weights) >= 0.0
    for determinization in pool:
        assert determinization.view(seat) == state.view(seat)  # a resample: nothing the seat could not see
        if isinstance(determinization, NativeState):  # the compiled heuristic models the seats as the Python one
            ours = log_likelihood(determinization, seat, model, 0.3, random.Random(2))
            assert ours == log_likelihood(replayed_reference(determinization), seat, model, 0.3, random.Random(2))
    drawn = pool_sampler(pool, weights)(random.Random(3))
    assert drawn.view(seat) == state.view(seat) and any(drawn.history() == d.history() for d in pool)


def test_a_model_that_plays_at_random_weighs_every_hand_alike() -> None:
    state = heuristic_position("safaru", 3, 15, seed=2)
    seat = state.current_players()[0]
    model = state.game.heuristic_bot_with({})
    _, weights = weighted_pool(make_sampler(state, seat), seat, 16, model, 1.0, random.Random(5))
    assert weights == [1.0] * 16 and effective_size(weights) == pytest.approx(16.0)


def test_the_likelihood_counts_each_other_seats_decision_by_the_model() -> None:
    """By hand: the product over the other seats' decisions with a choice of (1 - eps) [move == model's] +
    eps / legal moves, the seat's own moves and forced moves left out."""
    previous = use_engine("python")
    try:
        state = heuristic_position("safaru", 2, 10, seed=7)
        seat = state.current_players()[0]
        model = state.game.heuristic_bot_with({})
        epsilon = 0.25
        expected = 0.0
        replay = state.game.new_reference_state()
        for actor, action in state.history():
            if actor != CHANCE and actor != seat and len(replay.legal_actions(actor)) > 1:
                legal = replay.legal_actions(actor)
                guess = model.choose(replay.view(actor), legal, random.Random(0))
                expected += math.log((1 - epsilon) * (guess == action) + epsilon / len(legal))
            replay.apply_action(action, None if actor == CHANCE else actor)
        assert log_likelihood(state, seat, model, epsilon, random.Random(0)) == pytest.approx(expected)
        assert expected < 0  # the other seat had choices
    finally:
        use_engine(previous)


def test_inference_favours_the_hands_the_other_seats_really_hold() -> None:
    """When the others play the model, the weighted pool puts more mass than the uniform one on determinizations
    that deal the others their true hands (Safarü 2: the other seat's hand against the truth, card by card)."""
    uniform_agreement, weighted_agreement = 0.0, 0.0
    for seed in range(20):
        state = heuristic_position("safaru", 2, 8, seed=seed)
        seat = state.current_players()[0]
        other = 1 - seat
        truth = state.reference_state() if isinstance(state, NativeState) else state
        true_hand = sorted(truth.view(other)["table"]["hand"])
        model = state.game.heuristic_bot_with({})
        pool, weights = weighted_pool(make_sampler(state, seat), seat, 64, model, 0.3, random.Random(seed))

        scores = [shared_cards(sorted(d.view(other)["table"]["hand"]), true_hand) for d in pool]
        uniform_agreement += sum(scores) / len(scores)
        weighted_agreement += sum(w * s for w, s in zip(weights, scores, strict=True)) / sum(weights)
    assert weighted_agreement > uniform_agreement


@pytest.mark.parametrize("native", [True, False])
def test_the_search_draws_from_the_pool_on_either_engine(native: bool) -> None:
    state = heuristic_position("safaru", 2, 10, seed=3)
    seat = state.current_players()[0]
    bot = make_bot("ismcts:it=120:inf=16:meps=0.2" + ("" if native else ":native=0"), state.game)
    assert isinstance(bot, ISMCTSBot) and (bot.inference, bot.model_epsilon) == (16, 0.2)
    action = bot.choose(state.view(seat), state.legal_actions(seat), random.Random(1), make_sampler(state, seat))
    assert action in state.legal_actions(seat)
    assert bot.last.iterations == 120 and sum(bot.last.visits.values()) == 120


def test_bad_inference_settings_are_refused() -> None:
    game = load_game("safaru", players=2)
    with pytest.raises(ValueError, match="pool"):
        ISMCTSBot(game, inference=-1)
    with pytest.raises(ValueError, match="model's share"):
        ISMCTSBot(game, model_epsilon=0.0)
