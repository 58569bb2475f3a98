"""Records: a finished or unfinished game as JSON that replays exactly.

``{"format": "ludotheque-record/1", "game": id, "players": n, "options": {...},
   "actions": [{"by": seat or "chance", "move": notation, "action": raw action (optional)}, ...]}``

The notation is the record's contract; the raw action, when present, lets a replay skip parsing (it must name
the same move as the notation, which the replay checks).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from ludotheque.core.errors import LudothequeError, RecordError
from ludotheque.core.game import Game
from ludotheque.core.state import CHANCE, RECORD_FORMAT, Actor, State

REQUIRED_KEYS = ("format", "game", "players", "options", "actions")
OPTIONAL_KEYS = ("meta",)


def parse_record(record: Mapping[str, Any] | str | bytes) -> dict[str, Any]:
    """Check a record's shape (not its moves) and return it as a dict; ``RecordError`` if malformed."""
    if isinstance(record, str | bytes):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as exc:
            raise RecordError(f"record is not valid JSON: {exc}") from None
    if not isinstance(record, Mapping):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    missing = [key for key in REQUIRED_KEYS if key not in record]
    if missing:
        raise RecordError(f"record lacks {', '.join(repr(k) for k in missing)}")
    extra = sorted(set(record) - set(REQUIRED_KEYS) - set(OPTIONAL_KEYS))
    if extra:
        raise RecordError(f"record has unknown key {extra[0]!r}")
    if record["format"] != RECORD_FORMAT:
        raise RecordError(f"record format must be {RECORD_FORMAT!r}, not {record['format']!r}")
    if not isinstance(record["game"], str):
        raise RecordError(f"record 'game' must be a game id, not {record['game']!r}")
    if isinstance(record["players"], bool) or not isinstance(record["players"], int):
        raise RecordError(f"record 'players' must be an integer, not {record['players']!r}")
    if not isinstance(record["options"], Mapping):
        raise RecordError("record 'options' must be an object")
    if not isinstance(record["actions"], list):
        raise RecordError("record 'actions' must be a list")
    for index, entry in enumerate(record["actions"]):
        if not isinstance(entry, Mapping) or not {"by", "move"} <= set(entry) <= {"by", "move", "action"}:
            raise RecordError(f"action {index}: must be an object with 'by', 'move' and optionally 'action'", index)
        raw = entry.get("action")
        if raw is not None and (isinstance(raw, bool) or not isinstance(raw, int)):
            raise RecordError(f"action {index}: 'action' must be an integer, not {raw!r}", index)
        by = entry["by"]
        if by != CHANCE and (isinstance(by, bool) or not isinstance(by, int)):
            raise RecordError(f"action {index}: 'by' must be a seat number or 'chance', not {by!r}", index)
        if not isinstance(entry["move"], str):
            raise RecordError(f"action {index}: 'move' must be a string, not {entry['move']!r}", index)
    return dict(record)


def check_notation(state: State, action: int, actor: Actor, notation: str) -> None:
    """``RecordError`` unless ``action`` by ``actor`` is written ``notation`` at ``state`` (a record entry that
    carries both must name one move)."""
    try:
        written = state.action_to_string(action, actor)
    except (IndexError, KeyError, TypeError, ValueError):
        raise RecordError(f"{action!r} is no action of {state.game.id}") from None
    if written != notation.strip():
        raise RecordError(f"action {action} is written {written!r} here, not {notation!r}")


def replay_record(record: Mapping[str, Any] | str | bytes, load: Callable[..., Game]) -> State:
    """Replay every move of a record, validating each; ``RecordError`` names the first bad one."""
    data = parse_record(record)
    try:
        game = load(data["game"], players=data["players"], **data["options"])
    except LudothequeError as exc:
        raise RecordError(f"record header: {exc}") from None
    state = game.new_initial_state()
    for index, entry in enumerate(data["actions"]):
        by = entry["by"]
        try:
            if by == CHANCE and (not state.is_chance_node() or state.is_terminal()):
                raise RecordError("chance acts here but the state is not a chance node", index)
            action = entry.get("action")
            if action is None:
                action = state.string_to_action(entry["move"], by)
            else:
                check_notation(state, action, by, entry["move"])
            state.apply_action(action, None if by == CHANCE else by)
        except RecordError as exc:
            raise RecordError(f"action {index} ({by}: {entry['move']!r}): {exc}", index) from None
        except LudothequeError as exc:
            raise RecordError(f"action {index} ({by}: {entry['move']!r}): {exc}", index) from None
    return state
