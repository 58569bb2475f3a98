"""Terminal rendering of a Geier view with Rich."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text


def _points(values: list[int]) -> str:
    return " ".join(f"{v:+d}" for v in values) or "-"


def render(view: dict[str, Any]) -> Group:
    table = view["table"]
    n = view["players"]
    parts: list[Any] = []
    header = Text(f"Round {table['round']} of 15", style="bold")
    parts.append(header)
    pot = _points(table["pot"])
    parts.append(Text(f"Pot: {pot}  (worth {table['pot_sum']:+d})", style="yellow"))
    parts.append(Text(f"Point cards to come: {_points(table['points_to_come'])}", style="dim"))
    seats = Table(title=None, show_lines=False)
    seats.add_column("seat")
    seats.add_column("points", justify="right")
    seats.add_column("won")
    seats.add_column("last card", justify="right")
    seats.add_column("this round")
    last = table["rounds"][-1]["played"] if table["rounds"] else [None] * n
    for seat in range(n):
        name = f"{seat}" + (" (you)" if view["seat"] == seat else "")
        status = "chosen" if table["chosen"][seat] else "thinking"
        if view["terminal"]:
            status = ""
        seats.add_row(
            name,
            str(table["points"][seat]),
            _points(table["won"][seat]),
            "" if last[seat] is None else str(last[seat]),
            status,
        )
    parts.append(seats)
    if table["rounds"]:
        r = table["rounds"][-1]
        taker = "nobody (the pot stays)" if r["taker"] is None else f"seat {r['taker']}"
        played = ", ".join(f"{s}:{c}" for s, c in enumerate(r["played"]))
        parts.append(Text(f"Last round: pot {_points(r['pot'])}, played {played} -> {taker}"))
    if table.get("lost"):
        parts.append(Text(f"Nobody took the last pot: {_points(table['lost'])} is lost", style="red"))
    if "hand" in table:
        parts.append(Text("Your hand: " + " ".join(str(c) for c in table["hand"]), style="bold cyan"))
        if table.get("my_choice"):
            parts.append(Text(f"You chose {table['my_choice']}", style="cyan"))
    return Group(*parts)


def event_text(event: dict[str, Any]) -> str:
    """One line for an event of ``events.describe``, as the terminal prints what happened."""
    kind = event["type"]
    if kind == "turn":
        return f"the point card {event['points']:+d} is turned (pot {_points(event['pot'])})"
    if kind == "choose":
        return f"seat {event['seat']} plays {event['card']} face down" if "card" in event else (
            f"seat {event['seat']} has chosen a card"
        )
    if kind == "reveal":
        played = ", ".join(f"seat {s}: {c}" for s, c in enumerate(event["played"]))
        taker = "nobody (the pot stays)" if event["taker"] is None else f"seat {event['taker']}"
        text = f"cards revealed: {played}; the pot {_points(event['pot'])} goes to {taker}"
        if event["lost"]:
            text += f"; nobody took the last pot, {_points(event['lost'])} is lost"
        return text
    raise ValueError(f"geier has no event {kind!r}")


def moment(table: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The moment of a decision as the game counts it, for the coach's words (``bots/moments.py``)."""
    # the round, out of all (those played and the prize cards still to come), and the prize card turned up
    now = int(table["round"])
    total = now + len(table.get("points_to_come", []))
    parts: list[dict[str, Any]] = [{"key": "geier.round", "n": now, "total": total}]
    if table.get("pot"):
        parts.append({"key": "review.moment.prize", "card": table["pot"][-1]})
    return parts
