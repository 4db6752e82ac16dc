"""account email, password resets, push subscriptions, alert preferences

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26 21:00:00

New tables only: existing accounts have no email (they add one on the account page),
write in English until their page says otherwise, and get the default alerts.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: str | Sequence[str] | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'account_contacts',
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('email', sa.String(length=254), nullable=True),
        sa.Column('email_verified', sa.Boolean(), server_default='0', nullable=False),
        sa.Column('language', sa.String(length=8), server_default='en', nullable=False),
        sa.Column('turn_email_minutes', sa.Integer(), server_default='60', nullable=False),
        sa.Column('last_turn_email_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('user_id'),
    )
    op.create_index('ix_account_contacts_email', 'account_contacts', ['email'], unique=False)
    op.create_table(
        'account_tokens',
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('purpose', sa.String(length=16), nullable=False),
        sa.Column('email', sa.String(length=254), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('expires_at', sa.DateTime(), nullable=False),
        sa.Column('used_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('token_hash'),
    )
    op.create_index('ix_account_tokens_user_id', 'account_tokens', ['user_id'], unique=False)
    op.create_table(
        'push_subscriptions',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('endpoint', sa.String(length=1024), nullable=False),
        sa.Column('p256dh', sa.String(length=128), nullable=False),
        sa.Column('auth', sa.String(length=64), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('endpoint'),
    )
    op.create_index('ix_push_subscriptions_user_id', 'push_subscriptions', ['user_id'], unique=False)
    op.create_table(
        'alert_preferences',
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=24), nullable=False),
        sa.Column('channel', sa.String(length=16), nullable=False),
        sa.Column('enabled', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('user_id', 'kind', 'channel'),
    )
    op.create_table(
        'pending_turn_emails',
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.String(length=16), nullable=False),
        sa.Column('game', sa.String(length=40), nullable=False),
        sa.Column('due_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('user_id', 'table_id'),
    )
    op.create_index('ix_pending_turn_emails_due_at', 'pending_turn_emails', ['due_at'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_pending_turn_emails_due_at', table_name='pending_turn_emails')
    op.drop_table('pending_turn_emails')
    op.drop_table('alert_preferences')
    op.drop_index('ix_push_subscriptions_user_id', table_name='push_subscriptions')
    op.drop_table('push_subscriptions')
    op.drop_index('ix_account_tokens_user_id', table_name='account_tokens')
    op.drop_table('account_tokens')
    op.drop_index('ix_account_contacts_email', table_name='account_contacts')
    op.drop_table('account_contacts')
