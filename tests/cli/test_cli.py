"""The ``ludotheque`` command line, driven as a user would (stdin for ``play``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

import ludotheque
from ludotheque.cli.main import app

runner = CliRunner()
GOLDEN = Path(__file__).parents[1] / "games" / "geier" / "golden_2p.json"


def test_games_lists_ids_players_and_options() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert "geier" in result.output and "2-5" in result.output and "tie_rule" in result.output
    data = json.loads(runner.invoke(app, ["games", "--json"]).output)
    assert [g["id"] for g in data] == ludotheque.game_ids()


def test_simulate_json_reports_every_seat() -> None:
    result = runner.invoke(
        app, ["simulate", "geier", "--players", "3", "--games", "20", "--bots", "heuristic,random,random", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 20 and [s["bot"] for s in data["seats"]] == ["heuristic", "random", "random"]
    assert sum(s["wins"] for s in data["seats"]) + data["no_winner"] >= 20
    assert set(data["bots"]) == {"heuristic", "random"}
    again = json.loads(runner.invoke(app, ["simulate", "geier", "-p", "3", "-n", "20", "--bots",
                                           "heuristic,random,random", "--json"]).output)
    assert again == data  # same seed, same games


def test_simulate_table_and_bad_input() -> None:
    result = runner.invoke(app, ["simulate", "geier", "-p", "2", "-n", "5"])
    assert result.exit_code == 0 and "win rate" in result.output
    bad = runner.invoke(app, ["simulate", "geier", "-p", "2", "-n", "5", "--option", "tie_rule=double"])
    assert bad.exit_code == 2 and "tie_rule" in bad.output
    bad = runner.invoke(app, ["simulate", "geier", "-p", "7"])
    assert bad.exit_code == 2 and "2 to 5 players" in bad.output
    bad = runner.invoke(app, ["simulate", "chess", "-p", "2"])
    assert bad.exit_code == 2 and "unknown game 'chess'" in bad.output
    bad = runner.invoke(app, ["simulate", "geier", "-p", "2", "--bots", "oracle"])
    assert bad.exit_code == 2 and "unknown bot" in bad.output


def test_replay_json_and_table() -> None:
    result = runner.invoke(app, ["replay", str(GOLDEN), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.output) == {"returns": [27.0, 13.0], "winners": [0], "terminal": True}
    table = runner.invoke(app, ["replay", str(GOLDEN)])
    assert table.exit_code == 0 and "winner" in table.output


def test_replay_bad_record_exits_non_zero(tmp_path: Path) -> None:
    record = json.loads(GOLDEN.read_text())
    record["actions"][7]["move"] = "99"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code != 0 and "action 7" in result.output
    missing = runner.invoke(app, ["replay", str(tmp_path / "none.json")])
    assert missing.exit_code != 0 and "cannot read" in missing.output


def test_play_through_stdin(tmp_path: Path) -> None:
    # A human types a bad word, a card not in the list, a numbered pick, then always the first listed card.
    moves = ["hello", "99", "#15"] + ["#1"] * 14
    result = runner.invoke(
        app,
        ["play", "geier", "--players", "3", "--seed", "4", "--bots", "heuristic,random", "--record-dir",
         str(tmp_path)],
        input="\n".join(moves) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "'hello' is not a card" in result.output
    assert "you play 15" in result.output
    assert "Final table" in result.output
    saved = list(tmp_path.glob("geier-*.json"))
    assert len(saved) == 1 and str(saved[0]) in result.output.replace("\n", "")
    state = ludotheque.replay(json.loads(saved[0].read_text()))
    assert state.is_terminal()
    human = [action for actor, action in state.history() if actor == 0]
    assert human[0] == 14 and human[1:] == sorted(human[1:])  # 15 first, then always the lowest card


def test_play_quit_saves_a_partial_record(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["play", "geier", "-p", "2", "--seed", "1", "--record-dir", str(tmp_path)], input="3\nquit\n"
    )
    assert result.exit_code == 1 and "abandoned" in result.output
    (saved,) = tmp_path.glob("*.json")
    state = ludotheque.replay(saved.read_text())
    assert not state.is_terminal() and (0, 2) in state.history()


def test_menu_runs_a_game_in_a_real_terminal_process(tmp_path: Path) -> None:
    # What `make run` starts: the menu, then a game; here stdin answers every question with defaults,
    # picks geier, 2 players, random opponents, and always the first listed move.
    answers = ["geier", "2", "random"] + ["#1"] * 15
    process = subprocess.run(
        [sys.executable, "-m", "ludotheque.cli.main"],
        input="\n".join(answers) + "\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert process.returncode == 0, process.stderr
    assert "Final table" in process.stdout
    assert list((tmp_path / "records").glob("geier-*.json"))


def test_bench_reports_geier_against_openspiel_and_deals_for_matches() -> None:
    quick = ["--bots", "", "--seconds", "0.02", "--runs", "1"]
    result = runner.invoke(app, ["bench", "geier", "-p", "2", *quick, "--json"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.output)
    assert row["playouts"]["games_per_s"]["per_second"] > 0
    for engine in ("fast_geier", "fast_geier_1_thread", "fast_geier_numpy"):
        assert row[engine]["games_per_s"]["per_second"] > 0
    assert row["fast_geier_1_thread"]["threads"] == 1 and row["fast_geier_numpy"]["engine"] == "numpy"
    if "openspiel_goofspiel" in row:  # the rl extra (make test installs it)
        assert row["ratio_fast_over_openspiel"] > 0
    table = runner.invoke(app, ["bench", "geier", "-p", "3", *quick])
    assert table.exit_code == 0, table.output
    assert "deals/s" in table.output and "× goofspiel" in table.output
    bad = runner.invoke(app, ["bench", "mice", "-p", "7", *quick])
    assert bad.exit_code != 0 and "1 to 5 players" in bad.output
