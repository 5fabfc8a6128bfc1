"""Three indexes of ``games`` hold only the games they are searched for.

``game_invite``, ``daily_client`` and ``daily_board`` are only ever searched with their
first column equal to a value: an invite's secret, a day and a client, a day's board. Most
games are random dungeons played alone, with no invite, no day and no client, and each of
them used to add an entry to all three (and move one in ``daily_board`` when it ended),
which no search could ever find. Each index now keeps the rows where that column is set
(a partial index); SQLite and PostgreSQL both use it for a search on an equal value.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

#: Each index: its columns, whether it is unique, and the column its rows must have set.
INDEXES = {
    "game_invite": (["invite"], True, "invite"),
    "daily_client": (["daily_date", "client"], False, "client"),
    "daily_board": (["daily_date", "ruleset", "status"], False, "daily_date"),
}


def upgrade() -> None:
    for name, (columns, unique, needed) in INDEXES.items():
        op.drop_index(name, table_name="games")
        where = sa.text(f"{needed} IS NOT NULL")
        op.create_index(
            name, "games", columns, unique=unique, sqlite_where=where, postgresql_where=where
        )


def downgrade() -> None:
    for name, (columns, unique, _needed) in INDEXES.items():
        op.drop_index(name, table_name="games")
        op.create_index(name, "games", columns, unique=unique)
