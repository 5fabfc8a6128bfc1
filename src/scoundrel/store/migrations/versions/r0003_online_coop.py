"""Online co-op and a hardened server.

- ``seats``: which player plays which hero of an online co-op game (hero 1 is the player
  who made the table, hero 2 the friend who followed the invite).
- ``games.invite``: the secret of an online game's invite link (null once both seats are
  taken, and for every other game); ``games.pending``: the monster a leader gave as the
  help card (C5), waiting for the partner to choose weapon or bare hands.
- ``games.client``: for a scored attempt at the dungeon of the day, a keyed hash of the
  client's address (never the address), so attempts per address and day can be limited.
- ``transfers``: one-time codes that carry a player to another device (only their hash).
- The hand-made ``schema_info`` table of schemas 1 and 2 is dropped: Alembic keeps the
  version from here on.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("invite", sa.String(32), nullable=True))
        batch.add_column(sa.Column("pending", sa.String(8), nullable=True))
        batch.add_column(sa.Column("client", sa.String(64), nullable=True))
    op.create_index("game_invite", "games", ["invite"], unique=True)
    op.create_index("daily_client", "games", ["daily_date", "client"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(24), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("hero", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(36), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("seat_player", "seats", ["player_id"])
    op.create_table(
        "transfers",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(36), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("transfer_player", "transfers", ["player_id"])
    if sa.inspect(op.get_bind()).has_table("schema_info"):
        op.drop_table("schema_info")
