"""What the tables of one process share, as one object handed to each live table and to the lobby.

A ``LiveTable`` is given its ``Services`` at construction and reads no module-level state: the database's store,
the bot workers (``BotPool``, the coach's lane among them), the coach's hints under way (``HintDesk``) and its
reviews (``Reviews``), the push sender (``Pusher``), and the settings.  ``Services.open`` assembles them for a
server; a test may build one from its own parts.  What belongs to one table (its clock, its chat's last words on a
connection) stays with the table and its connections.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Engine

from ludotheque.server import push
from ludotheque.server.botpool import BotPool
from ludotheque.server.config import Settings
from ludotheque.server.faults import store_for
from ludotheque.server.live.hints import HintDesk
from ludotheque.server.push import Pusher
from ludotheque.server.review import Reviews
from ludotheque.server.store import Store


@dataclass(frozen=True)
class Observers:
    """Who is told the time of each commit of an action and of each bot move (the metrics, ``metrics.py``)."""

    commit: Callable[[float], None] | None = None
    #: the move's level (``medium``...) and its wall time
    bot_move: Callable[[str, float], None] | None = None


class Services:
    def __init__(self, settings: Settings, store: Store, bots: BotPool, pusher: Pusher | None = None) -> None:
        self.settings = settings
        self.store = store
        #: the bots' and the coach's worker processes
        self.bots = bots
        #: the "your turn" messages of games by correspondence (``None``: this process sends none)
        self.push = pusher
        #: the coach's hints under way, by seat and by the creator of their table
        self.hints = HintDesk(settings.hints_per_creator)
        #: the coach's reviews queued, running or failed
        self.reviews = Reviews(store, bots, settings)

    @classmethod
    def open(cls, settings: Settings, engine: Engine, observers: Observers | None = None) -> Services:
        """A server's services on ``engine`` (migrated): the bot pool (started by ``Lobby.resume``) and the push
        sender, whose VAPID keys are made at the first start; ``observers`` are told the commits' and the bot
        moves' times."""
        observers = observers or Observers()
        store = store_for(settings, engine, observers.commit)
        bots = BotPool(settings.bot_workers, settings.hard_at_once, observers.bot_move)
        return cls(settings, store, bots, push.start(store, settings))

    def close(self) -> None:
        self.bots.close()
        if self.push is not None:
            self.push.close()
