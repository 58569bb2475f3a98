"""Terminal rendering of a MICE view with Rich: one row per seat, the dice of the turn, what just happened."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

_PHASE_TEXT = {
    "roll": "rolling the dice",
    "select": "choose the dice to use (use R+Y..), or fail",
    "adjust": "change dice with nuts (R1+1, Y2-1), or cage / flip the card of the sum",
    "fail": "failed roll: take back the cage top or turn a dice card face up",
    "pay": "pay a nut to use the remaining dice, or pass",
    "over": "game over",
}

_SOLO_TEXT = {
    "adjust": "change dice with nuts (R1+1, Y2-1), or cage the card of the sum",
    "fail": "failed roll: flip a dice card (the 6 last)",
    "pay": "pay a nut to cage a second card with the yellow dice left, or pass",
}


def _cards(cards: list[int]) -> str:
    """Runs of consecutive cards as ranges: ``1-4 6 8-18``."""
    parts: list[str] = []
    start = prev = None
    for card in [*cards, None]:
        if card is not None and prev is not None and card == prev + 1:
            prev = card
            continue
        if start is not None and prev is not None:
            if prev - start >= 2:
                parts.append(f"{start}-{prev}")
            else:
                parts.extend(str(c) for c in range(start, prev + 1))
        start = prev = card
    return " ".join(parts) or "-"


def _dice_cards(info: dict[str, Any]) -> Text:
    """Face-up dice cards, then the face-down ones after a slash: ``6 9 12 / 15``."""
    text = Text(" ".join(str(v) for v in info["face_up"]) or "-", style="bold")
    if info["face_down"]:
        text.append(" / ")
        text.append(" ".join(str(v) for v in info["face_down"]), style="dim strike")
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
    task = _SOLO_TEXT.get(table["phase"], _PHASE_TEXT[table["phase"]]) if solo else _PHASE_TEXT[table["phase"]]
    who = "" if table["actor"] is None else f" - seat {table['actor']} to act: {task}"
    if table["phase"] == "roll":
        who = f" - {_PHASE_TEXT['roll']}"
    parts.append(Text(f"MICE to meet you{' (solo)' if solo else ''} - turn {table['turn']}, "
                      f"seat {table['active']} active{who}", style="bold"))
    nut_place = "middle" if solo else "supply"
    parts.append(Text(f"Nuts in the {nut_place}: {table['supply']}", style="yellow"))
    seats = Table(show_lines=False)
    for column in ("seat", "hand", "total", "cage", "dice cards", "dice", "nuts"):
        seats.add_column(column, justify="right" if column in ("total", "nuts") else "left",
                         no_wrap=column != "hand", min_width=12 if column == "hand" else None)
    for seat, info in enumerate(table["seats"]):
        name = str(seat)
        if seat == table["active"]:
            name += " *"
        if view["seat"] == seat:
            name += " (you)"
        cage = " ".join(str(c) for c in info["cage"][-3:])
        if len(info["cage"]) > 3:
            cage = "… " + cage
        seats.add_row(
            name,
            _cards(info["hand"]),
            str(info["hand_total"]),
            cage or "-",
            _dice_cards(info),
            f"{info['red_dice']}R {info['yellow_dice']}Y",
            str(info["nuts"]),
        )
    parts.append(seats)
    parts.append(Text("cage: top card last; dice cards: face up / face down; * the active seat", style="dim"))
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
            parts.append(Text(f"Winner(s): seat {winners} (lowest hand total; ties: more face-down dice cards, "
                              "then more nuts)", style="bold green"))
    return Group(*parts)
