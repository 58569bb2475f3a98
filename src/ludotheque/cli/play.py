"""A human seat in the terminal against bots.

The human types a move in the game's notation, or ``#k`` to pick the k-th move of the listed legal moves.
``?`` lists the moves again, ``quit`` abandons the game (its record is still saved).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule

from ludotheque.bots import step_bots
from ludotheque.cli.common import save_record
from ludotheque.cli.tables import result_table
from ludotheque.core import Bot, Game, LudothequeError, State, sample_chance

ReadLine = Callable[[str], str]


class Abandoned(Exception):
    """The human quit, or input ended."""


def legal_moves_text(state: State, seat: int) -> str:
    moves = [state.action_to_string(a, seat) for a in state.legal_actions(seat)]
    return "  ".join(f"[dim]#{i}[/] {escape(m)}" for i, m in enumerate(moves, start=1))


def parse_human_move(state: State, seat: int, text: str) -> int:
    """The action a human typed: notation first, then ``#k`` for the k-th listed move."""
    word = text.strip()
    legal = state.legal_actions(seat)
    if word.startswith("#") and word[1:].isdigit():
        index = int(word[1:])
        if not 1 <= index <= len(legal):
            raise LudothequeError(f"#{index} is not in the list: pick #1 to #{len(legal)}")
        return legal[index - 1]
    return state.string_to_action(word, seat)


def ask_move(state: State, seat: int, console: Console, read: ReadLine) -> int:
    console.print(legal_moves_text(state, seat))
    while True:
        try:
            text = read("your move> ")
        except EOFError:
            raise Abandoned("input ended") from None
        word = text.strip()
        if word in ("quit", "exit"):
            raise Abandoned("quit")
        if word in ("", "?", "help"):
            console.print("Type a move in notation, or #k to pick the k-th move; quit to leave.")
            console.print(legal_moves_text(state, seat))
            continue
        try:
            return parse_human_move(state, seat, word)
        except LudothequeError as error:
            console.print(f"[red]{escape(str(error))}[/]")


def play_human(
    game: Game,
    human_seat: int,
    bots: Sequence[Bot | None],
    seed: int,
    console: Console,
    read: ReadLine,
    record_dir: Path,
) -> tuple[State, Path, bool]:
    """Play to the end (or until the human quits); returns the state, the saved record, and completion."""
    chance_rng = random.Random(seed)
    bot_rng = random.Random(seed + 1)
    state = game.new_initial_state()
    finished = True
    try:
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, chance_rng))
                continue
            step_bots(state, bots, bot_rng)
            if state.is_terminal() or state.is_chance_node() or human_seat not in state.current_players():
                continue
            console.print(Rule(f"{game.name}: your turn (seat {human_seat})"))
            console.print(game.render(state.view(human_seat)))
            action = ask_move(state, human_seat, console, read)
            console.print(f"you play [bold]{escape(state.action_to_string(action, human_seat))}[/]")
            state.apply_action(action, human_seat)
    except Abandoned as why:
        finished = False
        console.print(f"[yellow]game abandoned ({why})[/]")
    console.print(Rule("end"))
    console.print(game.render(state.view(human_seat)))
    names = ["you" if seat == human_seat else getattr(bot, "name", "bot") for seat, bot in enumerate(bots)]
    console.print(result_table(state, names))
    path = save_record(state, record_dir, seed)
    console.print(f"record saved to {path}")
    return state, path, finished
