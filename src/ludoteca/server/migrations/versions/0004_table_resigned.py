"""table resigned: the seats that conceded, in order

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 15:00:00

A player may resign a game in play: at two seats the other wins at once; at more, the
resigner ranks last and a bot plays the seat on. The order matters (the first to resign
ranks last of all) and the replay shows after which move each resigned.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0004'
down_revision: str | Sequence[str] | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('resigned', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('resigned')
