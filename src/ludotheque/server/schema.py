"""The tables of the database (SQLAlchemy Core).  The migrations in ``migrations/`` create them.

``actions`` is the append-only log: one row per applied action, keyed by (table, seq).  A table is restored by
applying its rows in order; nothing else holds game state.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

#: ``actor`` of a chance action in the ``actions`` table (seats are 0..n-1)
CHANCE_ACTOR = -1

game_tables = Table(
    "game_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("name", String(80), nullable=False),
    Column("private", Boolean, nullable=False),
    Column("invite", String(64), nullable=True),
    Column("status", String(16), nullable=False),  # waiting, playing, finished
    Column("default_bot", String(64), nullable=False),
    Column("creator_seat", Integer, nullable=True),
    Column("created_at", Float, nullable=False),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("game_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # open, human, bot
    Column("name", String(80), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("bot", String(120), nullable=True),
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(32), ForeignKey("game_tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("actor", Integer, nullable=False),
    Column("action", Integer, nullable=False),
    Column("notation", Text, nullable=False),
    Column("client_move_id", String(64), nullable=True),
    Column("created_at", Float, nullable=False),
    UniqueConstraint("table_id", "actor", "client_move_id", name="uq_actions_client_move"),
)
