"""When a waiting table was last opened (its summary read, a seat taken, a connection made): a waiting table
nobody opened for ``Settings.waiting_table_ttl_s`` expires.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("opened_at", sa.Float, nullable=True))
    # the tables waiting now count from their creation
    op.execute("UPDATE game_tables SET opened_at = created_at")


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("opened_at")
