"""The fencing number of each table a site's node holds (``Store.take_fence``): every commit of the table's log
checks it in its own transaction, so that a node that lost the table (frozen past its lease) writes nothing.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_fences",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("fence", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_fences")
