"""The push messages' waiting line, fair between people: one slow push service cannot hold everyone's messages.

Each person (a player, else a seat) has a line of their own, bounded (``per_key``); the sending threads take the
people in turn, one job of a person at a time, so that a person whose endpoint never answers holds at most one
thread, for at most the sending's timeout, and everyone else's jobs pass around it.  A job may add more jobs to
its person's line (a turn becomes one sending per subscription), which keeps each thread's hold to one sending.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Hashable

log = logging.getLogger("ludotheque.server.push")

Job = Callable[[], object]


class FairQueue:
    def __init__(self, threads: int, per_key: int, total: int, name: str = "ludotheque-push") -> None:
        self.per_key, self.total = per_key, total
        self._lines: dict[Hashable, deque[tuple[Job, bool]]] = {}  # each job, and whether it counts to the bound
        self._counted: dict[Hashable, int] = {}
        self._ready: deque[Hashable] = deque()  # people with jobs and none running, in the order they are served
        self._busy: set[Hashable] = set()
        self._waiting = 0
        self._closed = False
        self._lock = threading.Condition()
        self._threads = [threading.Thread(target=self._work, name=f"{name}-{i}", daemon=True) for i in range(threads)]
        for thread in self._threads:
            thread.start()

    def put(self, key: Hashable, job: Job, first: bool = False) -> bool:
        """Queue ``job`` in ``key``'s line (``first``: ahead of its other jobs, not counted against its bound: the
        sendings a job makes);
        False when the line or the whole queue is full (the job is dropped)."""
        with self._lock:
            if not first and (self._counted.get(key, 0) >= self.per_key or self._waiting >= self.total):
                return False
            line = self._lines.setdefault(key, deque())
            if first:
                line.appendleft((job, False))
            else:
                line.append((job, True))
                self._counted[key] = self._counted.get(key, 0) + 1
            self._waiting += 1
            if key not in self._busy and key not in self._ready:
                self._ready.append(key)
            self._lock.notify()
            return True

    def waiting(self, key: Hashable) -> int:
        """Jobs in ``key``'s line."""
        with self._lock:
            return len(self._lines.get(key, ()))

    def _work(self) -> None:
        while True:
            with self._lock:
                while not self._ready and not self._closed:
                    self._lock.wait()
                if self._closed:
                    return
                key = self._ready.popleft()
                job, counted = self._lines[key].popleft()
                self._waiting -= 1
                if counted:
                    self._counted[key] -= 1
                    if not self._counted[key]:
                        del self._counted[key]
                self._busy.add(key)
            try:
                job()
            except Exception:
                log.exception("push: a sending failed")
            finally:
                with self._lock:
                    self._busy.discard(key)
                    if self._lines.get(key):
                        self._ready.append(key)  # behind everyone waiting: people take turns
                        self._lock.notify()
                    else:
                        self._lines.pop(key, None)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._lock.notify_all()
