"""The chat messages in the database: a table's two rooms, each message kept once committed and read back for a
connection's history and the replay.  ``live/chat.py`` speaks the chat's protocol; these are its plain synchronous
calls (a message is saved by the database's writer: ``Store.in_writer``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, insert, select

from ludotheque.server.schema import chat_messages


def save(engine: Engine, table_id: str, message: dict[str, Any]) -> int:
    """Keep ``message`` (its room, seat, name, text, time and seq) said at ``table_id``; its id."""
    with engine.begin() as db:
        result = db.execute(insert(chat_messages).values(table_id=table_id, **message))
        key = result.inserted_primary_key
        assert key is not None
        return int(key[0])


def latest(engine: Engine, table_id: str, room: str, limit: int | None = None) -> list[dict[str, Any]]:
    """The messages of ``room`` at ``table_id``, oldest first: all of them, or the ``limit`` latest."""
    query = select(chat_messages).where(chat_messages.c.table_id == table_id, chat_messages.c.room == room)
    query = query.order_by(chat_messages.c.id.desc())
    if limit is not None:
        query = query.limit(limit)
    with engine.connect() as db:
        rows = db.execute(query).mappings().all()
    return [{"type": "chat", "room": r["room"], "seat": r["seat"], "name": r["name"], "text": r["text"],
             "at": r["at"], "id": r["id"], "seq": r["seq"]} for r in reversed(rows)]
