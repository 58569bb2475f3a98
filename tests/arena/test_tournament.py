"""Tournaments: summaries of made-up results, a small real run, and the CLI command."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from ludotheque.arena.tournament import ArenaSpec, GameResult, run_arena, summarize
from ludotheque.cli.arena import register


def made_up(deal: int, seating: int, seats: list[str], returns: list[float], winners: list[int]) -> GameResult:
    n = len(seats)
    return GameResult(deal, seating, seats, returns, winners, [], [1] * n, [0.0] * n, [0.0] * n)


def test_summary_of_made_up_results() -> None:
    spec = ArenaSpec("geier", 2, {}, ("a", "b"), games=20)
    results = []
    for deal in range(10):
        results.append(made_up(deal, 0, ["a", "b"], [30.0, 10.0], [0]))
        # b wins one game in five from its other seat; a draw in deal 9
        if deal == 9:
            results.append(made_up(deal, 1, ["b", "a"], [20.0, 20.0], []))
        elif deal % 5 == 0:
            results.append(made_up(deal, 1, ["b", "a"], [25.0, 15.0], [0]))
        else:
            results.append(made_up(deal, 1, ["b", "a"], [5.0, 35.0], [1]))
    result = summarize(spec, results)
    a, b = result.summaries["a"], result.summaries["b"]
    assert a.games == b.games == 20
    assert a.win_rate.estimate == pytest.approx(17 / 20)
    assert b.win_rate.estimate == pytest.approx(2 / 20)
    assert a.score.estimate == pytest.approx(17.5 / 20)  # the draw splits the game
    assert a.score.excludes(0.5) and a.fair_score == 0.5
    assert a.rating["ordinal"] > b.rating["ordinal"]
    assert result.head_to_head["a"]["b"].estimate == pytest.approx(17.5 / 20)
    assert a.mean_points.estimate == pytest.approx((10 * 30 + 35 * 7 + 15 * 2 + 20) / 20)
    data = result.to_json()
    json.dumps(data)
    assert data["summary"]["a"]["win_rate"]["estimate"] == pytest.approx(0.85)


def test_lowest_score_wins_is_detected_for_ratings() -> None:
    spec = ArenaSpec("geier", 2, {}, ("a", "b"), games=8)
    results = [made_up(d, 0, ["a", "b"], [3.0, 9.0], [0]) for d in range(8)]
    result = summarize(spec, results)
    assert result.summaries["a"].rating["ordinal"] > result.summaries["b"].rating["ordinal"]


def test_a_small_real_arena() -> None:
    spec = ArenaSpec("geier", 3, {}, ("random", "heuristic"), games=6, seed=1)
    result = run_arena(spec)
    assert len(result.results) == 6  # 3 deals x 2 seatings (the two bots alternate round the table)
    assert result.summaries["random"].games == 6
    heuristic = result.summaries["heuristic"]
    assert heuristic.fair_score == pytest.approx(2 / 3) or heuristic.fair_score == pytest.approx(1 / 3)


def test_cli_json() -> None:
    app = typer.Typer()

    @app.command("other")
    def other() -> None:  # a second command so that typer keeps subcommands
        pass

    register(app)
    runner = CliRunner()
    out = runner.invoke(
        app, ["arena", "geier", "--players", "2", "--bots", "random,heuristic", "--games", "4", "--json"]
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["games"] == 4 and data["deals"] == 2
    assert set(data["summary"]) == {"random", "heuristic"}
    table = runner.invoke(app, ["arena", "geier", "-p", "2", "--bots", "random,heuristic", "-n", "2"])
    assert table.exit_code == 0 and "ordinal" in table.output
    bad = runner.invoke(app, ["arena", "geier", "-p", "2", "--bots", "random,nope", "-n", "2"])
    assert bad.exit_code == 2
