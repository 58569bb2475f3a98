"""The arena on Ray: a small arena on a local Ray gives the very games ``--jobs`` gives."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ludotheque.arena.cluster import ClusterError, play_on_ray
from ludotheque.arena.tournament import ArenaSpec, play_one, run_arena
from ludotheque.cli.arena import with_optional_values
from ludotheque.cli.main import app

ray = pytest.importorskip("ray")


def games_of(result_games: list) -> list[tuple[int, int, list[float], list[int]]]:
    return sorted((g.deal, g.seating, g.returns, g.chance) for g in result_games)


def test_a_local_ray_plays_the_same_games_as_processes() -> None:
    spec = ArenaSpec("geier", 2, {}, ("random", "heuristic"), 6, seed=5)
    seen: list = []
    on_ray = run_arena(spec, ray="local", on_game=seen.append)
    at_home = run_arena(spec, jobs=1)
    assert len(seen) == 6
    assert games_of(on_ray.results) == games_of(at_home.results)
    for key in ("head_to_head", "points_margin"):  # the summaries but for the seconds each move took
        assert on_ray.to_json()[key] == at_home.to_json()[key]


def test_the_cli_takes_a_bare_ray_flag_and_an_unreachable_address_is_a_clear_error() -> None:
    runner = CliRunner()
    command = ["arena", "geier", "-p", "2", "--bots", "random,heuristic", "-n", "2", "--ray", "--json"]
    assert with_optional_values(command)[8:10] == ["--ray", "local"]
    assert with_optional_values(["--ray"]) == ["--ray", "local"]
    assert with_optional_values(["--ray", "ray://head:10001"]) == ["--ray", "ray://head:10001"]
    bare = runner.invoke(app, with_optional_values(command))
    assert bare.exit_code == 0, bare.output
    assert json.loads(bare.stdout)["games"] == 2
    spec = ArenaSpec("geier", 2, {}, ("random",), 2)
    with pytest.raises(ClusterError, match="cannot reach"):
        play_on_ray(play_one, spec, [(0, 0)], "127.0.0.1:1")
