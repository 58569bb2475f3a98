"""Rich tables and Markdown for arena results."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ludotheque.arena.stats import Interval
from ludotheque.arena.tournament import ArenaResult


def _pct(iv: Interval) -> str:
    return f"{100 * iv.estimate:.1f}% [{100 * iv.low:.1f}, {100 * iv.high:.1f}]"


def _num(iv: Interval) -> str:
    return f"{iv.estimate:.2f} ± {(iv.high - iv.low) / 2:.2f}"


def _signed(iv: Interval) -> str:
    return f"{iv.estimate:+.2f} [{iv.low:+.2f}, {iv.high:+.2f}]"


def _pair_tables(result: ArenaResult, names: list[str]) -> list[tuple[str, list[list[str]]]]:
    """The tables that compare bots pairwise (title, cell text by row and column): finishing ahead, margins."""
    comparisons = (
        (
            "head to head: how often the row bot finished ahead of the column bot (ties count half)",
            result.head_to_head,
            _pct,
        ),
        (
            "points margin: the row bot's points beyond the column bot's in the same games, the better way positive",
            result.margins,
            _signed,
        ),
    )
    tables = []
    for title, values, text in comparisons:
        cells = [["" if (iv := values.get(a, {}).get(b)) is None else text(iv) for b in names] for a in names]
        tables.append((title, cells))
    return tables


def arena_table(result: ArenaResult) -> Group:
    spec = result.spec
    title = (
        f"{spec.game_id}, {spec.players} players: {len(result.results)} games "
        f"({spec.deals()} deals × {len(spec.seatings())} seatings), seed {spec.seed}"
    )
    table = Table(title=title)
    columns = ("bot", "games", "mean points", "win rate (95% CI)", "score vs fair", "ordinal", "sigma", "CPU s/move")
    for column in columns:
        table.add_column(column, justify="left" if column == "bot" else "right")
    order = sorted(result.summaries.values(), key=lambda s: -s.rating["ordinal"])
    for s in order:
        table.add_row(
            s.name,
            str(s.games),
            _num(s.mean_points),
            _pct(s.win_rate),
            f"{_pct(s.score)} / {100 * s.fair_score:.0f}%",
            f"{s.rating['ordinal']:.2f}",
            f"{s.rating['sigma']:.2f}",
            f"{s.seconds_per_move:.3f} (max {s.slowest_move:.2f})",
        )
    parts: list[Table | Text] = [table]
    if len(result.summaries) > 2 or spec.players != 2:  # solo: bots meet only here, deal by deal
        names = [s.name for s in order]
        for title, cells in _pair_tables(result, names):
            pairs = Table(title=title)
            pairs.add_column("")
            for name in names:
                pairs.add_column(name, justify="right")
            for a, row in zip(names, cells, strict=True):
                pairs.add_row(a, *row)
            parts.append(pairs)
    parts.append(Text(f"{result.seconds:.1f} s, {result.cpu_seconds:.1f} s of CPU", style="dim"))
    return Group(*parts)


def markdown(result: ArenaResult) -> str:
    """A Markdown table of a result (for docs/bots.md)."""
    lines = [
        "| bot | games | mean points | win rate (95% CI) | score (95% CI) / fair | ordinal | sigma "
        "| CPU s/move (max) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in sorted(result.summaries.values(), key=lambda s: -s.rating["ordinal"]):
        lines.append(
            f"| {s.name} | {s.games} | {_num(s.mean_points)} | {_pct(s.win_rate)} | "
            f"{_pct(s.score)} / {100 * s.fair_score:.0f}% | {s.rating['ordinal']:.2f} | {s.rating['sigma']:.2f} | "
            f"{s.seconds_per_move:.3f} ({s.slowest_move:.2f}) |"
        )
    names = [s.name for s in sorted(result.summaries.values(), key=lambda s: -s.rating["ordinal"])]
    if len(names) > 2 or result.spec.players == 1:
        for title, cells in _pair_tables(result, names):
            lines += ["", title[0].upper() + title[1:] + ":", "", "| | " + " | ".join(names) + " |"]
            lines.append("|---|" + "---:|" * len(names))
            lines += [f"| {a} | " + " | ".join(row) + " |" for a, row in zip(names, cells, strict=True)]
    return "\n".join(lines)
