"""Terminal rendering of a Calcory view with Rich.

Only face-up cards show a number (calcory-5): face-down cards are ``##`` whatever the history says, so a
human's memory stays their own.  Marked cards carry their owner's seat and colour.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from ludotheque.games.calcory import rules

SEAT_STYLES = ("bold white on blue", "bold white on red", "bold black on green", "bold black on magenta")

OUTCOMES = {
    "bust": "went over 13 or turned a second 0: the cards went back face down",
    "13": "made 13 and took the cards",
    "mark": "stopped and marked the cards",
    "beat": "stopped and beat the marked cards",
    "fail": "stopped without beating the marked cards: the cards went back face down",
    "stuck": "could neither flip nor stop: the cards went back face down",
    "pass": "had nothing to flip and passed",
    "collect": "collected their surviving marked cards",
}


def _grid(table: dict[str, Any]) -> Table:
    grid = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    grid.add_column("")
    for col in range(1, rules.COLS + 1):
        grid.add_column(str(col), justify="center")
    marked = table["marked"]
    marked_cells = set(marked["cells"]) if marked else set()
    flipped = {name for name, _ in table["flipped"]}
    for row in range(rules.ROWS):
        cells: list[Text] = []
        for col in range(rules.COLS):
            c = row * rules.COLS + col
            name = rules.CELL_NAMES[c]
            item = table["cells"][c]
            if item is None:
                cells.append(Text(" .", style="dim"))
            elif item == "down":
                cells.append(Text("##", style="grey50"))
            elif name in marked_cells and marked is not None:
                cells.append(Text(f"{item}{marked['seat']}", style=SEAT_STYLES[marked["seat"] % 4]))
            elif name in flipped:
                cells.append(Text(f" {item}", style="bold yellow reverse"))
            else:
                cells.append(Text(f" {item}"))
        grid.add_row(Text(rules.ROW_NAMES[row], style="bold"), *cells)
    return grid


def render(view: dict[str, Any]) -> Group:
    table = view["table"]
    n = view["players"]
    parts: list[Any] = []
    if table["dealt"] < rules.CELLS:
        parts.append(Text(f"Dealing the grid: {table['dealt']} of {rules.CELLS} cards", style="bold"))
        return Group(*parts)
    to_act = view["to_act"]
    head = f"Turn {table['turn']}"
    if to_act:
        head += f" - seat {to_act[0]}" + (" (you)" if view["seat"] == to_act[0] else "")
    parts.append(Text(head, style="bold"))
    parts.append(_grid(table))
    legend = Text("## face down   . empty   ", style="dim")
    legend.append(" 7 ", style="bold yellow reverse")
    legend.append(" flipped this turn   ", style="dim")
    legend.append("50", style=SEAT_STYLES[0])
    legend.append(" a 5 marked by seat 0", style="dim")
    parts.append(legend)
    marked = table["marked"]
    if marked:
        cells = ", ".join(marked["cells"])
        line = f"Marked by seat {marked['seat']}: {cells} = {marked['sum']} with {marked['count']} card(s)"
        parts.append(Text(line + " - to beat: a higher sum, or as much with more cards", style="cyan"))
    if table["phase"] == "flip" and to_act:
        flips = " + ".join(f"{v} ({name})" for name, v in table["flipped"]) or "nothing yet"
        parts.append(Text(f"Flipped: {flips}  sum {table['sum']}", style="yellow"))
    if table["phase"] == "put_back":
        why = "collected marked cards" if table["collecting"] else "made 13"
        held = " ".join(str(v) for v in table["holding"])
        parts.append(
            Text(
                f"Seat {to_act[0] if to_act else '?'} {why}: holding {held}; put one back "
                "face down on an empty cell (e.g. 7@C4)",
                style="green",
            )
        )
    seats = Table(box=box.SIMPLE, show_edge=False)
    seats.add_column("seat")
    seats.add_column("cards won", justify="right")
    seats.add_column("markers home", justify="right")
    for seat in range(n):
        name = Text(f"{seat}" + (" (you)" if view["seat"] == seat else ""), style=SEAT_STYLES[seat % 4])
        seats.add_row(name, str(table["cards_won"][seat]), str(table["markers"][seat]))
    parts.append(seats)
    last = table["last_turn"]
    if last:
        flips = ", ".join(f"{name}={v}" for name, v in last["flips"])
        line = f"Last turn ({last['turn']}), seat {last['seat']}: " + (f"flipped {flips}; " if flips else "")
        line += OUTCOMES.get(last["outcome"], last["outcome"])
        if "beaten" in last:
            line += f" of seat {last['beaten']}"
        if "back" in last:
            line += f", kept {last['kept']}, put a {last['back'][1]} back on {last['back'][0]}"
        parts.append(Text(line))
    ending = table.get("ending")
    if ending:
        parts.append(
            Text(
                f"Seat {ending['seat']}'s single marked card ({ending['value']} on {ending['cell']}) "
                f"survived a full round: seat {ending['seat']} keeps it and the game ends",
                style="bold",
            )
        )
    if view["terminal"]:
        winners = view.get("winners", [])
        parts.append(Text("Game over. Winner(s): " + ", ".join(f"seat {w}" for w in winners), style="bold green"))
    elif table["phase"] == "flip" and to_act:
        parts.append(Text("Moves: a face-down cell (e.g. C4) to flip it, or 'stop'", style="dim"))
    elif table["phase"] == "pass":
        parts.append(Text("Nothing can be flipped or stopped: 'pass'", style="dim"))
    return Group(*parts)


def _group(event: dict[str, Any]) -> str:
    """``"5 (B1) + 3 (B2) = 8"``: a group of face-up cards with their sum."""
    cards = " + ".join(f"{v} ({name})" for name, v in zip(event["cells"], event["values"], strict=True))
    return f"{cards} = {event['sum']}" if event["count"] > 1 else f"a single {cards}"


def _marks(group: dict[str, Any]) -> str:
    """``"seat 0's 8 (2 cards)"``: marked cards as the table shows them."""
    cards = "1 card" if group["count"] == 1 else f"{group['count']} cards"
    return f"seat {group['seat']}'s {group['sum']} ({cards})"


def _seats(seats: list[int]) -> str:
    return ", ".join(f"seat {s}" for s in seats)


def event_text(event: dict[str, Any]) -> str:
    """One line for an event of ``events.describe``, as the terminal prints what happened."""
    kind = event["type"]
    seat = event.get("seat")
    if kind == "deal":
        return f"a card is dealt face down on {event['cell']}"
    if kind == "flip":
        return f"seat {seat} flips {event['cell']}: a {event['value']} (sum {event['sum']})"
    if kind == "bust":
        why = "a second 0" if event["reason"] == "second_zero" else f"{event['sum']} is over 13"
        return f"seat {seat} busts ({why}): {', '.join(event['cells'])} turn back face down"
    if kind == "thirteen":
        return f"seat {seat} makes 13 with {_group(event)} and takes the cards; one goes back"
    if kind == "mark":
        return f"seat {seat} stops and marks {_group(event)}"
    if kind == "beat":
        old = event["beaten"]
        return (f"seat {seat} stops with {_group(event)} and beats {_marks(old)}: those turn back face down, "
                "their markers go home")
    if kind == "fail":
        old = event["marked"]
        return (f"seat {seat} stops with {_group(event)}, which does not beat {_marks(old)}: the cards turn back "
                "face down")
    if kind == "pass":
        if event["cells"]:
            return (f"seat {seat} can neither flip nor stop and passes: {', '.join(event['cells'])} "
                    "turn back face down")
        return f"seat {seat} has nothing to flip and passes"
    if kind == "put_back":
        kept = " ".join(str(v) for v in event["kept"]) or "nothing"
        return f"seat {seat} puts a {event['value']} back face down on {event['cell']} and keeps {kept}"
    if kind == "collect":
        if event["count"] == 1:
            return (f"seat {seat}'s single marked card, a {event['values'][0]} on {event['cells'][0]}, survived a "
                    f"full round: seat {seat} keeps it and the game ends")
        return f"seat {seat}'s marked cards survived a full round: seat {seat} takes {_group(event)}; one goes back"
    if kind == "end":
        won = ", ".join(f"seat {s}: {n}" for s, n in enumerate(event["cards_won"]))
        winners = event["winners"]
        who = f"{_seats(winners)} win{'s' if len(winners) == 1 else ' (a shared win)'}"
        return f"game over, cards won: {won}; {who}"
    raise ValueError(f"calcory has no event {kind!r}")
