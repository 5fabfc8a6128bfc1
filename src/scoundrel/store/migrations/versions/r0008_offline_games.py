"""A game played offline in the browser is marked with the key its page made for it.

``games.offline_key``: set for a game the browser played without the server (Pyodide runs
the core in the page) and sent once it was back online; the server replayed and checked it
before keeping it. Such a game joins its player's records, marked, and is never ranked. The
key, unique for each player, lets a page send a game again when an answer was lost without
keeping it twice. Every game before this revision was played on the server.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

WHERE = sa.text("offline_key IS NOT NULL")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("offline_key", sa.String(32), nullable=True))
    op.create_index(
        "offline_game",
        "games",
        ["player_id", "offline_key"],
        unique=True,
        sqlite_where=WHERE,
        postgresql_where=WHERE,
    )


def downgrade() -> None:
    op.drop_index("offline_game", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("offline_key")
