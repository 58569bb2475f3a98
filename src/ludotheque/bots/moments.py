"""The moment of a decision as each game counts it, for people's words (``docs/coach.md``): a list of parts,
each a message key of the web catalogues (the game's own where it has one: Mü's "Manche {n}", Safarü's "Donne
{n}") and its values, read from the public table of the seat's view, never an internal step number.  A game says
its moments in its ``display`` part (``moment(table)``); one that does not is counted in turns when its table has
a ``turn``.

``[{"key": "mu.hand_number", "n": 2}, {"key": "review.moment.trick", "n": 3}]`` reads "Manche 2 · pli 3"."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ludotheque.games import game_type

Parts = list[dict[str, Any]]


def _turn(table: Mapping[str, Any]) -> Parts:
    return [{"key": "review.moment.turn", "n": int(table["turn"])}] if "turn" in table else []


def moment(game_id: str, view: Mapping[str, Any]) -> Parts:
    """The moment of the position a seat sees in ``view`` (``[]`` for a game that does not say)."""
    reader = getattr(game_type(game_id).part("display"), "moment", _turn)
    table = view.get("table")
    if not isinstance(table, Mapping):
        return []
    try:
        parts: Parts = reader(table)
        return parts
    except (KeyError, TypeError, ValueError):
        return []  # a view without the fields: no moment rather than a failed review
