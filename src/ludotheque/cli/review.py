"""``ludotheque review RECORD --seat N``: the coach's review of one seat's moves (``docs/coach.md``).

``main.py`` adds it with ``review.register(app)``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, Group
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ludotheque.bots.coach import DEFAULT_MODEL, DEFAULT_PLAYOUTS, ReviewProgress, review_record
from ludotheque.cli.common import console, fail
from ludotheque.core import LudothequeError

STYLES = {"good": "green", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
BARS = "▁▂▃▄▅▆▇█"


def review(
    record: Annotated[Path, typer.Argument(metavar="RECORD", help="a record (`ludotheque play` saves one)")],
    seat: Annotated[int, typer.Option("--seat", help="the seat to review, 0 plays first")],
    level: Annotated[
        str, typer.Option("--level", help="the opponent model, a bot spec: easy, heuristic, random, medium, ...")
    ] = DEFAULT_MODEL,
    seconds: Annotated[
        float | None, typer.Option("--seconds", min=0.1, help="cap on the whole review's time (default: none)")
    ] = None,
    playouts: Annotated[
        int, typer.Option("--playouts", min=2, help="playouts a decision may spend")
    ] = DEFAULT_PLAYOUTS,
    bots: Annotated[
        str | None, typer.Option("--bots", help="each seat's bot spec, comma-separated, '-' for a person "
                                 "(modelled by --level): '-,-,medium'; default: every seat modelled by --level")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="seed of the determinizations and playouts")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print the review as JSON")] = False,
) -> None:
    """The coach's review of a seat's moves, judged only from what that seat could see."""
    try:
        text = record.read_text()
    except OSError as error:
        fail(f"cannot read {record}: {error.strerror or error}")
    err = Console(stderr=True, highlight=False)
    with Progress(
        TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=err, transient=True, disable=not err.is_terminal,
    ) as bar:
        task = bar.add_task("review", total=None)

        def show(status: ReviewProgress) -> None:
            bar.update(task, completed=status.done, total=status.total)

        try:
            named = None if bots is None else [None if spec.strip() in ("", "-") else spec.strip()
                                               for spec in bots.split(",")]
            result = review_record(text, seat, model=level, bots=named, playouts=playouts, seconds=seconds,
                                   seed=seed, progress=show)
        except (LudothequeError, ValueError) as error:
            fail(error)
    if as_json:
        print(json.dumps(result, indent=1))
    else:
        console.print(render_review(result))


def render_review(result: dict[str, Any]) -> Group:
    """The review as a table of decisions, a chart of the expected points along the game and the summary."""
    table = Table(title=f"{result['game']}: seat {result['seat']}'s moves")
    columns = ("seq", "when", "played", "coach", "expected (played)", "expected (coach)", "± stderr", "loss",
               "judgement")
    for column in columns:
        table.add_column(column, justify="left" if column in ("when", "played", "coach", "judgement") else "right")
    for entry in result["decisions"]:
        style = STYLES[entry["judgement"]]
        table.add_row(
            str(entry["seq"]), escape(moment_text(result["game"], entry.get("moment", []))),
            escape(entry["played"]), escape(entry["best"]),
            _number(entry["expected_played"]), _number(entry["expected_best"]), _number(entry["stderr"]),
            _number(entry["loss"]), Text(entry["judgement"], style=style),
        )
    summary = result["summary"]
    counts = ", ".join(f"{n} {name}" for name, n in summary["judgements"].items())
    unit = "points of the hand" if result.get("unit") == "hand" else "points"
    lines = [
        f"total loss {summary['total_loss']} {unit} · accuracy {summary['accuracy']}% ({counts})",
        "playouts: " + ", ".join(f"seat {m['seat']} {'a bot' if m['by'] == 'bot' else 'a person'} as {m['model']}"
                                 for m in result.get("models", [])),
        "thresholds: " + ", ".join(f"{k} ≥ {v}" for k, v in summary["thresholds"].items())
        + f", judged beyond {summary['noise_z']} standard errors",
    ]
    for entry in summary["worst"]:
        lines.append(f"  #{entry['seq']}: played {entry['played']}, the coach preferred {entry['best']} "
                     f"(+{entry['loss']} points, {entry['judgement']})")
    return Group(table, Text("expected points along the game: ") + sparkline(result["decisions"]),
                 Text("\n".join(lines)))


def sparkline(entries: list[dict[str, Any]]) -> Text:
    """One bar per valued decision, its height the expected final points of the move played, coloured by its
    judgement (forced moves have no value and no bar)."""
    values = [e["expected_played"] for e in entries if e["expected_played"] is not None]
    if not values:
        return Text("(no decision to value)")
    low, high = min(values), max(values)
    out = Text()
    for entry in entries:
        value = entry["expected_played"]
        if value is None:
            continue
        level = 0 if high == low else round((value - low) / (high - low) * (len(BARS) - 1))
        out.append(BARS[level], style=STYLES[entry["judgement"]])
    out.append(f"  {low:g} … {high:g}")
    return out


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def register(app: typer.Typer) -> None:
    app.command("review")(review)


def moment_text(game_id: str, parts: list[dict[str, Any]], lang: str = "en") -> str:
    """``parts`` in words from the web catalogues (the command line's review says moments so): "Hand 2 · trick 3"."""
    texts = _catalogue(game_id, lang)
    out = []
    for part in parts:
        values = {k: v for k, v in part.items() if k != "key"}
        key = str(part["key"])
        text = texts.get(key, key)
        for name, value in values.items():
            text = text.replace("{" + name + "}", str(value))
        out.append(text)
    return " · ".join(out)


def _catalogue(game_id: str, lang: str) -> dict[str, str]:
    import json

    from ludotheque.games import game_type
    from ludotheque.web import STATIC

    texts: dict[str, str] = json.loads((STATIC / "locales" / f"{lang}.json").read_text(encoding="utf-8"))
    folder = game_type(game_id).web_folder  # as the server finds it (``server.pages``)
    game = json.loads((folder / "messages.json").read_text(encoding="utf-8"))
    return {**texts, **game.get(lang, {})}
