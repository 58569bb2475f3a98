"""Terminal rendering of a Safarü view with Rich."""

from __future__ import annotations

from collections.abc import Mapping
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
    options = view["options"]
    reverse = bool(options["renverse"])
    title = "Safarü renversé" if reverse else "Safarü"
    games = int(options.get("games", 1))
    of = f" of {games}" if games > 1 and not options.get("target") else ""
    parts: list[Any] = [
        Text(
            f"{title}: game {table['game_number']}{of}, deal {table['deal'] + 1}, pile {table['pile']} cards",
            style="bold",
        )
    ]
    if table["partners"]:
        parts.append(Text("Partners: seats 0 & 2 against seats 1 & 3", style="dim"))
    elif n == 4:
        parts.append(Text("Every seat plays for itself", style="dim"))
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


_METHOD_WORDS = {"add": "adding", "17": "seventeen", "pair": "pairing"}


def _cards(cards: list[str]) -> str:
    return " ".join(cards) or "nothing"


def _side_text(side: dict[str, Any]) -> str:
    who = " & ".join(f"seat {s}" for s in side["seats"])
    counts = (
        f"{side['cards']} cards, {side['unicorns']} unicorns, {side['hedgehogs']} hedgehogs, {side['babies']} babies, "
        f"{side['triangles']} triangles"
    )
    points = ", ".join(f"{name.replace('_', ' ')} {value:+g}" for name, value in side["points"].items())
    return f"{who}: {counts} ({points}) = {side['score']:g}"


def event_text(event: dict[str, Any]) -> str:
    """One line for an event of ``events.describe``, as the terminal prints what happened."""
    kind = event["type"]
    if kind == "new_deal":
        hands = ", ".join(f"{c} to seat {s}" for s, c in enumerate(event["hands"]) if c)
        table = f", {event['table']} face up to the table" if event["table"] else ""
        return f"game {event['game']}, deal {event['deal'] + 1}: {hands}{table}; seat {event['starter']} starts"
    if kind == "deal":
        return f"seat {event['to']} is dealt {event['card']}" if "card" in event else f"seat {event['to']} gets a card"
    if kind == "table_deal":
        return f"{event['card']} is dealt face up to the table"
    if kind == "play":
        can = event["can_catch"]
        how = f"it can catch by {' or '.join(_METHOD_WORDS[m] for m in can)}" if can else "it cannot catch"
        return f"seat {event['seat']} plays {event['card']} ({how})"
    if kind == "pick":
        return f"seat {event['seat']} picks {_METHOD_WORDS[event['method']]} for seat {event['player']}"
    if kind == "begin":
        return f"seat {event['seat']} catches by {_METHOD_WORDS[event['method']]}"
    if kind == "take":
        return f"seat {event['seat']} takes {event['card']}"
    if kind == "catch":
        return f"seat {event['seat']} catches {_cards(event['cards'])} by {_METHOD_WORDS[event['method']]}"
    if kind == "done":
        return f"seat {event['seat']} stops catching"
    if kind == "turn_end":
        if event["released"]:
            return f"seat {event['seat']} releases {event['card']}: it stays on the table"
        caught = "; ".join(f"{_METHOD_WORDS[c['method']]} {_cards(c['cards'])}" for c in event["catches"])
        where = "is caught with its pair" if event["card_to"] == "caught" else "stays on the table"
        return f"seat {event['seat']}'s turn: {caught}; {event['card']} {where}"
    if kind == "deal_end":
        return f"deal {event['deal'] + 1} is over ({event['pile']} cards left in the pile)"
    if kind == "game_end":
        sides = "; ".join(_side_text(side) for side in event["sides"])
        totals = ", ".join(f"{t:g}" for t in event["totals"])
        left = f"; not scored: {_cards(event['left'])}" if event["left"] else ""
        return f"game {event['game']} scored: {sides}; totals {totals}{left}"
    if kind == "end":
        winners = ", ".join(f"seat {w}" for w in event["winners"]) or "nobody"
        totals = ", ".join(f"{t:g}" for t in event["returns"])
        return f"the match is over: totals {totals}; winner: {winners}"
    raise ValueError(f"safaru has no event {kind!r}")


def moment(table: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The moment of a decision as the game counts it, for the coach's words (``bots/moments.py``)."""
    return [{"key": "safaru.deal_n", "n": int(table["deal"]) + 1}]
