"""The arena's statistics: intervals and ratings."""

from __future__ import annotations

import math

import pytest

from ludotheque.arena.stats import (
    Ratings,
    clustered_mean,
    clustered_rate,
    mean_interval,
    ranks_from_result,
    t95,
    wilson,
)


def test_wilson_known_values() -> None:
    iv = wilson(5, 10)
    assert iv.estimate == 0.5
    assert iv.low == pytest.approx(0.2366, abs=1e-4) and iv.high == pytest.approx(0.7634, abs=1e-4)
    iv = wilson(0, 20)
    assert iv.low == pytest.approx(0.0, abs=1e-12) and iv.high == pytest.approx(0.1611, abs=1e-4)
    iv = wilson(20, 20)
    assert iv.high == 1.0 and iv.low == pytest.approx(0.8389, abs=1e-4)
    assert wilson(0, 0).low == 0.0 and wilson(0, 0).high == 1.0


def test_t_quantiles() -> None:
    assert t95(1) == pytest.approx(12.706, abs=1e-3)
    assert t95(30) == pytest.approx(2.042, abs=1e-3)
    assert t95(60) == pytest.approx(2.000, abs=2e-3)
    assert t95(1000) == pytest.approx(1.962, abs=2e-3)
    assert math.isinf(t95(0))


def test_mean_interval() -> None:
    iv = mean_interval([1.0, 2.0, 3.0, 4.0])
    # mean 2.5, sd 1.29099, se 0.645497, t(3) 3.182
    assert iv.estimate == 2.5
    assert iv.high - 2.5 == pytest.approx(3.182 * 0.645497, rel=1e-4)
    assert math.isinf(mean_interval([1.0]).high)


def test_clustered_rate_is_at_least_wilson_and_widens_with_correlation() -> None:
    independent = [[1.0], [0.0]] * 20
    correlated = [[1.0, 1.0], [0.0, 0.0]] * 10  # the same 40 games, but results come in pairs
    a = clustered_rate(independent)
    b = clustered_rate(correlated)
    assert a.estimate == b.estimate == 0.5
    w = wilson(20, 40)
    assert a.low <= w.low and a.high >= w.high
    assert (b.high - b.low) > (a.high - a.low)  # 20 clusters of 2 carry less information than 40 games
    assert clustered_rate([[1.0, 1.0, 1.0]] * 10).excludes(0.5)


def test_clustered_mean() -> None:
    iv = clustered_mean([[1.0, 3.0], [2.0, 2.0], [3.0, 5.0]])
    assert iv.estimate == pytest.approx(16 / 6)
    assert iv.low < iv.estimate < iv.high


def test_ranks() -> None:
    assert ranks_from_result([10.0, 30.0, 20.0], [1]) == [2, 0, 1]
    assert ranks_from_result([10.0, 10.0, 5.0], []) == [0, 0, 1]
    assert ranks_from_result([3.0, 9.0], [0], direction=-1.0) == [0, 1]
    # geier-5: the tied leaders do not win; the next best does
    assert ranks_from_result([20.0, 20.0, 10.0], [2]) == [1, 1, 0]


def test_ratings_follow_results() -> None:
    ratings = Ratings()
    for _ in range(30):
        ratings.update(["strong", "weak"], [0, 1])
    table = ratings.to_json()
    assert table["strong"]["ordinal"] > table["weak"]["ordinal"]
    assert table["strong"]["sigma"] < 8.0
    assert table["strong"]["ordinal"] == pytest.approx(table["strong"]["mu"] - 3 * table["strong"]["sigma"])


def test_ratings_three_players_and_a_bot_in_two_seats() -> None:
    ratings = Ratings()
    for _ in range(20):
        ratings.update(["a", "b", "c"], [0, 1, 2])
        ratings.update(["a", "a", "b"], [1, 0, 2])  # a in two seats counts once, at its best finish
    table = ratings.to_json()
    assert table["a"]["ordinal"] > table["b"]["ordinal"] > table["c"]["ordinal"]
