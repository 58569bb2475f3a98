"""The clocks of a table: each seat has a time per move and a reserve spent once a move takes longer.

The server owns the clock.  What is stored (``state()``, with every action) is each seat's reserve and its
timeouts in a row as they stood when the seats now to act began their turn; when a table is restored those turns
begin again at the restart, so the time the outage took (and what had passed of those turns) is given back.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Clock:
    move: float
    reserve: float
    reserves: list[float]
    timeouts: list[int]  # timeouts in a row, per seat
    started: dict[int, float] = field(default_factory=dict)  # seat to act -> monotonic time its turn began

    @classmethod
    def of(cls, spec: dict[str, Any] | None, saved: dict[str, Any] | None, players: int) -> Clock | None:
        if spec is None:
            return None
        move, reserve = float(spec["move"]), float(spec["reserve"])
        if saved is not None:
            return cls(move, reserve, [float(r) for r in saved["reserve"]], [int(n) for n in saved["timeouts"]])
        return cls(move, reserve, [reserve] * players, [0] * players)

    def state(self) -> dict[str, Any]:
        return {"reserve": [round(r, 3) for r in self.reserves], "timeouts": list(self.timeouts)}

    def follow(self, to_act: list[int], now: float | None = None) -> None:
        """The seats to act after a change: a seat that was not to act begins its turn now."""
        now = time.monotonic() if now is None else now
        self.started = {seat: self.started.get(seat, now) for seat in to_act}

    def moved(self, seat: int, now: float | None = None) -> None:
        """``seat`` moved itself: what its move took past the move time comes out of its reserve."""
        now = time.monotonic() if now is None else now
        began = self.started.pop(seat, now)
        self.reserves[seat] = max(0.0, self.reserves[seat] - max(0.0, now - began - self.move))
        self.timeouts[seat] = 0

    def timed_out(self, seat: int) -> int:
        """``seat``'s time ran out (a bot moves for it): its reserve is spent; its timeouts in a row."""
        self.started.pop(seat, None)
        self.reserves[seat] = 0.0
        self.timeouts[seat] += 1
        return self.timeouts[seat]

    def deadline(self, seat: int) -> float | None:
        began = self.started.get(seat)
        return None if began is None else began + self.move + self.reserves[seat]

    def frame(self, players: int, now: float | None = None) -> dict[str, Any]:
        now = time.monotonic() if now is None else now
        seats = []
        for seat in range(players):
            deadline = self.deadline(seat)
            if deadline is None:
                seats.append({"left": round(self.move + self.reserves[seat], 1),
                              "reserve": round(self.reserves[seat], 1), "running": False})
            else:
                left = max(0.0, deadline - now)
                seats.append({"left": round(left, 1), "reserve": round(min(left, self.reserves[seat]), 1),
                              "running": True})
        return {"move": self.move, "reserve": self.reserve, "seats": seats}
