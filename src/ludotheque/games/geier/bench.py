"""Geier's own benchmark figures: ``ludotheque bench`` finds this module (see the ``ludotheque.bench`` package for
the hooks a game's ``bench.py`` may define) and adds them to each Geier row.

OpenSpiel's goofspiel is the same game under another name (15 cards, total points): driving it from Python
with the benchmark's loop gives a reference for our engine through the protocol.  The batch simulator
(``fast.py``) is timed beside it: Numba on every core (what a user gets), Numba on one core (like for like with
goofspiel's one core) and the NumPy engine (any Python policy).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from ludotheque.core import Game, sample_chance

#: Rates of ``work`` (one game, returning its action count): ``{"games_per_s": ..., "actions_per_s": ...}``,
#: each ``{"per_second": median, "runs": [...]}``.
Timed = Callable[[Callable[[], int]], dict[str, Any]]

#: The batch engines timed, as (row key, label, ratio key): see ``figures``.
ENGINES = (
    ("fast_geier", "games.geier.fast, Numba, every core", "ratio_fast_over_openspiel"),
    ("fast_geier_1_thread", "games.geier.fast, Numba, one core", "ratio_fast_1_thread_over_openspiel"),
    ("fast_geier_numpy", "games.geier.fast, NumPy", "ratio_fast_numpy_over_openspiel"),
)


def goofspiel(players: int, timed: Timed, seed: int = 0) -> dict[str, Any] | None:
    """OpenSpiel's goofspiel (15 cards, total points) driven from Python with the same loop; None if absent."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    spiel_game = pyspiel.load_game("goofspiel", {"num_cards": 15, "players": players, "returns_type": "total_points"})
    rng = random.Random(seed)

    def one() -> int:
        state = spiel_game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))  # the same draw as ours (it only asks for outcomes)
                actions += 1
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(players)])
                actions += players
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        return actions

    return timed(one)


def fast_geier(
    players: int, policy: str = "random", games: int = 200_000, runs: int = 5, engine: str = "numba", threads: int = 0
) -> dict[str, Any]:
    """Games/s of the batch simulator (median of ``runs`` batches); ``threads`` caps Numba's threads (0: all)."""
    from ludotheque.games.geier.fast import simulate

    previous = None
    if engine == "numba" and threads:
        import numba

        previous = numba.get_num_threads()
        numba.set_num_threads(threads)
    try:
        simulate(1000, players, policy, engine=engine)  # warm up (and compile, the first time)
        rates = []
        for seed in range(runs):
            start = time.perf_counter()
            simulate(games, players, policy, seed=seed, engine=engine)
            rates.append(games / (time.perf_counter() - start))
    finally:
        if previous is not None:
            numba.set_num_threads(previous)
    return {
        "games_per_s": {"per_second": statistics.median(rates), "runs": [round(r, 1) for r in rates]},
        "batch": games,
        "engine": engine,
        "threads": threads or "all",
    }


def protocol_rates(game: Game, timed: Timed, seed: int = 0) -> dict[str, Any]:
    """Our Geier's random play through the protocol, timed right after goofspiel so that the ratio compares two
    neighbouring measurements (the row's ``playouts`` were timed before the ceiling, clones and records)."""
    from ludotheque.bench import random_playout

    rng = random.Random(seed)
    return timed(lambda: random_playout(game, rng))


def figures(game: Game, timed: Timed, runs: int) -> dict[str, Any]:
    """Goofspiel and the batch simulator at ``game``'s player count, with their multiples of goofspiel (and ours
    through the protocol, the issue's ratio: ``ratio_protocol_over_openspiel``)."""
    n = game.players
    row: dict[str, Any] = {}
    reference = goofspiel(n, timed)
    ours = protocol_rates(game, timed) if reference is not None else None
    row["fast_geier"] = fast_geier(n, runs=runs)
    row["fast_geier_1_thread"] = fast_geier(n, runs=runs, threads=1)
    row["fast_geier_numpy"] = fast_geier(n, games=100_000, runs=runs, engine="numpy")
    if reference is not None and ours is not None:
        row["openspiel_goofspiel"] = reference
        row["protocol_beside_openspiel"] = ours
        base = reference["games_per_s"]["per_second"]
        row["ratio_protocol_over_openspiel"] = round(ours["games_per_s"]["per_second"] / base, 2)
        for key, _, ratio in ENGINES:
            row[ratio] = round(row[key]["games_per_s"]["per_second"] / base, 1)
    return row


def side_table(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Geier beside goofspiel, one section per player count."""

    def rate(data: dict[str, Any]) -> str:
        return f"{data['games_per_s']['per_second']:,.0f}"

    lines: list[list[str]] = []
    for row in rows:
        reference = row.get("openspiel_goofspiel")
        if reference is not None:
            lines.append([str(row["players"]), "OpenSpiel goofspiel, Python loop", rate(reference), "1"])
        ours = row.get("protocol_beside_openspiel", row["playouts"])
        times = str(row.get("ratio_protocol_over_openspiel", "-"))
        lines.append([str(row["players"]), "ours through the protocol, same loop", rate(ours), times])
        for key, label, ratio in ENGINES:
            if key in row:
                lines.append([str(row["players"]), label, rate(row[key]), str(row.get(ratio, "-"))])
        lines.append([])
    missing = any("openspiel_goofspiel" not in row for row in rows)
    return {
        "title": "Geier against OpenSpiel goofspiel (num_cards=15, total_points), same run",
        "columns": ["players", "engine", "games/s", "× goofspiel"],
        "rows": lines,
        "note": "OpenSpiel is not installed: pip install 'ludotheque[rl]' for the comparison" if missing else None,
    }
