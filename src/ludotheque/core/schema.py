"""Helpers for the JSON Schemas games publish (``notation.MOVE_SCHEMA``, ``view.TABLE_SCHEMA``)."""

from __future__ import annotations

from typing import Any


def move_object(kind: str, **properties: dict[str, Any]) -> dict[str, Any]:
    """The schema of one kind of structured move: ``{"type": kind, **properties}``, every property required and
    nothing else allowed."""
    return {
        "type": "object",
        "required": ["type", *properties],
        "additionalProperties": False,
        "properties": {"type": {"const": kind}, **properties},
    }
