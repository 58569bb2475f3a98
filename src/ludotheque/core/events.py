"""What each seat saw happen: the per-seat event stream (DECISIONS all-3).

Each game describes an applied action in one place, its ``events.py`` (``describe(before, actor, action,
after)``), beside its ``view.py``.  An ``Event`` holds what the table showed everyone (``public``) and, for the
seats that saw more, what each of them saw instead (``private``): a drawn card is ``{"type": "draw", "seat": 2}``
to everyone and ``{"type": "draw", "seat": 2, "card": "R7"}`` to seat 2.  A seat's stream is the public form
wherever it has no private one; a spectator's is the public form only.  An event's dict is plain JSON with a
``"type"``; ``None`` means that reader saw nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

EventData = dict[str, Any]


@dataclass(frozen=True)
class Event:
    public: EventData | None
    private: Mapping[int, EventData | None] = field(default_factory=dict)

    def seen_by(self, seat: int | None) -> EventData | None:
        """What ``seat`` (``None``: a spectator) saw of this event."""
        if seat is not None and seat in self.private:
            return self.private[seat]
        return self.public


def public(data: EventData) -> Event:
    """An event every seat and every spectator saw alike."""
    return Event(data)


def secret(seat: int, full: EventData, others: EventData | None) -> Event:
    """An event ``seat`` saw in full and everyone else saw as ``others`` (``None``: not at all)."""
    return Event(others, {seat: full})
