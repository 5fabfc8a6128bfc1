"""The par of each dungeon of the day, worked out once and kept.

``daily_pars``: for a day and a ruleset, the deal it was worked out for (the server's own
deal of the day), whether that deal can be won seeing every card (null: not decided in the
solver's time), and the fair searching bot's score on it (the par). ``state`` is
``working`` while a server process works it out (``claimed_at`` says since when: a claim
left by a process that stopped is taken over once it is old), ``done`` once kept, or
``failed``.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_pars",
        sa.Column("daily_date", sa.String(10), primary_key=True),
        sa.Column("ruleset", sa.String(8), primary_key=True),
        sa.Column("deck", sa.Text, nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("won", sa.Boolean, nullable=True),
        sa.Column("winnable", sa.Boolean, nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("daily_pars")
