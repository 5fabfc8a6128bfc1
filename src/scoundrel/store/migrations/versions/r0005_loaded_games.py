"""A game brought from a record file is marked.

``games.loaded``: true for a game that did not start here but was brought from a record
file (the terminal's ``play --load``): its first moves may have come from anywhere, a
solver's line included, so it is listed in the player's history, marked, and never counts
toward their records (wins, best scores, streaks). Every game before this revision was
dealt here.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("loaded", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("loaded")
