"""Terminal rendering of a Cheese Rescue view with Rich.

The board shows the part of the frame the square can still cover.  Cards: ``*`` start, ``D`` dog, ``C`` cat,
``M`` mouse, ``v@s`` seat s's cheese worth v (coloured by seat); ``+`` marks a cell where a card may go now.
At the end the removed cards are struck through and shown in red.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ludotheque.games.cheese import rules
from ludotheque.games.cheese.notation import cell_name

SEAT_STYLES = ("bold cyan", "bold magenta", "bold green", "bold yellow")
ANIMAL_STYLES = {rules.DOG: "bold white", rules.CAT: "bold red", rules.MOUSE: "bold blue"}
_COLUMNS = "abcdefghijklm"


def _span(low: int, high: int, side: int, frame: int) -> range:
    """Rows (or columns) an N x N square holding low..high can still reach."""
    return range(max(0, high - side + 1), min(frame, low + side))


def board_table(table: dict[str, Any]) -> Table:
    frame, side = table["frame"], table["side"]
    kinds: dict[int, tuple[int, int]] = {cell: (kind, seat) for cell, kind, seat in table["placed"]}
    if table["start"] is not None:
        kinds[table["start"]] = (rules.START, -1)
    removed: set[int] = set()
    for cells in table.get("removed", {}).values():
        removed.update(cells)
    legal = set(table["legal_cells"])
    occupied = list(kinds) or [frame * frame // 2]
    rows = [c // frame for c in occupied]
    cols = [c % frame for c in occupied]
    row_range = _span(min(rows), max(rows), side, frame)
    col_range = _span(min(cols), max(cols), side, frame)
    grid = Table(show_header=True, show_lines=False, padding=(0, 1), box=None)
    grid.add_column("", justify="right", style="dim", min_width=2)
    for col in col_range:
        grid.add_column(_COLUMNS[col], justify="center", min_width=3)
    for row in row_range:
        line: list[Text] = [Text(f"{frame - row}")]
        for col in col_range:
            cell = row * frame + col
            if cell not in kinds:
                line.append(Text(" + " if cell in legal else " . ", style="green" if cell in legal else "dim"))
                continue
            kind, seat = kinds[cell]
            if kind == rules.START:
                text = Text(" * ", style="bold")
            elif kind in rules.ANIMALS:
                text = Text(f" {rules.KIND_CODES[kind]} ", style=ANIMAL_STYLES[kind])
            else:
                text = Text(f"{rules.value_of(kind)}@{seat}", style=SEAT_STYLES[seat])
            if cell in removed:
                text.stylize("strike red")
            line.append(text)
        grid.add_row(*line)
    return grid


def render(view: dict[str, Any]) -> Group:
    table = view["table"]
    n = view["players"]
    side = table["side"]
    parts: list[Any] = []
    placed = len(table["placed"])
    parts.append(
        Text(f"Cheese Rescue, {n} players: a {side}x{side} square, {placed} of {12 * n} cards placed", style="bold")
    )
    parts.append(board_table(table))
    recent = table["placed"][-(n - 1) :] if table["placed"] else []
    if recent:
        moves = ", ".join(
            f"seat {seat}: {rules.KIND_CODES[kind]} {cell_name(cell, table['frame'])}" for cell, kind, seat in recent
        )
        parts.append(Text(f"Last placed: {moves}"))
    parts.append(Text("D dog  C cat  M mouse  v@s cheese worth v of seat s  * start  + free now", style="dim"))
    seats = Table(show_lines=False)
    seats.add_column("seat")
    seats.add_column("placed", justify="right")
    seats.add_column("cheeses in hand")
    seats.add_column("animals in hand", justify="right")
    if "points" in table:
        seats.add_column("points", justify="right")
        seats.add_column("cheese cards", justify="right")
    for seat in range(n):
        name = Text(f"{seat}" + (" (you)" if view["seat"] == seat else ""), style=SEAT_STYLES[seat])
        if table["turn"] == seat and not view["terminal"]:
            name.append(" <", style="bold")
        hand = table["hands"][seat]
        row: list[Text | str] = [
            name,
            str(table["placed_count"][seat]),
            " ".join(map(str, hand["cheeses"])) or "-",
            str(hand["animals"]),
        ]
        if "points" in table:
            row += [str(table["points"][seat]), str(table["cheese_cards"][seat])]
        seats.add_row(*row)
    parts.append(seats)
    dogs, cats, mice = table["unseen"]
    parts.append(
        Text(f"Pile: {table['pile']} cards; animals not seen: {dogs} dogs, {cats} cats, {mice} mice", style="dim")
    )
    if "hand" in table:
        mine = table["hand"]
        words = [f"{mine[k]}x {rules.KIND_CODES[k]}" for k in range(rules.KINDS) if mine[k]]
        parts.append(Text("Your hand: " + (", ".join(words) or "empty"), style="bold cyan"))
    if "removed" in table:
        r = table["removed"]
        frame = table["frame"]
        for label, cells in (
            ("cats (next to a dog)", r["cats"]),
            ("mice (next to a cat)", r["mice"]),
            ("cheeses (next to a mouse)", r["cheeses"]),
        ):
            names = " ".join(cell_name(c, frame) for c in cells) or "none"
            parts.append(Text(f"Removed {label}: {names}", style="red"))
        if view.get("winners"):
            parts.append(Text("Winner(s): " + ", ".join(f"seat {w}" for w in view["winners"]), style="bold"))
    return Group(*parts)


_CARD_WORDS = {
    "D": "a dog",
    "C": "a cat",
    "M": "a mouse",
    "1": "a cheese worth 1",
    "2": "a cheese worth 2",
    "3": "a cheese worth 3",
}


def _cells(items: list[dict[str, Any]]) -> str:
    return " ".join(item["cell"] for item in items) or "none"


def event_text(event: dict[str, Any]) -> str:
    """One line for an event of ``events.describe``, as the terminal prints what happened."""
    kind = event["type"]
    if kind == "draw":
        card = _CARD_WORDS[event["card"]] if "card" in event else "a card"
        return f"seat {event['seat']} draws {card} ({event['pile']} left in the pile)"
    if kind == "place":
        return f"seat {event['seat']} places {_CARD_WORDS[event['card']]} on {event['cell']}"
    if kind == "end":
        removed = event["removed"]
        cheeses = " ".join(f"{c['cell']} ({c['card']} of seat {c['seat']})" for c in removed["cheeses"]) or "none"
        scores = ", ".join(
            f"seat {seat} {points} ({cards} cheese{'s' if cards != 1 else ''})"
            for seat, (points, cards) in enumerate(zip(event["points"], event["cheese_cards"], strict=True))
        )
        winners = ", ".join(f"seat {w}" for w in event["winners"])
        return (
            f"scoring: cats scared off by a dog: {_cells(removed['cats'])}; mice caught by a cat: "
            f"{_cells(removed['mice'])}; cheeses eaten by a mouse: {cheeses}; points {scores}; won by {winners}"
        )
    raise ValueError(f"cheese has no event {kind!r}")


def moment(table: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The moment of a decision as the game counts it, for the coach's words (``bots/moments.py``)."""
    # ``turn`` is the seat to place; the round of placing is counted by the cards placed
    placed = table["placed_count"]
    return [{"key": "review.moment.turn", "n": sum(placed) // len(placed) + 1}]
