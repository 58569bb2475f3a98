"""The arena's statistics: confidence intervals and OpenSkill ratings.

Win rates use a *cluster* interval: the games of one deal (the same chance outcomes with the seats permuted)
are correlated, so the unit of sampling is the deal.  The interval is the Student t interval of the per-deal
means, widened to at least the Wilson score interval of the individual games (which stays sensible when every
game has the same result, where the t interval collapses to a point).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

Z95 = NormalDist().inv_cdf(0.975)

# two-sided 95% Student t quantiles for small degrees of freedom (beyond 30 the normal one is close enough)
_T95 = {
    1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
    11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093,
    20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048,
    29: 2.045, 30: 2.042,
}  # fmt: skip


def t95(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom."""
    if df < 1:
        return math.inf
    if df in _T95:
        return _T95[df]
    # Cornish-Fisher style correction of the normal quantile, accurate to ~1e-3 beyond 30
    z = Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float

    def excludes(self, value: float) -> bool:
        return not self.low <= value <= self.high

    def to_json(self) -> dict[str, float | None]:
        """JSON has no infinity: an unbounded side (a mean of one value) is ``null``."""
        sides = {"estimate": self.estimate, "low": self.low, "high": self.high}
        return {key: value if math.isfinite(value) else None for key, value in sides.items()}


def wilson(successes: float, n: int) -> Interval:
    """Wilson score interval for a proportion (``successes`` may be fractional: shared wins)."""
    if n <= 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float]) -> Interval:
    """Student t interval of a mean (``[-inf, inf]`` with fewer than two values)."""
    n = len(values)
    if n == 0:
        return Interval(0.0, -math.inf, math.inf)
    mean = sum(values) / n
    if n == 1:
        return Interval(mean, -math.inf, math.inf)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t95(n - 1) * math.sqrt(variance / n)
    return Interval(mean, mean - half, mean + half)


def clustered_rate(clusters: Sequence[Sequence[float]]) -> Interval:
    """A rate (values in [0, 1]) observed in clusters (deals): t interval of the cluster means, at least Wilson."""
    values = [v for cluster in clusters for v in cluster]
    n = len(values)
    base = wilson(sum(values), n)
    means = [sum(c) / len(c) for c in clusters if c]
    if len(means) < 2:
        return base
    t = mean_interval(means)
    estimate = sum(values) / n
    # centre the cluster interval on the overall rate (clusters may differ in size)
    half = (t.high - t.low) / 2
    low = min(base.low, max(0.0, estimate - half))
    high = max(base.high, min(1.0, estimate + half))
    return Interval(estimate, low, high)


def clustered_mean(clusters: Sequence[Sequence[float]]) -> Interval:
    """A mean observed in clusters (deals): the t interval of the cluster means."""
    values = [v for cluster in clusters for v in cluster]
    if not values:
        return Interval(0.0, -math.inf, math.inf)
    means = [sum(c) / len(c) for c in clusters if c]
    t = mean_interval(means) if len(means) >= 2 else mean_interval(values)
    estimate = sum(values) / len(values)
    half = (t.high - t.low) / 2
    return Interval(estimate, estimate - half, estimate + half)


def ranks_from_result(returns: Sequence[float], winners: Sequence[int], direction: float = 1.0) -> list[int]:
    """Finishing ranks for a rating update (0 is first): winners first, then by points (``direction`` -1:
    fewer points are better), equal points sharing a rank."""
    n = len(returns)
    keys = [(0 if seat in winners else 1, -direction * returns[seat]) for seat in range(n)]
    order = sorted(set(keys))
    return [order.index(key) for key in keys]


class Ratings:
    """OpenSkill (Plackett-Luce) ratings of named players over a sequence of games."""

    def __init__(self) -> None:
        from openskill.models import PlackettLuce

        self._model = PlackettLuce()
        self._ratings: dict[str, Any] = {}

    def rating(self, name: str) -> Any:
        if name not in self._ratings:
            self._ratings[name] = self._model.rating(name=name)
        return self._ratings[name]

    def update(self, names: Sequence[str], ranks: Sequence[int]) -> None:
        """One game: ``names[i]`` finished at ``ranks[i]``.  A name in several seats is rated once, at its
        best finish (a bot playing itself teaches the ratings nothing)."""
        best: dict[str, int] = {}
        for name, rank in zip(names, ranks, strict=True):
            best[name] = min(rank, best.get(name, rank))
        if len(best) < 2:
            return
        players = list(best)
        teams = [[self.rating(name)] for name in players]
        rated = self._model.rate(teams, ranks=[best[name] for name in players])
        for name, team in zip(players, rated, strict=True):
            self._ratings[name] = team[0]

    def to_json(self) -> dict[str, dict[str, float]]:
        return {
            name: {"mu": float(r.mu), "sigma": float(r.sigma), "ordinal": float(r.ordinal())}
            for name, r in self._ratings.items()
        }
