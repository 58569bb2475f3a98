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
    lower_wins = live.table.game.score_order() == "lower"
    # each seat's place, 1 first, as the ratings count it (a person who resigned or left is last): /me and the
    # player pages read it without loading the game
    ranks = ratings.finishing_ranks(returns, [seat.away for seat in live.row.seats], lower_wins)
    result: dict[str, Any] = {"returns": returns, "winners": list(state.winners()),
                              "places": [rank + 1 for rank in ranks]}

    def rate(db: Any, row: TableRow) -> dict[str, Any] | None:
        return ratings.rate_finished(db, row, returns, lower_wins) or None

    at = time.time()
    live.store.finish(live.id, result, rate, at=at)
    written = live.store.table(live.id)
    if written is not None:  # the summary and the frames read the result (its rating changes) from the row
        live.row.result, live.row.finished_at = written.result, written.finished_at


def show_rematch(live: LiveTable, rematch: dict[str, Any]) -> None:
    """The rematch as the finished table's frames show it (``lobby.rematch_info``), shown to whoever watches."""
    live.rematch = rematch
    live.broadcast()
