"""Speed measurements: random playouts through the public protocol, clone/resample costs, bot think time, and
OpenSpiel's goofspiel and the NumPy batch simulator for Geier side by side.

Figures are medians of several runs; every run is timed with ``time.perf_counter``.  They are printed, never
asserted (``ludotheque bench``, ``make bench``).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from ludotheque.core import Game, State, game_class, load_game, sample_chance


@dataclass
class Rate:
    """A median rate over runs, with the spread."""

    per_second: float
    runs: list[float] = field(default_factory=list)

    @classmethod
    def of(cls, runs: list[float]) -> Rate:
        return cls(statistics.median(runs), [round(r, 1) for r in runs])


def _random_playout(game: Game, rng: random.Random, deals: list[int] | None = None) -> int:
    """One uniformly random game through the public protocol (the loop a researcher writes); its action count.

    ``deals``, if given, gets the number of deals (hands) the game completed appended."""
    state = game.new_initial_state()
    actions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            actions += 1
        else:
            for seat in state.current_players():
                state.apply_action(rng.choice(state.legal_actions(seat)), seat)
                actions += 1
    if deals is not None:
        deals.append(state.deals_completed())
    return actions


def _timed_runs(work: Callable[[], int], seconds: float, runs: int) -> tuple[list[float], list[float]]:
    """Repeat ``work`` for ``seconds`` per run; returns units/s and secondary counts/s per run."""
    units, counts = [], []
    for _ in range(runs):
        done = total = 0
        start = time.perf_counter()
        while True:
            total += work()
            done += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        units.append(done / elapsed)
        counts.append(total / elapsed)
    return units, counts


def playouts(game: Game, seconds: float = 1.0, runs: int = 5, seed: int = 0) -> dict[str, Any]:
    """Random games/s and actions/s; for matches of several hands also deals/s (the issue's unit for those)."""
    rng = random.Random(seed)
    deals: list[int] = []
    games, actions = _timed_runs(lambda: _random_playout(game, rng, deals), seconds, runs)
    figures: dict[str, Any] = {"games_per_s": asdict(Rate.of(games)), "actions_per_s": asdict(Rate.of(actions))}
    per_game = sum(deals) / len(deals)
    if per_game != 1:
        figures["deals_per_game"] = round(per_game, 2)
        figures["deals_per_s"] = asdict(Rate.of([g * per_game for g in games]))
    return figures


def sample_states(game: Game, count: int, seed: int = 0) -> list[State]:
    """Decision states met along random games (what a bot is asked to think about)."""
    rng = random.Random(seed)
    states: list[State] = []
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            if rng.random() < 0.1:
                states.append(state.clone())
            seat = rng.choice(state.current_players())
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    return states[:count]


def clone_and_resample(game: Game, samples: int = 200, seed: int = 0) -> dict[str, float]:
    """Microseconds per ``clone()`` and per ``resample()`` over states met in random play."""
    states = sample_states(game, samples, seed)
    rng = random.Random(seed)
    start = time.perf_counter()
    for state in states:
        state.clone()
    clone_us = (time.perf_counter() - start) / len(states) * 1e6
    start = time.perf_counter()
    for state in states:
        state.resample(state.current_players()[0], rng)
    resample_us = (time.perf_counter() - start) / len(states) * 1e6
    return {"clone_us": round(clone_us, 1), "resample_us": round(resample_us, 1)}


def bot_move_time(game: Game, spec: str, moves: int = 5, seed: int = 0) -> dict[str, float]:
    """Seconds per move of a bot (median and max over ``moves`` states met in random play)."""
    from ludotheque.bots import make_bot, step_bots

    bots = [make_bot(spec, game) for _ in range(game.players)]
    rng = random.Random(seed)
    times = []
    for state in sample_states(game, moves, seed):
        seat = state.current_players()[0]
        seated: list[Any] = [None] * game.players
        seated[seat] = bots[seat]
        start = time.perf_counter()
        step_bots(state, seated, rng)
        times.append(time.perf_counter() - start)
    return {"median_s": round(statistics.median(times), 3), "max_s": round(max(times), 3)}


def goofspiel(players: int, seconds: float = 1.0, runs: int = 5, seed: int = 0) -> dict[str, Any] | None:
    """OpenSpiel's goofspiel (15 cards, total points) driven from Python with the same loop; None if absent."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    spiel_game = pyspiel.load_game(
        "goofspiel", {"num_cards": 15, "players": players, "returns_type": "total_points"}
    )
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

    games, actions = _timed_runs(one, seconds, runs)
    return {"games_per_s": asdict(Rate.of(games)), "actions_per_s": asdict(Rate.of(actions))}


def fast_geier(
    players: int, policy: str = "random", games: int = 200_000, runs: int = 5, engine: str = "numba", threads: int = 0
) -> dict[str, Any]:
    """Games/s of the batch simulator; ``threads`` caps Numba's threads (0: all cores)."""
    from ludotheque.fast.geier import simulate

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
    return {"games_per_s": asdict(Rate.of(rates)), "batch": games, "engine": engine, "threads": threads or "all"}


def bench_game(
    game_id: str,
    players: list[int] | None = None,
    seconds: float = 1.0,
    runs: int = 5,
    bot_levels: tuple[str, ...] = ("easy", "medium", "hard"),
    bot_moves: int = 3,
) -> list[dict[str, Any]]:
    """Every measurement for one game, one row per player count."""
    cls = game_class(game_id)
    rows = []
    for n in players or list(range(cls.min_players, cls.max_players + 1)):
        game = load_game(game_id, players=n)
        row: dict[str, Any] = {"game": game_id, "players": n, "playouts": playouts(game, seconds, runs)}
        row.update(clone_and_resample(game))
        row["bots"] = {level: bot_move_time(game, level, bot_moves) for level in bot_levels}
        if game_id == "geier":
            reference = goofspiel(n, seconds, runs)
            if reference is not None:
                row["openspiel_goofspiel"] = reference
                ours = row["playouts"]["games_per_s"]["per_second"]
                row["ratio_ours_over_openspiel"] = round(ours / reference["games_per_s"]["per_second"], 2)
            # Numba on every core (what a user gets), Numba on one core (like for like with goofspiel's one
            # core), and the NumPy engine (any Python policy)
            row["fast_geier"] = fast_geier(n)
            row["fast_geier_1_thread"] = fast_geier(n, threads=1)
            row["fast_geier_numpy"] = fast_geier(n, games=100_000, engine="numpy")
            if reference is not None:
                base = reference["games_per_s"]["per_second"]
                for key, ratio in (
                    ("fast_geier", "ratio_fast_over_openspiel"),
                    ("fast_geier_1_thread", "ratio_fast_1_thread_over_openspiel"),
                    ("fast_geier_numpy", "ratio_fast_numpy_over_openspiel"),
                ):
                    row[ratio] = round(row[key]["games_per_s"]["per_second"] / base, 1)
        rows.append(row)
    return rows
