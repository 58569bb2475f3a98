"""Bots run outside the event loop: in worker processes, each move capped in time.

A worker rebuilds the table from its log (the fast restore) and asks the seat's bot for a move from that seat's
view, with a sampler of determinizations for search bots, exactly as every other table loop does.  Workers keep
the tables they have seen, so a request usually applies only the actions since the last one.  A slow bot holds
one worker; the event loop and the other tables' people never wait for it.

Bot work is shared in lanes, so that one table's strong bots never make another table's people wait:

* quick bots (random, the heuristics, and a level that plays a heuristic at its table) have a worker of their own,
  and never queue behind a search;
* searches share the other ``workers``; at most ``hard_at_once`` of them are ``hard`` moves (or custom specs, whose
  cost nobody bounded), the others wait for their turn in the event loop, so a ``medium`` move always finds a
  worker after at most the moves already running;
* every lane serves the tables' creators in turn (``FairQueue``): a move waits behind at most one move of each
  other creator with moves waiting, not behind every move of one visitor running the most tables the limits allow
  (``Settings.tables_per_creator``); one creator's moves keep their arrival order;
* the coach (``docs/coach.md``: a hint during a game, the review of a finished one) has a lane of its own, whose
  processes lower their priority (``nice``), so that its work never queues before a bot move nor takes the CPU from
  one: it runs on what the bots leave.  One review runs at a time, so a hint always finds a worker after at most
  the hints already running; a review reports its progress to the server as it goes.

Workers are started with ``spawn``, a fresh interpreter that inherits no descriptor of the server (never its
listening socket), and end with the server however it ends: the kernel kills them when it dies
(``PR_SET_PDEATHSIG``), a thread of theirs watches that their parent is still the server, and ``close`` ends them
at once rather than after the move they are thinking.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import multiprocessing
import os
import random
import signal
import threading
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any, TypeVar

from ludotheque.bots import coach, make_bot
from ludotheque.bots.registry import has_settings, is_search, spec_level, takeover_spec
from ludotheque.core import Actor, LudothequeError
from ludotheque.core.bot import ask_bot, make_sampler
from ludotheque.games import load_game
from ludotheque.table import Table

#: Tables a worker keeps between requests (oldest forgotten first).
WORKER_CACHE = 256
#: ``prctl`` option: the signal a process receives when its parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1
#: Seconds between two looks of a worker at its parent (where ``PR_SET_PDEATHSIG`` does not exist).
PARENT_POLL_S = 0.5
#: The coach's worker processes (hints and reviews), and how much lower their priority is than the bots' (``nice``).
COACH_WORKERS = 2
COACH_NICENESS = 10
#: Hints asked and not answered yet, over every table, beyond which a hint is refused (the coach is busy).
HINTS_AT_ONCE = 8

T = TypeVar("T")


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
    #: the seat is a person's, played by a bot (``registry.takeover_spec``)
    takeover: bool = False


def capped(spec: str, seconds: float) -> str:
    """``spec`` with a time cap per move where it takes one (the levels and ISMCTS), unless it names its own."""
    name = spec.split(":", 1)[0]
    if "time=" in spec or not (spec_level(spec) is not None or name == "ismcts"):
        return spec
    return f"{spec}:time={seconds:g}"


@dataclass(frozen=True)
class HintRequest:
    """The coach's move for ``seat`` at a table in play, from that seat's view and a sampler only."""

    table_id: str
    game: str
    players: int
    options: dict[str, Any]
    history: tuple[tuple[Actor, int, str], ...]
    seat: int
    seed: str  # public (the table's id): with the decision's seq, the random numbers of the review's entry there
    seconds: float
    playouts: int
    model: str
    bots: tuple[str | None, ...] | None = None  # each seat's bot spec, None for a person (``coach.seat_models``)


@dataclass(frozen=True)
class ReviewRequest:
    """The coach's review of ``seat``'s decisions in a finished game's record; ``key`` names it in progress
    reports."""

    key: str
    record: dict[str, Any]
    seat: int
    seconds: float | None
    playouts: int
    model: str
    seed: int | str = 0
    bots: tuple[str | None, ...] | None = None  # each seat's bot spec, None for a person (``coach.seat_models``)


def seat_bots(seats: Sequence[Any]) -> tuple[str | None, ...]:
    """The coach's model of each seat of a table (``store.SeatRow``): the spec of the bot that sits there, ``None``
    for a person (the coach models people by its chosen level)."""
    return tuple(seat.bot if seat.kind == "bot" and seat.bot else None for seat in seats)


class CoachBusy(Exception):
    """``HINTS_AT_ONCE`` hints are waiting for the coach already."""


_tables: dict[str, Table] = {}


def _table_for(request: BotRequest | HintRequest) -> Table:
    """The request's table at the end of its history, from this worker's cache when the cache is a prefix."""
    table = _tables.pop(request.table_id, None)
    history = request.history
    last = table.log[-1] if table is not None and table.log else None
    if table is None or table.seq > len(history) or (
        last is not None and (last.actor, last.action, last.notation) != history[table.seq - 1]
    ):
        game = load_game(request.game, players=request.players, **request.options)
        table = Table(game, [None] * game.players)
    table.extend_logged(history[table.seq :])  # the server's own log, validated when first applied
    _tables[request.table_id] = table
    while len(_tables) > WORKER_CACHE:
        _tables.pop(next(iter(_tables)))
    return table


def choose_move(request: BotRequest) -> int:
    """Run in a worker: the bot's action for ``request.seat``."""
    table = _table_for(request)
    spec = takeover_spec(request.spec, table.game) if request.takeover else request.spec
    bot = make_bot(capped(spec, request.time_cap), table.game)
    return ask_bot(bot, table.state, request.seat, random.Random(request.seed))


def give_hint(request: HintRequest) -> dict[str, Any]:
    """Run in a coach worker: the coach's move for ``request.seat``, from what a bot receives (the seat's view, its
    legal moves, a sampler of determinizations), never the state."""
    table = _table_for(request)
    state, seat = table.state, request.seat
    return coach.hint(state.view(seat), state.legal_actions(seat), make_sampler(state, seat), model=request.model,
                      bots=request.bots, playouts=request.playouts, seconds=request.seconds, seed=request.seed,
                      seq=table.seq + 1)


#: In a coach worker process: the pipe its reviews report their progress on (``CoachLane``).
_progress: Any = None

Report = Callable[[str, int, int], None]


def write_review(request: ReviewRequest, report: Report | None = None) -> dict[str, Any]:
    """Run in a coach worker: the review of ``request.seat`` (``coach.review_record``), its progress (decisions
    valued, decisions to value) told to ``report`` (threads) or to the worker's queue (processes) as it goes."""

    def progress(status: coach.ReviewProgress) -> None:
        if report is not None:
            report(request.key, status.done, status.total)
        elif _progress is not None:
            _progress.send((request.key, status.done, status.total))  # one small write: whole, whoever writes

    return coach.review_record(request.record, request.seat, model=request.model, bots=request.bots,
                               playouts=request.playouts, seconds=request.seconds, seed=request.seed,
                               progress=progress)


# -- worker processes that end with the server ---------------------------------------------------------------


def die_with_parent(parent: int) -> None:
    """A worker's first step: end when ``parent`` (the server) ends, even by SIGKILL, where no code of the server
    runs to stop its workers.  Ctrl-C in a terminal reaches the whole process group: the server stops its workers
    itself, so they ignore SIGINT rather than print a traceback each."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError, AttributeError):  # not Linux: the watching thread below does it alone
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)  # the server died before the line above armed the signal
    threading.Thread(target=_watch_parent, args=(parent,), name="watch the server", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os._exit(0)  # reparented: the server is gone


def _process_pool(workers: int) -> ProcessPoolExecutor:
    # ``spawn``, not ``fork``: a forked worker would keep a copy of every descriptor of the server, the listening
    # socket included, and hold the port after the server's death
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=die_with_parent, initargs=(os.getpid(),))


class FairQueue:
    """At most ``slots`` works at once; the others wait, and a slot that frees goes to the creators in turn: to the
    first work of the creator who waited longest since last served, who then goes to the back of the line.  A
    creator with a hundred moves waiting takes one slot in each round, as a person with one move does."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self.busy = 0
        #: per creator, the works waiting, in the order of their turns
        self.waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    def queued(self) -> int:
        return sum(len(queue) for queue in self.waiting.values())

    @asynccontextmanager
    async def turn(self, creator: str) -> AsyncIterator[None]:
        """Hold one slot, after ``creator``'s turn came."""
        if self.busy < self.slots and not self.waiting:
            self.busy += 1
        else:
            ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self.waiting.setdefault(creator, deque()).append(ready)
            try:
                await ready  # a slot handed over: ``busy`` counts it already
            except asyncio.CancelledError:
                if ready.done() and not ready.cancelled():
                    self._release()  # handed a slot in the same moment: pass it on
                else:
                    self._drop(creator, ready)
                raise
        try:
            yield
        finally:
            self._release()

    def _drop(self, creator: str, ready: asyncio.Future[None]) -> None:
        queue = self.waiting.get(creator)
        if queue is not None and ready in queue:
            queue.remove(ready)
            if not queue:
                del self.waiting[creator]

    def _release(self) -> None:
        while self.waiting:
            creator, queue = next(iter(self.waiting.items()))
            ready = queue.popleft()
            if queue:
                self.waiting.move_to_end(creator)
            else:
                del self.waiting[creator]
            if not ready.done():
                ready.set_result(None)
                return
        self.busy -= 1


class Lane:
    """Workers for one kind of bot: processes (``workers`` > 0) or, for tests, threads of the server.  A pool whose
    worker died (killed by the system, out of memory) is replaced by a new one for the next moves."""

    def __init__(self, workers: int, threads: int) -> None:
        self.workers = workers
        self.threads = threads
        self.executor = self._new()
        #: the lane's workers, shared between the tables' creators in turn
        self.fair = FairQueue(workers if workers > 0 else threads)

    def _new(self) -> Executor:
        return _process_pool(self.workers) if self.workers > 0 else ThreadPoolExecutor(self.threads)

    def start(self) -> None:
        """Start every worker process now rather than at the first moves, which would wait for an interpreter to
        start and import the games.  Call it from the event loop's thread, as ``run`` is: a worker dies with the
        thread that started it (``PR_SET_PDEATHSIG``), and that thread lives as long as the server."""
        if isinstance(self.executor, ProcessPoolExecutor):
            for _ in range(self.workers):
                self.executor.submit(os.getpid)

    async def run(self, request: BotRequest, creator: str) -> int:
        async with self.fair.turn(creator):
            return await self.call(partial(choose_move, request))

    async def call(self, work: Callable[[], T]) -> T:
        """``work`` (a module function with its arguments, for a process) run by one of the lane's workers."""
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            executor = self.executor
            try:
                return await loop.run_in_executor(executor, work)
            except BrokenProcessPool:
                if attempt or executor is not self.executor:
                    raise
                self.executor = self._new()  # the first request to see the broken pool replaces it
                executor.shutdown(wait=False)
        raise AssertionError("unreachable")

    def close(self) -> None:
        executor = self.executor
        # the processes are read first: ``shutdown`` forgets them
        processes = list((executor._processes or {}).values()) if isinstance(executor, ProcessPoolExecutor) else []
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            # a worker thinking a move would otherwise run to the end of it (seconds) and hold the server's exit
            with contextlib.suppress(OSError):
                process.terminate()


def _coach_worker(parent: int, progress: Any) -> None:
    """A coach process's first step: end with the server, keep ``progress`` for its reviews, and step back behind
    the bots (a higher ``nice``: the kernel gives it the CPU the bots and the server leave)."""
    die_with_parent(parent)
    global _progress
    _progress = progress
    with contextlib.suppress(OSError, AttributeError):
        os.nice(COACH_NICENESS)


class CoachLane(Lane):
    """The coach's workers.  Processes are started at the first hint or review, not with the server (a server
    whose people never ask the coach pays nothing); their reviews' progress comes back on one pipe, read by a
    thread that hands each report to the event loop.  A pipe rather than a ``multiprocessing.Queue``: a report is
    one write shorter than ``PIPE_BUF``, which the kernel never interleaves, so it needs no lock to share."""

    def __init__(self, workers: int, threads: int) -> None:
        self.context = multiprocessing.get_context("spawn")
        self.progress: Any = None  # the pipe's ends, (read, write), made with the first processes
        self.listeners: dict[str, Report] = {}
        self.reader: threading.Thread | None = None
        super().__init__(workers, threads)

    def _new(self) -> Executor:
        if self.workers == 0:
            return ThreadPoolExecutor(self.threads)
        if self.progress is None:
            self.progress = self.context.Pipe(duplex=False)
        return ProcessPoolExecutor(self.workers, mp_context=self.context, initializer=_coach_worker,
                                   initargs=(os.getpid(), self.progress[1]))

    def start(self) -> None:
        """Nothing: the workers start at the coach's first work."""

    async def review(self, request: ReviewRequest, on_progress: Callable[[int, int], None]) -> dict[str, Any]:
        loop = asyncio.get_running_loop()

        def report(_key: str, done: int, total: int) -> None:
            with contextlib.suppress(RuntimeError):  # the server is closing its loop
                loop.call_soon_threadsafe(on_progress, done, total)

        if self.workers == 0:
            return await self.call(partial(write_review, request, report))
        self.listeners[request.key] = report
        if self.reader is None:
            self.reader = threading.Thread(target=self._read_progress, name="coach progress", daemon=True)
            self.reader.start()
        try:
            return await self.call(partial(write_review, request))
        finally:
            self.listeners.pop(request.key, None)

    def _read_progress(self) -> None:
        reader = self.progress[0]
        while True:
            try:
                item = reader.recv()
            except (EOFError, OSError):
                return
            if item is None:
                return
            key, done, total = item
            listener = self.listeners.get(key)
            if listener is not None:
                listener(key, done, total)

    def close(self) -> None:
        super().close()
        if self.progress is not None and self.reader is not None:
            self.progress[1].send(None)  # the reading thread's last message


@lru_cache(maxsize=1024)
def _searches(game: str, players: int, spec: str) -> bool:
    """Whether the bot ``spec`` searches at a table of ``game`` (``medium`` plays a heuristic at some tables)."""
    try:
        return is_search(spec, load_game(game, players=players))
    except LudothequeError:  # a table this server cannot build: the worker will say why; no quick lane for it
        return True


class BotPool:
    def __init__(self, workers: int, hard_at_once: int = 1,
                 on_move: Callable[[str, float], None] | None = None) -> None:
        self.quick = Lane(1 if workers > 0 else 0, threads=1)
        self.search = Lane(workers, threads=2)
        #: ``hard`` moves (and custom specs) wait here, not in the search lane's queue, so that a ``medium`` move
        #: finds a worker while several tables of hard bots think
        self.hard = FairQueue(hard_at_once)
        #: the latest moves' wall times by the spec's level (``medium``...), for ``/api/metrics``: what a person
        #: waits for a bot, queueing for a worker included
        self.seconds: dict[str, deque[float]] = {}
        #: told each move's level and wall time too (``/metrics``' histogram)
        self.on_move = on_move
        self.coach = CoachLane(COACH_WORKERS if workers > 0 else 0, threads=COACH_WORKERS)
        #: one review at a time, so that the coach's other worker is there for hints
        self.reviewing = asyncio.Semaphore(1)
        self.hints_waiting = 0

    def start(self) -> None:
        self.quick.start()
        self.search.start()

    def lane_of(self, request: BotRequest) -> str:
        """``quick``, ``search``, or ``hard``: where a request waits for a worker."""
        if not _searches(request.game, request.players, request.spec):
            return "quick"
        if spec_level(request.spec) == "hard" or has_settings(request.spec):
            return "hard"
        return "search"

    async def choose(self, request: BotRequest, creator: str = "") -> int:
        """The bot's action, once the lane's turn came to ``creator`` (who made the table: ``FairQueue``)."""
        started = time.perf_counter()
        lane = self.lane_of(request)
        if lane == "quick":
            action = await self.quick.run(request, creator)
        elif lane == "hard":
            async with self.hard.turn(creator):
                action = await self.search.run(request, creator)
        else:
            action = await self.search.run(request, creator)
        level = request.spec.split(":", 1)[0]
        seconds = time.perf_counter() - started
        self.seconds.setdefault(level, deque(maxlen=10_000)).append(seconds)
        if self.on_move is not None:
            self.on_move(level, seconds)
        return action

    async def hint(self, request: HintRequest) -> dict[str, Any]:
        """The coach's move (``give_hint``); ``CoachBusy`` when ``HINTS_AT_ONCE`` hints wait already."""
        if self.hints_waiting >= HINTS_AT_ONCE:
            raise CoachBusy(f"the coach is answering {self.hints_waiting} hints: ask again in a moment")
        self.hints_waiting += 1
        try:
            return await self.coach.call(partial(give_hint, request))
        finally:
            self.hints_waiting -= 1

    async def review(self, request: ReviewRequest, on_progress: Callable[[int, int], None],
                     started: Callable[[], None] | None = None) -> dict[str, Any]:
        """The review (``write_review``), after the reviews asked before it (``started`` is called when its turn
        comes); ``on_progress(done, total)`` as it goes, in the event loop."""
        async with self.reviewing:
            if started is not None:
                started()
            return await self.coach.review(request, on_progress)

    def close(self) -> None:
        self.quick.close()
        self.search.close()
        self.coach.close()


def history_of(table: Table) -> tuple[tuple[Actor, int, str], ...]:
    return tuple((entry.actor, entry.action, entry.notation) for entry in table.log)
