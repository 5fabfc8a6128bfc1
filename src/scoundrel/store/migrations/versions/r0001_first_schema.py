"""The first schema: players, their games (each game is its record, N3) and settings.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("nickname", sa.String(40), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("player_id", sa.String(36), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("daily_date", sa.String(10), nullable=True),
        sa.Column("ruleset", sa.String(8), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("deck", sa.Text, nullable=False),
        sa.Column("moves", sa.Text, nullable=False),
        sa.Column("move_count", sa.Integer, nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("undo_count", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_games_player_id", "games", ["player_id"])
    op.create_index(
        "one_daily_attempt",
        "games",
        ["player_id", "daily_date", "ruleset"],
        unique=True,
        sqlite_where=sa.text("mode = 'daily'"),
        postgresql_where=sa.text("mode = 'daily'"),
    )
    op.create_index("daily_board", "games", ["daily_date", "ruleset", "status"])
    op.create_table(
        "settings",
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
