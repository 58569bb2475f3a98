"""The playout loop's own ceiling for a game: the same loop over a *null* engine with that game's shape.

The null engine replays the shape of recorded random games: at each step the same kind of node (chance or a
decision), the same acting seats and the same lists of outcomes or legal actions, every one prebuilt, so that
each method does the least it can (index a list, bump a counter).  What the loop reaches over it is the rate no
Python engine behind this protocol can pass, however it is written; divided by the game's actions per deal it
gives the deals/s ceiling that the speed targets are stated against (``ludotheque bench``, ``ceiling`` key).
"""

from __future__ import annotations

import random
import statistics
from dataclasses import asdict
from typing import Any

from ludotheque.bench.playouts import PlayoutGame, random_playout
from ludotheque.bench.timing import Rate, timed_runs
from ludotheque.core import Game, sample_chance

#: The issue's target for every game: random deals a second through the protocol at its largest player count.
TARGET_DEALS_PER_S = 1_000

#: One step of the loop: (chance node?, the seats ``current_players()`` names, the outcomes or legal actions).
Step = tuple[bool, tuple[int, ...], list[Any]]


def record_shape(game: Game, rng: random.Random) -> tuple[list[Step], int]:
    """One random game through the protocol's loop, as the steps the null engine replays; and its deals."""
    state = game.new_initial_state()
    steps: list[Step] = []
    while not state.is_terminal():
        if state.is_chance_node():
            steps.append((True, (), list(state.chance_outcomes())))
            state.apply_action(sample_chance(state, rng))
            continue
        seats = tuple(state.current_players())
        for seat in seats:  # the loop asks current_players() once for all of them, as here
            legal = list(state.legal_actions(seat))
            steps.append((False, seats, legal))
            state.apply_action(rng.choice(legal), seat)
    return steps, state.deals_completed()


class NullState:
    """A recorded game's shape and nothing else."""

    __slots__ = ("at", "steps")

    def __init__(self, steps: list[Step]) -> None:
        self.steps = steps
        self.at = 0

    def is_terminal(self) -> bool:
        return self.at == len(self.steps)

    def is_chance_node(self) -> bool:
        return self.steps[self.at][0]

    def chance_outcomes(self) -> list[Any]:
        return self.steps[self.at][2]

    def current_players(self) -> tuple[int, ...]:
        return self.steps[self.at][1]

    def legal_actions(self, player: int) -> list[Any]:
        return self.steps[self.at][2]

    def apply_action(self, action: int, player: int | None = None) -> None:
        self.at += 1

    def deals_completed(self) -> int:
        return 0


class NullGame:
    """Hands out null states over the recorded games in turn."""

    def __init__(self, shapes: list[list[Step]]) -> None:
        self.shapes = shapes
        self.next = 0

    def new_initial_state(self) -> NullState:
        steps = self.shapes[self.next % len(self.shapes)]
        self.next += 1
        return NullState(steps)


def recorded_shapes(
    game: Game, rng: random.Random, min_games: int = 3, min_deals: int = 12
) -> tuple[list[list[Step]], float]:
    """Random games' shapes for the null engine (at least ``min_games`` games and ``min_deals`` deals), and their
    actions per deal."""
    shapes: list[list[Step]] = []
    deals = 0
    while len(shapes) < min_games or deals < min_deals:
        steps, done = record_shape(game, rng)
        shapes.append(steps)
        deals += max(1, done)
    return shapes, sum(len(steps) for steps in shapes) / deals


def paired_share(
    game: Game, seconds: float = 0.25, pairs: int = 9, seed: int = 0, shapes: list[list[Step]] | None = None
) -> dict[str, Any]:
    """The protocol's actions/s over the null engine's, timed in adjacent slices of ``seconds``: its share of the
    loop's ceiling, steady on a machine whose speed drifts.  ``shapes``: the null engine's games, if recorded
    already (``recorded_shapes``).

    Timed apart, the two rates can meet different speeds of a shared machine (they drift by half and more within
    minutes on a loaded virtual machine); two neighbouring slices meet the same one, so each pair gives a ratio
    and ``share`` is their median.  Each pair alternates which loop goes first, so a drift within a pair
    cancels out over the pairs."""
    rng = random.Random(seed)
    null = NullGame(shapes if shapes is not None else recorded_shapes(game, rng)[0])

    def actions_per_s(engine: PlayoutGame) -> float:
        return timed_runs(lambda: random_playout(engine, rng), seconds, 1)[1][0]

    ratios = []
    for pair in range(pairs):
        if pair % 2:
            ceiling = actions_per_s(null)
            protocol = actions_per_s(game)
        else:
            protocol = actions_per_s(game)
            ceiling = actions_per_s(null)
        ratios.append(protocol / ceiling)
    return {"share": round(statistics.median(ratios), 3), "pairs": [round(r, 3) for r in ratios]}


def loop_ceiling(
    game: Game,
    seconds: float = 1.0,
    runs: int = 5,
    seed: int = 0,
    min_games: int = 3,
    min_deals: int = 12,
    recorded: tuple[list[list[Step]], float] | None = None,
) -> dict[str, Any]:
    """The null engine's actions/s over ``game``'s shape and the deals/s ceiling it gives.

    ``actions_per_deal`` comes from at least ``min_games`` random games and ``min_deals`` deals;
    ``target_deals_per_s`` is the issue's: 1,000 deals/s, or half the ceiling where the ceiling puts 1,000 out
    of reach.  ``recorded``: ``recorded_shapes``'s answer, if already at hand."""
    rng = random.Random(seed)
    shapes, per_deal = recorded if recorded is not None else recorded_shapes(game, rng, min_games, min_deals)
    null = NullGame(shapes)
    _, actions = timed_runs(lambda: random_playout(null, rng), seconds, runs)
    rate = Rate.of(actions)
    deals_per_s = rate.per_second / per_deal
    return {
        "actions_per_deal": round(per_deal, 1),
        "null_actions_per_s": asdict(rate),
        "deals_per_s": round(deals_per_s, 1),
        "target_deals_per_s": round(min(TARGET_DEALS_PER_S, deals_per_s / 2), 1),
    }
