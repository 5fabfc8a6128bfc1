"""Hints: every game counts the hints its player asked for (0 for older games).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("hint_count", sa.Integer, nullable=False, server_default="0"))
