"""The interactive start (``ludotheque`` with no command, what ``make run`` opens)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from rich.console import Console

from ludotheque.bots import make_bot
from ludotheque.bots.registry import bot_names
from ludotheque.cli.play import play_human
from ludotheque.cli.tables import games_table
from ludotheque.core import Bot, LudothequeError, game_class, game_ids, load_game

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


def run_menu(console: Console, read: ReadLine, record_dir: Path = Path("records")) -> None:
    console.print(games_table())
    ids = game_ids()

    def check_game(answer: str) -> None:
        if answer not in ids and not (answer.isdigit() and 1 <= int(answer) <= len(ids)):
            raise LudothequeError(f"pick a game id or a number from 1 to {len(ids)}")

    default = "geier" if "geier" in ids else ids[0]  # the quickest game to learn
    numbered = ", ".join(f"{i}={g}" for i, g in enumerate(ids, 1))
    answer = ask(console, read, f"game ({numbered})", default, check_game)
    game_id = ids[int(answer) - 1] if answer.isdigit() else answer
    cls = game_class(game_id)

    def check_players(answer: str) -> None:
        if not answer.isdigit() or not cls.min_players <= int(answer) <= cls.max_players:
            raise LudothequeError(f"{game_id} is for {cls.min_players} to {cls.max_players} players")

    players = int(ask(console, read, "players", str(max(2, cls.min_players)), check_players))
    game = load_game(game_id, players=players)
    bot_choice = ask(console, read, f"opponents ({', '.join(bot_names())})", "heuristic", lambda a: make_bot(a, game))
    opponents: list[Bot | None] = [None] + [make_bot(bot_choice, game) for _ in range(players - 1)]
    seed = random.randrange(2**31)
    console.print(f"{game.name}, {players} players, you are seat 0, seed {seed}")
    play_human(game, 0, opponents, seed, console, read, record_dir)
