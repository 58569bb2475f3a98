"""``ludotheque arena``: bots against bots with seat rotation, duplicate deals, CIs and OpenSkill ratings.

``main.py`` adds it with ``arena.register(app)``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from ludotheque.arena import journal
from ludotheque.arena.report import arena_table, markdown
from ludotheque.arena.tournament import ArenaSpec, GameResult, run_arena
from ludotheque.cli.common import parse_options
from ludotheque.core import LudothequeError
from ludotheque.games import load_game


def arena(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="game id")],
    players: Annotated[int, typer.Option("--players", "-p", help="number of players")],
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="comma-separated bot specs, at most one per seat (fewer repeat round the table): "
            "random, heuristic, noisy:0.3, easy, medium, hard, hard:time=2, ismcts:iterations=500, gt",
        ),
    ],
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="games to play (rounded up to whole deals × seatings)")
    ] = 100,
    seed: Annotated[int, typer.Option("--seed", help="seed of the deals")] = 0,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="a game option, key=value")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="processes to play in parallel")] = 1,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate/--no-duplicate",
            help="every seating of a deal plays the same cards, so luck cancels (--no-duplicate: a deal per game)",
        ),
    ] = True,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="[ADDRESS]",
            help="play the games as Ray tasks: a Ray started here, or a cluster's address (needs ludotheque[cluster])",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the results as JSON")] = False,
    as_markdown: Annotated[bool, typer.Option("--markdown", help="print a Markdown table")] = False,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            help="append each finished game to this file (JSON lines); run again with it to resume, "
            "or with fewer --games to summarize what is played",
        ),
    ] = None,
) -> None:
    """Bots against bots: every bot in every seat, duplicate deals, win rates with 95% CIs, OpenSkill ratings."""
    err = Console(stderr=True, highlight=False)
    try:
        game = load_game(game_id, players=players, **parse_options(option))
        specs = tuple(s.strip() for s in bots.split(",") if s.strip())
        spec = ArenaSpec(game.id, players, dict(game.options), specs, games, seed, duplicate)
        spec.seatings()
        played = journal.load(save, spec) if save is not None else []
        wanted = set(spec.tasks())
        already = len({(r.deal, r.seating) for r in played} & wanted)
        total = len(wanted)
        # a summary of games already played only reads the file; a run that plays takes its lock
        writer = journal.Journal(save, spec) if save is not None and already < total else None
    except (LudothequeError, ValueError) as error:
        err.print(f"[bold red]error:[/] {error}")
        raise typer.Exit(2) from error
    try:
        if as_json:
            result = run_arena(spec, jobs=jobs, on_game=writer.write if writer else None, played=played, ray=ray)
        else:
            with Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=err,
            ) as progress:
                task = progress.add_task(f"{game.id} arena", total=total, completed=already)

                def advance(finished: GameResult) -> None:
                    if writer is not None:
                        writer.write(finished)
                    progress.advance(task)

                result = run_arena(spec, jobs=jobs, on_game=advance, played=played, ray=ray)
    except LudothequeError as error:
        err.print(f"[bold red]error:[/] {error}")
        raise typer.Exit(2) from error
    finally:
        if writer is not None:
            writer.close()
    if as_json:
        print(json.dumps(result.to_json(), indent=1))
    elif as_markdown:
        print(markdown(result))
    else:
        Console(highlight=False).print(arena_table(result))


#: Options whose value may be left out, and what they then mean (``--ray`` alone: a Ray started here).
OPTIONAL_VALUES = {"--ray": "local"}


def with_optional_values(args: list[str]) -> list[str]:
    """``args`` with the implied value written after an option given without one (the next word is another
    option, or there is none): ``--ray --json`` reads as ``--ray local --json``."""
    out: list[str] = []
    for index, arg in enumerate(args):
        out.append(arg)
        following = args[index + 1] if index + 1 < len(args) else None
        if arg in OPTIONAL_VALUES and (following is None or following.startswith("-")):
            out.append(OPTIONAL_VALUES[arg])
    return out


def register(app: typer.Typer) -> None:
    """Add the ``arena`` command to the ``ludotheque`` app."""
    app.command("arena")(arena)
