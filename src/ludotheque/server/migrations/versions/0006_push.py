"""Web Push subscriptions: a browser told when it is a person's turn at a game by correspondence
(``server/push.py``).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("owner", sa.String(80), primary_key=True),
        sa.Column("endpoint", sa.Text, primary_key=True),
        sa.Column("p256dh", sa.String(100), nullable=False),
        sa.Column("auth", sa.String(40), nullable=False),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("push_subscriptions")
