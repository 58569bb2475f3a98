"""Tables where the coach gives hints, and the coach's reviews of finished games (``docs/coach.md``).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "reviews",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("review", sa.JSON, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reviews")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("hints")
