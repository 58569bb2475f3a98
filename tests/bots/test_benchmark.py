"""The medium benchmark: it times the moves it says it timed and reports the search tree's size."""

from __future__ import annotations

import math

from ludotheque.bench.bots import bench


def test_bench_times_the_moves_asked_and_sizes_the_tree() -> None:
    searched = bench("geier", 2, "ismcts:it=20", games=1, seed=0, max_moves=3)
    assert searched["moves"] == 3
    assert 0.0 <= searched["cpu_mean"] <= searched["cpu_max"]
    # an iteration adds at most one node (it stops at the first action never tried), so at most 1 per iteration
    assert 0.0 < searched["nodes_per_iteration"] <= 1.0


def test_bench_of_a_bot_that_does_not_search_has_no_tree() -> None:
    plain = bench("geier", 2, "heuristic", games=1, seed=0, max_moves=2)
    assert plain["moves"] == 2
    assert math.isnan(plain["nodes_per_iteration"])
