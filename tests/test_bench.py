"""The benchmark's figures: deals counted for matches of several hands, the loop it times is the protocol's."""

from __future__ import annotations

import importlib.util
import itertools
import json
import random
import re
from pathlib import Path

import pytest

import ludotheque
from ludotheque import bench
from ludotheque.bench import ceiling
from ludotheque.core import sample_chance


def test_one_deal_games_report_games_only() -> None:
    figures = bench.playouts(ludotheque.load_game("geier", players=2), seconds=0.02, runs=1)
    assert figures["games_per_s"]["per_second"] > 0
    assert "deals_per_s" not in figures


def test_matches_report_deals_per_second() -> None:
    # rummu with a cap of 2 hands: random players never reach a target, so every match is exactly 2 deals
    game = ludotheque.load_game("rummu", players=3, hands=2)
    figures = bench.playouts(game, seconds=0.02, runs=1)
    assert figures["deals_per_game"] == 2
    assert figures["deals_per_s"]["per_second"] == pytest.approx(2 * figures["games_per_s"]["per_second"])


@pytest.mark.parametrize(("game_id", "players", "options"), [("mu", 3, {"target": 60}), ("rummu", 4, {"hands": 3})])
def test_deals_completed_counts_finished_hands(game_id: str, players: int, options: dict[str, int]) -> None:
    rng = random.Random(5)
    state = ludotheque.load_game(game_id, players=players, **options).new_initial_state()
    counts = [state.deals_completed()]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            seat = state.current_players()[0]
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
        counts.append(state.deals_completed())
    assert counts[0] == 0
    assert all(b - a in (0, 1) for a, b in itertools.pairwise(counts))  # one hand at a time
    assert counts[-1] >= 1
    assert counts[-2] == counts[-1] - 1  # the last action finished the last hand, and the match with it
    if game_id == "rummu":
        assert counts[-1] == 3


def test_one_deal_game_completes_its_deal_at_the_end() -> None:
    rng = random.Random(1)
    state = ludotheque.load_game("cheese", players=2).new_initial_state()
    while not state.is_terminal():
        assert state.deals_completed() == 0
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            seat = state.current_players()[0]
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    assert state.deals_completed() == 1


# -- saving and restoring, the adapters, the games' own bench modules ---------------------------------------


def test_save_and_restore_times_one_finished_game_and_its_restores() -> None:
    game = ludotheque.load_game("geier", players=3)
    figures = bench.save_and_restore(game, runs=1)
    assert figures["moves"] == 15 * 4  # each round: a chance card, then three seats
    assert figures["deals"] == 1 and figures["bots"] == "heuristic"
    assert figures["restored_equal"] is True
    for key in ("table_move_us", "apply_only_us"):
        assert set(figures[key]) == {"first", "last", "all"}
        assert all(value > 0 for value in figures[key].values())
    assert set(figures["log_us"]) == {"first", "last", "all"}  # a difference of two timings: its sign is not sure
    assert figures["to_record_us"]["samples"] >= 2
    assert figures["to_record_us"]["first"] > 0 and figures["to_record_us"]["last"] > 0
    for key in ("restore", "restore_notation", "replay", "replay_notation", "json_parse"):
        assert figures[f"{key}_ms"] > 0
        assert figures[f"{key}_us_per_move"] == pytest.approx(figures[f"{key}_ms"] * 1000 / 60, abs=0.02)


def test_the_save_pass_times_every_move_both_ways() -> None:
    played = bench.finished_table(ludotheque.load_game("geier", players=2), bots="random", seed=4)
    moves = [(entry.actor, entry.action) for entry in played.log]
    with_log, alone = bench.save_pass(played.game, moves)
    assert len(with_log) == len(alone) == len(moves) == 45


def test_adapter_rates_cover_every_adapter() -> None:
    rates = bench.adapter_rates(ludotheque.load_game("geier", players=2), seconds=0.01, runs=1)
    assert list(rates) == [key for key, _, _ in bench.ADAPTERS] == ["gymnasium", "pettingzoo", "openspiel"]
    for key, figures in rates.items():
        installed = importlib.util.find_spec(key if key != "openspiel" else "pyspiel") is not None
        assert (figures is not None) == installed
        if figures is not None:
            assert figures["games_per_s"]["per_second"] > 0
            # a Geier game at 2 players is 45 actions (15 chance cards, 2 x 15 bids), whatever the adapter
            assert figures["actions_per_s"]["per_second"] == pytest.approx(45 * figures["games_per_s"]["per_second"])


@pytest.mark.parametrize(("game_id", "players", "options"), [("geier", 3, {}), ("rummu", 3, {"hands": 2})])
def test_the_null_engine_walks_the_recorded_shape_through_the_same_loop(
    game_id: str, players: int, options: dict[str, int]
) -> None:
    game = ludotheque.load_game(game_id, players=players, **options)
    steps, deals = ceiling.record_shape(game, random.Random(2))
    again = random.Random(2)
    assert bench.random_playout(game, again) == len(steps)  # the loop's own action count of the same game
    assert deals == (1 if game_id == "geier" else 2)
    null = ceiling.NullGame([steps])
    assert bench.random_playout(null, random.Random(9)) == len(steps)
    if game_id == "geier":  # a round: the point card, then every seat at once (current_players asked once)
        assert [len(s[1]) for s in steps[:1 + players]] == [0, *[players] * players]


def test_the_ceiling_is_stated_per_deal_with_its_target() -> None:
    figures = ceiling.loop_ceiling(ludotheque.load_game("rummu", players=3, hands=2), seconds=0.01, runs=1, min_deals=4)
    assert figures["actions_per_deal"] > 0 and figures["deals_per_s"] > 0
    rate = figures["null_actions_per_s"]["per_second"]
    assert figures["deals_per_s"] == pytest.approx(rate / figures["actions_per_deal"], rel=0.01)
    assert figures["target_deals_per_s"] == pytest.approx(min(1000, figures["deals_per_s"] / 2), abs=0.1)


def test_a_game_without_a_bench_module_gets_defaults() -> None:
    assert bench.furniture("cheese") is None
    assert bench.bench_options("cheese") == {}


def test_a_match_random_players_cannot_finish_is_benchmarked_with_a_cap() -> None:
    options = bench.bench_options("rummu")
    assert options["hands"] > 0


def test_bench_game_adds_the_games_own_figures_and_side_table() -> None:
    (row,) = bench.bench_game("geier", [2], seconds=0.01, runs=1, bot_levels=(), records=True, adapters=True)
    assert row["options"] == {} and row["records"]["moves"] == 45
    assert row["ceiling"]["actions_per_deal"] == 45  # a game is one deal: 15 cards, 2 x 15 bids
    assert row["ceiling"]["protocol_deals_per_s"] == round(row["playouts"]["games_per_s"]["per_second"], 1)
    assert row.get("ratio_protocol_over_openspiel", 0) > 0 or importlib.util.find_spec("pyspiel") is None
    assert set(row["adapters"]) == {"gymnasium", "pettingzoo", "openspiel"}
    assert row["fast_geier"]["games_per_s"]["per_second"] > 0  # from games/geier/bench.py
    (table,) = bench.side_tables([row])
    assert table["columns"] == ["players", "engine", "games/s", "× goofspiel"]
    assert all(len(line) in (0, len(table["columns"])) for line in table["rows"])
    quiet = bench.bench_game("geier", [2], seconds=0.01, runs=1, bot_levels=(), records=False, adapters=False)
    assert "records" not in quiet[0] and "adapters" not in quiet[0]


def test_the_generic_bench_names_no_game() -> None:
    package = Path(ludotheque.__file__).parent
    modules = [*sorted((package / "bench").glob("*.py")), package / "cli" / "bench.py"]
    assert len(modules) > 2
    for module in modules:
        source = module.read_text()
        for game_id in ludotheque.game_ids():
            assert not re.search(rf"\b{game_id}\b", source, re.IGNORECASE), (module, game_id)


def test_the_command_prints_the_save_restore_and_adapter_tables() -> None:
    from typer.testing import CliRunner

    from ludotheque.cli.main import app

    runner = CliRunner()
    quick = ["--bots", "", "--seconds", "0.01", "--runs", "1"]
    result = runner.invoke(app, ["bench", "geier", "--max-players", *quick, "--json"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.output)
    assert row["players"] == 5 and row["records"]["moves"] == 15 * 6
    assert row["ceiling"]["actions_per_deal"] == 15 * 6
    table = runner.invoke(app, ["bench", "geier", "-p", "2", *quick], terminal_width=200)
    assert table.exit_code == 0, table.output
    for title in ("Saving a game", "Restoring that game", "each adapter", "× goofspiel"):
        assert title in table.output
    bare = runner.invoke(app, ["bench", "geier", "-p", "2", *quick, "--no-records", "--no-adapters"])
    assert bare.exit_code == 0 and "Saving a game" not in bare.output and "each adapter" not in bare.output
    both = runner.invoke(app, ["bench", "geier", "-p", "2", "--max-players", *quick])
    assert both.exit_code != 0


def test_the_paired_share_times_both_loops_in_neighbouring_slices() -> None:
    game = ludotheque.load_game("geier", players=3)
    paired = ceiling.paired_share(game, seconds=0.05, pairs=3)
    assert len(paired["pairs"]) == 3 and paired["share"] == sorted(paired["pairs"])[1]
    assert 0 < paired["share"] < 1.5  # the protocol over the null loop (about 0.5 for Geier), not the other way
    (row,) = bench.bench_game("geier", [2], seconds=0.02, runs=1, bot_levels=(), records=False, adapters=False)
    figures = row["ceiling"]
    assert figures["protocol_deals_per_s_paired"] == pytest.approx(
        figures["share_of_ceiling_paired"]["share"] * figures["deals_per_s"], abs=0.1
    )


def test_the_table_overhead_is_the_median_of_each_runs_own_ratio() -> None:
    from ludotheque.bench.overhead import table_overhead

    figures = table_overhead(ludotheque.load_game("geier", players=2), seconds=0.02, runs=3)
    for name, key in (("overhead", "table"), ("overhead_random_bots", "table_random_bots")):
        ratios = sorted(p / t for p, t in zip(figures["protocol"]["runs"], figures[key]["runs"], strict=True))
        assert figures[name] == pytest.approx(ratios[1] - 1, abs=0.01)  # the runs are rounded to 0.1 game/s
