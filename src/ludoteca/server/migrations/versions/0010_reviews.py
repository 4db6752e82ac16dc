"""post-game reviews

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26 21:00:00

One table, ``reviews``: a seat's review of a finished table (server/reviews/service.py), kept
with the table.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0010'
down_revision: str | Sequence[str] | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'reviews',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('table_id', sa.String(length=16), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('requested_by', sa.Integer(), nullable=True),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('search', sa.Integer(), nullable=False),
        sa.Column('evaluate', sa.Integer(), nullable=False),
        sa.Column('seed', sa.Integer(), nullable=False),
        sa.Column('done', sa.Integer(), nullable=False),
        sa.Column('total', sa.Integer(), nullable=False),
        sa.Column('result', sa.JSON(), nullable=True),
        sa.Column('error', sa.String(length=200), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('started_at', sa.DateTime(), nullable=True),
        sa.Column('finished_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['requested_by'], ['users.id'], ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('table_id', 'seat', name='uq_reviews_table_seat'),
    )
    op.create_index('ix_reviews_requester', 'reviews', ['requested_by', 'created_at'], unique=False)
    op.create_index(op.f('ix_reviews_status'), 'reviews', ['status'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_reviews_status'), table_name='reviews')
    op.drop_index('ix_reviews_requester', table_name='reviews')
    op.drop_table('reviews')
