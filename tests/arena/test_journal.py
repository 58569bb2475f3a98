"""Arena runs written down game by game: resumed, cut short, and refused when the file is another tournament's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import ludotheque
from ludotheque.arena import journal
from ludotheque.arena.tournament import ArenaSpec, GameResult, play_one, run_arena
from ludotheque.cli.main import app
from ludotheque.core import RecordError


def spec(games: int, bots: tuple[str, ...] = ("random", "heuristic"), seed: int = 3) -> ArenaSpec:
    return ArenaSpec("geier", 2, {"tie_rule": "cascade", "final_tie": "next-best"}, bots, games, seed)


def run_saved(path: Path, games: int) -> tuple[list[GameResult], list[GameResult]]:
    """(games played by this run, games summarized)."""
    played_now: list[GameResult] = []
    with journal.Journal(path, spec(games)) as writer:

        def keep(result: GameResult) -> None:
            writer.write(result)
            played_now.append(result)

        result = run_arena(spec(games), on_game=keep, played=journal.load(path, spec(games)))
    return played_now, result.results


def test_a_resumed_run_plays_only_the_missing_games_and_equals_one_long_run(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    first, _ = run_saved(path, 4)
    assert len(first) == 4
    second, summarized = run_saved(path, 8)
    assert len(second) == 4  # only deals 2 and 3
    assert {r.deal for r in second} == {2, 3}
    whole = run_arena(spec(8)).results

    # everything but the thinking times (which differ from run to run) is the same as in one long run
    def key(r: GameResult) -> tuple[int, int]:
        return (r.deal, r.seating)

    for mine, theirs in zip(sorted(summarized, key=key), sorted(whole, key=key), strict=True):
        assert (mine.seats, mine.returns, mine.winners, mine.chance, mine.moves) == (
            theirs.seats,
            theirs.returns,
            theirs.winners,
            theirs.chance,
            theirs.moves,
        )


def test_fewer_games_summarize_what_is_played_without_playing(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    run_saved(path, 6)
    played_now, summarized = run_saved(path, 2)
    assert played_now == []
    assert len(summarized) == 2 and {r.deal for r in summarized} == {0}


def test_a_file_of_another_tournament_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    run_saved(path, 2)
    with pytest.raises(RecordError, match=r"another tournament .*bots"):
        journal.load(path, spec(2, bots=("heuristic", "random")))
    with pytest.raises(RecordError, match="seed"):
        journal.load(path, spec(2, seed=4))


def test_a_broken_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    run_saved(path, 2)
    with path.open("a") as out:
        out.write('{"deal": 1}\n')
    with pytest.raises(RecordError, match="line 4: not a game result"):
        journal.load(path, spec(2))
    path.write_text("not json\n")
    with pytest.raises(RecordError, match="first line is not JSON"):
        journal.load(path, spec(2))


def test_a_game_written_twice_is_named(tmp_path: Path) -> None:
    # two runs resuming the same file at once would both play its missing games and append them
    path = tmp_path / "run.jsonl"
    run_saved(path, 4)
    lines = path.read_text().splitlines()
    path.write_text("\n".join([*lines, lines[2]]) + "\n")
    with pytest.raises(RecordError, match=r"line 6: deal 0, seating 1 is already on line 3"):
        journal.load(path, spec(4))


def test_only_one_run_at_a_time_appends_to_a_file(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    run_saved(path, 2)
    with journal.Journal(path, spec(4)):
        with pytest.raises(journal.JournalBusyError, match="another arena run"):
            journal.Journal(path, spec(4))
        # the CLI still summarizes what is there without touching the lock, and refuses to play more
        runner = CliRunner()
        base = ["arena", "geier", "-p", "2", "--bots", "random,heuristic", "--seed", "3", "--save", str(path)]
        summary = runner.invoke(app, [*base, "-n", "2", "--json"])
        assert summary.exit_code == 0, summary.output
        assert json.loads(summary.stdout)["games"] == 2
        busy = runner.invoke(app, [*base, "-n", "4"])
        assert busy.exit_code == 2 and "another arena run" in busy.output
    assert len(path.read_text().splitlines()) == 3  # the header and the 2 games: nothing written twice
    _, summarized = run_saved(path, 4)  # once released, a run resumes it
    assert len(summarized) == 4


def test_cli_save_and_resume(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "cli.jsonl"
    base = ["arena", "geier", "-p", "2", "--bots", "random,heuristic", "--seed", "5", "--save", str(path), "--json"]
    out = runner.invoke(app, [*base, "-n", "2"])
    assert out.exit_code == 0, out.output
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["bots"] == ["random", "heuristic"] and len(lines) == 3
    out = runner.invoke(app, [*base, "-n", "4"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["games"] == 4 and len(path.read_text().splitlines()) == 5
    refused = runner.invoke(
        app, ["arena", "geier", "-p", "2", "--bots", "random,random", "--save", str(path), "-n", "2"]
    )
    assert refused.exit_code == 2 and "another tournament" in refused.output


def test_a_file_played_with_other_level_budgets_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    levels = spec(2, bots=("easy", "ismcts:hard:time=2"))
    journal.Journal(path, levels)
    header = json.loads(path.read_text())
    assert set(header["levels"]) == {"easy", "hard"}
    assert journal.load(path, levels) == []
    header["levels"]["hard"]["iterations"] += 1  # as if the level's budget had since changed
    path.write_text(json.dumps(header) + "\n")
    with pytest.raises(RecordError, match="differs in: levels"):
        journal.load(path, levels)
    del header["levels"]  # a file from before headers named the settings is still read
    path.write_text(json.dumps(header) + "\n")
    assert journal.load(path, levels) == []


@pytest.mark.parametrize(
    ("game_id", "players", "bots"),
    [("geier", 3, ("random", "heuristic")), ("cheese", 2, ("random", "easy")), ("calcory", 2, ("heuristic", "easy"))],
)
def test_each_game_is_kept_as_a_record_that_replays_to_the_same_result(
    game_id: str, players: int, bots: tuple[str, ...]
) -> None:
    arena = ArenaSpec(game_id, players, {}, bots, 2, seed=5)
    for deal, seating in arena.tasks()[:2]:
        result = play_one(arena, deal, seating)
        assert result.record is not None
        state = ludotheque.replay(result.record)
        assert state.is_terminal()
        assert (state.returns(), state.winners()) == (result.returns, result.winners)
        assert [action for actor, action in state.history() if actor == "chance"] == result.chance
        assert result.record["meta"] == {"seats": result.seats, "seed": 5, "deal": deal, "seating": seating}


def test_records_survive_the_journal_and_older_lines_without_one_still_load(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    _, summarized = run_saved(path, 2)
    loaded = journal.load(path, spec(2))
    assert [r.record for r in loaded] == [r.record for r in summarized]
    assert all(r.record is not None for r in loaded)
    lines = path.read_text().splitlines()
    old = json.loads(lines[1])
    del old["record"]  # a line written before games were kept as records
    path.write_text("\n".join([lines[0], json.dumps(old), *lines[2:]]) + "\n")
    assert [r.record is None for r in journal.load(path, spec(2))] == [True, False]
