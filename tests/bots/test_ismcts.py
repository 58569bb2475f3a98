"""ISMCTS searches determinizations from ``resample``, plays only legal actions and keeps to its budget."""

from __future__ import annotations

import math
import random
import time
from typing import Any

import pytest

from ludotheque.bots import ISMCTSBot, RandomBot, play_game, step_bots
from ludotheque.core import IllegalActionError, State, game_class, game_ids, load_game, sample_chance
from ludotheque.core.bot import Sampler

from .toygames import SecretGame, decoy


def dealt_secret(secret: int) -> State:
    state = SecretGame(players=2).new_initial_state()
    state.apply_action(secret)
    return state


@pytest.mark.parametrize("secret", range(4))
def test_searches_resampled_states_not_the_true_one(secret: int) -> None:
    state = dealt_secret(secret)
    bot = ISMCTSBot(state.game, iterations=60)
    step_bots(state, [bot, RandomBot()], random.Random(secret))
    # every determinization put the decoy where the secret is: a bot reading the true state would guess right
    assert state.history()[-1] == (0, decoy(secret))
    assert state.resamples == 60  # type: ignore[attr-defined]
    assert bot.last.iterations == 60


def test_sampler_never_returns_the_true_state() -> None:
    seen: list[State] = []

    class Spy:
        name = "spy"

        def choose(
            self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
        ) -> int:
            assert sampler is not None, "a bot asked at a table gets a sampler"
            for _ in range(3):
                seen.append(sampler(rng))
            return legal_actions[0]

    spy = Spy()
    state = dealt_secret(2)
    step_bots(state, [spy, RandomBot()], random.Random(0))
    assert len(seen) == 3 and all(s is not state for s in seen)
    assert all(s.secret == decoy(2) for s in seen)  # type: ignore[attr-defined]


def test_without_a_sampler_it_plays_the_heuristic() -> None:
    game = load_game("geier", players=2)
    state = game.new_initial_state()
    state.apply_action(sample_chance(state, random.Random(0)))
    bot = ISMCTSBot(game, iterations=10)
    heuristic = game.heuristic_bot()
    view = state.view(0)
    legal = state.legal_actions(0)
    assert bot.choose(view, legal, random.Random(1)) == heuristic.choose(view, legal, random.Random(1))


def test_respects_its_iteration_budget() -> None:
    game = load_game("geier", players=3)
    state = game.new_initial_state()
    state.apply_action(sample_chance(state, random.Random(3)))
    bot = ISMCTSBot(game, iterations=37)
    step_bots(state, [bot, None, None], random.Random(0))
    assert bot.last.iterations == 37
    assert sum(bot.last.visits.values()) <= 37


def test_respects_its_time_limit() -> None:
    game = load_game("geier", players=2)
    state = game.new_initial_state()
    state.apply_action(sample_chance(state, random.Random(3)))
    bot = ISMCTSBot(game, iterations=10**9, time_limit=0.15)
    started = time.perf_counter()
    step_bots(state, [bot, None], random.Random(0))
    spent = time.perf_counter() - started
    assert spent < 0.6  # the limit plus one iteration and the bookkeeping
    assert 1 <= bot.last.iterations < 10**9


def test_plays_only_legal_actions_in_geier_simultaneous_rounds() -> None:
    for players in (2, 3):
        game = load_game("geier", players=players)
        bots = [ISMCTSBot(game, iterations=12), RandomBot(), ISMCTSBot(game, iterations=8, rollout_policy="random")]
        state = play_game(game, bots[:players], random.Random(players), random.Random(7))  # raises if illegal
        assert state.is_terminal()


def test_a_later_seat_searches_first_when_an_earlier_one_is_still_choosing() -> None:
    # the CLI asks bot seats while the human (seat 0) has not chosen yet: the bot at seat 1 must search anyway
    game = load_game("geier", players=2)
    state = game.new_initial_state()
    state.apply_action(sample_chance(state, random.Random(5)))
    bot = ISMCTSBot(game, iterations=30)
    step_bots(state, [None, bot], random.Random(0))
    assert state.current_players() == [0]
    assert bot.last.iterations == 30 and sum(bot.last.visits.values()) > 0


def test_illegal_actions_would_be_caught() -> None:
    state = dealt_secret(0)
    with pytest.raises(IllegalActionError):
        state.apply_action(99, 0)


@pytest.mark.parametrize("secret", range(4))
def test_the_halving_root_also_searches_resampled_states(secret: int) -> None:
    state = dealt_secret(secret)
    bot = ISMCTSBot(state.game, iterations=60, selection="halving")
    step_bots(state, [bot, RandomBot()], random.Random(secret))
    assert state.history()[-1] == (0, decoy(secret))
    # 4 actions, 2 rounds: 7 determinizations for all 4 actions, then 16 for the better 2 (60 rollouts in all)
    assert state.resamples == 7 + 16  # type: ignore[attr-defined]
    assert bot.last.iterations == 60 == sum(bot.last.visits.values())
    assert bot.last.visits[decoy(secret)] == 23


def test_the_halving_root_compares_actions_on_the_same_determinizations() -> None:
    # common random numbers: every action still in the running is played on each determinization drawn
    game = load_game("geier", players=3)
    state = game.new_initial_state()
    state.apply_action(sample_chance(state, random.Random(3)))
    drawn: list[State] = []

    def sample(rng: random.Random) -> State:
        drawn.append(state.resample(0, rng))
        return drawn[-1]

    bot = ISMCTSBot(game, iterations=45, selection="halving")
    legal = state.legal_actions(0)
    choice = bot.choose(state.view(0), legal, random.Random(0), sample)
    assert choice in legal
    assert bot.last.iterations == sum(bot.last.visits.values()) <= 45 + len(legal)
    assert len(drawn) < bot.last.iterations  # each determinization served several actions
    assert all(d is not state for d in drawn)


def test_the_halving_root_respects_its_time_limit_and_plays_legal_moves() -> None:
    game = load_game("geier", players=4)
    bots = [ISMCTSBot(game, iterations=10**9, time_limit=0.05, selection="halving"), None, None, None]
    state = game.new_initial_state()
    state.apply_action(sample_chance(state, random.Random(1)))
    step_bots(state, bots, random.Random(0))
    first = bots[0]
    assert first is not None and 1 <= first.last.iterations < 10**9
    bots = [ISMCTSBot(game, iterations=20, selection="halving"), RandomBot(), None, RandomBot()]
    bots[2] = ISMCTSBot(game, iterations=9, selection="halving", rollout_policy="random")
    assert play_game(game, bots, random.Random(4), random.Random(5)).is_terminal()  # raises if illegal


def test_play_game_refuses_a_seat_without_a_bot() -> None:
    # step_bots leaves such a seat to a person; a whole game would wait for it forever
    game = load_game("geier", players=4)
    seats: list[Any] = [RandomBot(), RandomBot(), None, RandomBot()]
    with pytest.raises(ValueError, match=r"none in seat\(s\) \[2\]"):
        play_game(game, seats, random.Random(1))


def test_the_halving_draw_keeps_a_sure_winner_and_splits_a_coin_flip() -> None:
    draw = ISMCTSBot._draw_between_finalists
    rng = random.Random(0)
    # the best beats the runner-up on every paired determinization: no draw ever picks the runner-up
    sure = {3: [1.0, 0.9, 1.0, 0.8] * 10, 5: [0.2, 0.1, 0.3, 0.0] * 10, 7: [0.0, 0.1]}
    assert {draw(3, sure, rng) for _ in range(200)} == {3}
    # the same rewards in another order: the search cannot tell the two apart, so both are played
    flip = {3: [1.0, 0.0] * 20, 5: [0.0, 1.0] * 20, 7: [0.0]}
    picks = [draw(3, flip, rng) for _ in range(400)]
    assert set(picks) == {3, 5} and 140 < picks.count(5) < 260
    # an action eliminated early (fewer rewards) is never the runner-up
    assert {draw(3, {3: [1.0, 0.0] * 5, 7: [0.0, 1.0]}, rng) for _ in range(50)} == {3}


def test_the_halving_draw_plays_legal_moves_and_needs_halving() -> None:
    game = load_game("geier", players=4)
    drawn = ISMCTSBot(game, iterations=40, selection="halving", final_move="sample")
    seats = [drawn, RandomBot(), RandomBot(), RandomBot()]
    assert play_game(game, seats, random.Random(4), random.Random(5)).is_terminal()  # raises if illegal
    with pytest.raises(ValueError, match="needs selection 'halving'"):
        ISMCTSBot(game, final_move="sample")


def test_the_softmax_draw_weighs_actions_by_how_much_worse_they_look() -> None:
    draw = ISMCTSBot._draw_by_softmax
    rng = random.Random(0)
    # means 0.5, 0.5 and 0.3: at temperature 0.02 the weak one has weight e^-10 against 1 and 1
    rewards = {2: [0.5] * 8, 4: [1.0, 0.0] * 4, 9: [0.3] * 2}
    picks = [draw(rewards, 0.02, rng) for _ in range(400)]
    assert set(picks) == {2, 4} and 150 < picks.count(4) < 250
    # a hotter draw reaches it: weight e^-2 / (2 + e^-2), about 6 %
    hot = [draw(rewards, 0.1, rng) for _ in range(1000)]
    assert 25 < hot.count(9) < 110
    # an action without rewards (out of time before it played) is never drawn
    assert {draw({2: [0.1], 4: []}, 1.0, rng) for _ in range(50)} == {2}


def test_the_softmax_final_move_plays_legal_moves_and_checks_its_settings() -> None:
    game = load_game("geier", players=4)
    drawn = ISMCTSBot(game, iterations=40, selection="halving", final_move="softmax", temperature=0.05)
    seats = [drawn, RandomBot(), RandomBot(), RandomBot()]
    assert play_game(game, seats, random.Random(4), random.Random(5)).is_terminal()  # raises if illegal
    with pytest.raises(ValueError, match="'softmax' draws from the rewards of sequential halving"):
        ISMCTSBot(game, final_move="softmax")
    for bad in (0.0, -1.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="softmax temperature must be a finite reward > 0"):
            ISMCTSBot(game, selection="halving", final_move="softmax", temperature=bad)
    with pytest.raises(ValueError, match="a temperature is for final_move 'softmax', not 'sample'"):
        ISMCTSBot(game, selection="halving", final_move="sample", temperature=0.05)


@pytest.mark.parametrize("game_id", game_ids())
def test_every_registered_game_gets_legal_moves(game_id: str) -> None:
    """A few ISMCTS decisions at the start of every game and player count it allows (tiny budgets)."""
    cls = game_class(game_id)
    rng = random.Random(11)
    for players in sorted({cls.min_players, min(cls.max_players, max(cls.min_players, 3))}):
        game = load_game(game_id, players=players)
        try:
            game.heuristic_bot()
        except ImportError:
            pytest.skip(f"{game_id} is still being written (no heuristic bot yet)")
        tree = ISMCTSBot(game, iterations=4, max_rollout_steps=30)
        flat = ISMCTSBot(game, iterations=4, max_rollout_steps=30, selection="halving")
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal() and decisions < 4:
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            seat = state.current_players()[0]
            legal = state.legal_actions(seat)
            before = state.history()
            bot = tree if decisions % 2 else flat
            step_bots(state, [bot if s == seat else None for s in range(players)], rng)
            assert state.history()[: len(before)] == before
            assert state.history()[len(before)][1] in legal
            decisions += 1


class _Finished:
    """A stand-in for a finished solo state: its points and whether it was won."""

    def __init__(self, points: float, won: bool) -> None:
        self.game = load_game("mice", players=1)
        self._points, self._won = points, won

    def returns(self) -> list[float]:
        return [self._points]

    def winners(self) -> list[int]:
        return [0] if self._won else []

    def is_terminal(self) -> bool:
        return True


def test_a_solo_search_values_a_better_finish_not_only_a_win() -> None:
    # with one seat there are no others to compare points with: the range of points seen so far scales them
    bot = ISMCTSBot(load_game("mice", players=1), iterations=1)
    evaluate = bot._evaluate  # the reward is what this test is about
    assert evaluate(_Finished(0.0, won=False)) == [pytest.approx(0.1)]  # nothing seen yet: the middle
    assert evaluate(_Finished(6.0, won=True)) == [pytest.approx(1.0)]
    lost_badly, lost_narrowly = evaluate(_Finished(0.0, won=False)), evaluate(_Finished(3.0, won=False))
    assert lost_badly == [pytest.approx(0.0)] and lost_narrowly == [pytest.approx(0.1)]
    # a game where fewer points are better is learned from which rollouts were won
    golf = ISMCTSBot(load_game("mice", players=1), iterations=1)
    golf._evaluate(_Finished(10.0, won=False))
    assert golf._evaluate(_Finished(2.0, won=True)) == [pytest.approx(1.0)]
    assert golf._evaluate(_Finished(10.0, won=False)) == [pytest.approx(0.0)]


def test_public_opponent_nodes_are_shared_by_the_hands_drawn_for_them() -> None:
    # Mü deals hidden hands: with nodes keyed by an opponent's own view, nearly every determinization gives it a
    # new node; keyed by what everyone sees, one node serves all the hands drawn for it, so the tree is smaller
    game = load_game("mu", players=5)
    state = game.new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    seat = state.current_players()[0]
    sizes: dict[str, int] = {}
    for nodes in ("own", "public"):
        bot = ISMCTSBot(game, iterations=60, opponent_nodes=nodes, max_rollout_steps=40)
        choice = bot.choose(
            state.view(seat), state.legal_actions(seat), random.Random(0), lambda r: state.resample(seat, r)
        )
        assert choice in state.legal_actions(seat)
        sizes[nodes] = bot.last.nodes
    assert sizes["public"] < sizes["own"] * 0.75


def test_the_observed_opponent_model_tells_a_heuristic_seat_from_a_random_one() -> None:
    game = load_game("geier", players=4)
    heuristic = game.heuristic_bot()
    state = game.new_initial_state()
    rng, chance = random.Random(5), random.Random(6)
    for _ in range(8):  # seat 1 plays the heuristic, seat 2 always bids its lowest card, seats 0 and 3 random
        state.apply_action(sample_chance(state, chance))
        for seat in range(4):
            legal = state.legal_actions(seat)
            if seat == 1:
                action = heuristic.choose(state.view(seat), legal, rng)
            elif seat == 2:
                action = min(legal, key=lambda a: int(state.action_to_string(a, seat)))
            else:
                action = rng.choice(legal)
            state.apply_action(action, seat)
    state.apply_action(sample_chance(state, chance))
    bot = ISMCTSBot(game, iterations=1, rollout_epsilon=0.3, opponent_model="observed")
    epsilons = bot._observed_epsilons(state.resample(3, random.Random(0)), 3)
    assert epsilons[3] == 0.3  # its own rollouts keep the setting
    assert epsilons[1] < 0.15 < 0.6 < epsilons[2]
    assert epsilons[0] > 0.6
    # a bid still face down this round is the determinization's guess, not something seen: not counted
    state.apply_action(state.legal_actions(0)[0], 0)
    assert bot._observed_epsilons(state.resample(3, random.Random(1)), 3) == epsilons


@pytest.mark.parametrize("secret", range(4))
def test_the_observed_opponent_model_still_searches_resampled_states(secret: int) -> None:
    state = dealt_secret(secret)
    bot = ISMCTSBot(state.game, iterations=40, opponent_model="observed", opponent_nodes="public")
    step_bots(state, [bot, RandomBot()], random.Random(secret))
    assert state.history()[-1] == (0, decoy(secret))
    assert state.resamples == 41  # type: ignore[attr-defined]  # one more: the history the model reads


def test_the_opponent_options_play_whole_games_legally() -> None:
    for game_id, players in (("geier", 4), ("cheese", 3), ("safaru", 3)):
        game = load_game(game_id, players=players)
        bots = [
            ISMCTSBot(game, iterations=6, max_rollout_steps=30, opponent_model="observed"),
            ISMCTSBot(game, iterations=6, max_rollout_steps=30, opponent_nodes="public"),
            ISMCTSBot(game, iterations=6, max_rollout_steps=30, opponent_nodes="none"),
            *[RandomBot() for _ in range(players - 3)],
        ]
        assert play_game(game, bots, random.Random(1), random.Random(2)).is_terminal()  # raises if illegal


def test_the_visits_final_move_draws_among_visited_moves_and_best_takes_the_most_visited() -> None:
    game = load_game("geier", players=4)
    state = game.new_initial_state()
    state.apply_action(sample_chance(state, random.Random(3)))
    view, legal = state.view(0), state.legal_actions(0)

    def sampler(rng: random.Random) -> State:
        return state.resample(0, rng)

    drawn_off_the_top = 0
    for seed in range(30):
        for final in ("best", "visits"):
            bot = ISMCTSBot(game, iterations=40, final_move=final)
            action = bot.choose(view, legal, random.Random(seed), sampler)
            visits = bot.last.visits
            assert visits[action] > 0
            if final == "best":
                assert visits[action] == max(visits.values())
            elif visits[action] < max(visits.values()):
                drawn_off_the_top += 1
    assert drawn_off_the_top > 0  # 40 visits spread over several bids: the draw leaves the top one at times


def test_an_unknown_final_move_is_refused() -> None:
    with pytest.raises(ValueError, match="final move 'most'"):
        ISMCTSBot(load_game("geier", players=2), final_move="most")


def test_without_opponent_nodes_the_tree_holds_the_searching_seat_only() -> None:
    # opp=none: the opponents play the rollouts' policy inside the tree too (a best response to that model), so
    # every node is one of the searching seat's information sets; with their own nodes, opponents search too
    game = load_game("geier", players=4)
    state = game.new_initial_state()
    state.apply_action(sample_chance(state, random.Random(3)))
    seats_in_tree: dict[str, set[int]] = {}
    for nodes in ("own", "none"):
        bot = ISMCTSBot(game, iterations=300, opponent_nodes=nodes)
        trees: list[dict[str, object]] = []
        search = bot._iterate

        def spy(
            s: State, root: int, tree: dict[str, object], rng: random.Random, search: Any = search, trees: Any = trees
        ) -> None:
            trees.append(tree)
            search(s, root, tree, rng)  # type: ignore[arg-type]

        bot._iterate = spy  # type: ignore[method-assign]
        choice = bot.choose(
            state.view(2), state.legal_actions(2), random.Random(0), lambda r: state.resample(2, r)
        )
        assert choice in state.legal_actions(2)
        seats_in_tree[nodes] = {seat for seat in range(4) for key in trees[0] if f"'seat': {seat}," in key}
    assert seats_in_tree["none"] == {2}
    assert seats_in_tree["own"] == {0, 1, 2, 3}
