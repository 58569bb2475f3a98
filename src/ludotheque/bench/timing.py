"""Timing helpers: a work repeated for a while, medians over runs, seconds of single calls."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Rate:
    """A median rate over runs, with the spread."""

    per_second: float
    runs: list[float] = field(default_factory=list)

    @classmethod
    def of(cls, runs: list[float]) -> Rate:
        return cls(statistics.median(runs), [round(r, 1) for r in runs])


def timed_runs(work: Callable[[], int], seconds: float, runs: int) -> tuple[list[float], list[float]]:
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


def timed_rates(work: Callable[[], int], seconds: float = 1.0, runs: int = 5) -> dict[str, Any]:
    """Games/s and actions/s of ``work`` (one game, returning its action count), medians over ``runs``."""
    games, actions = timed_runs(work, seconds, runs)
    return {"games_per_s": asdict(Rate.of(games)), "actions_per_s": asdict(Rate.of(actions))}


def seconds_of(work: Callable[[], object], runs: int) -> list[float]:
    """Seconds of each of ``runs`` calls of ``work``."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return times


def median_seconds(work: Callable[[], object], runs: int) -> float:
    return statistics.median(seconds_of(work, runs))
