"""Terminal rendering of a Mü view with Rich: scores and roles, the cards laid on the table, the trick."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

STYLES = {"R": "bold red", "Y": "bold yellow", "G": "bold green", "B": "bold blue", "K": "bold white on grey23"}


def card_text(name: str, star: bool = False) -> Text:
    return Text(name + ("*" if star else ""), style=STYLES.get(name[0], ""))


def cards_text(names: list[str]) -> Text:
    out = Text()
    for index, name in enumerate(names):
        if index:
            out.append(" ")
        out.append_text(card_text(name))
    return out or Text("-", style="dim")


def _trick_text(cards: list[list[Any]]) -> Text:
    out = Text()
    for index, (seat, name, table) in enumerate(cards):
        if index:
            out.append("  ")
        out.append(f"{seat}:")
        out.append_text(card_text(name, table))
    return out


def _roles(table: dict[str, Any], seat: int) -> str:
    roles = []
    if table["dealer"] == seat:
        roles.append("dealer")
    if table["chief"] == seat:
        roles.append("CHIEF")
    if table["vice"] == seat:
        roles.append("vice")
    if table["partner"] == seat:
        roles.append("partner")
    return " ".join(roles)


def render(view: dict[str, Any]) -> Group:
    table = view["table"]
    n = view["players"]
    me = view["seat"]
    parts: list[Any] = []
    title = f"Mü - hand {table['hand_number']} - {table['phase'].replace('_', ' ')} - match to {table['target']}"
    parts.append(Text(title, style="bold"))
    if table["removed"]:
        parts.append(Text("Colours out of play: " + " ".join(table["removed"]), style="dim"))
    seats = Table(show_lines=False)
    for column, justify in (
        ("seat", "left"),
        ("score", "right"),
        ("role", "left"),
        ("bid", "right"),
        ("in hand", "right"),
        ("on the table (laid)", "left"),
        ("won", "right"),
    ):
        seats.add_column(column, justify=justify)  # type: ignore[arg-type]
    for seat in range(n):
        name = f"{seat}" + (" (you)" if me == seat else "") + (" <" if seat in view["to_act"] else "")
        seats.add_row(
            name,
            str(table["scores"][seat]),
            _roles(table, seat),
            str(table["bids"][seat]),
            str(table["hand_sizes"][seat]),
            cards_text(table["laid"][seat]),
            str(table["won"][seat]),
        )
    parts.append(seats)
    if table["phase"] == "auction":
        top = max(table["bids"])
        parts.append(
            Text(
                f"Auction: highest bid {top}; this turn may reach {table['turn_limit']} "
                f"(laid this turn: {table['turn_laid']})",
                style="yellow",
            )
        )
        recent = table["auction"][-2 * n :]
        if recent:
            parts.append(Text("Recent: " + ", ".join(f"{s}:{m}" for s, m in recent), style="dim"))
    if table["chief"] is not None:
        line = f"Chief {table['chief']} bid {table['bids'][table['chief']]} (team needs {table['contract']})"
        if table["vice"] is not None:
            line += f" - vice {table['vice']}"
        if table["vice_trump"] is not None:
            line += f" - vice's trump {table['vice_trump']}"
        if table["chief_trump"] is not None:
            line += f" - chief's trump {table['chief_trump']}"
        if table["partner"] is not None:
            line += f" - partner {table['partner']}"
        parts.append(Text(line, style="yellow"))
    if table["trick"]:
        parts.append(Text("Trick: ").append_text(_trick_text(table["trick"])))
    if table["tricks"]:
        last = table["tricks"][-1]
        parts.append(
            Text("Last trick: ", style="dim")
            .append_text(_trick_text(last["cards"]))
            .append(f"  -> seat {last['winner']}", style="dim")
        )
    if table["hands"]:
        done = table["hands"][-1]
        parts.append(
            Text(
                f"Hand {done['hand']}: {done['result']}, deltas " + " ".join(f"{d:+d}" for d in done["deltas"]),
                style="dim",
            )
        )
    if "hand" in table:
        parts.append(Text("Your hand: ", style="bold cyan").append_text(cards_text(table["hand"])))
    if view["terminal"]:
        winners = ", ".join(str(w) for w in view["winners"])
        parts.append(Text(f"Match over: winner(s) {winners}", style="bold green"))
    return Group(*parts)


def _trump_words(event: dict[str, Any]) -> str:
    if "colour" in event:
        return {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "K": "black"}[event["colour"]]
    return f"the {event['number']}s"


def _seats(seats: list[int]) -> str:
    return ", ".join(f"seat {seat}" for seat in seats) or "nobody"


def _points(values: list[int]) -> str:
    return " ".join(f"{value:+d}" for value in values)


def _scored_text(event: dict[str, Any]) -> str:
    head = f"hand {event['hand']} scored"
    if event["result"] == "egalite":
        text = (
            f"{head}: égalité between {_seats(event['tied'])} (seat {event['tie_maker']} made the tie and "
            f"pays 10 per card)"
        )
    else:
        made = event["result"] == "made"
        team = f"seat {event['chief']}" + (f" and seat {event['partner']}" if event["partner"] is not None else "")
        text = (
            f"{head}: {team} took {event['team_triangles']} triangles for a contract of {event['contract']} "
            f"(bid {event['bid']}), {'made' if made else 'missed'}"
        )
        if made:
            text += f"; +{event['bonus']} each"
        else:
            text += (
                f"; k = {event['k']}: the chief loses {event['chief_loss']}, each opponent gains "
                f"{event['opponent_gain']}"
            )
        text += f"; triangles {' '.join(str(t) for t in event['triangles'])}"
    return f"{text}; points {_points(event['deltas'])}, totals {' '.join(str(s) for s in event['scores'])}"


def event_text(event: dict[str, Any]) -> str:
    """One line for an event of ``events.describe``, as the terminal prints what happened."""
    kind = event["type"]
    seat = event.get("seat")
    if kind == "new_hand":
        return f"hand {event['hand']}: seat {event['dealer']} deals"
    if kind == "remove":
        return f"the {_trump_words(event)} cards are out of play"
    if kind == "deal":
        return f"seat {seat} is dealt {event['card']}" if "card" in event else f"seat {seat} is dealt a card"
    if kind == "lay":
        return f"seat {seat} lays {event['card']} (bid {event['bid']})"
    if kind == "done":
        return f"seat {seat} ends its turn at a bid of {event['bid']}"
    if kind == "pass":
        return f"seat {seat} passes"
    if kind == "auction_end":
        bids = " ".join(str(b) for b in event["bids"])
        if event["result"] == "redeal":
            return "everyone passed without a bid: the cards are dealt again"
        if event["result"] == "egalite":
            return f"the auction ends in an égalité (bids {bids}): the hand is not played"
        vice = "no vice" if event["vice"] is None else f"vice seat {event['vice']}"
        return (
            f"the auction ends (bids {bids}): chief seat {event['chief']}, {vice}; the team needs "
            f"{event['contract']} triangles"
        )
    if kind == "trump":
        return f"the {event['role']} (seat {seat}) names {_trump_words(event)} as trump"
    if kind == "no_trump":
        return f"the {event['role']} (seat {seat}) names no trump"
    if kind == "partner":
        return f"the chief (seat {seat}) picks seat {event['partner']} as partner"
    if kind == "play":
        return f"seat {seat} plays {event['card']}" + (" from the table" if event["from"] == "table" else "")
    if kind == "trick":
        cards = ", ".join(f"{card['seat']}:{card['card']}" for card in event["cards"])
        return f"trick {event['number']} ({cards}) goes to seat {event['winner']}: {event['triangles']} triangles"
    if kind == "hand_scored":
        return _scored_text(event)
    if kind == "match_end":
        totals = " ".join(f"{r:g}" for r in event["returns"])
        return f"the match is over (totals {totals}): {_seats(event['winners'])} won"
    raise ValueError(f"mu has no event {kind!r}")


def moment(table: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The moment of a decision as the game counts it, for the coach's words (``bots/moments.py``)."""
    parts: list[dict[str, Any]] = [{"key": "mu.hand_number", "n": int(table["hand_number"])}]
    if table.get("phase") == "play":
        parts.append({"key": "review.moment.trick", "n": len(table.get("tricks", [])) + 1})
    elif table.get("phase"):
        parts.append({"key": f"mu.phase.{table['phase']}"})
    return parts
