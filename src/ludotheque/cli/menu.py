"""The interactive start (``ludotheque`` with no command, what ``make run`` opens)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ludotheque.bots import make_bot
from ludotheque.cli.common import check_record_dir
from ludotheque.cli.play import play_human
from ludotheque.cli.tables import games_table
from ludotheque.core import Bot, Game, LudothequeError, OptionSpec, OptionValue
from ludotheque.games import REGISTRY, game_class, game_ids, load_game

ReadLine = Callable[[str], str]


def ask(console: Console, read: ReadLine, question: str, default: str, check: Callable[[str], object]) -> str:
    """Ask until ``check`` accepts the answer (it raises ``LudothequeError`` to refuse)."""
    while True:
        answer = read(f"{question} [{default}]: ").strip() or default
        try:
            check(answer)
        except LudothequeError as error:
            console.print(f"[red]{error}[/]")
            continue
        return answer


#: The opponents a player picks from, named as a player would: a random mover, then the three levels.
OPPONENTS = ("random", "easy", "medium", "hard")


def ask_options(console: Console, read: ReadLine, cls: type[Game], players: int) -> dict[str, OptionValue]:
    """Each of the game's options, with its default and what it allows (Enter keeps the default)."""
    chosen: dict[str, OptionValue] = {}
    for spec in cls.option_specs:
        if spec.name == "hands":
            continue  # a cap for tools, not a table option (all-4)

        def check(answer: str, spec: OptionSpec = spec) -> None:
            spec.coerce(answer)

        console.print(f"[dim]{escape(spec.doc)}[/]")
        answer = ask(console, read, f"{spec.name} ({spec.allowed()})", str(spec.default).lower(), check)
        chosen[spec.name] = spec.coerce(answer)
    load_game(cls.id, players=players, **chosen)  # raises OptionError naming a bad combination
    return chosen


def run_menu(console: Console, read: ReadLine, record_dir: Path = Path("records")) -> None:
    console.print(games_table())
    ids = game_ids()

    def check_game(answer: str) -> None:
        if answer not in ids and not (answer.isdigit() and 1 <= int(answer) <= len(ids)):
            raise LudothequeError(f"pick a game id or a number from 1 to {len(ids)}")

    default = next(iter(REGISTRY))  # the registry lists the quickest game to learn first
    numbered = ", ".join(f"{i}={g}" for i, g in enumerate(ids, 1))
    answer = ask(console, read, f"game ({numbered})", default, check_game)
    game_id = ids[int(answer) - 1] if answer.isdigit() else answer
    cls = game_class(game_id)

    def check_players(answer: str) -> None:
        if not answer.isdigit() or not cls.min_players <= int(answer) <= cls.max_players:
            raise LudothequeError(f"{game_id} is for {cls.min_players} to {cls.max_players} players")

    players = int(ask(console, read, "players", str(max(2, cls.min_players)), check_players))
    while True:
        options = ask_options(console, read, cls, players) if cls.option_specs else {}
        try:
            game = load_game(game_id, players=players, **options)
            break
        except LudothequeError as error:
            console.print(f"[red]{escape(str(error))}[/]")
    opponents: list[Bot | None] = [None]
    if players > 1:
        level = ask(console, read, f"opponents ({', '.join(OPPONENTS)})", "medium", lambda a: _check_level(a, game))
        opponents += [make_bot(level, game) for _ in range(players - 1)]
    check_record_dir(record_dir)
    seed = random.randrange(2**31)
    console.print(f"{game.name}, {players} players, you are seat 0, seed {seed}")
    play_human(game, 0, opponents, seed, console, read, record_dir)


def _check_level(answer: str, game: Game) -> None:
    if answer not in OPPONENTS:
        raise LudothequeError(f"pick one of {', '.join(OPPONENTS)}")
    make_bot(answer, game)
