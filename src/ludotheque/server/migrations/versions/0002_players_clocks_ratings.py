"""Players (guests and accounts) and their tokens, ratings, clocks, rated tables, rematches, seats taken by bots.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("username", sa.String(40), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("preferences", sa.JSON, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "player_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=True),
    )
    op.create_index("ix_player_tokens_player_id", "player_tokens", ["player_id"])
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("rater", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("clock", sa.JSON, nullable=True))
        batch.add_column(sa.Column("clock_state", sa.JSON, nullable=True))
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("reclaim", sa.Boolean, nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("rematch_of", sa.String(32), nullable=True))
        batch.add_column(sa.Column("rematch", sa.String(32), nullable=True))
        batch.add_column(sa.Column("finished_at", sa.Float, nullable=True))
        batch.add_column(sa.Column("result", sa.JSON, nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("player_id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("away", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.create_foreign_key("fk_seats_player_id", "players", ["player_id"], ["id"])
    op.create_index("ix_seats_player_id", "seats", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_player_id", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("fk_seats_player_id", type_="foreignkey")
        batch.drop_column("away")
        batch.drop_column("player_id")
    with op.batch_alter_table("game_tables") as batch:
        for column in ("result", "finished_at", "rematch", "rematch_of", "reclaim", "rated", "clock_state", "clock"):
            batch.drop_column(column)
    op.drop_table("ratings")
    op.drop_table("player_tokens")
    op.drop_table("players")
