"""Tournaments: summaries of made-up results, a small real run, and the CLI command."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from ludotheque.arena.tournament import ArenaSpec, GameResult, run_arena, seatings, summarize
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
    # duplicate scoring: a's points beyond b's in the same game, per game
    margin = (20 * 10 - 10 * 2 + 0 + 30 * 7) / 20  # a +20 from seat 0; -10, 0 or +30 from seat 1
    assert result.margins["a"]["b"].estimate == pytest.approx(margin)
    assert result.margins["b"]["a"].estimate == pytest.approx(-margin)
    assert result.margins["a"]["b"].excludes(0.0)
    data = result.to_json()
    json.dumps(data, allow_nan=False)
    assert data["summary"]["a"]["win_rate"]["estimate"] == pytest.approx(0.85)
    assert data["points_margin"]["a"]["b"]["estimate"] == pytest.approx(margin)


def test_points_margins_count_the_better_way_and_a_bot_by_the_mean_of_its_seats() -> None:
    # MICE declares that the lowest total wins (mice-7): fewer points is the better margin; a bot in two seats
    # counts with their mean
    spec = ArenaSpec("mice", 3, {}, ("a", "b"), games=4)
    results = [
        made_up(0, 0, ["a", "b", "a"], [3.0, 9.0, 5.0], [0]),
        made_up(0, 1, ["b", "a", "b"], [4.0, 2.0, 8.0], [1]),
        made_up(1, 0, ["a", "b", "a"], [6.0, 1.0, 7.0], [1]),
        made_up(1, 1, ["b", "a", "b"], [2.0, 5.0, 3.0], [0]),
    ]
    result = summarize(spec, results)
    # margins (a over b, fewer is better): deal 0: 9-4 and 6-2; deal 1: 1-6.5 and 2.5-5
    assert result.margins["a"]["b"].estimate == pytest.approx((5 + 4 - 5.5 - 2.5) / 4)
    assert not result.margins["a"]["b"].excludes(0.0)  # two deals that disagree prove nothing


def test_a_mean_of_one_value_has_no_bounds_and_stays_valid_json() -> None:
    spec = ArenaSpec("geier", 2, {}, ("a", "b"), games=1)
    result = summarize(spec, [made_up(0, 0, ["a", "b"], [30.0, 10.0], [0])])
    data = result.to_json()
    assert data["summary"]["a"]["mean_points"]["low"] is None
    json.dumps(data, allow_nan=False)


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


def test_solo_seats_each_bot_alone_on_the_same_deals() -> None:
    assert seatings(1, 3) == [[0], [1], [2]]
    with pytest.raises(ValueError, match="between 1 and 2 bots"):
        seatings(2, 3)
    spec = ArenaSpec("mice", 1, {}, ("random", "heuristic"), games=6, seed=2)
    result = run_arena(spec)
    assert len(result.results) == 6  # 3 deals x each bot alone
    by_deal: dict[int, list[list[int]]] = {}
    for r in result.results:
        by_deal.setdefault(r.deal, []).append(r.chance)
    for draws in by_deal.values():  # duplicate deals: the dice and cards start the same for both bots
        assert draws[0][:5] == draws[1][:5]


def test_solo_summary_compares_bots_deal_by_deal() -> None:
    spec = ArenaSpec("mice", 1, {}, ("a", "b"), games=20)
    results = []
    for deal in range(10):
        # a empties its hand (wins) on 6 deals; b on 2 of those; otherwise a scores higher, but deal 9 is even
        a_wins = deal < 6
        b_wins = deal < 2
        results.append(made_up(deal, 0, ["a"], [6.0 if a_wins else 4.0], [0] if a_wins else []))
        b_points = 6.0 if b_wins else (4.0 if deal == 9 else 2.0)
        results.append(made_up(deal, 1, ["b"], [b_points], [0] if b_wins else []))
    result = summarize(spec, results)
    a, b = result.summaries["a"], result.summaries["b"]
    assert a.win_rate.estimate == pytest.approx(0.6) and b.win_rate.estimate == pytest.approx(0.2)
    assert a.score.estimate == pytest.approx(0.6)  # a lost solo game scores nothing (not a share of a draw)
    assert a.fair_score == pytest.approx(0.4)  # the field's mean: what an equal bot would score
    # a finished ahead on 7 deals (4 wins against b's losses, 3 on points), tied on 3 (2 shared wins, deal 9)
    assert result.head_to_head["a"]["b"].estimate == pytest.approx((7 + 3 * 0.5) / 10)
    assert a.rating["ordinal"] > b.rating["ordinal"]
    # points on the same deal: 6-6 on the 2 shared wins, 6-2 on 4 deals, 4-2 on 3, 4-4 on deal 9
    assert result.margins["a"]["b"].estimate == pytest.approx((4 * 4 + 2 * 3) / 10)
