"""One WebSocket of a live table: its seat, its outbox and its rate limit.

Each connection has one writer task and an outbox, so its messages leave in order; a state frame in the outbox is
a placeholder (``STATE_FRAME``), built when it is sent from that connection's seat only, so several changes share
one frame and the frame shows the latest state.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

#: A state frame in a connection's outbox: built when it is sent, so that it shows the latest state.
STATE_FRAME: dict[str, Any] = {"type": "state"}

#: WebSocket close codes for a connection the server ends: it fell too far behind reading its messages (1013, "try
#: again later"), or it went on sending far past its rate limit (1008, policy violation).
CLOSE_FALLING_BEHIND = 1013
CLOSE_FLOODING = 1008
#: Messages refused in a row for the rate limit after which the connection is closed (1008).
FLOOD_LIMIT = 200


def ack(client_move_id: str, seq: int) -> dict[str, Any]:
    return {"type": "ack", "client_move_id": client_move_id, "seq": seq}


class TokenBucket:
    """At most ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float = 20.0, burst: float = 40.0) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


@dataclass(eq=False)
class Connection:
    """One WebSocket: a seat (``None`` for a spectator) and the messages waiting to be sent to it.

    The outbox is bounded in messages (``limit``) and in bytes (``byte_limit``, the JSON of the messages waiting;
    a state frame waits as a placeholder and is built when sent): a client that stops reading cannot make the
    server hold its messages without end.  When it is full the connection is closed (``closing``), never blocked
    on, since the table's other connections share the event loop.  Read it with ``next``, which keeps the count."""

    seat: int | None
    send: Callable[[dict[str, Any]], Awaitable[None]]
    limit: int = 256
    byte_limit: int = 1 << 20
    outbox: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    queued_bytes: int = 0
    sizes: deque[int] = field(default_factory=deque)  # the size of each message in the outbox, in order
    greeted: bool = False  # the room's chat history was sent (once a connection, at its first ``hello``)
    last_said: float = -math.inf  # when this connection last chatted (``time.monotonic``): one message a second
    #: the seat of the person behind a socket without the seat's token (their ``player_token`` names a player who
    #: sits at the table): it watches as a spectator and chats in the players' room (``chat.room_of``)
    person_seat: int | None = None
    synced: int = 0  # the table's seq up to which this connection has been sent events
    hello: bool = False  # frames start once the client has said which seq it has (``hello``)
    state_queued: bool = False
    bucket: TokenBucket = field(default_factory=TokenBucket)
    refused_in_a_row: int = 0  # messages refused for the rate limit since the last one read
    notices_seen: int = 0  # how many of the table's notices this connection has been sent
    closing: asyncio.Event = field(default_factory=asyncio.Event)
    close_code: int = 1000
    close_reason: str = ""

    def push(self, message: dict[str, Any]) -> None:
        size = 0 if message is STATE_FRAME else len(json.dumps(message, ensure_ascii=False, default=str))
        if self.outbox.qsize() >= self.limit or self.queued_bytes + size > self.byte_limit:
            self.close(CLOSE_FALLING_BEHIND, "too many messages waiting to be read: reconnect and say hello")
            return
        self.outbox.put_nowait(message)
        self.sizes.append(size)
        self.queued_bytes += size

    async def next(self) -> dict[str, Any]:
        """The next message of the outbox, once there is one."""
        message = await self.outbox.get()
        self.queued_bytes -= self.sizes.popleft()
        return message

    def push_state(self) -> None:
        if self.hello and not self.state_queued:
            self.state_queued = True
            self.push(STATE_FRAME)

    def admit(self) -> bool:
        """Whether a message the client sent is within its rate limit.  Every refusal is answered, and a client
        that goes on sending far past the limit is cut off (1008): its refusals can never pile up faster than the
        limit lets messages in."""
        if self.bucket.take():
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        if self.refused_in_a_row > FLOOD_LIMIT:
            self.close(CLOSE_FLOODING, "too many messages past the rate limit")
        else:
            self.push({"type": "error", "code": "rate_limited", "message": "too many messages: at most 20 a second"})
        return False

    def close(self, code: int, reason: str) -> None:
        """Ask the connection's handler to close it (the first reason given is the one sent)."""
        if not self.closing.is_set():
            self.close_code, self.close_reason = code, reason
            self.closing.set()
