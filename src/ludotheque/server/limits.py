"""Sliding-window counters in memory: failed logins per user name and per client address, guests per address.

A window counts the events of each key within the last ``window_s`` seconds and refuses more than ``limit`` of
them; a refusal says how many seconds remain until the oldest counted event leaves the window (``Retry-After``).
A refused event is not counted, so a key never holds more than ``limit`` times: what a client sends beyond the
limit costs nothing.  Keys are kept in the order of their latest event, so the keys whose events all left the
window are dropped from the front as new events come; and at most ``max_keys`` keys are kept (the longest idle go
first), so that a client inventing user names or addresses cannot grow the memory without bound.

The counters live in one process and are read and changed from the event loop only, without awaiting in between:
each check-and-count is atomic.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable

from ludotheque.server.errors import Refusal

#: keys one window remembers at most; about 1 KB each at the default limits
MAX_KEYS = 50_000


class SlidingWindow:
    def __init__(self, limit: int, window_s: float, max_keys: int = MAX_KEYS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window_s = window_s
        self.max_keys = max_keys
        self.clock = clock
        self._events: OrderedDict[str, deque[float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._events)

    def retry_after(self, key: str) -> int | None:
        """``None`` while ``key`` may have one more event; else the whole seconds until it may (at least 1)."""
        now = self.clock()
        self._drop_idle(now)
        events = self._events.get(key)
        if events is None:
            return None
        while events and events[0] <= now - self.window_s:
            events.popleft()
        if len(events) < self.limit:
            return None
        return max(1, math.ceil(events[0] + self.window_s - now))

    def add(self, key: str) -> None:
        """Count one event of ``key`` now (check ``retry_after`` first: ``hit`` does both)."""
        events = self._events.get(key)
        if events is None:
            events = self._events[key] = deque()
            while len(self._events) > self.max_keys:
                self._events.popitem(last=False)
        else:
            self._events.move_to_end(key)
        events.append(self.clock())

    def hit(self, key: str) -> int | None:
        """Count one event of ``key`` if the window allows it (``None``); else the seconds to wait, uncounted."""
        wait = self.retry_after(key)
        if wait is None:
            self.add(key)
        return wait

    def forget_one(self, key: str) -> None:
        """Take back the latest event of ``key`` (an attempt counted in advance that turned out well)."""
        events = self._events.get(key)
        if events:
            events.pop()

    def _drop_idle(self, now: float) -> None:
        # the front key is the one idle longest: once its latest event left the window, all of its events did
        while self._events:
            key, events = next(iter(self._events.items()))
            if events and events[-1] > now - self.window_s:
                break
            del self._events[key]


def client_address(client: object | None) -> str:
    """The address a request came from (``request.client``: behind ``--proxy-headers``, the forwarded one)."""
    host = getattr(client, "host", None)
    return host if isinstance(host, str) and host else "unknown"


class LimitReached(Refusal):
    """429 Too Many Requests, with ``Retry-After`` (whole seconds) when the wait is known."""

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(429, message, headers=None if retry_after is None else {"Retry-After": str(retry_after)})
