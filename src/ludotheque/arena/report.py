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


def arena_table(result: ArenaResult) -> Group:
    spec = result.spec
    title = (
        f"{spec.game_id}, {spec.players} players: {len(result.results)} games "
        f"({spec.deals()} deals × {len(spec.seatings())} seatings), seed {spec.seed}"
    )
    table = Table(title=title)
    for column in ("bot", "games", "mean points", "win rate (95% CI)", "score vs fair", "ordinal", "sigma", "s/move"):
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
        h2h = Table(title="head to head: how often the row bot finished ahead of the column bot (ties: half)")
        h2h.add_column("")
        for name in names:
            h2h.add_column(name, justify="right")
        for a in names:
            row = [a]
            for b in names:
                iv = result.head_to_head.get(a, {}).get(b)
                row.append("" if iv is None else _pct(iv))
            h2h.add_row(*row)
        parts.append(h2h)
        margin = Table(title="points margin: the row bot's points beyond the column bot's in the same games")
        margin.add_column("")
        for name in names:
            margin.add_column(name, justify="right")
        for a in names:
            row = [a]
            for b in names:
                iv = result.margins.get(a, {}).get(b)
                row.append("" if iv is None else _signed(iv))
            margin.add_row(*row)
        parts.append(margin)
    parts.append(Text(f"{result.seconds:.1f} s", style="dim"))
    return Group(*parts)


def markdown(result: ArenaResult) -> str:
    """A Markdown table of a result (for docs/bots.md)."""
    lines = [
        "| bot | games | mean points | win rate (95% CI) | score (95% CI) / fair | ordinal | sigma | s/move (max) |",
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
        lines += ["", "Head to head (row finished ahead of column; ties count half):", ""]
        lines.append("| | " + " | ".join(names) + " |")
        lines.append("|---|" + "---:|" * len(names))
        for a in names:
            cells = []
            for b in names:
                iv = result.head_to_head.get(a, {}).get(b)
                cells.append("" if iv is None else _pct(iv))
            lines.append(f"| {a} | " + " | ".join(cells) + " |")
        lines += ["", "Points margin (row's points beyond column's in the same games, the better way positive):", ""]
        lines.append("| | " + " | ".join(names) + " |")
        lines.append("|---|" + "---:|" * len(names))
        for a in names:
            cells = []
            for b in names:
                iv = result.margins.get(a, {}).get(b)
                cells.append("" if iv is None else _signed(iv))
            lines.append(f"| {a} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
