"""The tables ``schema.py`` declares are the tables the migrations make: a database migrated from nothing differs
from the metadata in no table, column, type, nullability, key or index; on SQLite and PostgreSQL."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from ludotheque.server.db import make_engine, migrate
from ludotheque.server.schema import metadata


def test_the_migrations_make_the_tables_the_schema_declares(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        migrate(engine)
        with engine.connect() as db:
            differences = compare_metadata(MigrationContext.configure(db, opts={"compare_type": True}), metadata)
            made = set(inspect(db).get_table_names())
    finally:
        engine.dispose()
    assert differences == []
    assert made - {"alembic_version"} == set(metadata.tables)
