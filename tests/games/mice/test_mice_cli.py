"""MICE through the generic command line: replay (multiplayer and solo rating), simulate, play."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from typer.testing import CliRunner

from ludotheque.bots import play_game
from ludotheque.cli.main import app
from ludotheque.games import load_game
from ludotheque.games.mice.game import MiceState

runner = CliRunner()
GOLDEN = Path(__file__).with_name("golden_mice_3p.json")


def test_replay_golden() -> None:
    result = runner.invoke(app, ["replay", str(GOLDEN), "--json"])
    assert result.exit_code == 0, result.output
    # DECISIONS mice-7: the returns are the hand totals, the lowest wins
    assert json.loads(result.output) == {"returns": [0.0, 6.0, 0.0], "winners": [2], "terminal": True}
    table = runner.invoke(app, ["replay", str(GOLDEN)])
    assert table.exit_code == 0 and "winner" in table.output and "flip 6" in table.output


def test_replay_solo_prints_the_rating(tmp_path: Path) -> None:
    # DECISIONS mice-8: the seed's rating is the solo result, in the view and in the replay output
    game = load_game("mice", players=1, level="advanced")
    state = play_game(game, [game.heuristic_bot()], random.Random(4))
    assert isinstance(state, MiceState) and state.rating() is not None
    path = tmp_path / "solo.json"
    path.write_text(json.dumps(state.to_record()))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert f"Result: {state.rating()}" in result.output


def test_simulate_runs() -> None:
    result = runner.invoke(app, ["simulate", "mice", "-p", "2", "-n", "3", "--bots", "heuristic,random", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["games"] == 3
    solo = runner.invoke(app, ["simulate", "mice", "-p", "1", "-n", "3", "--bots", "heuristic", "-o", "level=hardest"])
    assert solo.exit_code == 0, solo.output
    bad = runner.invoke(app, ["simulate", "mice", "-p", "3", "-n", "3", "-o", "level=hardest"])
    assert bad.exit_code == 2 and "solo" in bad.output


def test_play_shows_the_table_and_takes_notation(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["play", "mice", "-p", "1", "--seed", "3", "--record-dir", str(tmp_path)], input="use R\nquit\n"
    )
    # quitting abandons the game (the CLI's exit code says so); the table and the move were shown
    assert "MICE to meet you (solo)" in result.output and "seat 0: use R" in result.output
    assert "sum in use" in result.output and list(tmp_path.glob("mice-*.json"))


def test_the_documented_simulate_commands_run() -> None:
    # docs/games/mice.md: each `ludotheque simulate mice ...` example names one bot per seat and runs as written
    # (with one game instead of hundreds)
    docs = Path(__file__).parents[3] / "docs" / "games" / "mice.md"
    commands = re.findall(r"ludotheque (simulate mice [^`#\n]*)", docs.read_text())
    assert len(commands) >= 2
    for command in commands:
        words = command.split()
        words[words.index("-n") + 1] = "1"
        result = runner.invoke(app, words)
        assert result.exit_code == 0, (command, result.output)
