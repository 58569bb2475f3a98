"""Who created a table (``player:ID``, or ``address:IP`` for a table waiting without a creator's seat), so that the
tables waiting or in play count against their creator (``Settings.tables_per_creator``).

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("created_by", sa.String(80), nullable=True))
    op.create_index("ix_game_tables_created_by_status", "game_tables", ["created_by", "status"])


def downgrade() -> None:
    op.drop_index("ix_game_tables_created_by_status", "game_tables")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("created_by")
