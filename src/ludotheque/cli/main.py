"""The ``ludotheque`` command: games, play, simulate, replay; with no command, an interactive menu."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from ludotheque.bots import make_bot, parse_bots
from ludotheque.bots.registry import bot_names
from ludotheque.cli import arena, backup, bench, review, serve
from ludotheque.cli.common import check_record_dir, console, fail, parse_options
from ludotheque.cli.menu import run_menu
from ludotheque.cli.play import play_human
from ludotheque.cli.simulate import simulate as run_simulation
from ludotheque.cli.tables import games_json, games_table, result_json, result_table
from ludotheque.core import Bot, LudothequeError, replay_record
from ludotheque.games import load_game

app = typer.Typer(
    help="ludotheque: seven French table games in the terminal, for players and bot developers.",
    no_args_is_help=False,
    add_completion=False,
)

BotsOption = Annotated[
    str, typer.Option("--bots", help="comma-separated bot names (one name fills every seat): random, heuristic")
]
OptionOption = Annotated[list[str] | None, typer.Option("--option", "-o", help="a game option, key=value (repeat)")]


def read_line(prompt: str) -> str:
    console.print(escape(prompt), end="")
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")


@app.callback(invoke_without_command=True)
def main(ctx: typer.Context) -> None:
    """With no command: pick a game, players and bots, then play."""
    if ctx.invoked_subcommand is None:
        try:
            run_menu(console, read_line)
        except EOFError:
            console.print("\nbye")
        except LudothequeError as error:
            fail(error)


@app.command("games")
def games_command(as_json: Annotated[bool, typer.Option("--json", help="print as JSON")] = False) -> None:
    """List the games: ids, names, player counts and options."""
    if as_json:
        print(json.dumps(games_json(), indent=1))
    else:
        console.print(games_table())
        console.print(f"bots: {', '.join(bot_names())}")


@app.command("play")
def play_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="game id (see `ludotheque games`)")],
    players: Annotated[int, typer.Option("--players", "-p", help="number of players")],
    seat: Annotated[int, typer.Option("--seat", help="your seat, 0 plays first")] = 0,
    bots: Annotated[
        str, typer.Option("--bots", help="bots for the other seats in seat order (one name fills them all)")
    ] = "heuristic",
    seed: Annotated[int | None, typer.Option("--seed", help="random seed (default: a fresh one)")] = None,
    option: OptionOption = None,
    record_dir: Annotated[Path, typer.Option("--record-dir", help="where records are saved")] = Path("records"),
) -> None:
    """Play a game in the terminal against bots."""
    try:
        game = load_game(game_id, players=players, **parse_options(option))
        if not 0 <= seat < players:
            raise LudothequeError(f"--seat must be in 0..{players - 1}, not {seat}")
        names = [b.strip() for b in bots.split(",") if b.strip()] or ["heuristic"]
        if len(names) == 1:
            names = names * (players - 1)
        if len(names) != players - 1:
            raise LudothequeError(f"--bots needs {players - 1} names for the other seats, or one; got {bots!r}")
        others = iter(make_bot(name, game) for name in names)
        seat_bots: list[Bot | None] = [None if s == seat else next(others) for s in range(players)]
        check_record_dir(record_dir)
    except LudothequeError as error:
        fail(error)
    seed = random.randrange(2**31) if seed is None else seed
    console.print(f"{game.name}, {players} players, you are seat {seat}, seed {seed}")
    _, _, finished = play_human(game, seat, seat_bots, seed, console, read_line, record_dir)
    if not finished:
        raise typer.Exit(1)


@app.command("simulate")
def simulate_command(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="game id")],
    players: Annotated[int, typer.Option("--players", "-p", help="number of players")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="number of games")] = 100,
    bots: BotsOption = "random",
    seed: Annotated[int, typer.Option("--seed", help="random seed")] = 0,
    option: OptionOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the results as JSON")] = False,
) -> None:
    """Bots against bots: win rate and mean points per seat and bot."""
    try:
        game = load_game(game_id, players=players, **parse_options(option))
        seat_bots = parse_bots(bots, game, players)
        seeing = [bot.name for bot in seat_bots if getattr(bot, "omniscient", False)]
        if seeing:
            raise LudothequeError(f"{seeing[0]} sees every card: it plays in `ludotheque arena` only")
    except LudothequeError as error:
        fail(error)
    names = [bot.name for bot in seat_bots]
    sim = run_simulation(game, seat_bots, names, games, seed, progress=not as_json)
    if as_json:
        print(json.dumps(sim.to_json(), indent=1))
    else:
        console.print(sim.table())


@app.command("replay")
def replay_command(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="a ludotheque-record/1 JSON file")],
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
) -> None:
    """Validate a record, replay it, and print the scores and winners."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror}")
    except UnicodeDecodeError:
        fail(f"{path} is not a ludotheque record: it is not UTF-8 text")
    try:
        state = replay_record(text, load_game)
    except LudothequeError as error:
        fail(error)
    if as_json:
        print(json.dumps(result_json(state)))
    else:
        console.print(state.game.render(state.view(None)))
        console.print(result_table(state))


arena.register(app)
review.register(app)
backup.register(app)
bench.register(app)
serve.register(app)

def run() -> None:
    """The ``ludotheque`` command (``python -m ludotheque.cli.main``): the app, after the options that may be
    given without their value have it written in."""
    app(args=arena.with_optional_values(sys.argv[1:]))


if __name__ == "__main__":
    run()
