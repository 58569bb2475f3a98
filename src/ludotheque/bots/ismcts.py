"""Information-set Monte Carlo tree search that plays every game through the protocol only.

Variant (``docs/bots.md`` says why): **multiple-observer ISMCTS with information-set keyed nodes**.

* Each iteration draws a determinization with the sampler the table provides (``state.resample(seat, rng)``),
  never the true state, and walks it.
* A decision node is the acting seat's *information set*: the key is that seat's ``view`` of the determinized
  state.  Every seat therefore searches its own tree of what it can see, so a hidden choice (a Geier card chosen
  face down, a card drawn from the pile) never leaks into the choices of a seat that could not see it.  This is
  what makes simultaneous moves work: the seats of one simultaneous decision act one after the other in the
  determinization, and the later ones cannot tell the earlier ones' pending choices apart, because the view does
  not show them.
* Selection is PUCT with the game's heuristic as the prior (half the prior mass on the heuristic's move, the rest
  spread evenly), with availability counts (an action's exploration term uses how often it was legal, not how
  often the node was visited), as in Cowling, Powley & Whitehouse (2012).
* A node is expanded the first time an action of it is tried; then a rollout follows, playing the game's
  heuristic bot with some random moves mixed in, up to the end of the game or a depth cap.
* A new node asks the heuristic for its move (from the view it already computed for the key), which becomes the
  prior: a small budget plays like the heuristic, a large one overrules it where the search knows better.
* The reward of a seat is mostly whether it won (a shared win splits it) plus a small share for its points
  relative to the others' (so the search still tells a lost game from a lost cause), counted the way the game
  declares better (``game.score_sign()``).  After a depth cap the reward is the relative points so far.  A solo
  game has no others: its points are scaled by the range of points this bot's rollouts have reached, so that a
  better finish still counts (a MICE solo rating).
* The move played is the root action with the most visits.
* ``selection="halving"`` replaces the tree by flat Monte Carlo at the root, spent by sequential halving over
  paired determinizations (``_halving``): a best response to the rollouts' opponent model (Geier 5's ``hard``).
"""

from __future__ import annotations

import io
import math
import pickle
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ludotheque.bots.inference import pool_sampler, weighted_pool
from ludotheque.core import Bot, Game, State, sample_chance
from ludotheque.core.bot import OmniscientSampler, Sampler, StateSampler
from ludotheque.core.native import EngineError

#: PUCT's exploration constant.
EXPLORATION = 1.0
#: The share of a new node's prior mass on the heuristic's move (the rest is spread evenly over the legal actions).
PRIOR_BIAS = 0.5
#: The reward's weight on winning; the rest is on the points relative to the other seats.
WIN_WEIGHT = 0.8


@dataclass
class _Node:
    """One information set of one seat: per action [visits, total reward, availability]."""

    stats: dict[int, list[float]] = field(default_factory=dict)
    hint: int | None = None  # the heuristic's move here: the prior puts ``PRIOR_BIAS`` of its mass on it


@dataclass
class SearchInfo:
    """What the last search did (for tests, benchmarks and the curious)."""

    iterations: int = 0
    seconds: float = 0.0
    nodes: int = 0
    visits: dict[int, int] = field(default_factory=dict)


class ISMCTSBot:
    """ISMCTS over ``resample`` determinizations.  ``choose`` without a sampler falls back to the heuristic."""

    def __init__(
        self,
        game: Game,
        *,
        iterations: int = 400,
        compiled_iterations: int | None = None,
        time_limit: float | None = None,
        rollout_epsilon: float = 0.15,
        max_rollout_steps: int = 400,
        selection: str = "puct",
        heuristic_settings: Mapping[str, Any] | None = None,
        final: str = "best",
        name: str = "ismcts",
        native: bool = True,
        inference: int = 0,
        model_epsilon: float = 0.3,
    ) -> None:
        if iterations < 1:
            raise ValueError("ISMCTS needs at least one iteration")
        if not 0.0 <= rollout_epsilon <= 1.0:
            raise ValueError(f"the rollouts' share of random moves must be within [0, 1], not {rollout_epsilon}")
        if selection not in ("puct", "halving"):
            raise ValueError(f"unknown selection {selection!r} (puct, halving)")
        if final not in ("best", "visits"):
            raise ValueError(f"unknown final choice {final!r} (best: the most visited move; visits: a move drawn in "
                             "proportion to its visits among those visited at least a quarter as often)")
        #: how the move is picked from the root's visits: the most visited (``best``), or drawn in proportion to
        #: the visits among the moves visited at least a quarter as often as it (``visits``, a mixed strategy: two
        #: such bots in the same place do not play alike)
        self.final = final
        self.game = game
        self.iterations = iterations
        if compiled_iterations is not None and compiled_iterations < 1:
            raise ValueError("ISMCTS needs at least one iteration")
        #: the budget where the state runs compiled (a level's is a multiple of ``iterations``: the same CPU time
        #: buys that many more there); None: ``iterations`` on both engines
        self.compiled_iterations = compiled_iterations
        #: CPU seconds of the thinking thread a move may take at most (None: the iterations only)
        self.time_limit = time_limit
        self.rollout_epsilon = rollout_epsilon
        self.max_rollout_steps = max_rollout_steps
        self.selection = selection
        self.name = name
        # the compiled search where the state runs compiled (the same algorithm, core/native.py); False keeps
        # this module's loop, the reference the compiled one is measured against
        self.native = native
        if inference < 0:
            raise ValueError(f"the inference pool holds a number of determinizations, not {inference}")
        if not 0.0 < model_epsilon <= 1.0:
            raise ValueError(f"the model's share of random moves must be within (0, 1], not {model_epsilon}")
        #: 0: uniform determinizations; N: a pool of N weighted by the other seats' moves (bots/inference.py)
        self.inference = inference
        self.model_epsilon = model_epsilon
        self.heuristic_settings = dict(heuristic_settings or {})
        # the prior and the rollouts' policy: the game's heuristic, tuned by its own settings if any
        self.heuristic: Bot = game.heuristic_bot_with(heuristic_settings or {})
        # the model of the other seats that inference weighs their moves by: the game's plain heuristic
        self._model: Bot = game.heuristic_bot_with({})
        self.last = SearchInfo()
        self._sign = game.score_sign()  # +1 when more points is better, -1 when fewer is
        self._solo_range: tuple[float, float] | None = None  # lowest and highest solo points seen

    # -- the Bot interface --------------------------------------------------------------------------

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
        """Search over the sampler's determinizations; without a sampler there is nothing to search: play the
        heuristic."""
        if sampler is None:
            return self._heuristic_move(view, legal_actions, rng)
        sample = sampler
        seat = view["seat"]
        if len(legal_actions) == 1:
            self.last = SearchInfo(visits={legal_actions[0]: 0})
            return legal_actions[0]
        start = time.thread_time()
        pool: tuple[list[State], list[float]] | None = None
        if self.inference and not isinstance(sampler, OmniscientSampler):
            pool = weighted_pool(sampler, seat, self.inference, self._model, self.model_epsilon, rng)
            sample = pool_sampler(*pool)
        if self.native and isinstance(sampler, StateSampler):
            found = self._native_choice(sampler, rng, start, pool)
            if found is not None:
                return found
        deadline = None if self.time_limit is None else start + self.time_limit
        if self.selection == "halving":
            return self._halving(view, legal_actions, rng, sample, start, deadline)
        # the root is every determinization's first node (a determinization keeps the seat's view), so its key,
        # view and legal actions are the ones given: each iteration starts there without rebuilding them
        keys = _ViewKeys()
        root = _Node()
        tree: dict[bytes, _Node] = {keys(view): root}
        root_step = _RootStep(root, view, list(legal_actions), keys)
        done = 0
        while done < self.iterations:
            if deadline is not None and done > 0 and time.thread_time() >= deadline:
                break
            self._iterate(sample(rng), seat, tree, rng, root_step)
            done += 1
        visits = {a: 0 for a in legal_actions}
        for action, (n, _, _) in root.stats.items():
            if action in visits:
                visits[action] = int(n)
        self.last = SearchInfo(done, time.thread_time() - start, len(tree), visits)
        best = max(visits.values())
        if best == 0:
            return self._heuristic_move(view, legal_actions, rng)
        if self.final == "visits":
            return _drawn_by_visits(visits, legal_actions, rng)
        return min(a for a, n in visits.items() if n == best)

    def _native_choice(
        self, sampler: StateSampler, rng: random.Random, start: float, pool: tuple[list[State], list[float]] | None
    ) -> int | None:
        """The compiled search's move, or ``None`` where there is none (a Python engine, or heuristic settings
        the compiled heuristic does not take)."""
        settings = {
            "iterations": self.compiled_iterations or self.iterations,
            "eps": self.rollout_epsilon,
            "max_steps": self.max_rollout_steps,
            "halving": self.selection == "halving",
            "seed": rng.getrandbits(64),
            "time_limit": self.time_limit or 0.0,
            "heuristic_settings": self.heuristic_settings,
        }
        if pool is not None:
            settings["pool"], settings["weights"] = pool
        try:
            result = sampler.native_search(settings)
        except EngineError:
            return None
        if result is None:
            return None
        chosen, actions, visits, iterations, nodes = result
        counts = dict(zip(actions, visits, strict=True))
        self.last = SearchInfo(iterations, time.thread_time() - start, nodes, counts)
        if self.final == "visits" and self.selection == "puct" and max(visits, default=0) > 0:
            return _drawn_by_visits(counts, actions, rng)
        return chosen

    def _heuristic_move(self, view: dict[str, Any], legal_actions: list[int], rng: random.Random) -> int:
        action = self.heuristic.choose(view, legal_actions, rng)
        return action if action in legal_actions else rng.choice(legal_actions)

    # -- search -------------------------------------------------------------------------------------

    def _halving(
        self,
        view: dict[str, Any],
        legal: list[int],
        rng: random.Random,
        sample: Sampler,
        start: float,
        deadline: float | None,
    ) -> int:
        """Flat Monte Carlo at the root, its budget spent by sequential halving with common random numbers.

        Why: every determinization gives the opponents other hands, hence other views, so almost every iteration
        of the tree search ends in a node of its own (0.66-0.98 nodes per iteration at every table measured;
        ``python -m ludotheque.bench.bots`` prints it): the search is mostly one level deep anyway, and the
        noise of the root's action values is what more iterations reduce.  Sequential halving (Karnin, Koren &
        Somekh 2013) spends a budget on the best *final* choice rather than on regret; and each round plays every
        remaining action on the same determinizations and rollout seeds, so the actions are compared on the same
        cards and the same luck (their differences are far less noisy than their values).  Each round plays
        every remaining action at least once, so with more actions than budget the search costs about twice the
        actions.  Ties keep the heuristic's move, then the lowest action.
        """
        seat = view["seat"]
        hint = self.heuristic.choose(view, legal, rng)
        # each action's rewards in the order of the determinizations it played: every survivor plays every
        # determinization of its rounds, so two survivors' lists are paired entry by entry
        rewards: dict[int, list[float]] = {action: [] for action in legal}
        candidates = list(legal)
        done = 0

        def rank(action: int) -> tuple[float, bool, int]:
            played = rewards[action]
            return (-sum(played) / len(played), action != hint, action)

        while len(candidates) > 1 and done < self.iterations:
            rounds_left = max(1, math.ceil(math.log2(len(candidates))))
            samples = max(1, (self.iterations - done) // (len(candidates) * rounds_left))
            for _ in range(samples):
                if deadline is not None and done > 0 and time.thread_time() >= deadline:
                    break
                determinization = sample(rng)
                seed = rng.getrandbits(64)
                for action in candidates:
                    state = determinization.clone()
                    state.apply_action(action, seat)
                    rewards[action].append(self._rollout(state, random.Random(seed))[seat])
                    done += 1
            if any(not rewards[action] for action in candidates):
                break  # out of time before this round's first sample
            candidates = sorted(candidates, key=rank)[: (len(candidates) + 1) // 2]
            if deadline is not None and time.thread_time() >= deadline:
                break
        tried = [action for action in candidates if rewards[action]]
        best = min(tried, key=rank) if tried else hint
        self.last = SearchInfo(done, time.thread_time() - start, 0, {a: len(r) for a, r in rewards.items()})
        return best if best in legal else self._heuristic_move(view, legal, rng)

    def _iterate(
        self, state: State, root_seat: int, tree: dict[bytes, _Node], rng: random.Random, root: _RootStep
    ) -> None:
        path: list[tuple[list[float], int]] = []  # (the stats of the action taken, the seat that took it)
        # the first step is the root's: the determinization is at the root's decision, the root seat acting
        node = root.node
        if root.fresh:
            root.fresh = False
            node.hint = self.heuristic.choose(root.view, root.legal, rng)
        seat = root_seat
        legal = root.legal
        choose = self.heuristic.choose
        keys = root.keys
        while True:
            stats = node.stats
            for action in legal:
                entry = stats.get(action)
                if entry is None:
                    entry = stats[action] = [0.0, 0.0, 0.0]
                entry[2] += 1.0
            action = _puct(stats, legal, node.hint)
            chosen = stats[action]
            path.append((chosen, seat))
            state.apply_action(action, seat)
            if chosen[0] == 0.0:
                break  # a new action: the rollout values it
            # down to the next decision with a choice (chance is sampled, forced moves are played)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(sample_chance(state, rng))
                    continue
                seat = state.current_players()[0]
                legal = state.legal_actions(seat)
                if len(legal) > 1:
                    break
                state.apply_action(legal[0], seat)
            else:
                break
            view = state.view(seat)
            key = keys(view)
            found = tree.get(key)  # one lookup when the node exists: this runs on every step of every iteration
            if found is None:
                found = tree[key] = _Node(hint=choose(view, legal, rng))
            node = found
        rewards = self._rollout(state, rng)
        for entry, seat in path:
            entry[0] += 1.0
            entry[1] += rewards[seat]

    def _rollout(self, state: State, rng: random.Random) -> list[float]:
        """Play ``state`` out with the rollout policy: the heuristic, or with the rollouts' share of random moves a
        random one.  This loop runs tens of thousands of moves a search, so it is written flat: the state's
        methods are looked up once, and a move costs no call beyond the protocol's and the heuristic's."""
        steps = 0
        limit = self.max_rollout_steps
        epsilon = self.rollout_epsilon
        choose = self.heuristic.choose
        draw = rng.random
        pick = rng.choice
        is_terminal = state.is_terminal
        is_chance_node = state.is_chance_node
        apply_action = state.apply_action
        while steps < limit and not is_terminal():
            if is_chance_node():
                apply_action(sample_chance(state, rng))
                continue
            for seat in state.current_players():
                legal = state.legal_actions(seat)
                if len(legal) == 1:
                    action = legal[0]
                elif draw() >= epsilon:
                    action = choose(state.view(seat), legal, rng)
                    if action not in legal:
                        action = pick(legal)
                else:
                    action = pick(legal)
                apply_action(action, seat)
                steps += 1
                if is_terminal() or is_chance_node():
                    break
        return self._evaluate(state)

    def _evaluate(self, state: State) -> list[float]:
        n = state.game.players
        points = state.returns()
        winners = state.winners() if state.is_terminal() else []
        if n == 1:
            low, high = self._solo_range = _widened(self._solo_range, points[0])
        else:
            low, high = min(points), max(points)
        spread = high - low
        relative = [0.5] * n if spread == 0 else [(p - low) / spread for p in points]
        if self._sign < 0:
            relative = [1.0 - r for r in relative]
        if not state.is_terminal():
            return relative
        share = 1.0 / len(winners) if winners else 0.0
        w = WIN_WEIGHT
        return [w * (share if seat in winners else 0.0) + (1 - w) * relative[seat] for seat in range(n)]


def _drawn_by_visits(visits: dict[int, int], legal: list[int], rng: random.Random) -> int:
    """A move drawn in proportion to its visits among those the search kept coming back to (visited at least a
    quarter as often as the best): drawing among all of them would play its poor moves too."""
    best = max(visits.values())
    drawn = [a for a in legal if visits[a] * 4 >= best]
    return rng.choices(drawn, weights=[visits[a] for a in drawn])[0]


def _widened(seen: tuple[float, float] | None, points: float) -> tuple[float, float]:
    """The range of solo points seen, widened to ``points``."""
    low, high = seen or (points, points)
    return min(low, points), max(high, points)


@dataclass
class _RootStep:
    """The root of one search: its node, and the view and legal actions every determinization shares there."""

    node: _Node
    view: dict[str, Any]
    legal: list[int]
    keys: _ViewKeys
    fresh: bool = True  # the root's heuristic move is not asked yet (the first iteration asks it)


class _ViewKeys:
    """Node keys: a view serialized by pickle without its memo, one pickler for a whole search.

    Equal bytes unpickle to equal views, so two information sets never share a node; and without the memo equal
    views give equal bytes whatever objects they happen to share (with it, a string or list met twice in one view
    is written as a reference the second time, so equal views built from shared and from fresh objects would
    differ).  Views are JSON data, never cyclic, which is what the memo-less "fast" mode needs.  This is several
    times faster than ``repr`` on every game's views.
    """

    def __init__(self) -> None:
        self._buffer = io.BytesIO()
        self._pickler = pickle.Pickler(self._buffer, pickle.HIGHEST_PROTOCOL)
        self._pickler.fast = True

    def __call__(self, view: dict[str, Any]) -> bytes:
        buffer = self._buffer
        buffer.seek(0)
        buffer.truncate()
        self._pickler.dump(view)
        return buffer.getvalue()


def _puct(stats: dict[int, list[float]], legal: list[int], hint: int | None) -> int:
    """PUCT with the heuristic as prior: ``PRIOR_BIAS`` of the mass on its move, the rest spread evenly.

    ``Q + c · P(a) · sqrt(availability) / (1 + n)``; an action never tried is valued at the mean of those
    tried here (first-play urgency), so the search leaves the heuristic's move only on evidence.
    """
    entries = [stats[action] for action in legal]
    visits = 0.0
    total = 0.0
    for n, w, _ in entries:
        visits += n
        total += w
    fpu = total / visits if visits else 0.5
    bias = PRIOR_BIAS if hint is not None else 0.0
    spread = EXPLORATION * (1.0 - bias) / len(legal)
    boosted = spread + EXPLORATION * bias
    sqrt = math.sqrt
    best_action = legal[0]
    best_score = -math.inf
    for action, (n, w, available) in zip(legal, entries, strict=True):
        prior = boosted if action == hint else spread
        score = (w / n if n else fpu) + prior * sqrt(available) / (1.0 + n)
        if score > best_score:
            best_score = score
            best_action = action
    return best_action
