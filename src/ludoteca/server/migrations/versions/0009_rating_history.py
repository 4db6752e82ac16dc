"""every rated result, for rating history and statistics; the bot level that plays a
seat whose player left or ran out of time

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26 21:00:00

New tables only: games rated before this revision have no history (the current rating
stays in ``ratings``); tables started before it get their zombie level on first use.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0009'
down_revision: str | Sequence[str] | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'rating_history',
        sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('game', sa.String(length=40), nullable=False),
        sa.Column('table_id', sa.String(length=16), nullable=False),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.Column('mu_before', sa.Float(), nullable=False),
        sa.Column('sigma_before', sa.Float(), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('rank', sa.Integer(), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('seats', sa.Integer(), nullable=False),
        sa.Column('players', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('table_id', 'user_id', name='uq_rating_history_table_user'),
    )
    op.create_index('ix_rating_history_user_game', 'rating_history', ['user_id', 'game', 'id'], unique=False)
    op.create_table(
        'zombie_options',
        sa.Column('table_id', sa.String(length=16), nullable=False),
        sa.Column('level', sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('table_id'),
    )
    op.create_table(
        'zombie_choices',
        sa.Column('table_id', sa.String(length=16), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('level', sa.String(length=40), nullable=False),
        sa.Column('basis', sa.String(length=16), nullable=False),
        sa.Column('mu', sa.Float(), nullable=True),
        sa.Column('chosen_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('table_id', 'seat'),
    )


def downgrade() -> None:
    op.drop_table('zombie_choices')
    op.drop_table('zombie_options')
    op.drop_index('ix_rating_history_user_game', table_name='rating_history')
    op.drop_table('rating_history')
