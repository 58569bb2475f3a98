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
    parts.append(
        Text(
            f"MICE to meet you{' (solo)' if solo else ''} - turn {table['turn']}, seat {table['active']} active{who}",
            style="bold",
        )
    )
    nut_place = "middle" if solo else "supply"
    parts.append(Text(f"Nuts in the {nut_place}: {table['supply']}", style="yellow"))
    seats = Table(show_lines=False)
    for column in ("seat", "hand", "total", "cage", "dice cards", "dice", "nuts"):
        seats.add_column(
            column,
            justify="right" if column in ("total", "nuts") else "left",
            no_wrap=column != "hand",
            min_width=12 if column == "hand" else None,
        )
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
            parts.append(
                Text(
                    f"Winner(s): seat {winners} (lowest hand total; ties: more face-down dice cards, then more nuts)",
                    style="bold green",
                )
            )
    return Group(*parts)


def _nut_place(place: int | str) -> str:
    return f"seat {place}" if isinstance(place, int) else f"the {place}"


def _sum(event: dict[str, Any]) -> str:
    """``Y1+Y3 (6+2 = 8)``."""
    values = "+".join(str(v) for v in event["values"])
    return f"{'+'.join(event['dice'])} ({values} = {event['sum']})"


def event_text(event: dict[str, Any]) -> str:
    """One line for an event of ``events.describe``, as the terminal prints what happened."""
    kind = event["type"]
    seat = f"seat {event['seat']}" if "seat" in event else ""
    if kind == "turn":
        return f"turn {event['turn']} for {seat}: {event['red_dice']} red and {event['yellow_dice']} yellow dice"
    if kind == "roll":
        return f"{seat} rolls {event['die']}: {event['value']}"
    if kind == "use":
        return f"{seat} uses {_sum(event)}"
    if kind == "fail":
        return f"{seat} fails: no sum reaches a card" if event["forced"] else f"{seat} gives up the roll"
    if kind == "adjust":
        return (
            f"{seat} pays a nut to {_nut_place(event['nut']['to'])}: {event['die']} {event['from']} -> "
            f"{event['to']} (sum {event['sum']})"
        )
    if kind == "pay":
        nut = event["nut"]
        if nut["to"] == "middle":
            return f"{seat} pays a nut to the middle for a second card with {_sum(event)}"
        source = "its own reserve" if nut["from"] == event["seat"] else _nut_place(nut["from"])
        return f"{seat} pays to use {_sum(event)}: a nut from {source} to {_nut_place(nut['to'])}"
    if kind == "pass":
        return f"{seat} passes"
    if kind == "cage":
        return f"{seat} cages {event['card']}"
    if kind == "flip":
        return f"{seat} flips dice card {event['card']} face down"
    if kind == "take_back":
        return f"{seat} takes {event['card']} back from its cage"
    if kind == "unflip":
        return f"{seat} turns dice card {event['card']} face up again"
    if kind == "nothing_to_undo":
        return f"{seat} has nothing to take back or turn up"
    if kind == "pool":
        return f"the dice {seat} left: {'all of them, ' if event['failed'] else ''}{_sum(event)}"
    if kind == "cannot_use":
        why = "no nut to pay with" if event["reason"] == "no_nut" else "no card of that sum within reach"
        return f"{seat} cannot use them: {why}"
    if kind == "bonus_nut":
        return f"{seat} takes a nut from the middle (the unused yellow dice make {event['sum']})"
    if kind == "game_over":
        if "rating" in event:
            return (
                f"game over: {event['cards_left']} card(s) left, {event['face_up']} dice card(s) face up: "
                f"{event['rating']}"
            )
        totals = ", ".join(str(t) for t in event["totals"])
        winners = ", ".join(str(w) for w in event["winners"])
        return f"game over: hand totals {totals}; winner(s): seat {winners}"
    raise ValueError(f"mice has no event {kind!r}")
