"""The end of a game: its status, result and ratings written together, and the rematch its frames offer."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ludotheque.server import ratings
from ludotheque.server.store import TableRow

if TYPE_CHECKING:
    from ludotheque.server.live.actor import LiveTable


async def finish(live: LiveTable) -> None:
    """The game is over: its status, result and (rated tables) ratings, in one transaction."""
    await live.write(finish_now, live)
    live.idle()  # a table of bots nobody watches, a table its people left: nothing will close a socket


def finish_now(live: LiveTable) -> None:
    """``finish``, as a plain call: also run when a restored table's last action was committed and its end was not
    (a crash between the two); the store does it once."""
    live.row.status = "finished"
    state = live.table.state
    returns = list(state.returns())
    result: dict[str, Any] = {"returns": returns, "winners": list(state.winners())}
    lower_wins = live.table.game.score_order() == "lower"

    def rate(db: Any, row: TableRow) -> None:
        ratings.rate_finished(db, row, returns, lower_wins)

    at = time.time()
    if live.store.finish(live.id, result, rate, at=at):
        # the row in memory says what the database says: the table stays in memory while it is watched
        live.row.finished_at, live.row.result = at, result


def show_rematch(live: LiveTable, rematch: dict[str, Any]) -> None:
    """The rematch as the finished table's frames show it (``lobby.rematch_info``), shown to whoever watches."""
    live.rematch = rematch
    live.broadcast()
