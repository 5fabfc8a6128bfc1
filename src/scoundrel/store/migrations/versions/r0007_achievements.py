"""Achievements earned by players.

``achievements``: one row per player and achievement (:mod:`scoundrel.store.achievements`),
with the game that earned it (for a streak or ten wins, the game that completed the run)
and when. Decided by the server from the game's record when it ends.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "achievements",
        sa.Column("player_id", sa.String(36), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("code", sa.String(24), primary_key=True),
        sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("earned_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("achievements")
