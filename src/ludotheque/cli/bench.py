"""``ludotheque bench``: speed figures for each game (the measuring is in the ``ludotheque.bench`` package)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from ludotheque.bench import ADAPTERS, bench_game, side_tables
from ludotheque.cli.common import console, fail
from ludotheque.core import LudothequeError
from ludotheque.games import game_class, game_ids


def _rate(data: dict[str, Any] | None) -> str:
    return "-" if data is None else f"{data['games_per_s']['per_second']:,.0f}"


def _deals(playouts: dict[str, Any]) -> str:
    """Deals/s for matches of several hands (with the mean number of deals a match), '=' for one-deal games."""
    if "deals_per_s" not in playouts:
        return "= games"
    return f"{playouts['deals_per_s']['per_second']:,.0f} ({playouts['deals_per_game']}/game)"


def _config(row: dict[str, Any]) -> str:
    options = "".join(f" {key}={value}" for key, value in row.get("options", {}).items())
    return f"{row['players']}{options}"


def _first_last(data: dict[str, float]) -> str:
    return f"{data['first']:,.1f}/{data['last']:,.1f}"


def _save_table(rows: list[dict[str, Any]]) -> Table:
    table = Table(
        title="Saving a game, µs per move (first / last tenth of one game the heuristic bots played)",
        caption="Table: a move through a Table, its log entry and record entry included; log: what that adds to"
        " apply_action alone; to_record: the old save after a move, which replays the whole history",
    )
    for column in ("game", "players", "moves", "Table", "log", "to_record"):
        table.add_column(column, justify="right")
    for row in rows:
        if "records" in row:
            r = row["records"]
            table.add_row(
                row["game"],
                _config(row),
                f"{r['moves']:,}",
                _first_last(r["table_move_us"]),
                _first_last(r["log_us"]),
                _first_last(r["to_record_us"]),
            )
    return table


def _restore_table(rows: list[dict[str, Any]]) -> Table:
    table = Table(
        title="Restoring that game, ms",
        caption="Table.restore_logged of the game's own log (a server's start), Table.restore of its record (every"
        " action validated; with raw actions, as Table.record writes it), of the same record in notation only,"
        " and ludotheque.replay of the record",
    )
    for column in ("game", "players", "moves", "own log", "µs/move", "record", "from notation", "replay"):
        table.add_column(column, justify="right")
    for row in rows:
        if "records" in row:
            r = row["records"]
            table.add_row(
                row["game"],
                _config(row),
                f"{r['moves']:,}",
                f"{r['restore_logged_ms']:,.2f}",
                f"{r['restore_logged_us_per_move']:.1f}",
                f"{r['restore_ms']:,.2f}",
                f"{r['restore_notation_ms']:,.2f}",
                f"{r['replay_ms']:,.2f}",
            )
    return table


def _adapters_table(rows: list[dict[str, Any]]) -> Table:
    table = Table(
        title="Random games/s through the protocol and each adapter",
        caption="(× the protocol's games/s); Gymnasium: seat 0 plays against random bots",
    )
    for column in ("game", "players", "protocol", *(label for _, label, _ in ADAPTERS)):
        table.add_column(column, justify="right")
    for row in rows:
        if "adapters" not in row:
            continue
        base = row["playouts"]["games_per_s"]["per_second"]
        cells = []
        for key, _, _ in ADAPTERS:
            data = row["adapters"][key]
            cells.append(
                "not installed" if data is None else f"{_rate(data)} ({data['games_per_s']['per_second'] / base:.2f}×)"
            )
        table.add_row(row["game"], _config(row), _rate(row["playouts"]), *cells)
    return table


def _side_table(data: dict[str, Any]) -> Table:
    table = Table(title=data["title"])
    for index, column in enumerate(data["columns"]):
        table.add_column(column, justify="left" if index == 1 else "right")
    for line in data["rows"]:
        if line:
            table.add_row(*line)
        else:
            table.add_section()
    return table


def register(app: typer.Typer) -> None:
    @app.command("bench")
    def bench_command(
        games: Annotated[list[str] | None, typer.Argument(metavar="[GAME]...", help="games (default: all)")] = None,
        players: Annotated[
            list[int] | None, typer.Option("--players", "-p", help="player counts (repeat; default: all)")
        ] = None,
        seconds: Annotated[float, typer.Option("--seconds", help="length of one timed run")] = 1.0,
        runs: Annotated[int, typer.Option("--runs", help="timed runs per figure (the median is shown)")] = 5,
        bots: Annotated[
            str, typer.Option("--bots", help="bot levels to time per move ('' for none)")
        ] = "easy,medium,hard",
        max_players: Annotated[
            bool, typer.Option("--max-players", help="only each game's largest player count (its longest games)")
        ] = False,
        records: Annotated[
            bool, typer.Option("--records/--no-records", help="time saving (per move) and restoring a game")
        ] = True,
        adapters: Annotated[
            bool, typer.Option("--adapters/--no-adapters", help="time random play through each adapter")
        ] = True,
        as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
    ) -> None:
        """Random playouts through the protocol and the adapters, clone/resample cost, bot time per move, the
        per-move cost of saving a game and of restoring it; and the figures of each game's own bench.py."""
        ids = games or game_ids()
        try:
            if max_players and players:
                raise LudothequeError("--max-players and --players choose the player counts both: give one")
            for game_id in ids:
                cls = game_class(game_id)
                for n in players or []:
                    if not cls.min_players <= n <= cls.max_players:
                        raise LudothequeError(f"{game_id} is for {cls.min_players} to {cls.max_players} players")
        except LudothequeError as error:
            fail(error)
        levels = tuple(b.strip() for b in bots.split(",") if b.strip())
        rows = []
        for game_id in ids:
            cls = game_class(game_id)
            counts = [cls.max_players] if max_players else list(players or range(cls.min_players, cls.max_players + 1))
            rows.extend(bench_game(game_id, counts, seconds, runs, levels, records=records, adapters=adapters))
        if as_json:
            print(json.dumps(rows, indent=1))
            return
        table = Table(
            title="ludotheque bench (medians; games/s through the public protocol)",
            caption="ceiling: the same loop over a null engine with the game's shape (ludotheque.bench.ceiling)",
        )
        columns = ("game", "players", "games/s", "deals/s", "ceiling deals/s", "actions/s", "clone µs", "resample µs")
        for column in (*columns, *levels):
            table.add_column(column, justify="right")
        for row in rows:
            table.add_row(
                row["game"],
                _config(row),
                _rate(row["playouts"]),
                _deals(row["playouts"]),
                f"{row['ceiling']['deals_per_s']:,.0f}",
                f"{row['playouts']['actions_per_s']['per_second']:,.0f}",
                f"{row['clone_us']:.1f}",
                f"{row['resample_us']:.1f}",
                *(f"{row['bots'][level]['median_s']:.3f}s" for level in levels),
            )
        console.print(table)
        if records:
            console.print(_save_table(rows))
            console.print(_restore_table(rows))
        if adapters:
            console.print(_adapters_table(rows))
        for extra in side_tables(rows):
            console.print(_side_table(extra))
            if extra.get("note"):
                console.print(extra["note"])
