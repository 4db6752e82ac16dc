"""users.username_key: one account per name as people read it

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26 19:00:00

The key is the username's NFKC form, confusables skeleton and case folding (see
server/accounts/usernames.py), under a unique index, so that ``CaseX`` and ``casex`` cannot
both sign up. Existing accounts get their key here; where two of them already share
one, the oldest keeps it and each later one gets ``<key>#<id>``: every account keeps
working and signing in under its own name, and no new one can take any of these names.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0005'
down_revision: str | Sequence[str] | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    from ludoteca.server.accounts.usernames import username_key

    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('username_key', sa.String(length=200), nullable=True))
    users = sa.table('users', sa.column('id', sa.Integer), sa.column('username', sa.String),
                     sa.column('username_key', sa.String))
    connection = op.get_bind()
    taken: set[str] = set()
    for user_id, name in connection.execute(sa.select(users.c.id, users.c.username).order_by(users.c.id)).all():
        key = username_key(name)
        if key in taken:
            key = f"{key}#{user_id}"
        taken.add(key)
        connection.execute(users.update().where(users.c.id == user_id).values(username_key=key))
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.alter_column('username_key', existing_type=sa.String(length=200), nullable=False)
        batch_op.create_index('ix_users_username_key', ['username_key'], unique=True)


def downgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_index('ix_users_username_key')
        batch_op.drop_column('username_key')
