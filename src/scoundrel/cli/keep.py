"""The terminal's games, kept in the same store as the browser's (SQLite in the data folder).

Every move is written as it is played, so a game survives Ctrl+C, a closed terminal or a
crash: the next ``scoundrel play`` offers to continue it. The terminal is one player of the
store (its id is kept in the store's settings), with its own records and streaks.

The dungeon of the day is the public one (M2), the deal ``scoundrel deal --daily`` prints,
unless ``SCOUNDREL_DAILY_SECRET`` names a server's secret.
"""

from __future__ import annotations

import datetime as _dt
import uuid
from collections.abc import Callable
from typing import Any

from scoundrel.core import Game, Move, Rules, State, parse_cards, random_deal
from scoundrel.settings import Settings
from scoundrel.store.achievements import earned
from scoundrel.store.games import GameStore, Mode, StoredGame

#: The store's refusals of a change made on a position the game has left (another window).
MOVED_ON = ("stale_position", "changed_meanwhile")

#: The settings key under which the store keeps the terminal's player id.
PLAYER_KEY = "terminal_player"


class Keeper:
    """The store, seen from the terminal: one player, their games and records."""

    def __init__(
        self,
        url: str | None = None,
        daily_secret: str | None = None,
        today: Callable[[], _dt.date] = _dt.date.today,
    ) -> None:
        from scoundrel.store.database import connect

        self.today = today
        """The day it is: the terminal's dungeon of the day follows the local date, and an
        attempt at it closes when that day ends (a server's day is UTC's)."""
        self.store = GameStore(connect(url), today=today)
        self.daily_secret = daily_secret or Settings.read().daily_secret
        """The secret mixed into the dungeon of the day: none (the public deal) by default."""
        self.player = self.store.setting(PLAYER_KEY, str(uuid.uuid4()))
        self.store.ensure_player(self.player)

    def start(
        self,
        mode: str,
        rules: Rules,
        day: _dt.date | None = None,
        seed: int | None = None,
    ) -> KeptGame:
        """A new game: a random dungeon (from ``seed``, if given), or the dungeon of ``day``
        (``daily``): today's is the day's one attempt, a past day is played again unranked
        (``archive``). A day to come is refused (:class:`StoreError`)."""
        secret = self.daily_secret
        today = self.today()
        if mode == Mode.DAILY and day is not None and day != today:
            stored = self.store.start(
                self.player, Mode.ARCHIVE, rules, today=today, day=day, secret=secret
            )
        elif mode == Mode.DAILY:
            stored = self.store.start(self.player, Mode.DAILY, rules, today=today, secret=secret)
        else:
            deck = None if seed is None else random_deal(rules, seed)
            stored = self.store.start(self.player, Mode.RANDOM, rules, deck=deck)
        return KeptGame(self, stored)

    def bring(self, game: Game) -> KeptGame:
        """A game from a record file, kept from now on like any other (its moves replayed).
        It is marked as brought (``loaded``): its history lists it, its records never count
        it, since its first moves may have been anybody's (a solver's line, say)."""
        stored = self.store.start(self.player, Mode.RANDOM, game.rules, deck=game.deck, loaded=True)
        kept = KeptGame(self, stored)
        for move in game.moves:
            kept.play(move)
        return kept

    def unfinished(self) -> KeptGame | None:
        """The game in play that moved last, if any."""
        stored = self.store.current(self.player)
        return None if stored is None else KeptGame(self, stored)

    def resume(self, game_id: str) -> KeptGame:
        return KeptGame(self, self.store.owned(game_id, self.player))

    def history(self, limit: int = 50) -> list[StoredGame]:
        return self.store.history(self.player, limit)

    def stats(self) -> list[dict[str, Any]]:
        return self.store.stats(self.player)

    def streak(self, ruleset: str) -> dict[str, Any]:
        return self.store.daily_streak(self.player, ruleset, self.today())

    def achievements(self) -> list[dict[str, Any]]:
        """The achievements earned (:mod:`scoundrel.store.achievements`), with their days."""
        return earned(self.store, self.player)


class KeptGame:
    """A core :class:`Game` whose every move and undo is written to the store first.

    Several windows may show the same game (two terminals on one data folder, a terminal
    beside a browser): each change names the position it was made on (its moves and
    undos), and the store refuses it if the game has moved on since (``stale_position``),
    so that no window plays on, or takes back, a move it did not show. :meth:`refresh`
    then brings this copy to the game as it stands."""

    def __init__(self, keeper: Keeper, stored: StoredGame) -> None:
        self.keeper = keeper
        self.stored = stored
        self.game = self._replayed(stored)
        self.earned: list[str] = []
        """The achievements the move that ended the game earned (to announce once)."""

    @staticmethod
    def _replayed(stored: StoredGame) -> Game:
        game = Game(stored.rules, parse_cards(stored.deck))
        for token in stored.moves:
            game.play(token)
        return game

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def mode(self) -> str:
        return self.stored.mode

    @property
    def date(self) -> str | None:
        return self.stored.daily_date

    @property
    def state(self) -> State:
        return self.game.state

    @property
    def closed(self) -> bool:
        """An attempt at the dungeon of the day that its day ended before it did: it does
        not go on (every move is refused, ``daily_closed``)."""
        return self.stored.closed

    @property
    def over(self) -> bool:
        """Nothing more to play: the game ended, or its day did."""
        return self.game.is_over or self.closed

    @property
    def can_undo(self) -> bool:
        """Undo is for a random dungeon (or a past day's), while it is on (M1, M2)."""
        return self.stored.mode != Mode.DAILY and bool(self.game.moves) and not self.game.is_over

    @property
    def position(self) -> tuple[int, int]:
        """Where the game stands as this copy shows it: its moves and undos so far."""
        return len(self.stored.moves), self.stored.undo_count

    def play(self, move: Move | str) -> Move:
        """Check the move with the core, keep it, then play it here."""
        if isinstance(move, str):
            move = self.game.parse(move)
        self.game.state.apply(move)  # IllegalMoveError before anything is written
        after, undos = self.position
        self.stored, _ = self.keeper.store.play(
            self.id, self.keeper.player, move, after=after, undos=undos
        )
        played = self.game.play(move)
        if self.game.is_over:  # what the store decided the game earned, to announce
            self.earned = [
                entry["code"] for entry in self.keeper.achievements() if entry["game_id"] == self.id
            ]
        return played

    def undo(self) -> Move:
        """Take back the last move shown here (the store refuses it in the dungeon of the
        day, and if another window moved meanwhile)."""
        after, undos = self.position
        self.stored, _ = self.keeper.store.undo(
            self.id, self.keeper.player, after=after, undos=undos
        )
        return self.game.undo()

    def count_hint(self, at: tuple[int, int] | None = None) -> None:
        """Count a hint asked for at position ``at`` (by default the one shown)."""
        after, undos = self.position if at is None else at
        self.stored = self.keeper.store.count_hint(
            self.id, self.keeper.player, after=after, undos=undos
        )

    def refresh(self) -> bool:
        """Read the game again from the store: True if another window had changed it
        (this copy then shows it as it stands)."""
        stored = self.keeper.store.load(self.id)
        changed = (stored.moves, stored.undo_count, stored.status) != (
            self.stored.moves,
            self.stored.undo_count,
            self.stored.status,
        )
        if changed:
            self.game = self._replayed(stored)
        self.stored = stored
        return changed
