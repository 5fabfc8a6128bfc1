"""Games kept in the database: each game is its record (N3), extended move by move.

The store asks the rules core for everything: it replays a record into a :class:`State`,
applies a move with the core, and writes the longer record back in one transaction that
only succeeds if nobody else moved first (compare-and-set on the move count).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import enum
import functools
import json
import logging
import re
import secrets
import sqlite3
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from sqlalchemy import (
    Engine,
    and_,
    bindparam,
    false,
    func,
    insert,
    literal_column,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.sqlite import DATETIME as SQLITE_DATETIME
from sqlalchemy.exc import DBAPIError, IntegrityError

from scoundrel.core import (
    Card,
    Move,
    Record,
    Rules,
    State,
    daily_deal,
    format_cards,
    parse_cards,
    parse_move,
    random_deal,
)

from .achievements import award
from .database import games, now, players, seats, settings


class Mode(enum.StrEnum):
    """Which dungeon a game is dealt from (M1, M2): a random one, the dungeon of the day,
    or a past day's, played unranked from the archive."""

    RANDOM = "random"
    DAILY = "daily"
    ARCHIVE = "archive"


log = logging.getLogger(__name__)


class GameStatus(enum.StrEnum):
    """Where a kept game stands: in play, won or lost (the core's results), or closed, an
    attempt at the dungeon of the day that its day ended before it did (see
    :meth:`GameStore.play`)."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    CLOSED = "closed"


MODES = tuple(Mode)
#: How a game that is no longer in play ended, by the rules.
FINISHED = (GameStatus.WON, GameStatus.LOST)
CLOSED = GameStatus.CLOSED


class _Own:
    """The store's own daily secret (see :meth:`GameStore.start`)."""


OWN_SECRET = _Own()
"""A random dungeon, the dungeon of the day (M2), and a past day's dungeon played again,
unranked (the archive)."""


def _compare_and_set(*columns: str) -> Any:
    """The compare-and-set ``UPDATE`` of a game's ``columns``: it changes the row only if
    the row is still in play, with the moves, undo count and given help card that were
    read."""
    return (
        update(games)
        .where(
            and_(
                games.c.id == bindparam("game_id"),
                games.c.status == literal_column("'playing'"),  # written in, not bound
                games.c.moves == bindparam("old_moves"),
                games.c.undo_count == bindparam("old_undo_count"),
                games.c.pending.is_not_distinct_from(bindparam("old_pending")),
            )
        )
        .values({name: bindparam(name) for name in columns})
    )


# Every move and undo, built once: a move that leaves the game in play changes only its
# moves (cheaper: an UPDATE that sets an indexed column, status, rewrites that index too).
_MOVE = _compare_and_set(
    "moves",
    "move_count",
    "status",
    "score",
    "undo_count",
    "updated_at",
    "finished_at",
    "pending",
)
_STEP_CHANGES = frozenset({"moves", "move_count", "updated_at", "pending"})
_STEP = _compare_and_set(*sorted(_STEP_CHANGES))


class _Direct:
    """A statement SQLAlchemy compiles once for a SQLite engine, then run straight through
    the driver on a connection of the calling thread's own, in autocommit: the statement
    is its own transaction.

    A move's compare-and-set write is most of what the store does per move. Through
    SQLAlchemy's execute it cost about four times the driver's own work (56 against 15 µs
    in a loop); through a connection checked out of the pool and back for each statement,
    about twice (the checkout, the checkin's rollback, and a BEGIN and COMMIT of the
    driver's). The SQL and the conversion of each value are still SQLAlchemy's. A driver
    error comes out as SQLAlchemy's exception of the same name (``OperationalError``,
    ``IntegrityError``…), as it would from execute, and the thread's connection is made
    anew for the next statement."""

    def __init__(self, statement: Any, engine: Engine, own: _Connections) -> None:
        compiled = statement.compile(dialect=engine.dialect)
        self.own = own
        self.sql = str(compiled)
        names = compiled.positiontup or ()
        dialect = engine.dialect
        self.names = list(names)  # each value's name, in the statement's order
        self.conversions = [  # where SQLAlchemy converts a value for this driver, and how
            (place, convert)
            for place, name in enumerate(names)
            if (convert := _processor(compiled.binds[name].type.dialect_impl(dialect), dialect))
        ]

    def run(self, params: dict[str, Any]) -> int:
        """Run the statement with ``params`` (committed by itself); how many rows it
        changed."""
        return int(self._cursor(params).rowcount)

    def first(self, params: dict[str, Any]) -> Any:
        """The first row the query finds with ``params`` (a tuple), or ``None``."""
        return self._cursor(params).fetchone()

    def _cursor(self, params: dict[str, Any]) -> sqlite3.Cursor:
        values = list(map(params.__getitem__, self.names))
        for place, convert in self.conversions:
            values[place] = convert(values[place])
        connection = self.own.get()
        try:
            return connection.execute(self.sql, values)
        except sqlite3.Error as failure:  # as SQLAlchemy's class of the same name
            self.own.drop()
            raise DBAPIError.instance(self.sql, values, failure, sqlite3.Error) from failure


#: SQLAlchemy's default text for a time on SQLite, which :func:`_sqlite_time` writes.
_SQLITE_TIME_FORMAT = SQLITE_DATETIME._storage_format


def _processor(kind: Any, dialect: Any) -> Any:
    """How a value of SQLAlchemy type ``kind`` is handed to the driver: SQLAlchemy's own
    conversion, but a time on SQLite is written by :func:`_sqlite_time` (SQLAlchemy fills a
    dictionary and formats it with ``%``: a tenth of a move's write, done twice a move)."""
    convert = kind.bind_processor(dialect)
    if not (isinstance(kind, SQLITE_DATETIME) and kind._storage_format == _SQLITE_TIME_FORMAT):
        return convert

    def moment(value: Any) -> Any:
        return _sqlite_time(value) if type(value) is _dt.datetime else convert(value)

    return moment


def _sqlite_time(value: _dt.datetime) -> str:
    """A time as SQLAlchemy's default format keeps it on SQLite, ``YYYY-MM-DD
    HH:MM:SS.ffffff``, without its zone."""
    return value.isoformat(" ", "microseconds")[:26]


class _Connections(threading.local):
    """Each thread's own driver connection to a SQLite engine's database, taken from the
    engine once (so with its settings: the wait for a lock, WAL, foreign keys) and kept
    out of its pool, in autocommit."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.connection: sqlite3.Connection | None = None

    def get(self) -> sqlite3.Connection:
        connection = self.connection
        if connection is None:
            pooled = self.engine.raw_connection()
            connection = pooled.driver_connection
            pooled.detach()  # ours from now on: never handed to anybody else
            assert isinstance(connection, sqlite3.Connection)
            connection.isolation_level = None
            self.connection = connection
        return connection

    def drop(self) -> None:
        """Close this thread's connection (after a failure); the next statement opens
        another."""
        connection, self.connection = self.connection, None
        if connection is not None:
            with contextlib.suppress(sqlite3.Error):
                connection.close()


# A new game's row, built once.
_START = insert(games)
# Whether a player's row exists, and a new one: once per player, on their first write.
_PLAYER = select(players.c.id).where(players.c.id == bindparam("player_id"))
_NEW_PLAYER = insert(players)
# One game by its id, built once (a statement built per call costs its cache key each time).
_LOAD = select(games).where(games.c.id == bindparam("game_id"))
# A player's game in play that moved last (an online table is found as a table), built once.
_CURRENT = (
    select(games)
    .where(
        and_(
            games.c.player_id == bindparam("player_id"),
            games.c.status == GameStatus.PLAYING,
            games.c.invite.is_(None),
            or_(games.c.mode != Mode.DAILY, games.c.daily_date >= bindparam("today")),
        )
    )
    .order_by(games.c.updated_at.desc())
    .limit(1)
)
AT_A_TABLE = "this game is played at an online table, by turns: act through the table"
STALE = "the game has moved on since this position was shown: reload it"
CHANGED = "the game changed meanwhile (another tab?): reload it"
DAY_OVER = (
    "the day of this dungeon is over (at midnight): the attempt was closed as it stood, "
    "unranked; a new game awaits"
)
NICKNAME = re.compile(r"^[\w .'-]{1,24}$", re.UNICODE)


class ErrorKind(enum.StrEnum):
    """The kinds of request the store refuses; an interface chooses how to say each (the
    web API maps them to HTTP statuses in ``web/errors.py``)."""

    INVALID = "invalid"
    """The request cannot be carried out as asked (bad input, a rule of the store)."""
    NOT_FOUND = "not_found"
    FORBIDDEN = "forbidden"
    """It exists, but this player may not do that to it."""
    CONFLICT = "conflict"
    """It changed meanwhile (another tab, the other seat, midnight)."""


class StoreError(Exception):
    """A request the store refuses: its ``kind`` (:class:`ErrorKind`) and ``code``, a
    stable name (a subclass's name in snake case: ``NotFound``, ``not_found``)."""

    kind = ErrorKind.INVALID
    code = "invalid_request"

    def __init_subclass__(cls, **options: Any) -> None:
        super().__init_subclass__(**options)
        if "code" not in cls.__dict__:
            cls.code = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()

    def __init__(
        self,
        message: str,
        reason: str | None = None,
        params: dict[str, Any] | None = None,
        **details: Any,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason
        """Which refusal this is, where the class alone does not say (a stable name for a
        message catalog: ``stale_position``, ``no_undo_daily``…)."""
        self.params = params or {}
        """The values a translation of the message needs."""
        self.details = details
        """What an API adds to the error beside its code and message (say, a table id)."""


class NotFound(StoreError):
    kind = ErrorKind.NOT_FOUND


class Forbidden(StoreError):
    kind = ErrorKind.FORBIDDEN


class Conflict(StoreError):
    kind = ErrorKind.CONFLICT


@dataclass(frozen=True)
class StoredGame:
    id: str
    player_id: str
    mode: Mode
    daily_date: str | None
    rules: Rules
    deck: str
    moves: tuple[str, ...]
    status: GameStatus
    score: int | None
    undo_count: int
    hint_count: int
    """How many hints its player asked for (a hinted game is marked, like an undone one)."""
    created_at: _dt.datetime
    updated_at: _dt.datetime
    finished_at: _dt.datetime | None
    invite: str | None = None
    """An online co-op game's invite secret (None for every other game)."""
    pending: str | None = None
    """Online co-op: the monster the leader gave as the help card (C5), waiting for the
    partner to choose weapon or bare hands."""
    loaded: bool = False
    """Brought from a record file rather than dealt here: listed, never in the records."""
    offline_key: str | None = None
    """Played offline in the browser, then sent and checked (:mod:`.offline`): the key its
    page made for it."""

    def but(self, **changes: Any) -> StoredGame:
        """This game with ``changes`` made: :func:`dataclasses.replace`, without its
        check of every field (a fifth of its cost: it is done once a move)."""
        if not changes.keys() <= self.__dict__.keys():
            raise TypeError(f"a stored game has no field {sorted(changes - self.__dict__.keys())}")
        copy = object.__new__(StoredGame)
        values = copy.__dict__
        values.update(self.__dict__)
        values.update(changes)
        return copy

    @property
    def online(self) -> bool:
        """Played on two devices, each hero's seat held by one player."""
        return self.invite is not None

    @property
    def offline(self) -> bool:
        """Played offline in the browser, its deck on the player's device: never ranked."""
        return self.offline_key is not None

    @property
    def record(self) -> Record:
        return Record(self.rules, _deck(self.deck), tuple(parse_move(m) for m in self.moves))

    @property
    def is_over(self) -> bool:
        return self.status != GameStatus.PLAYING

    @property
    def closed(self) -> bool:
        """An attempt at the dungeon of the day that its day ended before it did."""
        return self.status == CLOSED

    def past_day(self, today: _dt.date) -> bool:
        """Whether this is an attempt in play at the dungeon of a day before ``today``: it
        may not go on (see :meth:`GameStore.play`)."""
        return (
            self.mode == Mode.DAILY
            and self.status == GameStatus.PLAYING
            and (self.daily_date or "") < today.isoformat()
        )

    def revealed(self, today: _dt.date) -> bool:
        """Whether the record, with its deck, may be shown: once the game is over, and for
        the dungeon of the day only once the day is over (M2: nobody may learn the day's
        deck from a finished attempt and then play it knowingly)."""
        if not self.is_over:
            return False
        return self.mode != Mode.DAILY or (self.daily_date or "") < today.isoformat()


#: A stored deck's cards: read once for each game in play (its record is read again when
#: it ends, for its run).
_deck = functools.lru_cache(maxsize=4096)(parse_cards)


@functools.lru_cache(maxsize=256)
def _rules(ruleset: str, options: str) -> Rules:
    """A row's rules (few distinct ones: each is read once, Rules being immutable)."""
    return Rules.from_options(ruleset, json.loads(options))


@functools.lru_cache(maxsize=256)
def options_text(rules: Rules) -> str:
    """A game's options as its row keeps them (JSON), made once for each set of rules."""
    return json.dumps(rules.options)


def row_to_game(row: Any) -> StoredGame:
    return StoredGame(
        id=row.id,
        player_id=row.player_id,
        mode=Mode(row.mode),
        daily_date=row.daily_date,
        rules=_rules(row.ruleset, row.options),
        deck=row.deck,
        moves=tuple(row.moves.split()),
        status=GameStatus(row.status),
        score=row.score,
        undo_count=row.undo_count,
        hint_count=row.hint_count,
        created_at=row.created_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
        invite=row.invite,
        pending=row.pending,
        loaded=bool(row.loaded),
        offline_key=row.offline_key,
    )


def seen(stored: StoredGame, after: int | None, undos: int | None) -> bool:
    """Whether ``stored`` stands where a player saw it: ``after`` moves and ``undos``
    undos into the game (a count left out is not checked)."""
    return (after is None or after == len(stored.moves)) and (
        undos is None or undos == stored.undo_count
    )


def _theirs(player_id: str) -> Any:
    """Games a player plays: their own, and online co-op games where they hold a seat."""
    joined = select(seats.c.game_id).where(seats.c.player_id == player_id)
    return or_(games.c.player_id == player_id, games.c.id.in_(joined))


def keep_newest(cache: OrderedDict[Any, Any], key: Any, value: Any, size: int) -> None:
    """Remember ``value`` as the newest entry of a cache that keeps the ``size`` newest."""
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > size:
        cache.popitem(last=False)


class GameStore:
    """Players, their games, their records and the daily leaderboard."""

    def __init__(
        self,
        engine: Engine,
        daily_secret: str | None = None,
        cache: int = 2048,
        today: Callable[[], _dt.date] | None = None,
    ) -> None:
        self.engine = engine
        self.today: Callable[[], _dt.date] = today or (lambda: now().date())
        """The day it is, for the dungeon of the day: UTC by default (a server's day); the
        terminal's is the local day; tests move it on."""
        # M2: the server mixes its own secret into the daily deal; one is made and kept in
        # the database the first time, so the day's dungeon survives restarts.
        self.daily_secret = daily_secret or self.setting("daily_secret", secrets.token_hex(16))
        self._states: OrderedDict[str, tuple[tuple[str, ...], State]] = OrderedDict()
        self._cache_size = cache
        self._lock = threading.Lock()
        self._known_players: OrderedDict[str, None] = OrderedDict()
        self._games: OrderedDict[str, StoredGame] = OrderedDict()
        # A move is one compare-and-set UPDATE, atomic by itself: on PostgreSQL it is sent
        # alone (autocommit), one round trip instead of BEGIN, UPDATE and COMMIT. (SQLite
        # commits locally, and its driver makes autocommit dearer, so it keeps transactions.)
        self._one_statement = (
            engine.execution_options(isolation_level="AUTOCOMMIT")
            if engine.dialect.name == "postgresql"
            else engine
        )
        # On SQLite a move's write goes straight to the driver (see _Direct).
        self._direct: dict[int, _Direct] = {}
        if engine.dialect.name == "sqlite":
            own = _Connections(engine)
            self._direct = {
                id(each): _Direct(each, engine, own)
                for each in (_MOVE, _STEP, _START, _PLAYER, _NEW_PLAYER)
            }

    def setting(self, key: str, default: str) -> str:
        """The stored setting ``key``, made ``default`` the first time it is asked for."""
        with self.engine.begin() as connection:
            value = connection.execute(
                select(settings.c.value).where(settings.c.key == key)
            ).scalar_one_or_none()
        if value is None:
            try:
                with self.engine.begin() as connection:
                    connection.execute(insert(settings).values(key=key, value=default))
                value = default
            except IntegrityError:  # another process made it first: use theirs
                with self.engine.connect() as connection:
                    value = connection.execute(
                        select(settings.c.value).where(settings.c.key == key)
                    ).scalar_one()
        return str(value)

    # ------------------------------------------------------------------ players

    def ensure_player(self, player_id: str | None) -> str:
        """The player with this id, created if unknown; a new id if ``None`` or malformed."""
        if player_id:
            if player_id in self._known_players:
                return player_id
            try:
                player_id = str(uuid.UUID(player_id))
            except ValueError:
                player_id = None
        if player_id is not None and self.has_player(player_id):
            return player_id
        player_id = player_id or str(uuid.uuid4())
        self.make_player(player_id)
        return player_id

    def has_player(self, player_id: str) -> bool:
        """Whether the player's row exists (remembered once seen)."""
        if player_id in self._known_players:
            return True
        found = self._first(_PLAYER, {"player_id": player_id})
        if found is not None:
            self._know(player_id)
        return found is not None

    def make_player(self, player_id: str) -> bool:
        """Make the player's row; whether this call made it (a parallel request may have
        made it first)."""
        values = {"id": player_id, "nickname": None, "created_at": now()}
        try:
            self._run(_NEW_PLAYER, values)
        except IntegrityError:
            self._know(player_id)
            return False
        self._know(player_id)
        return True

    def _run(self, statement: Any, params: dict[str, Any]) -> int:
        """Run one statement, committed by itself: on SQLite straight through the driver
        (see :class:`_Direct`), elsewhere alone (autocommit on PostgreSQL); how many rows it
        changed."""
        direct = self._direct.get(id(statement))
        if direct is not None:
            return direct.run(params)
        with self._one_statement.begin() as connection:
            return int(connection.execute(statement, params).rowcount)

    def _first(self, statement: Any, params: dict[str, Any]) -> Any:
        """The first row a query finds, or ``None`` (read as :meth:`_run` writes)."""
        direct = self._direct.get(id(statement))
        if direct is not None:
            return direct.first(params)
        with self.engine.connect() as connection:
            return connection.execute(statement, params).first()

    def _know(self, player_id: str) -> None:
        with self._lock:
            keep_newest(self._known_players, player_id, None, 100_000)

    def nickname(self, player_id: str) -> str | None:
        with self.engine.connect() as connection:
            return connection.execute(
                select(players.c.nickname).where(players.c.id == player_id)
            ).scalar_one_or_none()

    def set_nickname(self, player_id: str, nickname: str) -> str:
        name = " ".join(nickname.split())
        if not NICKNAME.match(name):
            raise StoreError(
                "a nickname has 1 to 24 letters, digits, spaces or . ' - _ characters",
                reason="nickname_invalid",
            )
        with self.engine.begin() as connection:
            connection.execute(
                update(players).where(players.c.id == player_id).values(nickname=name)
            )
        return name

    # ------------------------------------------------------------------ games

    def start(
        self,
        player_id: str,
        mode: str,
        rules: Rules,
        today: _dt.date | None = None,
        online: bool = False,
        client: str | None = None,
        day: _dt.date | None = None,
        secret: str | _Own | None = OWN_SECRET,
        deck: tuple[Card, ...] | None = None,
        loaded: bool = False,
    ) -> StoredGame:
        """A new game, or for the dungeon of the day the player's attempt if it exists.
        An ``archive`` game deals the dungeon of ``day``, a day before ``today``: it is
        played unranked (never on a leaderboard), as often as the player likes.

        ``online`` opens a co-op table for two devices: the player takes hero 1's seat and
        the game gets an invite secret for the friend who will take hero 2's. ``client`` is
        kept with a daily attempt: a keyed hash of the client's address (never the address).

        ``secret`` deals the day's dungeon with another secret than the store's own: the
        terminal game deals the public dungeon of the day (``None``), the one every copy of
        the program agrees on (M2). Such attempts are kept but never enter this store's
        leaderboard, which ranks only its own deal. ``deck`` deals a random dungeon from a
        seed or a record the player brings (the terminal's ``--seed`` and ``--load``);
        ``loaded`` marks the latter, a game whose first moves were not played here: it is
        listed in the history but never counts toward the records (:meth:`stats`)."""
        if deck is not None and mode != Mode.RANDOM:
            raise StoreError(
                "only a random dungeon is dealt from a given deck", reason="unknown_mode"
            )
        if mode not in MODES:
            raise StoreError(
                f"mode must be random, daily or archive, not {mode!r}", reason="unknown_mode"
            )
        mode = Mode(mode)
        if online and (mode != Mode.RANDOM or not rules.coop_game):
            raise StoreError(
                "a game with a friend on another device is a co-op game in a random dungeon",
                reason="online_needs_coop",
            )
        stamp = now()
        if mode in (Mode.DAILY, Mode.ARCHIVE) and rules != Rules.from_options(rules.ruleset):
            raise StoreError(
                "the dungeon of the day is played with the standard options",
                reason="daily_standard_options",
            )
        if mode == Mode.ARCHIVE:
            latest = (today or stamp.date()) - _dt.timedelta(days=1)
            if day is None or day > latest:
                raise StoreError(
                    "the archive holds the days before today: name one as YYYY-MM-DD",
                    reason="archive_past_only",
                )
            date: str | None = day.isoformat()
            deck = daily_deal(rules, day, self._secret(secret))
        elif mode == Mode.DAILY:
            date = (today or stamp.date()).isoformat()
            deck = daily_deal(rules, date, self._secret(secret))
            existing = self.daily_attempt(player_id, date, rules.ruleset)
            if existing is not None:
                if existing.deck != format_cards(deck):
                    raise Conflict(
                        "this player's dungeon of that day was dealt with another secret",
                        reason="daily_other_deal",
                    )
                return existing
        else:
            date = None
            deck = deck or random_deal(rules)
        game_id = secrets.token_urlsafe(12)
        state = State.new(rules, deck)
        values = {
            "id": game_id,
            "player_id": player_id,
            "mode": mode,
            "daily_date": date,
            "ruleset": rules.ruleset,
            "options": options_text(rules),
            "deck": format_cards(deck),
            "moves": "",
            "move_count": 0,
            "status": state.status.value,
            "score": None,
            "undo_count": 0,
            "hint_count": 0,
            "created_at": stamp,
            "updated_at": stamp,
            "finished_at": None,
            "invite": secrets.token_urlsafe(16) if online else None,
            "client": client if mode == Mode.DAILY else None,
            "pending": None,
            "loaded": loaded,
            "offline_key": None,
        }
        try:
            if not online:
                self._run(_START, values)
            else:
                with self.engine.begin() as connection:
                    connection.execute(_START, values)
                    if online:
                        connection.execute(
                            insert(seats).values(
                                game_id=game_id, hero=1, player_id=player_id, joined_at=stamp
                            )
                        )
        except IntegrityError:
            if mode == Mode.DAILY:  # a second request raced us to the day's attempt
                existing = self.daily_attempt(player_id, date or "", rules.ruleset)
                if existing is not None:
                    return existing
            raise
        self._remember(game_id, (), state)
        return self._keep(row_to_game(SimpleNamespace(**values)))

    def _secret(self, secret: str | _Own | None) -> str | None:
        return self.daily_secret if isinstance(secret, _Own) else secret

    def daily_streak(self, player_id: str, ruleset: str, today: _dt.date) -> dict[str, Any]:
        """The player's days at the dungeon of the day (``ruleset``), finished: ``streak``,
        the run of consecutive days up to today (or up to yesterday while today's is still
        to play), ``best_streak``, the longest run, ``played`` and ``best``, the best score."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(games.c.daily_date, games.c.score).where(
                    and_(
                        games.c.player_id == player_id,
                        games.c.mode == Mode.DAILY,
                        games.c.ruleset == ruleset,
                        games.c.status.in_(FINISHED),
                    )
                )
            ).all()
        played = {_dt.date.fromisoformat(row.daily_date) for row in rows}
        days = sorted(played)
        best_streak = run = 0
        for before, day in zip([None, *days], days, strict=False):
            run = run + 1 if before is not None and (day - before).days == 1 else 1
            best_streak = max(best_streak, run)
        streak = 0
        day = today if today in played else today - _dt.timedelta(days=1)
        while day in played:
            streak += 1
            day -= _dt.timedelta(days=1)
        return {
            "streak": streak,
            "best_streak": best_streak,
            "played": len(days),
            "best": max((row.score for row in rows), default=None),
        }

    def daily_attempt(self, player_id: str, date: str, ruleset: str) -> StoredGame | None:
        """The player's attempt at the dungeon of ``date``, if any (M2: one per day)."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(games).where(
                    and_(
                        games.c.player_id == player_id,
                        games.c.mode == Mode.DAILY,
                        games.c.daily_date == date,
                        games.c.ruleset == ruleset,
                    )
                )
            ).first()
        return None if row is None else self._dated(row_to_game(row))

    def load(self, game_id: str) -> StoredGame:
        """The game as the database has it now (an attempt at a day that is over: closed)."""
        with self.engine.connect() as connection:
            row = connection.execute(_LOAD, {"game_id": game_id}).first()
        if row is None:
            raise NotFound(f"there is no game {game_id!r}", reason="no_such_game")
        return self._keep(self._dated(row_to_game(row)))

    def _dated(self, stored: StoredGame) -> StoredGame:
        """``stored``, closed first if it is an attempt at the dungeon of a day that is
        over: such an attempt never goes on (see :meth:`play`)."""
        if stored.mode != Mode.DAILY or not stored.past_day(self.today()):
            return stored
        stamp = now()
        with self.engine.begin() as connection:
            connection.execute(
                update(games)
                .where(and_(games.c.id == stored.id, games.c.status == GameStatus.PLAYING))
                .values(status=CLOSED, updated_at=stamp, finished_at=stamp)
            )
            row = connection.execute(_LOAD, {"game_id": stored.id}).first()
        return row_to_game(row)

    def _keep(self, stored: StoredGame) -> StoredGame:
        with self._lock:
            keep_newest(self._games, stored.id, stored, self._cache_size)
        return stored

    def owned(self, game_id: str, player_id: str, fresh: bool = True) -> StoredGame:
        """A game of this player; anybody else's game is reported as not found. With
        ``fresh=False`` the copy this store last wrote or read may serve: a write made from
        it only succeeds if the database still holds the same moves."""
        stored = None if fresh else self._games.get(game_id)
        if stored is None or stored.player_id != player_id:  # ours may predate a transfer
            stored = self.load(game_id)
        if stored.player_id != player_id:
            raise NotFound(f"there is no game {game_id!r}", reason="no_such_game")
        return stored

    def state(self, stored: StoredGame) -> State:
        """The current state of a stored game (replayed once, then cached: the position
        each game reached last)."""
        with self._lock:
            kept = self._states.get(stored.id)
            if kept is not None and kept[0] == stored.moves:
                self._states.move_to_end(stored.id)
                return kept[1]
        state = State.new(stored.rules, _deck(stored.deck)).replay(stored.moves)[-1]
        self._remember(stored.id, stored.moves, state)
        return state

    def _remember(self, game_id: str, moves: tuple[str, ...], state: State) -> None:
        with self._lock:
            keep_newest(self._states, game_id, (moves, state), self._cache_size)

    def play(
        self,
        game_id: str,
        player_id: str,
        move: Move | str,
        after: int | None = None,
        seated: bool = False,
        undos: int | None = None,
    ) -> tuple[StoredGame, State]:
        """Apply one move for its owner: the core checks it (NotationError,
        IllegalMoveError), the database keeps it.

        ``after`` is how many moves the player had seen when choosing this one, and
        ``undos`` how many undos (see :meth:`_as_seen`): if the game has moved on since
        (another tab, another terminal), the move is refused with Conflict rather than
        applied to a position the player never saw. A write that loses a race is refused
        the same way. An online table's moves come through its seats (``seated``, see
        :class:`~scoundrel.store.tables.Tables`), never from its owner alone."""
        if isinstance(move, str):
            move = parse_move(move)
        stored = self.owned(game_id, player_id, fresh=False)
        if stored.online and not seated:
            raise Conflict(AT_A_TABLE, reason="at_a_table")
        self.still_today(stored)
        stored = self._as_seen(stored, after, undos)
        game_id = stored.id
        state = self.state(stored).apply(move)
        moves = (*stored.moves, move.token)
        stamp = now()
        status = state.status.value
        score = state.score
        finished = stamp if state.is_over else None
        values: dict[str, Any] = {
            "moves": " ".join(moves),
            "move_count": len(moves),
            "updated_at": stamp,
        }
        if state.is_over:
            values.update(status=status, score=score, finished_at=finished)
        self._write(stored, values)
        played = stored.but(
            moves=moves,
            status=status,
            score=score,
            updated_at=stamp,
            finished_at=finished,
            pending=None,  # a given monster is fought by this move
        )
        self._remember(game_id, moves, state)
        if state.is_over:
            self.keep_awards(played)
        return self._keep(played), state

    def keep_awards(self, game: StoredGame) -> None:
        """Keep what the game just over earned (:mod:`.achievements`). The move is kept
        already: a failure here is logged, and loses nothing of the game."""
        try:
            award(self, game)
        except Exception:  # pragma: no cover - the database went away between two writes
            log.exception("could not keep the achievements of game %s", game.id)

    def still_today(self, stored: StoredGame) -> None:
        """Refuse to go on with an attempt at the dungeon of a day that is over (closing
        it, if nobody has yet): whoever finished that day's dungeon may show its deck now,
        and the leaderboard of a day ranks only what was played that day."""
        if stored.mode != Mode.DAILY:
            return
        if stored.closed or stored.past_day(self.today()):
            with self._lock:
                self._games.pop(stored.id, None)
            self._dated(stored)
            raise Conflict(DAY_OVER, reason="daily_closed")

    def _as_seen(self, stored: StoredGame, after: int | None, undos: int | None) -> StoredGame:
        """``stored`` if it is the position a player saw, ``after`` moves and ``undos``
        undos into the game (either may be left out), read again from the database if our
        copy differs; else Conflict (``stale_position``).

        Both counts are needed: every move adds one to the first and every undo takes one
        from it and adds one to the second, so together they name one point of the game's
        history, where the move count alone would take a position after an undo and
        another move for the one the player saw."""
        if not seen(stored, after, undos):
            stored = self.owned(stored.id, stored.player_id)  # ours may be another's past
            if not seen(stored, after, undos):
                raise Conflict(STALE, reason="stale_position")
        return stored

    def undo(
        self,
        game_id: str,
        player_id: str,
        after: int | None = None,
        undos: int | None = None,
    ) -> tuple[StoredGame, State]:
        """Take back the last move of a random dungeon (the game is marked as undone).

        ``after`` and ``undos`` say which position the player saw, as for :meth:`play`: an
        undo asked for from an older position is refused (``stale_position``), so that no
        window takes back a move its player never saw."""
        stored = self._as_seen(self.owned(game_id, player_id), after, undos)
        if stored.online:
            raise Forbidden(
                "an online table has no undo: your partner has seen the move",
                reason="no_undo_online",
            )
        if stored.mode == Mode.DAILY:
            raise Forbidden("the dungeon of the day has no undo", reason="no_undo_daily")
        if not stored.moves:
            raise Conflict("there is no move to undo", reason="nothing_to_undo")
        if stored.is_over:
            raise Forbidden(
                "the game is over and its deck has been shown: start a new one",
                reason="no_undo_over",
            )
        moves = stored.moves[:-1]
        state = self.state(stored.but(moves=moves))  # the position before it
        self._write(
            stored,
            {
                "moves": " ".join(moves),
                "move_count": len(moves),
                "status": state.status.value,
                "score": state.score,
                "undo_count": stored.undo_count + 1,
                "updated_at": now(),
                "finished_at": None,
            },
        )
        return self.load(game_id), state

    def count_hint(
        self,
        game_id: str,
        player_id: str,
        after: int | None = None,
        undos: int | None = None,
    ) -> StoredGame:
        """Count one more hint for the owner's game in play (Conflict once it is over).
        With ``after`` and ``undos`` (as for :meth:`play`) the hint is counted only if the
        game still stands where the player asked for it (else ``stale_position``)."""
        stored = self.owned(game_id, player_id, fresh=False)
        self.still_today(stored)
        stored = self._as_seen(stored, after, undos)
        where = [games.c.id == stored.id, games.c.status == GameStatus.PLAYING]
        if after is not None:
            where.append(games.c.move_count == after)
        if undos is not None:
            where.append(games.c.undo_count == undos)
        with self.engine.begin() as connection:
            result = connection.execute(
                update(games).where(and_(*where)).values(hint_count=games.c.hint_count + 1)
            )
        if result.rowcount != 1:
            fresh = self.load(game_id)
            if fresh.closed:
                raise Conflict(DAY_OVER, reason="daily_closed")
            if fresh.is_over:
                raise Conflict("the game is over: no more hints", reason="hints_over")
            raise Conflict(STALE, reason="stale_position")
        return self.load(game_id)

    def _write(self, stored: StoredGame, values: dict[str, Any]) -> None:
        """Compare-and-set: write only if the database still holds exactly ``stored``'s
        moves, undo count and given help card (a count alone would be fooled by an undo
        and a new move)."""
        params = {
            "undo_count": stored.undo_count,
            "finished_at": None,
            "pending": None,
            **values,
            "game_id": stored.id,
            "old_moves": " ".join(stored.moves),
            "old_undo_count": stored.undo_count,
            "old_pending": stored.pending,
        }
        statement = _MOVE
        if values.keys() <= _STEP_CHANGES and stored.status == GameStatus.PLAYING:
            statement = _STEP  # still in play: only the moves change
        if self._run(statement, params) != 1:
            with self._lock:
                self._games.pop(stored.id, None)
            if stored.mode == Mode.DAILY and self.load(stored.id).closed:  # midnight, meanwhile
                raise Conflict(DAY_OVER, reason="daily_closed")
            raise Conflict(CHANGED, reason="changed_meanwhile")

    # ------------------------------------------------------------------ records

    def current(self, player_id: str) -> StoredGame | None:
        """The player's game in play that moved last, if any."""
        with self.engine.connect() as connection:
            row = connection.execute(
                _CURRENT, {"player_id": player_id, "today": self.today().isoformat()}
            ).first()
        return None if row is None else row_to_game(row)

    def history(self, player_id: str, limit: int = 50) -> list[StoredGame]:
        """The player's games, newest first: their own and the online co-op games they
        joined as the partner."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(games)
                .where(_theirs(player_id))
                .order_by(games.c.created_at.desc())
                .limit(limit)
            ).all()
        return [self._dated(row_to_game(row)) for row in rows]

    def stats(self, player_id: str) -> list[dict[str, Any]]:
        """Per mode and ruleset: games finished, wins, win rate, best score (also without
        undo or hints), current and longest winning streak, and a score histogram (buckets
        of 10). A game brought from a record file counts in none of them."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(
                    games.c.mode,
                    games.c.ruleset,
                    games.c.status,
                    games.c.score,
                    games.c.undo_count,
                    games.c.hint_count,
                )
                .where(
                    and_(
                        _theirs(player_id),
                        games.c.status.in_(FINISHED),
                        games.c.loaded == false(),
                    )
                )
                .order_by(games.c.finished_at)
            ).all()
        groups: dict[tuple[str, str], list[Any]] = {}
        for row in rows:
            groups.setdefault((row.mode, row.ruleset), []).append(row)
        result = []
        for (mode, ruleset), finished in sorted(groups.items()):
            wins = [row for row in finished if row.status == GameStatus.WON]
            streak = longest = 0
            for row in finished:
                streak = streak + 1 if row.status == GameStatus.WON else 0
                longest = max(longest, streak)
            histogram: dict[int, int] = {}
            for row in finished:
                bucket = (row.score // 10) * 10
                histogram[bucket] = histogram.get(bucket, 0) + 1
            result.append(
                {
                    "mode": mode,
                    "ruleset": ruleset,
                    "played": len(finished),
                    "won": len(wins),
                    "win_rate": len(wins) / len(finished),
                    "best": max(row.score for row in finished),
                    # the best score made alone: no move taken back, no hint asked for
                    "best_without_help": max(
                        (
                            row.score
                            for row in finished
                            if not row.undo_count and not row.hint_count
                        ),
                        default=None,
                    ),
                    "streak": streak,
                    "longest_streak": longest,
                    "histogram": [
                        {"from": bucket, "to": bucket + 9, "games": count}
                        for bucket, count in sorted(histogram.items())
                    ],
                }
            )
        return result

    def _ranked(self, date: str, ruleset: str) -> Any:
        """The condition of the day's ranked attempts: finished, at this store's own deal."""
        deck = format_cards(daily_deal(Rules.from_options(ruleset), date, self.daily_secret))
        return and_(
            games.c.mode == Mode.DAILY,
            games.c.daily_date == date,
            games.c.ruleset == ruleset,
            games.c.deck == deck,
            games.c.status.in_(FINISHED),
        )

    def standing(self, date: str, ruleset: str, score: int) -> dict[str, int | None]:
        """Where ``score`` stands among the day's finished ranked attempts (the
        leaderboard's): ``players`` who finished, and the ``percentile``: the share of the
        others whose score is lower, ties counting half, in per cent (None when nobody
        else finished)."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(
                    func.count(),
                    func.count().filter(games.c.score < score),
                    func.count().filter(games.c.score == score),
                ).where(self._ranked(date, ruleset))
            ).one()
        players, below, same = int(row[0]), int(row[1]), int(row[2])
        others = players - 1
        if others <= 0:
            return {"players": players, "percentile": None}
        ties = max(0, same - 1)  # the player's own score is one of them
        return {"players": players, "percentile": round(100 * (below + ties / 2) / others)}

    def leaderboard(
        self, date: str, ruleset: str, viewer: str | None = None, limit: int = 50
    ) -> list[dict[str, Any]]:
        """The finished attempts at the dungeon of ``date``, best score first; each score is
        the server's own, computed from its record; ``hints`` says how many hints the
        player asked for. Player ids stay private: ``you`` marks the viewer's own entry.
        Only this store's own deal of the day is ranked (see :meth:`start`'s ``secret``)."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(
                    games.c.score,
                    games.c.status,
                    games.c.move_count,
                    games.c.hint_count,
                    games.c.finished_at,
                    games.c.player_id,
                    players.c.nickname,
                )
                .join(players, players.c.id == games.c.player_id)
                .where(self._ranked(date, ruleset))
                .order_by(games.c.score.desc(), games.c.finished_at)
                .limit(limit)
            ).all()
        board = []
        for rank, row in enumerate(rows, start=1):
            board.append(
                {
                    "rank": rank,
                    "nickname": row.nickname,
                    "score": row.score,
                    "won": row.status == GameStatus.WON,
                    "moves": row.move_count,
                    "hints": row.hint_count,
                    "you": row.player_id == viewer,
                }
            )
        return board

    def partners(self, player_id: str, game_ids: list[str]) -> dict[str, str | None]:
        """For the player's online co-op games among ``game_ids``: the partner's nickname
        (None while unnamed); games without a partner are left out."""
        if not game_ids:
            return {}
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(seats.c.game_id, players.c.nickname)
                .join(players, players.c.id == seats.c.player_id)
                .where(and_(seats.c.game_id.in_(game_ids), seats.c.player_id != player_id))
            ).all()
        return {row.game_id: row.nickname for row in rows}

    def count_games(self) -> int:
        with self.engine.connect() as connection:
            return int(connection.execute(select(func.count()).select_from(games)).scalar_one())
