"""The clocks of a table: each seat has a time per move and a reserve spent once a move takes longer.

The server owns the clock.  What is stored (``state()``, with every action) is each seat's reserve and its
timeouts in a row as they stood when the seats now to act began their turn; when a table is restored those turns
begin again at the restart, so the time the outage took (and what had passed of those turns) is given back.

A correspondence clock (``{"days": N}``) is the same clock with N days a move and no reserve, but its turns are
counted in the wall's time: a server restarted every night must not give every seat its days back each time.  Its
stored state also says when each seat to act began its turn (``began``, seconds since the epoch) and when the
action was committed (``at``: the seats that become to act with it begin then), and a restored table's turns go on
from there, the outage included.  Turns stay timed on the monotonic clock while the process runs.
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
    #: N for a correspondence clock (N days a move, turns counted in the wall's time); ``None`` otherwise
    days: int | None = None
    #: a restored correspondence clock: the monotonic time the seats that became to act with the last action began
    resumed_at: float | None = None

    @classmethod
    def of(cls, spec: dict[str, Any] | None, saved: dict[str, Any] | None, players: int) -> Clock | None:
        if spec is None:
            return None
        move, reserve = float(spec["move"]), float(spec["reserve"])
        days = int(spec["days"]) if spec.get("days") is not None else None
        if saved is None:
            return cls(move, reserve, [reserve] * players, [0] * players, days=days)
        clock = cls(move, reserve, [float(r) for r in saved["reserve"]], [int(n) for n in saved["timeouts"]],
                    days=days)
        if days is not None and "at" in saved:
            clock.started = {int(seat): _monotonic(wall) for seat, wall in saved.get("began", {}).items()}
            clock.resumed_at = _monotonic(float(saved["at"]))
        return clock

    def state(self) -> dict[str, Any]:
        saved: dict[str, Any] = {"reserve": [round(r, 3) for r in self.reserves], "timeouts": list(self.timeouts)}
        if self.days is not None:
            saved["at"] = round(time.time(), 3)
            saved["began"] = {str(seat): round(_wall(began), 3) for seat, began in self.started.items()}
        return saved

    def follow(self, to_act: list[int], now: float | None = None) -> None:
        """The seats to act after a change: a seat that was not to act begins its turn now (on a restored
        correspondence clock, when the last action was committed)."""
        now = time.monotonic() if now is None else now
        begin = now if self.resumed_at is None else self.resumed_at
        self.resumed_at = None
        self.started = {seat: self.started.get(seat, begin) for seat in to_act}

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


def _wall(monotonic: float) -> float:
    return time.time() - (time.monotonic() - monotonic)


def _monotonic(wall: float) -> float:
    return time.monotonic() - (time.time() - wall)
