"""Bots run outside the event loop: in worker processes, each move capped in time.

A worker rebuilds the table from its log (the fast restore) and asks the seat's bot for a move from that seat's
view, with a sampler of determinizations for search bots, exactly as every other table loop does.  Workers keep
the tables they have seen, so a request usually applies only the actions since the last one.  A slow bot holds
one worker; the event loop and the other tables' people never wait for it.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ludotheque.bots import make_bot
from ludotheque.bots.registry import spec_level
from ludotheque.core import Actor, load_game
from ludotheque.core.bot import ask_bot
from ludotheque.table import Table

#: Tables a worker keeps between requests (oldest forgotten first).
WORKER_CACHE = 256


@dataclass(frozen=True)
class BotRequest:
    table_id: str
    game: str
    players: int
    options: dict[str, Any]
    history: tuple[tuple[Actor, int, str], ...]  # the table's log: actor, action, notation
    seat: int
    spec: str
    seed: int
    time_cap: float


def capped(spec: str, seconds: float) -> str:
    """``spec`` with a time cap per move where it takes one (the levels and ISMCTS), unless it names its own."""
    name = spec.split(":", 1)[0]
    if "time=" in spec or not (spec_level(spec) is not None or name == "ismcts"):
        return spec
    return f"{spec}:time={seconds:g}"


_tables: dict[str, Table] = {}


def _table_for(request: BotRequest) -> Table:
    """The request's table at the end of its history, from this worker's cache when the cache is a prefix."""
    table = _tables.pop(request.table_id, None)
    history = request.history
    last = table.log[-1] if table is not None and table.log else None
    if table is None or table.seq > len(history) or (
        last is not None and (last.actor, last.action, last.notation) != history[table.seq - 1]
    ):
        game = load_game(request.game, players=request.players, **request.options)
        table = Table(game, [None] * game.players)
    for actor, action, notation in history[table.seq :]:
        table._apply(actor, action, notation)  # the server's own log, validated when first applied
    _tables[request.table_id] = table
    while len(_tables) > WORKER_CACHE:
        _tables.pop(next(iter(_tables)))
    return table


def choose_move(request: BotRequest) -> int:
    """Run in a worker: the bot's action for ``request.seat``."""
    table = _table_for(request)
    bot = make_bot(capped(request.spec, request.time_cap), table.game)
    return ask_bot(bot, table.state, request.seat, random.Random(request.seed))


class BotPool:
    def __init__(self, workers: int) -> None:
        self.executor: Executor = ProcessPoolExecutor(workers) if workers > 0 else ThreadPoolExecutor(2)
        #: the latest moves' wall times by the spec's level (``medium``...), for ``/api/metrics``: what a person
        #: waits for a bot, queueing for a worker included
        self.seconds: dict[str, deque[float]] = {}

    async def choose(self, request: BotRequest) -> int:
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        action = await loop.run_in_executor(self.executor, choose_move, request)
        level = request.spec.split(":", 1)[0]
        self.seconds.setdefault(level, deque(maxlen=10_000)).append(time.perf_counter() - started)
        return action

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


def history_of(table: Table) -> tuple[tuple[Actor, int, str], ...]:
    return tuple((entry.actor, entry.action, entry.notation) for entry in table.log)

