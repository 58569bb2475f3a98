"""The push messages' waiting line, fair between people and between push services: one slow endpoint cannot hold
everyone's messages.

Each person (a player, else a seat) has a line of their own, bounded (``per_key``); the sending threads take the
people in turn, one job of a person at a time, so that a person whose endpoint never answers holds at most one
thread, for at most the sending's timeout, and everyone else's jobs pass around it.  A job may add more jobs to
its person's line (a turn becomes one sending per subscription), which keeps each thread's hold to one sending.
A sending names its *place* (the endpoint's host): at most ``per_place`` sendings to one place run at once, so
that many people whose endpoints are one tarpit hold that many threads, and the others serve everyone else.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter, deque
from collections.abc import Callable, Hashable

log = logging.getLogger("ludotheque.server.push")

Job = Callable[[], object]


class FairQueue:
    def __init__(self, threads: int, per_key: int, total: int, per_place: int | None = None,
                 name: str = "ludotheque-push") -> None:
        self.per_key, self.total = per_key, total
        self.per_place = per_place or threads
        #: each person's jobs: the job, whether it counts to the person's bound, and its place (None: anywhere)
        self._lines: dict[Hashable, deque[tuple[Job, bool, str | None]]] = {}
        self._counted: Counter[Hashable] = Counter()
        self._ready: deque[Hashable] = deque()  # people with jobs and none running, in the order they are served
        self._busy: set[Hashable] = set()
        self._at_place: Counter[str] = Counter()  # sendings running, by place
        self._waiting = 0
        self._closed = False
        self._lock = threading.Condition()
        self._threads = [threading.Thread(target=self._work, name=f"{name}-{i}", daemon=True) for i in range(threads)]
        for thread in self._threads:
            thread.start()

    def put(self, key: Hashable, job: Job, first: bool = False, place: str | None = None) -> bool:
        """Queue ``job`` in ``key``'s line (``first``: ahead of its other jobs and not counted against its bound,
        for the sendings a job makes); False when the line or the whole queue is full (the job is dropped)."""
        with self._lock:
            if not first and (self._counted[key] >= self.per_key or self._waiting >= self.total):
                return False
            line = self._lines.setdefault(key, deque())
            if first:
                line.appendleft((job, False, place))
            else:
                line.append((job, True, place))
                self._counted[key] += 1
            self._waiting += 1
            if key not in self._busy and key not in self._ready:
                self._ready.append(key)
            self._lock.notify()
            return True

    def _next(self) -> tuple[Hashable, Job, str | None] | None:
        """The first person in turn whose next job's place has room; it leaves the ready line."""
        for index, key in enumerate(self._ready):
            job, counted, place = self._lines[key][0]
            if place is None or self._at_place[place] < self.per_place:
                del self._ready[index]
                self._lines[key].popleft()
                self._waiting -= 1
                if counted:
                    self._counted[key] -= 1
                    if not self._counted[key]:
                        del self._counted[key]
                if place is not None:
                    self._at_place[place] += 1
                self._busy.add(key)
                return key, job, place
        return None

    def _work(self) -> None:
        while True:
            with self._lock:
                taken = None
                while not self._closed and (taken := self._next()) is None:
                    self._lock.wait()
                if taken is None:
                    return
            key, job, place = taken
            try:
                job()
            except Exception:
                log.exception("push: a sending failed")
            finally:
                with self._lock:
                    self._busy.discard(key)
                    if place is not None:
                        self._at_place[place] -= 1
                        if not self._at_place[place]:
                            del self._at_place[place]
                    if self._lines.get(key):
                        self._ready.append(key)  # behind everyone waiting: people take turns
                    else:
                        self._lines.pop(key, None)
                    self._lock.notify_all()  # a person held back by a full place may go now

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._lock.notify_all()
