"""No hidden card reaches a page: canary cards.

At the person's turns of a game played in the browser (and at its end), the true position is rebuilt from the
server's database (the test may read it; the page may not).  Every card in another seat's hand that this seat
never saw, and of which the deck holds one copy, is a canary: none may appear anywhere in the page's HTML, text or
attributes.  What a seat saw is what the game let it see, in its one place per game: every view of this seat
(and of a spectator) since the start of the match, and every event this seat was shown (a card discarded to go
out shows only in the events, as the next hand starts at once; it may be dealt to another seat afterwards).

The checks follow the game, never the clock: each one waits until the person may click (every hand is dealt
by then), however slowly the server and the bots move.  The quick share checks a dozen such moments of a short
game of each, and more until some card was hidden from the person; ``make fuzz`` checks every one of longer
matches (several hands of Mü and Rummü, two games of Safarü)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from ludotheque.core import CHANCE, Actor
from ludotheque.games import load_game
from ludotheque.server.db import make_engine
from ludotheque.server.process import ServerProcess
from ludotheque.server.schema import CHANCE_ACTOR
from ludotheque.server.store import Store
from ludotheque.table import Table
from ludotheque.testing import fuzz_games

from .driver import OFFERED, frame, open_table

#: Games whose hidden cards have names of their own (a colour and a number: "R7"): the quick share's short games,
#: and the long share's matches.  Rummü's bots may lay down most of their cards before the person's first turn and
#: go out soon after, the cards left all with a twin: a quick game of up to three hands has fresh deals to check.
QUICK = [("mu", 4, {"target": 30}), ("rummu", 3, {"hands": 3}), ("safaru", 2, {})]
LONG = [("mu", 4, {"target": 100}), ("rummu", 4, {"hands": 3}), ("safaru", 2, {"games": 2})]
LONG_SHARE = fuzz_games(0, 1) == 1
GAMES = LONG if LONG_SHARE else QUICK
CARD = re.compile(r"^[RYGBK][0-9]$")
#: the moments checked in each game, one before each click of the person (and the end, when it comes first)
CLICKS = 400 if LONG_SHARE else 12
#: generous: the next turn comes after chance and the bots, on a machine that may be busy with other work
TURN_WAIT_MS = 120_000


def strings(value: Any) -> set[str]:
    """Every word of every text in a view or an event (a card may be named inside a sentence of a log)."""
    if isinstance(value, str):
        return set(re.findall(r"[A-Za-z0-9]+", value))
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


class Witness:
    """What the database says of a table, followed action by action: what ``seat`` was shown so far, and the canaries
    now.  Each check reads only the actions committed since the last one."""

    def __init__(self, server: ServerProcess, table_id: str, seat: int) -> None:
        self.store = Store(make_engine(server.db_url))
        self.table_id = table_id
        self.seat = seat
        row = self.store.table(table_id)
        assert row is not None
        game = load_game(row.game, players=row.players, **row.options)
        self.table = Table(game, [None] * game.players, events=True)
        self.seen = strings(self.table.state.view(seat))

    def close(self) -> None:
        self.store.engine.dispose()

    def canaries(self) -> set[str]:
        """Card names in another seat's hand now that this seat was never shown at any moment of the match: in
        none of its views nor a spectator's, in none of the events it saw (a card this seat saw in an earlier hand
        may rightly still be in its page's log)."""
        table, seat = self.table, self.seat
        for row in self.store.actions(self.table_id)[table.seq:]:
            actor: Actor = CHANCE if row.actor == CHANCE_ACTOR else row.actor
            entry = table._apply(actor, row.action, row.notation)
            self.seen |= strings(table.state.view(seat)) | strings(table.state.view(None))
            self.seen |= strings(entry.seen_by(seat))
        state = table.state
        hands = [state.view(other)["table"].get("hand") or [] for other in range(table.game.players) if other != seat]
        hidden = {card for hand in hands for card in hand}
        # 1s and 7s come twice in the deck (mu-1): another copy may rightly be on show
        return {card for card in hidden - self.seen if CARD.match(card) and card[1] not in "17"}


def named(card: str, html: str) -> list[re.Match[str]]:
    """Where ``html`` names ``card`` as a word of its own ("R7", not "R70" nor "XR7")."""
    return list(re.finditer(rf"(?<![A-Za-z0-9]){card}(?![0-9])", html))


def person_may_act(page: Any) -> dict[str, Any]:
    """The frame once the person may click, or the game is over: chance and the bots have moved in between."""
    page.wait_for_function("""() => { const p = window.ludotheque; return p && p.state && (p.state.view.terminal ||
        (p.state.legal.length > 0 && !p.pending)); }""", timeout=TURN_WAIT_MS)
    state = frame(page)
    assert state is not None
    return state


@pytest.mark.fuzz
@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_no_hidden_card_reaches_the_page(
    page: Any, web_server: ServerProcess, game: str, players: int, options: dict[str, Any]
) -> None:
    table_id = open_table(page, web_server.url, game, players, options)
    witness = Witness(web_server, table_id, 0)
    try:
        rng = random.Random(5)
        checked = clicks = 0
        # a dozen moments at least, and more until some card was hidden from the person: in a short game, the
        # other hand may hold only cards with a twin (1s and 7s) for a while
        while clicks < CLICKS or not checked:
            state = person_may_act(page)
            # the page first, then the database: the database is then at least as far on, and every card the page could
            # rightly show is among those this seat saw up to the database's last action.  The table's id is in the
            # page's links (the game's record at its end) and names no card, whatever letters it is made of.
            html = page.content().replace(table_id, "")
            hidden = witness.canaries()
            leaked = sorted(card for card in hidden if named(card, html))
            where = [html[max(0, m.start() - 160): m.end() + 30] for card in leaked for m in named(card, html)][:2]
            assert not leaked, f"cards only another seat holds are in the page: {leaked}, in {where}"
            checked += len(hidden)
            if state["view"]["terminal"]:
                break
            offered = page.locator(OFFERED)
            count = offered.count()
            assert count, "when the person may click, the page offers something to click"
            offered.nth(rng.randrange(count)).click()
            clicks += 1
    finally:
        witness.close()
    assert checked > 0, "some canaries were looked for before the game ended"
