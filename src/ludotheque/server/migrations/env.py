"""Alembic's environment: migrations run on the connection the server hands over (``db.migrate``)."""

from __future__ import annotations

from alembic import context

from ludotheque.server.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("ludotheque's migrations run through ludotheque.server.db.migrate(engine)")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
