"""Terminal rendering of a MICE view with Rich: one row per seat, the dice of the turn, what just happened."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

_PHASE_TEXT = {
    "roll": "rolling the dice",
    "select": "choose the dice to use (use R+Y..), or fail",
    "adjust": "change dice with nuts (R1+1, Y2-1) or cage / flip the card of the sum",
    "fail": "failed roll: take back the cage top or turn a dice card face up",
    "pay": "pay a nut to use the remaining dice, or pass",
    "over": "game over",
}


def _dice_cards(info: dict[str, Any]) -> Text:
    text = Text()
    for value in (6, 9, 12, 15):
        if value in info["face_up"]:
            text.append(f"[{value}]", style="bold")
        else:
            text.append(f" {value} ", style="dim strike")
        text.append(" ")
    return text


def _dice(table: dict[str, Any]) -> Text:
    text = Text("Dice: ")
    if not table["dice"]:
        return text.append("none")
    for die in table["dice"]:
        colour = "red" if die["die"].startswith("R") else "yellow"
        value = "?" if die["value"] is None else str(die["value"])
        marks = []
        if die["active_used"]:
            marks.append("used")
        if die["pool"]:
            marks.append("left")
        if die["using"]:
            marks.append("now")
        suffix = f"({','.join(marks)})" if marks else ""
        text.append(f"{die['die']}={value}{suffix}", style=f"bold {colour}" if die["using"] else colour)
        text.append("  ")
    if table["sum"] is not None:
        text.append(f"sum in use: {table['sum']}", style="bold")
    elif table["pool"]:
        text.append(f"left for the others: {'+'.join(table['pool'])} = {table['pool_sum']}")
    return text


def render(view: dict[str, Any]) -> Group:
    table = view["table"]
    solo = table["solo"]
    parts: list[Any] = []
    who = "" if table["actor"] is None else f" - seat {table['actor']} to act: {_PHASE_TEXT[table['phase']]}"
    if table["phase"] == "roll":
        who = f" - {_PHASE_TEXT['roll']}"
    parts.append(Text(f"MICE to meet you{' (solo)' if solo else ''} - turn {table['turn']}, "
                      f"seat {table['active']} active{who}", style="bold"))
    nut_place = "middle" if solo else "supply"
    parts.append(Text(f"Nuts in the {nut_place}: {table['supply']}", style="yellow"))
    seats = Table(show_lines=False)
    for column in ("seat", "hand", "total", "cage (top last)", "dice cards", "dice", "nuts"):
        seats.add_column(column, justify="right" if column in ("total", "nuts") else "left")
    for seat, info in enumerate(table["seats"]):
        name = str(seat)
        if seat == table["active"]:
            name += " *"
        if view["seat"] == seat:
            name += " (you)"
        cage = " ".join(str(c) for c in info["cage"][-6:])
        if len(info["cage"]) > 6:
            cage = "... " + cage
        seats.add_row(
            name,
            " ".join(str(c) for c in info["hand"]) or "-",
            str(info["hand_total"]),
            cage or "-",
            _dice_cards(info),
            f"{info['red_dice']}R {info['yellow_dice']}Y",
            str(info["nuts"]),
        )
    parts.append(seats)
    parts.append(_dice(table))
    if table["failed"]:
        others = "" if solo else ": the others may use all dice"
        parts.append(Text(f"The active seat failed its roll{others}.", style="magenta"))
    if table["last_turn"]:
        parts.append(Text("Last turn: " + "; ".join(table["last_turn"]), style="dim"))
    if table["this_turn"]:
        parts.append(Text("This turn: " + "; ".join(table["this_turn"])))
    if view["terminal"]:
        if solo:
            parts.append(Text(f"Result: {table['rating']}", style="bold green"))
        else:
            winners = ", ".join(str(w) for w in view.get("winners", []))
            parts.append(Text(f"Winner(s): seat {winners} (lowest hand total)", style="bold green"))
    return Group(*parts)
