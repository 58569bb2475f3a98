"""``ludotheque review``: the coach's review of a record on the terminal or as JSON (``docs/coach.md``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from ludotheque.bots import make_bot
from ludotheque.cli.main import app
from ludotheque.cli.review import render_review
from ludotheque.core import sample_chance
from ludotheque.core.bot import ask_bot
from ludotheque.games import load_game

runner = CliRunner()


def geier_record(tmp_path: Path) -> Path:
    game = load_game("geier", players=2)
    bots = [make_bot("random", game), make_bot("heuristic", game)]
    rng = random.Random(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_players()[0]
        state.apply_action(ask_bot(bots[seat], state, seat, rng), seat)
    path = tmp_path / "geier.json"
    path.write_text(json.dumps(state.to_record()))
    return path


def test_review_json_has_the_issues_keys(tmp_path: Path) -> None:
    record = geier_record(tmp_path)
    result = runner.invoke(app, ["review", str(record), "--seat", "0", "--playouts", "20", "--json"])
    assert result.exit_code == 0, result.output
    review = json.loads(result.output)
    assert review["seat"] == 0 and review["model"] == "easy"
    assert len(review["decisions"]) == 15  # one per card of the seat's hand
    keys = {"seq", "played", "best", "expected_played", "expected_best", "stderr", "loss", "judgement",
            "played_move", "best_move", "moment"}
    assert all(set(entry) == keys for entry in review["decisions"])
    # for machines the notation; for people's words the structured move and the moment as Geier counts it
    first = review["decisions"][0]
    assert first["played_move"] == {"type": "play", "card": int(first["played"])}
    assert first["moment"][0] == {"key": "geier.round", "n": 1, "total": 15}
    assert first["moment"][1]["key"] == "review.moment.prize"
    assert review["decisions"][0]["seq"] == 2  # the first prize card is drawn at seq 1
    summary = review["summary"]
    assert summary["total_loss"] == round(sum(e["loss"] for e in review["decisions"]), 3)
    assert len(summary["worst"]) <= 3
    assert [w["loss"] for w in summary["worst"]] == sorted((w["loss"] for w in summary["worst"]), reverse=True)


def test_review_table_names_the_model_and_the_summary(tmp_path: Path) -> None:
    record = geier_record(tmp_path)
    result = runner.invoke(app, ["review", str(record), "--seat", "1", "--level", "random", "--playouts", "10"])
    assert result.exit_code == 0, result.output
    assert "seat 0 a person as random, seat 1 a person as random" in result.output
    assert "total loss" in result.output and "accuracy" in result.output
    # the moment as Geier counts it, beside the seq (a wide terminal, so that no cell wraps)
    review = json.loads(runner.invoke(app, ["review", str(record), "--seat", "1", "--playouts", "10", "--json"]).output)
    wide = Console(width=250, record=True)
    wide.print(render_review(review))
    assert "Round 1 of 15 · prize card" in wide.export_text()


def test_review_models_each_seat_by_what_sat_there(tmp_path: Path) -> None:
    # the record's seat 1 was the heuristic bot: named so, it plays itself in the playouts, and the review says so
    record = geier_record(tmp_path)
    result = runner.invoke(app, ["review", str(record), "--seat", "0", "--bots", "-,heuristic", "--playouts", "10",
                                 "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["models"] == [{"seat": 0, "model": "easy", "by": "person"},
                                                   {"seat": 1, "model": "heuristic", "by": "bot"}]
    text = runner.invoke(app, ["review", str(record), "--seat", "0", "--bots", "-,heuristic", "--playouts", "10"])
    assert "seat 0 a person as easy, seat 1 a bot as heuristic" in text.output
    assert runner.invoke(app, ["review", str(record), "--seat", "0", "--bots", "heuristic"]).exit_code != 0


def test_review_refuses_a_seat_the_game_lacks_and_a_missing_file(tmp_path: Path) -> None:
    record = geier_record(tmp_path)
    assert runner.invoke(app, ["review", str(record), "--seat", "2"]).exit_code != 0
    assert runner.invoke(app, ["review", str(tmp_path / "none.json"), "--seat", "0"]).exit_code != 0
    assert runner.invoke(app, ["review", str(record), "--seat", "0", "--level", "nobody"]).exit_code != 0
