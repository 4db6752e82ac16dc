"""table revision: counts the changes to a playing table other than moves

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 02:50:00

A process may keep a table's row and seats in memory and play a move without reading
them again; its versioned UPDATE also names the revision it read, so a seat taken over
by a bot, a seat taken back, or a suspension made through another process turns that
move away instead of letting it land on a stale picture of the table.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0002'
down_revision: str | Sequence[str] | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('revision', sa.Integer(), nullable=False, server_default='0'))


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('revision')
