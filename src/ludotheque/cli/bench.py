"""``ludotheque bench``: speed figures for each game (see ``ludotheque.bench``)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from ludotheque.bench import bench_game
from ludotheque.cli.common import console, fail
from ludotheque.core import LudothequeError, game_class, game_ids


def _rate(data: dict[str, Any] | None) -> str:
    return "-" if data is None else f"{data['games_per_s']['per_second']:,.0f}"


def _deals(playouts: dict[str, Any]) -> str:
    """Deals/s for matches of several hands (with the mean number of deals a match), '=' for one-deal games."""
    if "deals_per_s" not in playouts:
        return "= games"
    return f"{playouts['deals_per_s']['per_second']:,.0f} ({playouts['deals_per_game']}/game)"


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
        as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
    ) -> None:
        """Random playouts through the protocol, clone/resample cost, bot time per move; Geier vs OpenSpiel."""
        ids = games or game_ids()
        try:
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
            counts = [n for n in (players or range(cls.min_players, cls.max_players + 1))]
            rows.extend(bench_game(game_id, counts, seconds, runs, levels))
        if as_json:
            print(json.dumps(rows, indent=1))
            return
        table = Table(title="ludotheque bench (medians; games/s through the public protocol)")
        for column in ("game", "players", "games/s", "deals/s", "actions/s", "clone µs", "resample µs", *levels):
            table.add_column(column, justify="right")
        for row in rows:
            table.add_row(
                row["game"],
                str(row["players"]),
                _rate(row["playouts"]),
                _deals(row["playouts"]),
                f"{row['playouts']['actions_per_s']['per_second']:,.0f}",
                f"{row['clone_us']:.1f}",
                f"{row['resample_us']:.1f}",
                *(f"{row['bots'][level]['median_s']:.3f}s" for level in levels),
            )
        console.print(table)
        geier_rows = [row for row in rows if row["game"] == "geier"]
        if geier_rows:
            extra = Table(title="Geier against OpenSpiel goofspiel (num_cards=15, total_points), same run")
            for column in ("players", "engine", "games/s", "× goofspiel"):
                extra.add_column(column, justify="left" if column == "engine" else "right")
            engines = (
                ("openspiel_goofspiel", "OpenSpiel goofspiel, Python loop", None),
                ("playouts", "ours through the protocol, same loop", "ratio_ours_over_openspiel"),
                ("fast_geier", "fast.geier, Numba, every core", "ratio_fast_over_openspiel"),
                ("fast_geier_1_thread", "fast.geier, Numba, one core", "ratio_fast_1_thread_over_openspiel"),
                ("fast_geier_numpy", "fast.geier, NumPy", "ratio_fast_numpy_over_openspiel"),
            )
            for row in geier_rows:
                for key, label, ratio in engines:
                    if key in row:
                        times = "1" if ratio is None else str(row.get(ratio, "-"))
                        extra.add_row(str(row["players"]), label, _rate(row[key]), times)
                extra.add_section()
            console.print(extra)
            if "openspiel_goofspiel" not in geier_rows[0]:
                console.print("OpenSpiel is not installed: pip install 'ludotheque[rl]' for the comparison")
