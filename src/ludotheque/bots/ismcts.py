"""Information-set Monte Carlo tree search that plays every game through the protocol only.

Variant (see ``docs/bots.md`` for the reasons): **multiple-observer ISMCTS with information-set keyed nodes**.

* Each iteration draws a determinization with the sampler the runner provides (``state.resample(seat, rng)``),
  never the true state, and walks it.
* A decision node is the acting seat's *information set*: the key is that seat's ``view`` of the determinized
  state.  Every seat therefore searches its own tree of what it can see, so a hidden choice (a Geier card chosen
  face down, a card drawn from the pile) never leaks into the choices of a seat that could not see it.  This is
  what makes simultaneous moves work: the seats of one simultaneous decision act one after the other in the
  determinization, and the later ones cannot tell the earlier ones' pending choices apart, because the view does
  not show them.
* Selection is PUCT with the game's heuristic as the prior (half the prior mass on the heuristic's move, the rest
  spread evenly), with availability counts (an action's exploration term uses how often it was legal, not how
  often the node was visited), as in Cowling, Powley & Whitehouse (2012).  Plain UCT (``selection="uct"``,
  untried actions first, a fading bonus for the heuristic's move) is kept for comparison: at the budgets of a
  one-second move it spreads its visits over every action of noisy games and played Geier worse than the
  heuristic it rolls out with.
* A node is expanded the first time an action of it is tried; then a rollout follows, playing the game's
  heuristic bot with some random moves mixed in, up to the end of the game or a depth cap.
* A new node asks the heuristic for its move (from the view it already computed for the key), which becomes the
  prior: a small budget plays like the heuristic, a large one overrules it where the search knows better.
* The reward of a seat is mostly whether it won (a shared win splits it) plus a small share for its points
  relative to the others' (so the search still tells a lost game from a lost cause).  After a depth cap the
  reward is the relative points so far.  A solo game has no others: its points are scaled by the range of
  points this bot's rollouts have reached, so that a better finish still counts (a MICE solo rating).
* The move played is the root action with the most visits; ``final_move="visits"`` draws it in proportion to the
  visits instead (the mixed strategy of simultaneous-move MCTS, for tables where a foreseeable move is a weak one).
* ``selection="halving"`` replaces the tree by flat Monte Carlo at the root, spent by sequential halving over
  paired determinizations (``_halving``): a best response to the rollouts' opponent model; Geier 5's ``hard``
  uses it (``docs/bots.md`` has its measurements).  Its move may be drawn instead of taken: ``final_move="sample"``
  between the last two actions by how sure their paired lead is, ``"softmax"`` over every action by its mean.
* Two opponent options, measured in ``docs/bots.md``: ``opponent_nodes="public"`` keys an opponent's nodes by the
  spectator's view, so one node serves every hand drawn for it (a deeper tree, in the spirit of single-observer
  ISMCTS); ``opponent_nodes="none"`` gives opponents no nodes at all: they play the rollouts' policy in the tree
  too, so the search is a best response to that model (single-observer, opponents as part of the environment);
  ``opponent_model="observed"`` plays each opponent, in the tree and in the rollouts, with the share of
  random moves that its moves so far show against the heuristic (``_observed_epsilons``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ludotheque.core import CHANCE, Bot, Game, State, sample_chance
from ludotheque.core.bot import Sampler

#: ``final_move="softmax"``'s default temperature, in reward units: at Geier 5 the best bids' mean rewards differ by
#: 0.005-0.03, so the draw spreads over the three or four best (docs/bots.md, "How deep the tree really is").
SOFTMAX_TEMPERATURE = 0.02


@dataclass
class _Node:
    """One information set of one seat: per action [visits, total reward, availability]."""

    stats: dict[int, list[float]] = field(default_factory=dict)
    hint: int | None = None  # the heuristic's move here (tried first, then favoured by the progressive bias)


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
        time_limit: float | None = None,
        exploration: float = 1.0,
        rollout_epsilon: float = 0.15,
        rollout_policy: str = "heuristic",
        max_rollout_steps: int = 400,
        win_weight: float = 0.8,
        prior_bias: float = 0.5,
        selection: str = "puct",
        opponent_nodes: str = "own",
        opponent_model: str = "heuristic",
        final_move: str = "best",
        temperature: float | None = None,
        heuristic_settings: Mapping[str, Any] | None = None,
        name: str = "ismcts",
    ) -> None:
        if iterations < 1:
            raise ValueError("ISMCTS needs at least one iteration")
        if rollout_policy not in ("heuristic", "random"):
            raise ValueError(f"unknown rollout policy {rollout_policy!r} (heuristic, random)")
        self.game = game
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.rollout_epsilon = rollout_epsilon
        self.rollout_policy = rollout_policy
        self.max_rollout_steps = max_rollout_steps
        if not 0.0 <= win_weight <= 1.0:
            raise ValueError(f"win_weight must be within [0, 1], not {win_weight}")
        self.win_weight = win_weight
        self.prior_bias = prior_bias
        if selection not in ("puct", "uct", "halving"):
            raise ValueError(f"unknown selection {selection!r} (puct, uct, halving)")
        self.selection = selection
        if opponent_nodes not in ("own", "public", "none"):
            raise ValueError(f"unknown opponent nodes {opponent_nodes!r} (own, public, none)")
        self.opponent_nodes = opponent_nodes
        if opponent_model not in ("heuristic", "observed"):
            raise ValueError(f"unknown opponent model {opponent_model!r} (heuristic, observed)")
        self.opponent_model = opponent_model
        if final_move not in ("best", "visits", "sample", "softmax"):
            raise ValueError(f"unknown final move {final_move!r} (best, visits, sample, softmax)")
        if final_move in ("sample", "softmax") and selection != "halving":
            raise ValueError(f"final_move {final_move!r} draws from the rewards of sequential halving: it needs "
                             "selection 'halving'")
        if temperature is not None and final_move != "softmax":
            raise ValueError(f"a temperature is for final_move 'softmax', not {final_move!r}")
        temperature = SOFTMAX_TEMPERATURE if temperature is None else temperature
        if not 0.0 < temperature < math.inf:
            raise ValueError(f"the softmax temperature must be a finite reward > 0, not {temperature}")
        self.final_move = final_move
        self.temperature = temperature
        # per seat, the share of random moves its model plays (in rollouts, and in the tree for opponents)
        self._epsilons: list[float] = [rollout_epsilon] * game.players
        self.name = name
        # the prior and the rollouts' policy: the game's heuristic, tuned by its own settings if any
        self.heuristic: Bot = game.heuristic_bot_with(heuristic_settings or {})
        self.last = SearchInfo()
        # +1 when more points is better, -1 when fewer is (learned from terminal states: who won?)
        self._direction = 1.0
        self._solo_range: tuple[float, float] | None = None  # lowest and highest solo points seen
        self._solo_won: list[float] = [0.0, 0.0]  # solo: sum of points and count of won rollouts
        self._solo_lost: list[float] = [0.0, 0.0]  # ... and of lost ones, to learn which way points count

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
        start = time.perf_counter()
        deadline = None if self.time_limit is None else start + self.time_limit
        self._epsilons = [self.rollout_epsilon] * self.game.players
        if self.opponent_model == "observed":
            self._epsilons = self._observed_epsilons(sample(rng), seat)
        if self.selection == "halving":
            return self._halving(view, legal_actions, rng, sample, start, deadline)
        tree: dict[str, _Node] = {}
        root_key = repr(view)
        done = 0
        while done < self.iterations:
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            self._iterate(sample(rng), seat, tree, rng)
            done += 1
        root = tree.get(root_key)
        visits = {a: 0 for a in legal_actions}
        if root is not None:
            for action, (n, _, _) in root.stats.items():
                if action in visits:
                    visits[action] = int(n)
        self.last = SearchInfo(done, time.perf_counter() - start, len(tree), visits)
        best = max(visits.values())
        if best == 0:
            return self._heuristic_move(view, legal_actions, rng)
        if self.final_move == "visits":
            # the visit counts as a mixed strategy, as in simultaneous-move MCTS: a bid others can foresee is a
            # bid they can tie (Geier's tied cards cancel), so the move is drawn, not the most visited
            actions = sorted(visits)
            return rng.choices(actions, [visits[a] for a in actions])[0]
        return min(a for a, n in visits.items() if n == best)

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
        ``python -m ludotheque.bots.benchmark`` prints it): the search is mostly one level deep anyway, and the
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
        # determinization of its rounds, so two survivors' lists are paired entry by entry (``final_move="sample"``)
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
                if deadline is not None and done > 0 and time.perf_counter() >= deadline:
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
            if deadline is not None and time.perf_counter() >= deadline:
                break
        tried = [action for action in candidates if rewards[action]]
        best = min(tried, key=rank) if tried else hint
        if self.final_move == "sample" and tried:
            best = self._draw_between_finalists(best, rewards, rng)
        elif self.final_move == "softmax" and tried:
            best = self._draw_by_softmax(rewards, self.temperature, rng)
        self.last = SearchInfo(done, time.perf_counter() - start, 0, {a: len(r) for a, r in rewards.items()})
        return best if best in legal else self._heuristic_move(view, legal, rng)

    @staticmethod
    def _draw_between_finalists(best: int, rewards: dict[int, list[float]], rng: random.Random) -> int:
        """``final_move="sample"``: the best action or the runner-up, drawn with the probability that the best is
        really better, by the paired differences of their rewards (a normal approximation).

        Why: sequential halving ends on one action whether its lead is sure or a coin flip, and two seats that
        search alike (a bot's twin at an arena table) then bid the same card, which at Geier cancels both
        (geier-3).  Drawing where the search cannot tell the two apart costs little and breaks those ties."""
        runner_up = max((a for a in rewards if a != best and len(rewards[a]) == len(rewards[best])),
                        key=lambda a: sum(rewards[a]), default=None)
        if runner_up is None or len(rewards[best]) < 2:
            return best
        diffs = [x - y for x, y in zip(rewards[best], rewards[runner_up], strict=True)]
        n = len(diffs)
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if variance == 0.0:
            return best if mean > 0 else rng.choice(sorted((best, runner_up)))
        sure = 0.5 * (1.0 + math.erf(mean / math.sqrt(2.0 * variance / n)))
        return best if rng.random() < sure else runner_up

    @staticmethod
    def _draw_by_softmax(rewards: dict[int, list[float]], temperature: float, rng: random.Random) -> int:
        """``final_move="softmax"``: an action drawn with weight ``exp(mean reward / temperature)`` over every action
        halving played (a quantal response to the rollouts' model).

        Why: at Geier 4-5 a precise best response is a pure bid, and a table of bots that search alike meets it
        with the same bid (tied cards cancel, geier-3): a probe at Geier 5 had the 960-rollout best response score
        25 % against a fair 40 % at a table with the 240-rollout one, whose noise scatters its bids.  The softmax
        scatters the bid among actions that are nearly as good, by how much worse they look, and leaves the bad
        ones out; an action halving dropped early has fewer rewards but a mean low enough to count little."""
        means = {a: sum(r) / len(r) for a, r in rewards.items() if r}
        top = max(means.values())
        actions = sorted(means)
        weights = [math.exp((means[a] - top) / temperature) for a in actions]
        return rng.choices(actions, weights)[0]

    def _iterate(self, state: State, root_seat: int, tree: dict[str, _Node], rng: random.Random) -> None:
        path: list[tuple[list[float], int]] = []  # (the stats of the action taken, the seat that took it)
        first = True
        expanded = False
        while not expanded and not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            acting = state.current_players()
            seat = root_seat if first and root_seat in acting else acting[0]
            first = False
            legal = state.legal_actions(seat)
            if len(legal) == 1:
                state.apply_action(legal[0], seat)
                continue
            if seat != root_seat and self.opponent_nodes == "none":
                # no opponent nodes: the opponent plays the rollouts' policy here too, so the search is a best
                # response to that model instead of a game against opponents who search (and learn to tie it);
                # first, since the policy already plays this seat's random share (observed or not)
                state.apply_action(self._policy_move(state, seat, legal, rng), seat)
                continue
            if seat != root_seat and self.opponent_model == "observed" and rng.random() < self._epsilons[seat]:
                state.apply_action(rng.choice(legal), seat)  # this opponent's random share, outside the tree
                continue
            if seat != root_seat and self.opponent_nodes == "public":
                # An opponent's node is what everyone sees: shared by all the hands the determinizations give
                # it, so the tree grows past the opponents' moves; its prior still reads this hand.
                node = tree.setdefault(f"{seat}:{state.view(None)!r}", _Node())
                if self.prior_bias > 0:
                    node.hint = self.heuristic.choose(state.view(seat), legal, rng)
            else:
                view = state.view(seat)
                key = repr(view)
                found = tree.get(key)  # one lookup when the node exists: this runs on every step of every iteration
                if found is None:
                    found = tree[key] = _Node()
                    if self.prior_bias > 0:
                        found.hint = self.heuristic.choose(view, legal, rng)
                node = found
            stats = node.stats
            for action in legal:
                entry = stats.get(action)
                if entry is None:
                    entry = stats[action] = [0.0, 0.0, 0.0]
                entry[2] += 1.0
            if self.selection == "puct":
                action = self._puct(stats, legal, node.hint)
            else:
                action = self._uct(stats, legal, node.hint, rng)
            if stats[action][0] == 0.0:
                expanded = True
            path.append((stats[action], seat))
            state.apply_action(action, seat)
        rewards = self._rollout(state, rng)
        for entry, seat in path:
            entry[0] += 1.0
            entry[1] += rewards[seat]

    def _uct(self, stats: dict[int, list[float]], legal: list[int], hint: int | None, rng: random.Random) -> int:
        """UCB1 with availability counts; untried actions first (the heuristic's first), plus progressive bias."""
        untried = [a for a in legal if stats[a][0] == 0.0]
        if untried:
            return hint if hint in untried else rng.choice(untried)
        c = self.exploration
        best_action = legal[0]
        best_score = -math.inf
        for action in legal:
            n, w, available = stats[action]
            score = w / n + c * math.sqrt(math.log(available) / n)
            if action == hint:
                score += self.prior_bias / n
            if score > best_score:
                best_score = score
                best_action = action
        return best_action

    def _puct(self, stats: dict[int, list[float]], legal: list[int], hint: int | None) -> int:
        """PUCT with the heuristic as prior: ``prior_bias`` of the mass on its move, the rest spread evenly.

        ``Q + c · P(a) · sqrt(availability) / (1 + n)``; an action never tried is valued at the mean of those
        tried here (first-play urgency), so the search leaves the heuristic's move only on evidence.
        """
        c = self.exploration
        bias = self.prior_bias if hint is not None else 0.0
        spread = (1.0 - bias) / len(legal)
        visits = 0.0
        total = 0.0
        for action in legal:
            visits += stats[action][0]
            total += stats[action][1]
        fpu = total / visits if visits else 0.5
        best_action = legal[0]
        best_score = -math.inf
        for action in legal:
            n, w, available = stats[action]
            prior = spread + (bias if action == hint else 0.0)
            q = w / n if n else fpu
            score = q + c * prior * math.sqrt(available) / (1.0 + n)
            if score > best_score:
                best_score = score
                best_action = action
        return best_action

    def _observed_epsilons(self, state: State, root_seat: int) -> list[float]:
        """Per seat, the share of random moves that best explains its moves so far (``opponent_model="observed"``).

        Replays a determinization's history up to this seat's last move and asks the heuristic what each other
        seat would have played.  A seat playing the heuristic with a share ``e`` of uniform moves misses it with
        probability ``e (1 - 1/k)`` on a choice among ``k``, so ``e`` is estimated as the misses over the sum of
        ``1 - 1/k``, starting from ``rollout_epsilon`` as if seen on four choices.  Where the past hands are
        hidden, the determinization redrew them, which blurs the count (``docs/bots.md`` has measured estimates).
        """
        prior = 4.0
        misses = [prior * self.rollout_epsilon] * self.game.players
        room = [prior] * self.game.players
        replay = self.game.new_initial_state()
        ask = random.Random(0)  # the heuristic's own tie-breaks, the same for every search
        history = state.history()
        # only moves made before this seat's last one: a later move may be a choice still face down, which the
        # determinization drew at random (a Geier bid of this round)
        seen = max((i for i, (actor, _) in enumerate(history) if actor == root_seat), default=-1)
        for actor, action in history[: seen + 1]:
            if actor == CHANCE:
                replay.apply_action(action)
                continue
            if actor != root_seat:
                legal = replay.legal_actions(actor)
                if len(legal) > 1:
                    misses[actor] += action != self.heuristic.choose(replay.view(actor), legal, ask)
                    room[actor] += 1.0 - 1.0 / len(legal)
            replay.apply_action(action, actor)
        epsilons = [min(1.0, miss / span) for miss, span in zip(misses, room, strict=True)]
        epsilons[root_seat] = self.rollout_epsilon
        return epsilons

    def _policy_move(self, state: State, seat: int, legal: list[int], rng: random.Random) -> int:
        """The rollouts' move for ``seat``: the heuristic, or with this seat's share of random moves a random one."""
        if self.rollout_policy == "heuristic" and rng.random() >= self._epsilons[seat]:
            action = self.heuristic.choose(state.view(seat), legal, rng)
            if action in legal:
                return action
        return rng.choice(legal)

    def _rollout(self, state: State, rng: random.Random) -> list[float]:
        steps = 0
        while not state.is_terminal() and steps < self.max_rollout_steps:
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            for seat in state.current_players():
                legal = state.legal_actions(seat)
                action = legal[0] if len(legal) == 1 else self._policy_move(state, seat, legal, rng)
                state.apply_action(action, seat)
                steps += 1
                if state.is_terminal() or state.is_chance_node():
                    break
        return self._evaluate(state)

    def _evaluate(self, state: State) -> list[float]:
        n = state.game.players
        points = state.returns()
        if state.is_terminal():
            winners = state.winners()
            self._learn_direction(points, winners)
        else:
            winners = []
        if n == 1:
            self._learn_solo(points[0], winners, state.is_terminal())
            assert self._solo_range is not None
            low, high = self._solo_range
        else:
            low, high = min(points), max(points)
        sign = self._direction
        spread = high - low
        relative = [0.5] * n if spread == 0 else [(p - low) / spread for p in points]
        if sign < 0:
            relative = [1.0 - r for r in relative]
        if not state.is_terminal():
            return relative
        share = 1.0 / len(winners) if winners else 0.0
        w = self.win_weight
        return [w * (share if seat in winners else 0.0) + (1 - w) * relative[seat] for seat in range(n)]

    def _learn_solo(self, points: float, winners: list[int], terminal: bool) -> None:
        """Widen the range of solo points seen; learn their direction from won and lost finished rollouts."""
        low, high = self._solo_range or (points, points)
        self._solo_range = (min(low, points), max(high, points))
        if not terminal:
            return
        tally = self._solo_won if winners else self._solo_lost
        tally[0] += points
        tally[1] += 1
        if self._solo_won[1] and self._solo_lost[1]:
            won = self._solo_won[0] / self._solo_won[1]
            lost = self._solo_lost[0] / self._solo_lost[1]
            if won != lost:
                self._direction = 1.0 if won > lost else -1.0

    def _learn_direction(self, points: list[float], winners: list[int]) -> None:
        if not winners or len(winners) == len(points):
            return
        best = max(points)
        worst = min(points)
        if best == worst:
            return
        if all(points[w] == worst for w in winners):
            self._direction = -1.0
        elif all(points[w] == best for w in winners):
            self._direction = 1.0
