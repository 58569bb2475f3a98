"""Records: a finished or unfinished game as JSON that replays exactly.

``{"format": "ludotheque-record/1", "game": id, "players": n, "options": {...},
   "actions": [{"by": seat or "chance", "move": notation}, ...]}``
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from ludotheque.core.errors import LudothequeError, RecordError
from ludotheque.core.game import Game
from ludotheque.core.state import CHANCE, RECORD_FORMAT, State

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
        if not isinstance(entry, Mapping) or set(entry) != {"by", "move"}:
            raise RecordError(f"action {index}: must be an object with exactly 'by' and 'move'", index)
        by = entry["by"]
        if by != CHANCE and (isinstance(by, bool) or not isinstance(by, int)):
            raise RecordError(f"action {index}: 'by' must be a seat number or 'chance', not {by!r}", index)
        if not isinstance(entry["move"], str):
            raise RecordError(f"action {index}: 'move' must be a string, not {entry['move']!r}", index)
    return dict(record)


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
            if by == CHANCE:
                if not state.is_chance_node() or state.is_terminal():
                    raise RecordError("chance acts here but the state is not a chance node", index)
                action = state.string_to_action(entry["move"], CHANCE)
                state.apply_action(action)
            else:
                action = state.string_to_action(entry["move"], by)
                state.apply_action(action, by)
        except RecordError as exc:
            raise RecordError(f"action {index} ({by}: {entry['move']!r}): {exc}", index) from None
        except LudothequeError as exc:
            raise RecordError(f"action {index} ({by}: {entry['move']!r}): {exc}", index) from None
    return state
