"""The moment of a decision as each game counts it, for people's words (``docs/coach.md``): a list of parts,
each a message key of the web catalogues (the game's own where it has one: Mü's "Manche {n}", Safarü's "Donne
{n}") and its values, read from the public table of the seat's view, never an internal step number.

``[{"key": "mu.hand_number", "n": 2}, {"key": "review.moment.trick", "n": 3}]`` reads "Manche 2 · pli 3"."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Parts = list[dict[str, Any]]


def _geier(table: Mapping[str, Any]) -> Parts:
    # the round, out of all (those played and the prize cards still to come), and the prize card turned up
    now = int(table["round"])
    parts: Parts = [{"key": "geier.round", "n": now, "total": now + len(table.get("points_to_come", []))}]
    if table.get("pot"):
        parts.append({"key": "review.moment.prize", "card": table["pot"][-1]})
    return parts


def _mu(table: Mapping[str, Any]) -> Parts:
    parts: Parts = [{"key": "mu.hand_number", "n": int(table["hand_number"])}]
    if table.get("phase") == "play":
        parts.append({"key": "review.moment.trick", "n": len(table.get("tricks", [])) + 1})
    elif table.get("phase"):
        parts.append({"key": f"mu.phase.{table['phase']}"})
    return parts


def _rummu(table: Mapping[str, Any]) -> Parts:
    return [{"key": "rummu.info.hand", "n": int(table["hand_number"])}]


def _safaru(table: Mapping[str, Any]) -> Parts:
    return [{"key": "safaru.deal_n", "n": int(table["deal"]) + 1}]


def _turn(table: Mapping[str, Any]) -> Parts:
    return [{"key": "review.moment.turn", "n": int(table["turn"])}] if "turn" in table else []


def _cheese(table: Mapping[str, Any]) -> Parts:
    # ``turn`` is the seat to place; the round of placing is counted by the cards placed
    placed = table["placed_count"]
    return [{"key": "review.moment.turn", "n": sum(placed) // len(placed) + 1}]


MOMENTS: dict[str, Callable[[Mapping[str, Any]], Parts]] = {
    "geier": _geier, "mu": _mu, "rummu": _rummu, "safaru": _safaru,
    "cheese": _cheese, "mice": _turn, "calcory": _turn,
}


def moment(game_id: str, view: Mapping[str, Any]) -> Parts:
    """The moment of the position a seat sees in ``view`` (``[]`` for a game that does not say)."""
    reader = MOMENTS.get(game_id)
    table = view.get("table")
    if reader is None or not isinstance(table, Mapping):
        return []
    try:
        return reader(table)
    except (KeyError, TypeError, ValueError):
        return []  # a view without the fields: no moment rather than a failed review


def moment_text(game_id: str, parts: Parts, lang: str = "en") -> str:
    """``parts`` in words from the web catalogues (the command line's review says moments so): "Hand 2 · trick 3"."""
    texts = _catalogue(game_id, lang)
    out = []
    for part in parts:
        values = {k: v for k, v in part.items() if k != "key"}
        key = str(part["key"])
        text = texts.get(key, key)
        for name, value in values.items():
            text = text.replace("{" + name + "}", str(value))
        out.append(text)
    return " · ".join(out)


def _catalogue(game_id: str, lang: str) -> dict[str, str]:
    import importlib
    import json
    from pathlib import Path

    from ludotheque.core import game_class
    from ludotheque.web import STATIC

    texts: dict[str, str] = json.loads((STATIC / "locales" / f"{lang}.json").read_text(encoding="utf-8"))
    package = importlib.import_module(game_class(game_id).__module__.rpartition(".")[0])
    folder = Path(package.__file__ or "").parent / "web"  # as the server finds it (``server.pages``)
    game = json.loads((folder / "messages.json").read_text(encoding="utf-8"))
    return {**texts, **game.get(lang, {})}
