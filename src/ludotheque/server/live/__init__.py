"""Tables in play, each one actor (``LiveTable``): its row and state, its connections, and the one path by which an
action is applied.  ``actor`` holds the actor; its verbs are in ``moves``, ``timing``, ``seating`` and ``ending``;
``connection`` is a WebSocket's outbox and rate limit."""

from ludotheque.server.live.actor import LiveTable
from ludotheque.server.live.connection import (
    CLOSE_FALLING_BEHIND,
    CLOSE_FLOODING,
    FLOOD_LIMIT,
    STATE_FRAME,
    Connection,
    TokenBucket,
    ack,
)
from ludotheque.server.live.moves import MoveError

__all__ = [
    "CLOSE_FALLING_BEHIND", "CLOSE_FLOODING", "FLOOD_LIMIT", "STATE_FRAME", "Connection", "LiveTable", "MoveError",
    "TokenBucket", "ack",
]
