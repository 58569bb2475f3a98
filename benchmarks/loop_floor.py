"""How fast can *any* engine go through the benchmark's playout loop in CPython?  (``python -m benchmarks.loop_floor``)

``ludotheque bench`` drives Geier with the loop a researcher writes (``bench._random_playout``).  This runs the
very same loop over a *null* Geier: a state whose every method does the least it can (return a prebuilt list,
bump a counter), with Geier's shape (15 chance nodes, then every seat picks among the cards left).  What it
reaches is the ceiling for any Python engine behind this protocol, however it is written; OpenSpiel's
goofspiel, driven by the same kind of loop in the same run, gives the ratio the issue asks about.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any, ClassVar

from ludotheque.bench import _random_playout, _timed_runs, timed_rates
from ludotheque.games.geier.bench import goofspiel

ROUNDS = 15


class NullGeierState:
    """Geier's shape and nothing else: a round is one chance node, then one decision per seat."""

    __slots__ = ("acted", "players", "round")

    OUTCOMES: ClassVar[list[list[tuple[int, float]]]] = [
        [(i, 1.0 / (ROUNDS - r)) for i in range(ROUNDS - r)] for r in range(ROUNDS)
    ]
    CARDS: ClassVar[list[list[int]]] = [list(range(ROUNDS - r)) for r in range(ROUNDS)]

    def __init__(self, players: int) -> None:
        self.players = players
        self.round = 0
        self.acted = -1  # -1: the round's chance node; k: k seats have played

    def is_terminal(self) -> bool:
        return self.round == ROUNDS

    def is_chance_node(self) -> bool:
        return self.acted < 0

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.OUTCOMES[self.round]

    def current_players(self) -> range:
        return range(self.players)

    def legal_actions(self, player: int) -> list[int]:
        return self.CARDS[self.round]

    def apply_action(self, action: int, player: int | None = None) -> None:
        self.acted += 1
        if self.acted == self.players:
            self.round += 1
            self.acted = -1


class NullGeier:
    def __init__(self, players: int) -> None:
        self.players = players

    def new_initial_state(self) -> Any:
        return NullGeierState(self.players)


def main(seconds: float = 1.0, runs: int = 5) -> None:
    rows = []
    for players in (2, 3, 5):
        rng = random.Random(0)
        null = NullGeier(players)
        games, _ = _timed_runs(lambda null=null, rng=rng: _random_playout(null, rng), seconds, runs)  # type: ignore[arg-type]
        floor = sorted(games)[len(games) // 2]
        reference = goofspiel(players, lambda work: timed_rates(work, seconds, runs))
        row: dict[str, Any] = {"players": players, "null_engine_games_per_s": round(floor)}
        if reference is not None:
            spiel = reference["games_per_s"]["per_second"]
            row["openspiel_goofspiel_games_per_s"] = round(spiel)
            row["null_engine_over_openspiel"] = round(floor / spiel, 2)
        rows.append(row)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main(*(float(a) for a in sys.argv[1:2]))
