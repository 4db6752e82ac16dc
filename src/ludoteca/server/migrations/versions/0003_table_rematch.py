"""table rematch: the table a finished one's players went on to

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 10:00:00

A finished table points at its rematch, so that every player of it finds the same new
table (one per finished table, however many ask at once) and the page can show the way.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0003'
down_revision: str | Sequence[str] | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rematch_id', sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('rematch_id')
