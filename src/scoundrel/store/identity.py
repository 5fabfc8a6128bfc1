"""Who a player is, as the database keeps it: player rows made on a player's first write,
one-time transfer codes that carry a player to another device, and scored daily attempts
counted per client (a keyed hash of the client's address, never the address).

The web layer (``scoundrel.web.identity``) signs the cookies and makes the codes; this
module only stores what it is given.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from sqlalchemy import Engine, and_, delete, exists, func, insert, select, update
from sqlalchemy.engine import Connection

from .database import achievements, aware, games, players, seats, transfers
from .games import NotFound, StoreError


class ExpiredCode(StoreError):
    """A transfer code that was made but is no longer valid (it is deleted)."""


class UnknownCode(NotFound):
    """A transfer code nobody made, or one already used."""


class BadCode(StoreError):
    """Text that cannot be a transfer code."""


@dataclass(frozen=True)
class Claimed:
    """A transfer that happened: the player the code carried, and what moved to them."""

    player_id: str
    moved: int
    """Games of the claiming device's old id that now belong to ``player_id``."""
    kept: int
    """Daily attempts left with the old id (the player already had one for that day)."""


class Identities:
    """When player rows were made, transfer codes and daily attempts per client, over
    ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------ player rows
    # (made and looked up by GameStore.has_player and make_player)

    def existed_before(self, player_id: str, moment: _dt.datetime) -> bool:
        """Whether the player's row was made before ``moment`` (a player from the days of
        unsigned cookies)."""
        with self.engine.connect() as connection:
            found = connection.execute(
                select(players.c.id).where(
                    and_(players.c.id == player_id, players.c.created_at < moment)
                )
            ).first()
        return found is not None

    # ------------------------------------------------------------------ transfer codes

    def put_transfer(self, player_id: str, code_hash: str, expires_at: _dt.datetime) -> None:
        """Keep a new code for the player, replacing any code they made before."""
        with self.engine.begin() as connection:
            connection.execute(delete(transfers).where(transfers.c.player_id == player_id))
            connection.execute(
                insert(transfers).values(
                    code_hash=code_hash, player_id=player_id, expires_at=expires_at
                )
            )

    def claim_transfer(self, code_hash: str, claimer: str, moment: _dt.datetime) -> Claimed:
        """Use a code once: it is deleted, and the games ``claimer`` made so far go to the
        code's player, except a daily attempt that would clash with one that player
        already has (it stays with ``claimer``: nothing is lost). NotFound for a code
        nobody made (or already used), ExpiredCode for one made too long ago."""
        with self.engine.begin() as connection:
            row = connection.execute(
                select(transfers.c.player_id, transfers.c.expires_at).where(
                    transfers.c.code_hash == code_hash
                )
            ).first()
            taken = connection.execute(delete(transfers).where(transfers.c.code_hash == code_hash))
            used = row is not None and taken.rowcount == 1  # else: a parallel claim won
            claimed = None
            if row is not None and used and aware(row.expires_at) > moment:
                claimed = self._move(connection, claimer, str(row.player_id))
        if not used:
            raise UnknownCode(
                "there is no such transfer code (or it was used already): check it, or make "
                "a new one on the other device"
            )
        if claimed is None:
            raise ExpiredCode(
                "this transfer code has expired (a code is valid for 15 minutes): make a new "
                "one on the other device"
            )
        return claimed

    @staticmethod
    def _move(connection: Connection, claimer: str, player_id: str) -> Claimed:
        if player_id == claimer:
            return Claimed(player_id, 0, 0)
        theirs = games.alias("theirs")
        clash = exists().where(
            and_(
                theirs.c.player_id == player_id,
                theirs.c.mode == "daily",
                theirs.c.daily_date == games.c.daily_date,
                theirs.c.ruleset == games.c.ruleset,
            )
        )
        mine = games.c.player_id == claimer
        kept = connection.execute(
            select(func.count())
            .select_from(games)
            .where(and_(mine, games.c.mode == "daily", clash))
        ).scalar_one()
        moved = connection.execute(
            update(games)
            .where(and_(mine, ~and_(games.c.mode == "daily", clash)))
            .values(player_id=player_id)
        ).rowcount
        # online co-op seats follow their games (unless the player already sits there)
        sitting = seats.alias("sitting")
        connection.execute(
            update(seats)
            .where(
                and_(
                    seats.c.player_id == claimer,
                    ~exists().where(
                        and_(
                            sitting.c.game_id == seats.c.game_id,
                            sitting.c.player_id == player_id,
                        )
                    ),
                )
            )
            .values(player_id=player_id)
        )
        # achievements follow too, where the player has not earned the same one
        theirs_too = achievements.alias("theirs_too")
        connection.execute(
            update(achievements)
            .where(
                and_(
                    achievements.c.player_id == claimer,
                    ~exists().where(
                        and_(
                            theirs_too.c.player_id == player_id,
                            theirs_too.c.code == achievements.c.code,
                        )
                    ),
                )
            )
            .values(player_id=player_id)
        )
        return Claimed(player_id, int(moved), int(kept))

    # ------------------------------------------------------------------ daily attempts

    def daily_attempts(self, client: str, date: str, ruleset: str) -> int:
        """How many attempts at the dungeon of ``date`` came from this client (a keyed
        hash of its address)."""
        with self.engine.connect() as connection:
            return int(
                connection.execute(
                    select(func.count())
                    .select_from(games)
                    .where(
                        and_(
                            games.c.daily_date == date,
                            games.c.client == client,
                            games.c.ruleset == ruleset,
                            games.c.mode == "daily",
                        )
                    )
                ).scalar_one()
            )
