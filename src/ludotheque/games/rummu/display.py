"""Terminal rendering of a Rummü view with Rich: cards in their colours, the table, the seats, the log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

STYLES = {"R": "bold red", "Y": "bold yellow", "G": "bold green", "B": "bold blue", "K": "bold white on grey23"}


def cards_text(cards: list[str]) -> Text:
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        text.append(card, style=STYLES.get(card[:1], ""))
    return text


def render(view: dict[str, Any]) -> Group:
    table = view["table"]
    n = view["players"]
    me = view["seat"]
    parts: list[Any] = []
    target = f"match to {table['target']}"
    if table["hand_limit"]:
        target += f" or {table['hand_limit']} hands"
    parts.append(Text(f"Rummü - hand {table['hand_number']}, seat {table['dealer']} dealt ({target})", style="bold"))
    seats = Table(show_lines=False)
    for name, justify in (
        ("seat", "left"),
        ("score", "right"),
        ("cards", "right"),
        ("opening", "left"),
        ("known in hand", "left"),
    ):
        seats.add_column(name, justify=justify)  # type: ignore[arg-type]
    for seat in range(n):
        name = f"{seat}"
        if table["teams"] is not None:
            name += f" team {table['teams'][seat]}"
        if me == seat:
            name += " (you)"
        if table["current"] == seat and not view["terminal"]:
            name = "> " + name
        opening = "opened" if table["opened"][seat] else f"needs {table['needs'][seat]}+"
        seats.add_row(
            name, str(table["scores"][seat]), str(table["hand_sizes"][seat]), opening, cards_text(table["known"][seat])
        )
    parts.append(seats)
    discard = table["discard"]
    line = Text(f"Draw pile: {table['pile_size']} cards   Discard pile ({len(discard)}, top last): ")
    line.append_text(cards_text(discard[-12:]))
    if len(discard) > 12:
        line.append(f"  (+{len(discard) - 12} below)", style="dim")
    parts.append(line)
    if table["combos"]:
        combos = Table(title="On the table", show_lines=False)
        combos.add_column("#", justify="right")
        combos.add_column("owner", justify="right")
        combos.add_column("cards")
        combos.add_column("points", justify="right")
        for j, combo in enumerate(table["combos"]):
            combos.add_row(str(j + 1), str(combo["owner"]), cards_text(combo["cards"]), str(combo["points"]))
        parts.append(combos)
    else:
        parts.append(Text("Nothing on the table yet.", style="dim"))
    if table["laying"]:
        parts.append(Text("Being laid: ").append_text(cards_text(table["laying"])))
    for entry in table["log"][-6:]:
        parts.append(Text(entry, style="dim"))
    if table["results"]:
        last = table["results"][-1]
        out = "nobody went out" if last["out"] is None else f"seat {last['out']} went out"
        points = ", ".join(f"{s}:{p:+d}" for s, p in enumerate(last["points"]))
        parts.append(Text(f"Last hand ({last['hand']}): {out}; points {points}", style="cyan"))
    if "hand" in table:
        parts.append(Text("Your hand: ", style="bold").append_text(cards_text(table["hand"])))
    if view["terminal"]:
        winners = ", ".join(str(w) for w in view["winners"]) or "nobody"
        parts.append(Text(f"Match over. Winner(s): seat {winners}", style="bold green"))
    return Group(*parts)


def _listed(cards: list[str]) -> str:
    return " ".join(cards) or "nothing"


def _score_text(event: dict[str, Any]) -> str:
    out = event["out"]
    parts = [f"hand {event['hand']} is over: " + ("nobody went out" if out is None else f"seat {out} went out")]
    for seat, points in enumerate(event["points"]):
        items = [
            f"{combo['kind']} {' '.join(combo['cards'])} ({'pure' if combo['pure'] else 'mixed'}) {combo['points']:+d}"
            for combo in event["combos"]
            if combo["owner"] == seat
        ]
        if event["bonus"][seat]:
            items.append(f"going out {event['bonus'][seat]:+d}")
        if event["waived"][seat]:
            items.append(f"left {_listed(event['left'][seat])} (no penalty: partner went out)")
        elif event["left"][seat]:
            items.append(f"left {_listed(event['left'][seat])} {event['penalties'][seat]:+d}")
        detail = ", ".join(items) or "nothing"
        parts.append(f"seat {seat}: {points:+d} ({detail}), total {event['totals'][seat]}")
    for team in event["teams"] or []:
        seats = "+".join(str(s) for s in team["seats"])
        parts.append(f"team {seats}: {team['points']:+d}, total {team['total']}")
    return "; ".join(parts)


def event_text(event: dict[str, Any]) -> str:
    """One line for an event of ``events.describe``, as the terminal prints what happened."""
    kind = event["type"]
    seat = f"seat {event['seat']}" if "seat" in event else ""
    if kind == "new_hand":
        needs = ", ".join(f"seat {s} {k}+" for s, k in enumerate(event["needs"]))
        return f"hand {event['hand']}: seat {event['dealer']} deals (opening needs: {needs})"
    if kind == "deal":
        return f"{seat} is dealt {event['card']}" if "card" in event else f"{seat} is dealt a card"
    if kind == "flip":
        return f"the discard pile starts with {event['card']}; seat {event['first']} plays first"
    if kind == "draw":
        return f"{seat} draws {event['card']} from the pile" if "card" in event else f"{seat} draws a card"
    if kind == "reshuffle":
        return f"the draw pile is empty: {event['cards']} discarded cards are shuffled into a new one"
    if kind == "pile_empty":
        return "the draw pile is empty and nothing can be reshuffled: the hand ends after this turn"
    if kind == "take":
        return f"{seat} takes {len(event['cards'])} from the discard pile: {_listed(event['cards'])}"
    if kind == "start":
        return f"{seat} starts a combination with {event['card']}"
    if kind == "add":
        return f"{seat} adds {event['card']} ({_listed(event['laying'])})"
    if kind == "close":
        opening = " (opening)" if event["opening"] else ""
        return f"{seat} lays combination {event['combo']}{opening}: {_listed(event['cards'])}"
    if kind == "cancel":
        return f"{seat} takes back {_listed(event['cards'])}"
    if kind == "discard":
        return f"{seat} discards {event['card']}"
    if kind == "put":
        return f"{seat} puts {event['card']} on combination {event['combo']} ({_listed(event['cards'])})"
    if kind == "swap":
        return f"{seat} swaps {event['card']} for the joker {event['joker']} of combination {event['combo']}"
    if kind == "score":
        return _score_text(event)
    if kind == "match_end":
        winners = ", ".join(f"seat {w}" for w in event["winners"]) or "nobody"
        totals = ", ".join(f"seat {s} {t:g}" for s, t in enumerate(event["returns"]))
        return f"the match is over after {event['hands']} hands ({totals}); winner(s): {winners}"
    raise ValueError(f"rummu has no event {kind!r}")


def moment(table: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The moment of a decision as the game counts it, for the coach's words (``bots/moments.py``)."""
    return [{"key": "rummu.info.hand", "n": int(table["hand_number"])}]
