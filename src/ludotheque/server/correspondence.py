"""Games by correspondence: a table created with ``"clock": {"days": N}`` gives each move N days.

The clock machinery does the timing (``clock.py``: N days a move, no reserve, turns counted in the wall's time);
what is its own here is who is told, and what the lists say:

* **telling**: when the turn passes to a person with no connection open at the table, their browsers get a Web
  Push message (``push.py``).  The table's watcher calls ``tell_turns`` each time the table changes; a turn is
  told once (a restart may tell the turns in progress again: better twice than a game that waits days for
  nobody).  A person whose page is open sees the turn there (the title's ●, the chime).
* **the lists**: the lobby and ``/me`` list first the tables where it is the person's turn (``awaiting``).

A correspondence table never hands a seat to a bot because its person is away: only a move's N days running out
do (``timing.py``), and three of them in a row take the seat for good, as at any table with a clock.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ludotheque.server.live.actor import LiveTable
    from ludotheque.server.push import Pusher


def is_correspondence(clock: dict[str, Any] | None) -> bool:
    """Whether a table's clock (its row's ``clock``) is a correspondence clock."""
    return clock is not None and clock.get("days") is not None


def tell_turns(live: LiveTable, told: dict[int, int], pusher: Pusher | None) -> None:
    """Tell each person whose turn began since the last call and who has no connection open that it is their
    turn, through ``pusher`` (``None``: Web Push is off).  ``told``: per seat, the seq at which its turn that was
    told (or seen) began; the watcher keeps it."""
    for seat in live.people_to_act():
        began = live.turn_started[seat]
        if told.get(seat) == began:
            continue
        told[seat] = began
        if live.present[seat] == 0 and pusher is not None:
            pusher.turn(live.row, seat)


def awaiting(tables: Iterable[LiveTable], player_id: str) -> list[dict[str, Any]]:
    """The tables in play where it is ``player_id``'s turn: those with a clock, the turn begun longest ago first,
    then the others."""
    found = []
    for live in tables:
        if live.row.status != "playing":
            continue
        for seat in live.people_to_act():
            if live.row.seats[seat].player_id == player_id and not live.bot_plays(seat):
                began = live.clock.started.get(seat, 0.0) if live.clock is not None else float("inf")
                found.append((began, live, seat))
                break
    found.sort(key=lambda entry: entry[0])
    return [{"table_id": live.id, "game": live.row.game, "name": live.row.name, "seat": seat,
             "correspondence": is_correspondence(live.row.clock)} for _, live, seat in found]
