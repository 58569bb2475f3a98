"""ISMCTS searches determinizations from ``resample``, plays only legal actions and keeps to its budget."""

from __future__ import annotations

import copy
import random
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ludotheque.bots import ISMCTSBot, RandomBot, play_game, step_bots
from ludotheque.bots.ismcts import _ViewKeys
from ludotheque.core import IllegalActionError, State, sample_chance
from ludotheque.core.bot import Sampler
from ludotheque.games import game_class, game_ids, load_game

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


@pytest.mark.parametrize("native", [True, False])
def test_respects_its_time_limit_in_cpu_seconds(native: bool) -> None:
    """The cap counts the thinking thread's CPU (a level's budget, bots/levels.py): the search stops once it is
    spent, on either engine, and reports the CPU it took."""
    game = load_game("geier", players=2)
    state = game.new_initial_state()
    state.apply_action(sample_chance(state, random.Random(3)))
    bot = ISMCTSBot(game, iterations=10**9, time_limit=0.15, native=native)
    step_bots(state, [bot, None], random.Random(0))
    # the search stopped on its cap, not on its (unreachable) budget, and reports the thinking thread's CPU
    assert 1 <= bot.last.iterations < 10**9
    assert bot.last.seconds > 0


def test_plays_only_legal_actions_in_geier_simultaneous_rounds() -> None:
    for players in (2, 3):
        game = load_game("geier", players=players)
        bots = [ISMCTSBot(game, iterations=12), RandomBot(), ISMCTSBot(game, iterations=8, rollout_epsilon=1.0)]
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
    bots[2] = ISMCTSBot(game, iterations=9, selection="halving", rollout_epsilon=1.0)
    assert play_game(game, bots, random.Random(4), random.Random(5)).is_terminal()  # raises if illegal


def test_play_game_refuses_a_seat_without_a_bot() -> None:
    # step_bots leaves such a seat to a person; a whole game would wait for it forever
    game = load_game("geier", players=4)
    seats: list[Any] = [RandomBot(), RandomBot(), None, RandomBot()]
    with pytest.raises(ValueError, match=r"none in seat\(s\) \[2\]"):
        play_game(game, seats, random.Random(1))


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


def test_the_reward_counts_points_the_way_the_game_declares_better() -> None:
    # a game whose lower totals win says so (``score_order``); the search reads it, it does not guess it
    mice = load_game("mice", players=1)

    class Golf(type(mice)):  # type: ignore[misc]
        def score_order(self) -> Literal["higher", "lower"]:
            return "lower"

    golf = ISMCTSBot(Golf(players=1), iterations=1)
    golf._evaluate(_Finished(10.0, won=False))
    assert golf._evaluate(_Finished(2.0, won=True)) == [pytest.approx(1.0)]
    assert golf._evaluate(_Finished(10.0, won=False)) == [pytest.approx(0.0)]
    assert golf._evaluate(_Finished(6.0, won=False)) == [pytest.approx(0.1)]


def test_unknown_settings_are_refused() -> None:
    game = load_game("geier", players=2)
    with pytest.raises(ValueError, match="unknown selection 'uct'"):
        ISMCTSBot(game, selection="uct")
    with pytest.raises(ValueError, match=r"within \[0, 1\], not 1\.5"):
        ISMCTSBot(game, rollout_epsilon=1.5)
    with pytest.raises(ValueError, match="at least one iteration"):
        ISMCTSBot(game, iterations=0)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False) | st.sampled_from(["R7", "", "b"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["a", "b", "c"]), inner, max_size=3),
    max_leaves=12,
)


@given(_JSON, _JSON)
def test_node_keys_tell_views_apart_exactly_as_their_text_does(a: Any, b: Any) -> None:
    # one key function serves a whole search: equal keys must mean the same view, as repr(view) did
    keys = _ViewKeys()
    assert (keys(a) == keys(b)) == (repr(a) == repr(b))
    assert keys(a) == keys(copy.deepcopy(a))


def test_node_keys_do_not_depend_on_which_objects_a_view_shares() -> None:
    # a view may hold one list (or one string) in two places, or two equal ones: the same information set
    keys = _ViewKeys()
    shared = ["R", "".join(["R", "7"])]
    assert keys({"a": shared, "b": shared, "c": "R7"}) == keys({"a": ["R", "R7"], "b": ["R", "R7"], "c": "R7"})


def test_the_root_of_a_determinization_is_not_viewed_again() -> None:
    # every determinization has the root's view (that is what resample promises): the search starts each
    # iteration from the view it was given instead of building it again
    state = dealt_secret(1)
    viewed: list[int | None] = []

    def sample(rng: random.Random) -> State:
        determinization = state.resample(0, rng)
        real_view = determinization.view

        def view(player: int | None) -> dict[str, Any]:
            viewed.append(player)
            return real_view(player)

        determinization.view = view  # type: ignore[method-assign]
        return determinization

    bot = ISMCTSBot(state.game, iterations=25)
    assert bot.choose(state.view(0), state.legal_actions(0), random.Random(0), sample) == decoy(1)
    assert bot.last.iterations == 25 and viewed == []
