"""The ``ludotheque`` command line, driven as a user would (stdin for ``play``)."""

from __future__ import annotations

import contextlib
import io
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
    bad = runner.invoke(app, ["simulate", "geier", "-p", "2", "--bots", "genius"])
    assert bad.exit_code == 2 and "unknown bot" in bad.output
    bad = runner.invoke(app, ["simulate", "geier", "-p", "2", "--bots", "oracle"])
    assert bad.exit_code == 2 and "sees every card" in bad.output


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
    assert "seat 0 (you) plays 15 face down" in result.output
    assert "cards revealed: seat 0 (you): 15" in result.output  # what happened since the seat last acted
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
    # What `make play` starts: the menu, then a game; here stdin picks geier, 2 players, the default of each
    # option, random opponents, and always the first listed move.
    answers = ["geier", "2", "", "", "random"] + ["#1"] * 15
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


def menu_output(answers: list[str], tmp_path: Path) -> str:
    from rich.console import Console

    from ludotheque.cli.menu import run_menu

    feed = iter(answers)
    console = Console(file=(buffer := io.StringIO()), width=80, color_system=None)

    def read(prompt: str) -> str:
        console.print(prompt, end="")
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    with contextlib.suppress(EOFError):
        run_menu(console, read, tmp_path / "records")
    return buffer.getvalue()


def test_the_menu_offers_the_game_options_and_names_levels_as_a_player_would(tmp_path: Path) -> None:
    out = menu_output(["safaru", "3", "yes", "", "", "", "ismcts", "easy", "quit"], tmp_path)
    assert "renverse (true or false)" in out and "games (an integer in [1, 100])" in out
    assert "opponents (random, easy, medium, hard)" in out
    assert "pick one of random, easy, medium, hard" in out  # ismcts is no player's word
    assert "Safarü renversé" in out or "renvers" in out
    record = json.loads(next((tmp_path / "records").glob("safaru-*.json")).read_text())
    assert record["options"]["renverse"] is True


def test_the_solo_game_asks_for_no_opponents(tmp_path: Path) -> None:
    out = menu_output(["mice", "1", "advanced", "quit"], tmp_path)
    assert "opponents" not in out
    record = json.loads(next((tmp_path / "records").glob("mice-*.json")).read_text())
    assert record["players"] == 1 and record["options"]["level"] == "advanced"


def test_the_move_list_fits_a_small_terminal() -> None:
    import random as random_module

    from ludotheque.cli.play import legal_moves_text
    from ludotheque.core import sample_chance

    game = ludotheque.load_game("rummu", players=3)
    state = game.new_initial_state()
    rng = random_module.Random(2)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    seat = state.current_players()[0]
    state.apply_action(state.string_to_action("draw", seat), seat)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    full = legal_moves_text(state, seat)
    compact = legal_moves_text(state, seat, compact=True)
    assert len(state.legal_actions(seat)) > 15
    assert len(compact) < len(full) and "more (? lists them all)" in compact


def test_an_unwritable_record_directory_is_refused_before_the_game(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    result = runner.invoke(app, ["play", "geier", "-p", "2", "--record-dir", str(blocker / "records")])
    assert result.exit_code == 2 and "cannot write records to" in result.output
    assert "Traceback" not in result.output


def test_a_record_that_is_not_utf8_is_refused_plainly(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "not UTF-8" in result.output


def test_importing_the_cli_needs_no_posix_only_module() -> None:
    # fcntl exists on POSIX only: the CLI must import without it (the arena's journal locks only where it can)
    code = "import sys; sys.modules['fcntl'] = None; import ludotheque.cli.main, ludotheque.arena.journal"
    process = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert process.returncode == 0, process.stderr


def test_a_deal_card_by_card_is_told_in_a_few_lines(tmp_path: Path) -> None:
    # a Mü deal is 36 chance actions: the terminal folds them so that the table stays on an 80x24 screen
    result = runner.invoke(app, ["play", "mu", "-p", "3", "--seed", "3", "--bots", "easy", "--record-dir",
                                 str(tmp_path)], input="quit\n")
    before_table = result.output.split("your turn")[0].splitlines()
    assert len(before_table) <= 8, before_table
    assert "seat 1 is dealt a card (x12)" in result.output
    assert "seat 0 (you) is dealt " in result.output and result.output.count("(you) is dealt") == 1
