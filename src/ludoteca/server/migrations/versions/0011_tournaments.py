"""tournaments, their players, rounds and tables

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26 21:00:00

New tables only: nothing existing changes.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0011'
down_revision: str | Sequence[str] | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'tournaments',
        sa.Column('id', sa.String(length=16), nullable=False),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('game', sa.String(length=40), nullable=False),
        sa.Column('format', sa.String(length=16), nullable=False),
        sa.Column('seats', sa.Integer(), nullable=False),
        sa.Column('min_seats', sa.Integer(), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('mode', sa.String(length=16), nullable=False),
        sa.Column('clock', sa.JSON(), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=False),
        sa.Column('minutes', sa.Integer(), nullable=True),
        sa.Column('starts_at', sa.DateTime(), nullable=False),
        sa.Column('ends_at', sa.DateTime(), nullable=True),
        sa.Column('min_players', sa.Integer(), nullable=False),
        sa.Column('max_players', sa.Integer(), nullable=False),
        sa.Column('rated', sa.Boolean(), nullable=False),
        sa.Column('bot_levels', sa.JSON(), nullable=False),
        sa.Column('private', sa.Boolean(), nullable=False),
        sa.Column('invite', sa.String(length=32), nullable=True),
        sa.Column('points', sa.JSON(), nullable=True),
        sa.Column('bye_points', sa.Float(), nullable=False),
        sa.Column('skipped_points', sa.Float(), nullable=False),
        sa.Column('avoid_repeats', sa.Boolean(), nullable=False),
        sa.Column('advance', sa.Integer(), nullable=False),
        sa.Column('max_missed', sa.Integer(), nullable=False),
        sa.Column('seed', sa.BigInteger(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('revision', sa.Integer(), nullable=False),
        sa.Column('podium', sa.JSON(), nullable=True),
        sa.Column('created_by', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('started_at', sa.DateTime(), nullable=True),
        sa.Column('finished_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['created_by'], ['users.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_tournaments_starts_at', 'tournaments', ['starts_at'], unique=False)
    op.create_index('ix_tournaments_status', 'tournaments', ['status'], unique=False)
    op.create_table(
        'tournament_players',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('tournament_id', sa.String(length=16), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=True),
        sa.Column('bot', sa.String(length=40), nullable=True),
        sa.Column('name', sa.String(length=60), nullable=False),
        sa.Column('rating', sa.Float(), nullable=False),
        sa.Column('joined_at', sa.DateTime(), nullable=False),
        sa.Column('withdrawn', sa.Boolean(), nullable=False),
        sa.Column('missed', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('tournament_id', 'user_id', name='uq_tournament_players_user'),
    )
    op.create_index('ix_tournament_players_tournament_id', 'tournament_players', ['tournament_id'], unique=False)
    op.create_index('ix_tournament_players_user_id', 'tournament_players', ['user_id'], unique=False)
    op.create_table(
        'tournament_rounds',
        sa.Column('tournament_id', sa.String(length=16), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('byes', sa.JSON(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('tournament_id', 'number'),
    )
    op.create_table(
        'tournament_games',
        sa.Column('table_id', sa.String(length=16), nullable=False),
        sa.Column('tournament_id', sa.String(length=16), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('board', sa.Integer(), nullable=False),
        sa.Column('players', sa.JSON(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('ranks', sa.JSON(), nullable=True),
        sa.Column('points', sa.JSON(), nullable=True),
        sa.Column('missed', sa.JSON(), nullable=True),
        sa.Column('started_at', sa.DateTime(), nullable=False),
        sa.Column('finished_at', sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('table_id'),
    )
    op.create_index('ix_tournament_games_status', 'tournament_games', ['status'], unique=False)
    op.create_index('ix_tournament_games_tournament_id', 'tournament_games', ['tournament_id'], unique=False)


def downgrade() -> None:
    op.drop_table('tournament_games')
    op.drop_table('tournament_rounds')
    op.drop_table('tournament_players')
    op.drop_table('tournaments')
