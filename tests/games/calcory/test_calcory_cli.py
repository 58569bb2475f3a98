"""`ludotheque play`, `simulate` and `replay` work for Calcory through the generic CLI."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import ludotheque
from ludotheque.cli.main import app

runner = CliRunner()


def test_simulate() -> None:
    result = runner.invoke(
        app, ["simulate", "calcory", "-p", "3", "-n", "10", "--bots", "heuristic,random,random", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 10


def test_play_then_replay(tmp_path: Path) -> None:
    # The human flips two cells, types a bad cell, then always picks the first listed move until the end.
    moves = ["A1", "A2", "Z9"] + ["#1"] * 400
    result = runner.invoke(
        app,
        ["play", "calcory", "-p", "2", "--seed", "5", "--bots", "heuristic", "--record-dir", str(tmp_path)],
        input="\n".join(moves) + "\n",
    )
    assert "does not name a cell" in result.output or "not a legal move" in result.output
    assert "##" in result.output  # the grid is drawn, face-down cards as ##
    (saved,) = tmp_path.glob("calcory-*.json")
    state = ludotheque.replay(json.loads(saved.read_text()))
    assert [a for actor, a in state.history() if actor == 0][:2] == [0, 1]
    replayed = runner.invoke(app, ["replay", str(saved), "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.output)["returns"] == state.returns()
