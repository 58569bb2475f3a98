"""What the server keeps in its database, as plain synchronous calls (the server runs them in worker threads).

One package for every read and write of the database, below the routes, the live tables and the push sender that
call it: ``writer.py`` (the one writer every write waits for), ``tokens.py`` (ids, secrets and their digests),
``tables.py`` (game tables, seats, the action log: ``Store``), ``players.py`` (guests, accounts, sessions),
``push.py`` (push subscriptions), ``chat.py`` (chat messages).  The tables' names are re-exported here.
"""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError

from ludotheque.server.store.tables import (
    CLOSED,
    ActionRow,
    Fenced,
    FinishHook,
    RematchExists,
    SeatRow,
    SeatSpec,
    SeatTaken,
    Store,
    TableRow,
    TooManyTables,
    TooManyWaiting,
)
from ludotheque.server.store.tokens import new_id, new_token, token_digest
from ludotheque.server.store.writer import Writer, write, writer_of

__all__ = ["CLOSED", "ActionRow", "Fenced", "FinishHook", "IntegrityError", "RematchExists", "SeatRow", "SeatSpec",
           "SeatTaken", "Store", "TableRow", "TooManyTables", "TooManyWaiting", "Writer", "new_id", "new_token",
           "token_digest", "write", "writer_of"]
