"""Fault points for the crash tests, put in place by the process's assembly (``Services.open``) only when a setting
asks for one: the code on the commit path carries none."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine

from ludotheque.server.config import Settings
from ludotheque.server.store import Store


class CrashAfterCommit(Store):
    """A store whose process kills itself with SIGKILL right after the ``moves``-th person's move is committed,
    before the actor acknowledges it (``LUDOTHEQUE_CRASH_AFTER_COMMIT=N``): a crash at the worst moment.  The tests
    show with it that the client's resend gets the original ack and that the move is applied once.  A person's move
    is the one action that carries a ``client_move_id``."""

    def __init__(self, engine: Engine, moves: int, on_commit: Callable[[float], None] | None = None) -> None:
        super().__init__(engine, on_commit)
        self.moves_left = moves

    async def append(self, table_id: str, seq: int, actor: int | None, action: int, notation: str,
                     client_move_id: str | None = None, clock_state: dict[str, Any] | None = None,
                     fence: int | None = None) -> None:
        await super().append(table_id, seq, actor, action, notation, client_move_id, clock_state, fence)
        if client_move_id is not None and actor is not None:
            self.moves_left -= 1
            if self.moves_left <= 0:
                os.kill(os.getpid(), signal.SIGKILL)


def store_for(settings: Settings, engine: Engine, on_commit: Callable[[float], None] | None = None) -> Store:
    """The process's store: a plain one, unless ``settings.crash_after_commit`` asks for the crash tests' fault."""
    if settings.crash_after_commit:
        return CrashAfterCommit(engine, settings.crash_after_commit, on_commit)
    return Store(engine, on_commit)
