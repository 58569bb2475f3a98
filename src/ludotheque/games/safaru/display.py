"""Terminal rendering of a Safarü view with Rich."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ludotheque.games.safaru.rules import TRIANGLES

STYLES = {"R": "bold red", "Y": "bold yellow", "G": "bold green", "B": "bold blue", "K": "bold white on grey23"}


def cards_text(cards: list[str], empty: str = "-") -> Text:
    text = Text()
    if not cards:
        return Text(empty, style="dim")
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        text.append(card, style=STYLES.get(card[:1], ""))
    return text


def _turn_line(entry: dict[str, Any]) -> Text:
    text = Text(f"seat {entry['seat']} played ")
    text.append_text(cards_text([entry["card"]]))
    if entry["released"]:
        text.append(" and released it")
        return text
    for catch in entry["catches"]:
        text.append(f"  {catch['method']}: ")
        text.append_text(cards_text(catch["cards"]))
    if entry.get("picked_by") is not None:
        text.append(f"  (method picked by seat {entry['picked_by']})")
    return text


def render(view: dict[str, Any]) -> Group:
    table = view["table"]
    n = view["players"]
    reverse = bool(view["options"]["renverse"])
    title = "Safarü renversé" if reverse else "Safarü"
    parts: list[Any] = [
        Text(
            f"{title}: game {table['game_number']}, deal {table['deal'] + 1}, pile {table['pile']} cards",
            style="bold",
        )
    ]
    if table["partners"]:
        parts.append(Text("Partners: seats 0 & 2 against seats 1 & 3", style="dim"))
    line = Text("Table: ")
    line.append_text(cards_text(table["table"], "(empty)"))
    parts.append(line)
    turn = table["turn"]
    if turn is not None:
        line = Text(f"In play: seat {turn['seat']} played ")
        line.append_text(cards_text([turn["card"]]))
        for catch in turn["catches"]:
            line.append(f"  {catch['method']}: ")
            line.append_text(cards_text(catch["cards"]))
        if turn["building"] is not None:
            line.append(f"  building {turn['building']['method']}: ")
            line.append_text(cards_text(turn["building"]["cards"], "(nothing yet)"))
        if turn["zero_required"]:
            line.append("  [a 0 must be in an add/17 catch]", style="magenta")
        parts.append(line)
    seats = Table(show_lines=False)
    for column in ("seat", "hand", "caught", "unicorns", "hedgehogs", "babies", "triangles", "score", "total"):
        seats.add_column(column, justify="left" if column == "seat" else "right")
    for seat in range(n):
        name = f"{seat}" + (" (you)" if view["seat"] == seat else "") + (" *" if seat in view["to_act"] else "")
        caught = table["caught"][seat]
        seats.add_row(
            name,
            str(table["hand_sizes"][seat]),
            str(len(caught)),
            str(sum(1 for c in caught if c[0] == "B")),
            str(sum(1 for c in caught if c[0] == "Y")),
            str(sum(1 for c in caught if c[1] == "0")),
            str(sum(TRIANGLES[int(c[1])] for c in caught)),
            f"{table['scores'][seat]:g}",
            f"{table['totals'][seat]:g}",
        )
    parts.append(seats)
    if reverse:
        parts.append(Text("Renversé: most cards +24, most hedgehogs +18, triangles +1; lowest wins", style="dim"))
    turns = [e for e in table["log"] if "seat" in e]
    for entry in turns[-3:]:
        parts.append(_turn_line(entry))
    if "hand" in table:
        line = Text("Your hand: ", style="bold cyan")
        line.append_text(cards_text(table["hand"], "(empty)"))
        parts.append(line)
    hints = {
        "play": "Play a card: e.g. B7",
        "catch": "Catch: add | 17 | =B7 (pair) | done",
        "build": "Take a table card: +R3, then ok",
        "pick": "Pick the method for the player: pick add | pick 17 | pick pair",
        "pair": "Pair with a table card: =B7",
    }
    if not view["terminal"] and table["phase"] in hints and view["seat"] in view["to_act"]:
        parts.append(Text(hints[table["phase"]], style="dim"))
    if view["terminal"]:
        winners = ", ".join(str(w) for w in view["winners"]) or "nobody"
        parts.append(Text(f"Game over. Winners: {winners}", style="bold green"))
    return Group(*parts)
