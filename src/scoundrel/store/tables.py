"""Online co-op tables: one co-op game (C1–C11) played by two players on two devices.

Each hero's seat belongs to one player. The leader of the room acts on it (C3, C4); when the
leader gives a monster as the help card (C5), the partner fights it, and chooses how: the
leader's give waits in ``games.pending`` until the partner answers with weapon or bare
hands, and the record still stores the one move token (``>KS/w``). Everything else about
the game (its record, its moves, compare-and-set writes) is the :class:`GameStore`'s.
"""

from __future__ import annotations

import time
from collections import OrderedDict

from sqlalchemy import and_, insert, select, update
from sqlalchemy.exc import IntegrityError

from scoundrel.core import IllegalMoveError, Move, Rules, State, parse_card, parse_move

from .database import games, now, players, seats
from .games import (
    CHANGED,
    STALE,
    Conflict,
    Forbidden,
    GameStore,
    NotFound,
    StoredGame,
    StoreError,
    keep_newest,
)

FULL = "both seats at this table are taken: you can watch it"
#: How long a full table's nicknames are remembered (a renamed player shows after this).
NAMES_FOR = 30.0


class TableFull(Forbidden):
    """Both seats are taken: the table can be watched (``details["table"]``)."""


class TableOver(Forbidden):
    """The table's game is over: its replay can be watched (``details["table"]``)."""


def _seat_of(taken: dict[int, str], player_id: str) -> int | None:
    return next((hero for hero, sitter in taken.items() if sitter == player_id), None)


class Tables:
    """Seats, invites and turns of the online co-op games kept by ``store``."""

    def __init__(self, store: GameStore, cache: int = 4096) -> None:
        self.store = store
        # Who sits at a full table only changes when a transfer code carries a seated
        # player's games to another id: a player not found among the remembered seats is
        # looked up again. Nicknames are remembered for a short while.
        self._full: OrderedDict[str, dict[int, str]] = OrderedDict()
        self._names: OrderedDict[str, tuple[float, dict[int, str | None]]] = OrderedDict()
        self._cache = cache

    # ------------------------------------------------------------------ seats

    def open(self, player_id: str, rules: Rules) -> StoredGame:
        """A new co-op table in a random dungeon; the player (whose row exists, as for
        :meth:`GameStore.start`) takes hero 1's seat."""
        return self.store.start(player_id, "random", rules, online=True)

    def seats(self, game_id: str) -> dict[int, str]:
        """Who sits where: hero number → player id (as the database has it now)."""
        with self.store.engine.connect() as connection:
            rows = connection.execute(
                select(seats.c.hero, seats.c.player_id).where(seats.c.game_id == game_id)
            ).all()
        taken = {row.hero: row.player_id for row in rows}
        if len(taken) == 2:
            keep_newest(self._full, game_id, taken, self._cache)
        return taken

    def names(self, game_id: str) -> dict[int, str | None]:
        """The nickname of the player in each taken seat (None while unnamed); a full
        table's are remembered for :data:`NAMES_FOR` seconds."""
        known = self._names.get(game_id)
        if known is not None and time.monotonic() - known[0] < NAMES_FOR:
            return known[1]
        with self.store.engine.connect() as connection:
            rows = connection.execute(
                select(seats.c.hero, players.c.nickname)
                .join(players, players.c.id == seats.c.player_id)
                .where(seats.c.game_id == game_id)
            ).all()
        names = {row.hero: row.nickname for row in rows}
        if len(names) == 2:
            keep_newest(self._names, game_id, (time.monotonic(), names), self._cache)
        return names

    def table(self, game_id: str) -> StoredGame:
        """An online game, as the database has it now."""
        stored = self.store.load(game_id)
        if not stored.online:
            raise NotFound("there is no such table", reason="no_such_table")
        return stored

    def hero_of(self, game_id: str, player_id: str) -> int | None:
        """The hero this player plays at the table, or None for a watcher."""
        hero = _seat_of(self._full.get(game_id, {}), player_id)
        return hero if hero is not None else _seat_of(self.seats(game_id), player_id)

    def invited(self, invite: str) -> str | None:
        """The id of the table this invite opens, if any."""
        with self.store.engine.connect() as connection:
            game_id: str | None = connection.execute(
                select(games.c.id).where(games.c.invite == invite)
            ).scalar_one_or_none()
        return game_id

    def join(self, invite: str, player_id: str) -> tuple[StoredGame, int]:
        """Take the free seat of the table this invite opens; a player already seated there
        just comes back to their seat. A full table (TableFull) or a finished one
        (TableOver) is refused, naming the table."""
        game_id = self.invited(invite)
        if game_id is None:
            raise NotFound(
                "this invitation is not valid: ask your friend for a new link",
                reason="invitation_invalid",
            )
        taken = self.seats(game_id)
        stored = self.table(game_id)
        hero = _seat_of(taken, player_id)
        if hero is not None:
            return stored, hero
        if stored.is_over:
            raise TableOver("this game is over: ask your friend for a new one", table=game_id)
        if 2 in taken:
            raise TableFull(FULL, table=game_id)
        try:
            with self.store.engine.begin() as connection:
                connection.execute(
                    insert(seats).values(
                        game_id=game_id, hero=2, player_id=player_id, joined_at=now()
                    )
                )
        except IntegrityError:  # somebody took it a moment before
            raise TableFull(FULL, table=game_id) from None
        return stored, 2

    # ------------------------------------------------------------------ turns

    @staticmethod
    def to_act(stored: StoredGame, state: State) -> int | None:
        """The hero whose player acts now: the leader (C3), or the partner while a given
        monster waits for them (C5); None once the game is over."""
        if state.is_over:
            return None
        if stored.pending is not None:
            return 2 if state.leader == 1 else 1
        return state.leader

    @staticmethod
    def gives(state: State) -> dict[str, list[Move]]:
        """The monsters the leader may give as the help card now, each with the partner's
        legal ways to fight it (weapon, bare hands)."""
        found: dict[str, list[Move]] = {}
        for move in state.legal_moves:
            if move.help and move.card is not None and move.card.is_monster:
                found.setdefault(move.card.code, []).append(move)
        return found

    @classmethod
    def answers(cls, stored: StoredGame, state: State) -> list[Move]:
        """While a monster is given: the partner's legal moves (``>KS/w``, ``>KS/b``)."""
        if stored.pending is None:
            return []
        return cls.gives(state).get(stored.pending, [])

    def play(
        self, game_id: str, player_id: str, token: str, after: int | None = None
    ) -> tuple[StoredGame, State]:
        """One action at the table by the player whose turn it is.

        - The leader plays any legal move, or gives a monster without saying how it is
          fought: ``>KS`` (it waits for the partner).
        - The partner answers a given monster with ``>KS/w`` or ``>KS/b``.
        ``after`` is how many moves the player had seen: an action chosen on an older
        position is refused with Conflict, as a write that loses a race is."""
        stored = self.table(game_id)
        state = self.store.state(stored)
        hero = self.hero_of(game_id, player_id)
        if hero is None:
            raise Forbidden(
                "you are watching this table: only its two players act", reason="watching"
            )
        if state.is_over:
            raise Conflict("the game is over", reason="game_over")
        if after is not None and after != len(stored.moves):
            raise Conflict(STALE, reason="stale_position")
        acting = self.to_act(stored, state)
        if hero != acting:
            if stored.pending:
                raise Conflict(
                    "it is not your turn: your partner chooses how to fight the monster you gave",
                    reason="not_your_turn_fight",
                )
            raise Conflict(
                "it is not your turn: your partner leads this room", reason="not_your_turn_room"
            )
        text = token.strip()
        if (
            stored.pending is None
            and text.startswith(">")
            and "/" not in text
            and parse_card(text[1:]).is_monster
        ):
            return self._give(stored, state, text[1:])
        move = parse_move(text)
        if stored.pending is not None:
            if move not in self.answers(stored, state):
                card = parse_card(stored.pending)
                raise IllegalMoveError(
                    move,
                    f"your partner gave you {card}: fight it with >{card.code}/w or >{card.code}/b",
                )
        elif move.help and move.card is not None and move.card.is_monster:
            raise StoreError(
                "give a monster as >CARD without /w or /b: your partner chooses how to fight it",
                reason="give_without_fight",
            )
        self.store._keep(stored)  # the write compares against this copy, the given card too
        return self.store.play(
            game_id, stored.player_id, move, after=len(stored.moves), seated=True
        )

    def _give(self, stored: StoredGame, state: State, code: str) -> tuple[StoredGame, State]:
        card = parse_card(code)
        if card.code not in self.gives(state):
            refusal = state.explain(parse_move(f">{card.code}/b"))
            reason = refusal.text if refusal is not None else "it cannot be given now"
            raise IllegalMoveError(parse_move(f">{card.code}/b"), reason, refusal)
        return self._pending(stored, card.code), state

    def take_back(self, game_id: str, player_id: str) -> tuple[StoredGame, State]:
        """The leader takes back a monster given but not yet fought (nothing was played)."""
        stored = self.table(game_id)
        state = self.store.state(stored)
        if stored.pending is None:
            raise Conflict("no monster is waiting for your partner", reason="nothing_given")
        if self.hero_of(game_id, player_id) != state.leader:
            raise Conflict(
                "only the leader who gave the monster can take it back",
                reason="only_giver_takes_back",
            )
        return self._pending(stored, None), state

    def _pending(self, stored: StoredGame, card: str | None) -> StoredGame:
        """Give ``card`` (or take the given one back), compare-and-set: only if the game
        still holds ``stored``'s moves and given card."""
        with self.store.engine.begin() as connection:
            result = connection.execute(
                update(games)
                .where(
                    and_(
                        games.c.id == stored.id,
                        games.c.moves == " ".join(stored.moves),
                        games.c.pending.is_not_distinct_from(stored.pending),
                    )
                )
                .values(pending=card, updated_at=now())
            )
        if result.rowcount != 1:
            raise Conflict(CHANGED, reason="changed_meanwhile")
        return stored.but(pending=card)
