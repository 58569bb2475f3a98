"""A game-theoretic bot for 2-player Hol's der Geier, and an exact solver for the game on any deck.

With two players, Geier has no hidden information between rounds: both hands are public (each seat sees the
other's unrevealed cards), the point cards to come are public, and only the order of the point cards (chance)
and the current round's face-down cards are unknown.  The game is a stochastic game of simultaneous moves: at
each round both players choose a card at once; the round is a zero-sum matrix game whose entries are the
values of the states that follow.

* ``GeierSolver`` computes those values exactly by backward induction (chance nodes average, decision nodes
  solve their matrix game with ``matrix_game.solve``), memoized.  It solves the whole game for small decks
  (5-7 cards) and the last rounds (the *endgame*) of the real 15-card game.
* ``GTPolicy`` (played by ``GeierGTBot``) plays the round's matrix game and samples its card from its optimal
  mixed strategy.  When at most ``exact_cards`` cards are left in hand, the entries are exact; before that,
  each entry is estimated by rollouts (both players play the heuristic with some noise, down to a small
  endgame solved exactly) with common random numbers across the entries (the same point-card orders and noise
  for every pair of cards), which keeps the matrix consistent.

The utility is zero-sum: +1 for a win, -1 for a loss, 0 for a draw, plus ``margin`` × the point difference
(a tiny amount, so that in decided positions it still prefers more points).  Values are from the solver's
"player 0" (the bot) point of view; ``diff`` is its points minus the opponent's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ludotheque.core import Game
from ludotheque.core.bot import Sampler
from ludotheque.games.geier.game import GeierGame
from ludotheque.games.geier.matrix_game import solve
from ludotheque.games.geier.rules import POINT_CARDS

Policy = Callable[[int, int, int, int, int], "np.ndarray[Any, np.dtype[np.float64]]"]


def cards_of(mask: int) -> list[int]:
    out = []
    card = 1
    while mask >> card:
        if mask >> card & 1:
            out.append(card)
        card += 1
    return out


class GeierSolver:
    """Exact values of 2-player Geier positions for a deck of point cards ``values`` and hands ``1..len``.

    A position is ``(mine, theirs, deck, pot, diff)``: the two hands as bitmasks over card values (bit ``c`` for
    card ``c``), the point cards not yet turned as a bitmask over indices into ``values``, the pot's sum and the
    point difference.  With ``final_tie="highest-mouse"`` the highest mouse each player won and the highest
    mouse in the pot are part of the position too (``mice``).
    """

    def __init__(self, values: Sequence[int], final_tie: str = "next-best", margin: float = 0.0) -> None:
        self.values = tuple(values)
        self.final_tie = final_tie
        self.margin = margin
        self._chance: dict[tuple[int, ...], float] = {}
        self._decision: dict[tuple[int, ...], float] = {}
        self.solves = 0

    def full_hand(self) -> int:
        return sum(1 << c for c in range(1, len(self.values) + 1))

    def full_deck(self) -> int:
        return (1 << len(self.values)) - 1

    # -- terminal and transitions -----------------------------------------------------------------

    def outcome(self, diff: int, mice: tuple[int, int, int]) -> float:
        if diff > 0:
            win = 1.0
        elif diff < 0:
            win = -1.0
        elif self.final_tie == "highest-mouse":
            win = float((mice[0] > mice[1]) - (mice[0] < mice[1]))
        else:
            win = 0.0
        return win + self.margin * diff

    def after_round(
        self, a: int, b: int, pot: int, diff: int, mice: tuple[int, int, int]
    ) -> tuple[int, int, tuple[int, int, int]]:
        """``(pot, diff, mice)`` after cards ``a`` (the bot) and ``b`` are played on ``pot``."""
        if a == b:
            return pot, diff, mice
        take = (a > b) == (pot >= 0)
        if take:
            return 0, diff + pot, (max(mice[0], mice[2]), mice[1], 0)
        return 0, diff - pot, (mice[0], max(mice[1], mice[2]), 0)

    # -- values -----------------------------------------------------------------------------------

    def chance_value(self, mine: int, theirs: int, deck: int, pot: int, diff: int, mice: tuple[int, int, int]) -> float:
        """Value before the next point card is turned (``deck`` empty: the game is over, the pot lost)."""
        if deck == 0:
            return self.outcome(diff, mice)
        key = (mine, theirs, deck, pot, diff, *mice)
        cached = self._chance.get(key)
        if cached is not None:
            return cached
        total = 0.0
        count = 0
        for index, value in enumerate(self.values):
            if deck >> index & 1:
                pot_mouse = max(mice[2], value) if value > 0 else mice[2]
                total += self.decision_value(
                    mine, theirs, deck & ~(1 << index), pot + value, diff, (*mice[:2], pot_mouse)
                )
                count += 1
        value_ = total / count
        self._chance[key] = value_
        return value_

    def matrix(
        self, mine: int, theirs: int, deck: int, pot: int, diff: int, mice: tuple[int, int, int]
    ) -> tuple[list[int], list[int], np.ndarray[Any, np.dtype[np.float64]]]:
        """The round's matrix game after the point card is turned: rows the bot's cards, columns the other's."""
        rows = cards_of(mine)
        cols = cards_of(theirs)
        payoff = np.empty((len(rows), len(cols)))
        for i, a in enumerate(rows):
            for j, b in enumerate(cols):
                new_pot, new_diff, new_mice = self.after_round(a, b, pot, diff, mice)
                if deck == 0:  # the last round: a pot nobody took is lost (geier-4)
                    payoff[i, j] = self.outcome(new_diff, new_mice)
                else:
                    payoff[i, j] = self.chance_value(
                        mine & ~(1 << a), theirs & ~(1 << b), deck, new_pot, new_diff, new_mice
                    )
        return rows, cols, payoff

    def decision_value(
        self, mine: int, theirs: int, deck: int, pot: int, diff: int, mice: tuple[int, int, int]
    ) -> float:
        key = (mine, theirs, deck, pot, diff, *mice)
        cached = self._decision.get(key)
        if cached is not None:
            return cached
        _, _, payoff = self.matrix(mine, theirs, deck, pot, diff, mice)
        value, _, _ = solve(payoff)
        self.solves += 1
        self._decision[key] = value
        return value

    def strategy(
        self, mine: int, theirs: int, deck: int, pot: int, diff: int, mice: tuple[int, int, int]
    ) -> tuple[list[int], np.ndarray[Any, np.dtype[np.float64]], float]:
        """The bot's optimal mixed strategy at a decision: ``(cards, probabilities, value)``."""
        rows, _, payoff = self.matrix(mine, theirs, deck, pot, diff, mice)
        value, p, _ = solve(payoff)
        return rows, p, value

    def game_value(self) -> float:
        """The value of the whole game for the first player (0 by symmetry, up to rounding)."""
        return self.chance_value(self.full_hand(), self.full_hand(), self.full_deck(), 0, 0, (0, 0, 0))

    def clear(self) -> None:
        self._chance.clear()
        self._decision.clear()


# -- the heuristic as a fast policy over positions (for rollouts and exploitability) ------------------


def heuristic_card(hand: list[int], pot: int, to_come: Sequence[int]) -> int:
    """``GeierHeuristicBot``'s rule on raw numbers: the pot's rank among what is left picks the card's rank."""
    worth = abs(pot)
    field = sorted([abs(v) for v in to_come] + [worth])
    below = sum(1 for v in field if v < worth)
    equal = sum(1 for v in field if v == worth)
    fraction = (below + (equal - 1) / 2) / max(1, len(field) - 1)
    return hand[round(fraction * (len(hand) - 1))]


class GTPolicy:
    """The round's matrix game, exact with at most ``exact_cards`` cards in hand, estimated by rollouts before.

    It works on any deck (``values``), so that its exploitability can be measured on small decks.
    """

    def __init__(
        self,
        values: Sequence[int],
        final_tie: str = "next-best",
        *,
        exact_cards: int = 4,
        rollout_exact_cards: int = 2,
        rollouts: int = 32,
        time_limit: float | None = None,
        noise: float = 0.5,
        margin: float = 0.002,
    ) -> None:
        if rollouts < 1:
            raise ValueError("the game-theoretic bot needs at least one rollout per entry")
        self.values = tuple(values)
        self.exact_cards = exact_cards
        self.rollout_exact_cards = min(rollout_exact_cards, exact_cards)
        self.rollouts = rollouts
        self.time_limit = time_limit
        self.noise = noise
        self.solver = GeierSolver(self.values, final_tie, margin=margin)

    def mixed_strategy(
        self, mine: int, theirs: int, deck: int, pot: int, diff: int, mice: tuple[int, int, int], rng: random.Random
    ) -> tuple[list[int], np.ndarray[Any, np.dtype[np.float64]]]:
        if mine.bit_count() <= self.exact_cards:
            rows, p, _ = self.solver.strategy(mine, theirs, deck, pot, diff, mice)
            return rows, p
        rows = cards_of(mine)
        cols = cards_of(theirs)
        payoff = self.estimated_matrix(mine, theirs, deck, pot, diff, mice, rows, cols, rng)
        _, p, _ = solve(payoff)
        return rows, p

    def estimated_matrix(
        self,
        mine: int,
        theirs: int,
        deck: int,
        pot: int,
        diff: int,
        mice: tuple[int, int, int],
        rows: list[int],
        cols: list[int],
        rng: random.Random,
    ) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Each entry: the mean outcome of rollouts after that pair of cards, with common random numbers."""
        start = time.thread_time()
        indices = [i for i in range(len(self.values)) if deck >> i & 1]
        total = np.zeros((len(rows), len(cols)))
        done = 0
        exact_next = mine.bit_count() - 1 <= self.exact_cards
        budget = 1 if exact_next else self.rollouts
        while done < budget:
            if self.time_limit is not None and done > 0 and time.thread_time() - start > self.time_limit:
                break
            order = list(indices)
            rng.shuffle(order)
            seed = rng.random()
            for i, a in enumerate(rows):
                for j, b in enumerate(cols):
                    new_pot, new_diff, new_mice = self.solver.after_round(a, b, pot, diff, mice)
                    if deck == 0:
                        total[i, j] += self.solver.outcome(new_diff, new_mice)
                    elif exact_next:
                        total[i, j] += self.solver.chance_value(
                            mine & ~(1 << a), theirs & ~(1 << b), deck, new_pot, new_diff, new_mice
                        )
                    else:
                        total[i, j] += self._rollout(
                            mine & ~(1 << a), theirs & ~(1 << b), order, new_pot, new_diff, new_mice, seed
                        )
            done += 1
        return total / done

    def _rollout(
        self, mine: int, theirs: int, order: list[int], pot: int, diff: int, mice: tuple[int, int, int], seed: float
    ) -> float:
        """Both sides play the noisy heuristic until the endgame, whose exact value ends the rollout."""
        noise = random.Random(seed)
        values = self.values
        hands = [cards_of(mine), cards_of(theirs)]
        for step, index in enumerate(order):
            if len(hands[0]) <= self.rollout_exact_cards:
                deck = 0
                for rest in order[step:]:
                    deck |= 1 << rest
                return self.solver.chance_value(
                    sum(1 << c for c in hands[0]), sum(1 << c for c in hands[1]), deck, pot, diff, mice
                )
            value = values[index]
            pot += value
            if value > 0:
                mice = (mice[0], mice[1], max(mice[2], value))
            to_come = [values[k] for k in order[step + 1 :]]
            played = []
            for hand in hands:
                if noise.random() < self.noise:
                    card = hand[noise.randrange(len(hand))]
                else:
                    card = heuristic_card(hand, pot, to_come)
                hand.remove(card)
                played.append(card)
            pot, diff, mice = self.solver.after_round(played[0], played[1], pot, diff, mice)
        return self.solver.outcome(diff, mice)

    def as_policy(self, seed: int = 0) -> Callable[[int, int, int, int, int, tuple[int, int, int]], dict[int, float]]:
        """The policy as a function of positions (rollouts seeded by the position, so it is a fixed policy)."""

        def policy(
            mine: int, theirs: int, deck: int, pot: int, diff: int, mice: tuple[int, int, int]
        ) -> dict[int, float]:
            rng = random.Random(hash((seed, mine, theirs, deck, pot, diff, mice)))
            rows, p = self.mixed_strategy(mine, theirs, deck, pot, diff, mice, rng)
            return {card: float(prob) for card, prob in zip(rows, p, strict=True)}

        return policy


class GeierGTBot:
    """2-player Geier: plays ``GTPolicy`` on the 15-card game, reading only its view."""

    def __init__(
        self,
        game: Game,
        *,
        exact_cards: int = 4,
        rollout_exact_cards: int = 2,
        rollouts: int = 32,
        time_limit: float | None = None,
        noise: float = 0.5,
        margin: float = 0.002,
        name: str = "gt",
    ) -> None:
        if not isinstance(game, GeierGame) or game.players != 2:
            raise ValueError(f"the game-theoretic bot plays geier with 2 players, not {game!r}")
        self.name = name
        self.values = POINT_CARDS
        self.policy = GTPolicy(
            POINT_CARDS,
            str(game.options["final_tie"]),
            exact_cards=exact_cards,
            rollout_exact_cards=rollout_exact_cards,
            rollouts=rollouts,
            time_limit=time_limit,
            noise=noise,
            margin=margin,
        )
        self.solver = self.policy.solver
        self.last_strategy: dict[int, float] = {}

    def _position(self, view: dict[str, Any]) -> tuple[int, int, int, int, int, tuple[int, int, int]]:
        table = view["table"]
        seat = view["seat"]
        other = 1 - seat
        mine = sum(1 << c for c in table["hand"])
        if table.get("my_choice"):
            mine |= 1 << table["my_choice"]
        theirs = sum(1 << c for c in table["unrevealed"][other])
        deck = 0
        for value in table["points_to_come"]:
            deck |= 1 << self.values.index(value)
        points = table["points"]
        mice = (0, 0, 0)
        if self.solver.final_tie == "highest-mouse":
            won = table["won"]
            mice = (
                max((v for v in won[seat] if v > 0), default=0),
                max((v for v in won[other] if v > 0), default=0),
                max((v for v in table["pot"] if v > 0), default=0),
            )
        return mine, theirs, deck, table["pot_sum"], points[seat] - points[other], mice

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        rows, p = self.policy.mixed_strategy(*self._position(view), rng)
        self.last_strategy = {card: float(prob) for card, prob in zip(rows, p, strict=True)}
        card = rng.choices(rows, weights=list(p))[0]
        action = card - 1
        return action if action in legal_actions else rng.choice(legal_actions)


# -- analysis: exploitability on small decks ---------------------------------------------------------


def best_response_value(
    solver: GeierSolver,
    policy: Callable[[int, int, int, int, int, tuple[int, int, int]], dict[int, float]],
) -> float:
    """The value for ``policy`` (playing as the first player at every position) against its best response.

    ``policy(mine, theirs, deck, pot, diff, mice)`` gives the first player's card probabilities at a decision.
    Both players see every public fact, so the best response picks at each round the card minimizing the
    policy's expected value: a backward induction over the same positions as the solver.
    """
    chance_memo: dict[tuple[int, ...], float] = {}

    def chance(mine: int, theirs: int, deck: int, pot: int, diff: int, mice: tuple[int, int, int]) -> float:
        if deck == 0:
            return solver.outcome(diff, mice)
        key = (mine, theirs, deck, pot, diff, *mice)
        if key in chance_memo:
            return chance_memo[key]
        total = 0.0
        count = 0
        for index, value in enumerate(solver.values):
            if deck >> index & 1:
                pot_mouse = max(mice[2], value) if value > 0 else mice[2]
                total += decision(mine, theirs, deck & ~(1 << index), pot + value, diff, (mice[0], mice[1], pot_mouse))
                count += 1
        chance_memo[key] = total / count
        return chance_memo[key]

    def decision(mine: int, theirs: int, deck: int, pot: int, diff: int, mice: tuple[int, int, int]) -> float:
        mix = policy(mine, theirs, deck, pot, diff, mice)
        worst = float("inf")
        for b in cards_of(theirs):
            expected = 0.0
            for a, prob in mix.items():
                if prob <= 0.0:
                    continue
                new_pot, new_diff, new_mice = solver.after_round(a, b, pot, diff, mice)
                if deck == 0:
                    expected += prob * solver.outcome(new_diff, new_mice)
                else:
                    expected += prob * chance(mine & ~(1 << a), theirs & ~(1 << b), deck, new_pot, new_diff, new_mice)
            worst = min(worst, expected)
        return worst

    return chance(solver.full_hand(), solver.full_hand(), solver.full_deck(), 0, 0, (0, 0, 0))


def exploitability(
    solver: GeierSolver,
    policy: Callable[[int, int, int, int, int, tuple[int, int, int]], dict[int, float]],
) -> float:
    """How much a best response gains against ``policy`` beyond the game's value (0 for an equilibrium)."""
    return solver.game_value() - best_response_value(solver, policy)


def nash_policy(solver: GeierSolver) -> Callable[[int, int, int, int, int, tuple[int, int, int]], dict[int, float]]:
    def policy(mine: int, theirs: int, deck: int, pot: int, diff: int, mice: tuple[int, int, int]) -> dict[int, float]:
        rows, p, _ = solver.strategy(mine, theirs, deck, pot, diff, mice)
        return {card: float(prob) for card, prob in zip(rows, p, strict=True)}

    return policy


def heuristic_policy(
    solver: GeierSolver,
) -> Callable[[int, int, int, int, int, tuple[int, int, int]], dict[int, float]]:
    def policy(mine: int, theirs: int, deck: int, pot: int, diff: int, mice: tuple[int, int, int]) -> dict[int, float]:
        to_come = [v for i, v in enumerate(solver.values) if deck >> i & 1]
        return {heuristic_card(cards_of(mine), pot, to_come): 1.0}

    return policy
