"""Idempotent requests: a request sent again with the same ``Idempotency-Key`` gets the first one's answer instead
of doing its work twice (a double click on "Créer la table", a retry after a lost answer).

The answers are kept in memory only: they hold secrets (a seat's token, a new guest's token) that the database
stores as digests, so the original answer is the only copy that can be given again.  They are never logged, and
nobody but the requester who made them can have them back: keys are scoped per requester (a player, or a client
address).  Kept for ``ttl_s`` and at most ``max_keys`` at once; past that the oldest is forgotten first, which
costs a duplicate at worst, never a wrong answer.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Header

from ludotheque.server.errors import Refusal

#: the longest key accepted (400 beyond); a UUID takes 36
KEY_MAX = 200
#: how long an answer is given again
TTL_S = 24 * 3600.0
#: answers kept at once (each under a kilobyte)
MAX_KEYS = 10_000
#: the status of a key sent again with another body: 409 Conflict, because this API's 422 is the shape of a
#: malformed request (FastAPI's validation errors), which this is not
KEY_REUSED = 409


def idempotency_key(
    idempotency_key: Annotated[str | None, Header(
        alias="Idempotency-Key",
        description="any string of the client's (a UUID): the same key from the same requester gets the same "
                    f"answer for {TTL_S / 3600:g} hours instead of a second creation",
        # in the schema only: a longer key is refused with 400 here, where FastAPI's own check would answer 422
        json_schema_extra={"minLength": 1, "maxLength": KEY_MAX},
    )] = None,
) -> str | None:
    """The request's ``Idempotency-Key`` (``None`` without one; 400 when empty or longer than ``KEY_MAX``)."""
    if idempotency_key is not None and not 1 <= len(idempotency_key) <= KEY_MAX:
        raise Refusal(400, f"Idempotency-Key holds 1 to {KEY_MAX} characters")
    return idempotency_key


#: ``Idempotency-Key``, when given
IdempotencyKeyDep = Annotated[str | None, Depends(idempotency_key)]


def fingerprint(body: Any) -> str:
    """A digest of a request's body as the server read it (its JSON, keys sorted): what a key is bound to."""
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


@dataclass
class _Entry:
    body: str
    since: float
    #: the work, shared by every request with the key; its answer holds secrets, hence no repr
    answer: asyncio.Future[Any] = field(repr=False)


class IdempotentRequests:
    """The answers of one kind of request, by (requester, key)."""

    def __init__(self, ttl_s: float = TTL_S, max_keys: int = MAX_KEYS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl_s = ttl_s
        self.max_keys = max_keys
        self._clock = clock
        self._entries: OrderedDict[tuple[str, str], _Entry] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    async def run(self, requester: str, key: str, body: str, work: Callable[[], Awaitable[Any]]) -> Any:
        """``work()``'s answer, or the answer it gave the first time ``requester`` sent ``key`` (awaited if that
        request is still running).  ``body`` is the request's fingerprint: the same key with another body is
        refused (``KEY_REUSED``).  A request that failed is forgotten, so that sending it again tries again."""
        self._forget_expired()
        slot = (requester, key)
        entry = self._entries.get(slot)
        if entry is None:
            while len(self._entries) >= self.max_keys:
                self._entries.popitem(last=False)
            # a task of its own: a requester that hangs up does not cancel the work another one waits for
            entry = _Entry(body, self._clock(), asyncio.ensure_future(work()))
            entry.answer.add_done_callback(lambda done: self._forget_failed(slot, done))
            self._entries[slot] = entry
        elif entry.body != body:
            raise Refusal(KEY_REUSED, "this Idempotency-Key was sent before with another request: use a new key "
                          "for a new request")
        return await asyncio.shield(entry.answer)

    def _forget_failed(self, slot: tuple[str, str], done: asyncio.Future[Any]) -> None:
        entry = self._entries.get(slot)
        if entry is not None and entry.answer is done and (done.cancelled() or done.exception() is not None):
            del self._entries[slot]

    def _forget_expired(self) -> None:
        # entries are kept in the order they came, so the expired ones are at the front
        horizon = self._clock() - self.ttl_s
        while self._entries:
            slot, entry = next(iter(self._entries.items()))
            if entry.since > horizon:
                break
            del self._entries[slot]
