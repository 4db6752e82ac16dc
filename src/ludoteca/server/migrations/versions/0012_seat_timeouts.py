"""table_seats timed_out_after: when a seat's clock ran out and a bot took it

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26 21:10:00

The clock scan hands a seat whose time ran out to a bot; the table's log and its end
screen say so (issue 31, item 6), which needs the moment it happened: the number of
moves played then. Nullable: seats that never timed out (all of them before) have none.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0012'
down_revision: str | Sequence[str] | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('table_seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('timed_out_after', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('table_seats', schema=None) as batch_op:
        batch_op.drop_column('timed_out_after')
