"""play now queue, invitations, follows

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26 21:00:00

Three new tables, nothing changed in the old ones: the Play now queue (one row per
player: ``user_id`` unique), invitations to a table's seat (one per table and invitee)
and follows (mutual follows are friends).
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0007'
down_revision: str | Sequence[str] | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'playnow_entries',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('game', sa.String(length=40), nullable=False),
        sa.Column('seats', sa.Integer(), nullable=False),
        sa.Column('mode', sa.String(length=16), nullable=False),
        sa.Column('preset', sa.String(length=40), nullable=False),
        sa.Column('rating', sa.Float(), nullable=False),
        sa.Column('bots_after', sa.Integer(), nullable=True),
        sa.Column('bot_level', sa.String(length=40), nullable=True),
        sa.Column('joined_ms', sa.BigInteger(), nullable=False),
        sa.Column('table_id', sa.String(length=16), nullable=True),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('user_id'),
    )
    op.create_index('ix_playnow_pool', 'playnow_entries', ['game', 'mode', 'preset', 'table_id'], unique=False)
    op.create_table(
        'invitations',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('table_id', sa.String(length=16), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=True),
        sa.Column('inviter_id', sa.Integer(), nullable=False),
        sa.Column('invitee_id', sa.Integer(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('answered_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['inviter_id'], ['users.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['invitee_id'], ['users.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('table_id', 'invitee_id', name='uq_invitations_table_invitee'),
    )
    op.create_index('ix_invitations_invitee_id', 'invitations', ['invitee_id'], unique=False)
    op.create_table(
        'follows',
        sa.Column('follower_id', sa.Integer(), nullable=False),
        sa.Column('followed_id', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['follower_id'], ['users.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['followed_id'], ['users.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('follower_id', 'followed_id'),
    )
    op.create_index('ix_follows_followed_id', 'follows', ['followed_id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_follows_followed_id', table_name='follows')
    op.drop_table('follows')
    op.drop_index('ix_invitations_invitee_id', table_name='invitations')
    op.drop_table('invitations')
    op.drop_index('ix_playnow_pool', table_name='playnow_entries')
    op.drop_table('playnow_entries')
