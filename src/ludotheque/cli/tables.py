"""Rich tables the commands print: the games list and results."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from ludotheque.core import State
from ludotheque.games import game_class, game_ids


def games_table() -> Table:
    table = Table(title="ludotheque games")
    table.add_column("id", style="bold")
    table.add_column("name")
    table.add_column("players", justify="center")
    table.add_column("options (default first)")
    for game_id in game_ids():
        cls = game_class(game_id)
        options = []
        for spec in cls.option_specs:
            values = [spec.default, *(c for c in spec.choices if c != spec.default)] if spec.choices else [spec.default]
            suffix = "" if spec.choices else f" ({spec.allowed()})"
            options.append(f"{spec.name}: {' | '.join(str(v) for v in values)}{suffix}")
        table.add_row(game_id, cls.name, f"{cls.min_players}-{cls.max_players}", "\n".join(options) or "-")
    return table


def games_json() -> list[dict[str, Any]]:
    return [
        {
            "id": game_id,
            "name": game_class(game_id).name,
            "min_players": game_class(game_id).min_players,
            "max_players": game_class(game_id).max_players,
            "options": game_class(game_id).option_schema(),
        }
        for game_id in game_ids()
    ]


def result_json(state: State) -> dict[str, Any]:
    data: dict[str, Any] = {
        "returns": state.returns(),
        "winners": state.winners(),
        "terminal": state.is_terminal(),
    }
    result = state.view(None)["table"].get("result")
    if result is not None:
        data["result"] = result
    return data


def result_table(state: State, names: list[str] | None = None) -> Table:
    terminal = state.is_terminal()
    table = Table(title="Final table" if terminal else "Scores so far (game not finished)")
    table.add_column("seat", justify="right")
    if names:
        table.add_column("who")
    table.add_column("points", justify="right")
    table.add_column("")
    winners = state.winners()
    for seat, points in enumerate(state.returns()):
        mark = "winner" if seat in winners else ""
        row = [str(seat), *([names[seat]] if names else []), f"{points:g}", mark]
        table.add_row(*row)
    if terminal and not winners:
        table.caption = "nobody wins"
    result = state.view(None)["table"].get("result")
    if result is not None:
        table.caption = f"result: {result}"
    return table
