"""A human seat in the terminal against bots, on the table loop.

Before each of the human's moves the terminal prints everything that seat saw happen since it last acted (the
table's event stream, in the game's words), then the table as the seat sees it and a compact list of the legal
moves.  The human types a move in the game's notation, or ``#k`` to pick the k-th listed move; ``?`` lists every
move, ``rules`` shows the game's rules, ``quit`` abandons the game (its record is still saved).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule

from ludotheque.cli.common import save_record
from ludotheque.cli.rules import rules_text
from ludotheque.cli.tables import result_table
from ludotheque.core import Bot, Game, LudothequeError, State
from ludotheque.table import Table

ReadLine = Callable[[str], str]

#: Characters of legal-move text shown before "... and N more": about three lines of an 80-column terminal.
COMPACT_CHARS = 230


class Abandoned(Exception):
    """The human quit, or input ended."""


def legal_moves_text(state: State, seat: int, compact: bool = False) -> str:
    """The legal moves as ``#k notation`` items; ``compact`` cuts the list to about three lines."""
    moves = [state.action_to_string(a, seat) for a in state.legal_actions(seat)]
    items, used = [], 0
    for index, move in enumerate(moves, start=1):
        plain = f"#{index} {move}"
        if compact and used + len(plain) > COMPACT_CHARS and index > 1:
            items.append(f"[dim]... and {len(moves) - index + 1} more (? lists them all)[/]")
            break
        items.append(f"[dim]#{index}[/] {escape(move)}")
        used += len(plain) + 2
    return "  ".join(items)


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
    console.print(legal_moves_text(state, seat, compact=True))
    while True:
        try:
            text = read("your move> ")
        except EOFError:
            raise Abandoned("input ended") from None
        word = text.strip()
        if word in ("quit", "exit"):
            raise Abandoned("quit")
        if word == "rules":
            console.print(rules_text(state.game.id))
            continue
        if word in ("", "?", "help"):
            console.print("Type a move in notation, or #k to pick the k-th move; rules shows the rules; quit leaves.")
            console.print(legal_moves_text(state, seat))
            continue
        try:
            return parse_human_move(state, seat, word)
        except LudothequeError as error:
            console.print(f"[red]{escape(str(error))}[/]")


#: A run of at least this many events of one type (a deal, card by card) is folded into a few lines.
FOLD_RUN = 4


def event_lines(game: Game, events: Sequence[dict[str, Any]], seat: int) -> list[str]:
    """The events in the game's words, the player's own seat marked ``seat N (you)``; a long run of events of
    one type (cards dealt one by one) is folded, so that a new deal does not scroll the table away."""
    describe = game.game_type.part("display").event_text
    texts = [(event["type"], str(describe(event)).replace(f"seat {seat}", f"seat {seat} (you)")) for event in events]
    lines: list[str] = []
    start = 0
    while start < len(texts):
        end = start
        while end < len(texts) and texts[end][0] == texts[start][0]:
            end += 1
        run = [text for _, text in texts[start:end]]
        lines.extend(fold(run) if len(run) >= FOLD_RUN else run)
        start = end
    return lines


def fold(run: list[str]) -> list[str]:
    """Repeated lines once with their count; the others that share a beginning, as one line listing the rest."""
    counts = Counter(run)
    repeated = [f"{text} (x{counts[text]})" for text in dict.fromkeys(run) if counts[text] > 1]
    single = [text for text in dict.fromkeys(run) if counts[text] == 1]
    if len(single) > 1:
        prefix = single[0]
        for text in single[1:]:
            while not text.startswith(prefix):
                prefix = prefix[:-1]
        prefix = prefix.rpartition(" ")[0]
        if prefix:
            single = [f"{prefix} " + ", ".join(text[len(prefix) + 1 :] for text in single)]
    return repeated + single


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
    table = Table(game, bots, chance_rng=random.Random(seed), bot_rng=random.Random(seed + 1), events=True)
    shown = 0  # the last action whose events the human has seen
    finished = True

    def show_news() -> None:
        nonlocal shown
        for line in event_lines(game, table.events(human_seat, since=shown), human_seat):
            console.print(f"  {escape(line)}")
        shown = table.seq

    try:
        while not table.is_over():
            if table.waiting_for():
                show_news()
                console.print(Rule(f"{game.name}: your turn (seat {human_seat})"))
                console.print(game.render(table.state.view(human_seat)))
                action = ask_move(table.state, human_seat, console, read)
                table.submit(human_seat, action)
                show_news()
                continue
            with console.status("the bots are thinking...", spinner="dots"):
                table.advance()
    except Abandoned as why:
        finished = False
        console.print(f"[yellow]game abandoned ({why})[/]")
    show_news()
    console.print(Rule("end"))
    console.print(game.render(table.state.view(human_seat)))
    names = ["you" if seat == human_seat else getattr(bot, "name", "bot") for seat, bot in enumerate(bots)]
    console.print(result_table(table.state, names))
    path = save_record(table.record({"seed": seed}), game.id, record_dir, seed)
    console.print(f"record saved to {path}")
    return table.state, path, finished
