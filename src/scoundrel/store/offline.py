"""Games played offline in the browser, kept once they are sent.

Offline, the page plays with the same core run by Pyodide (``scoundrel.web.offline_table``):
a random dungeon dealt from a seed (M1) or the public dungeon of a day, the one every copy
of the program agrees on (M2, no server's secret). Back online the page sends each finished
game: its record, the deal it names, and the result it reached. Nothing of it is trusted:
the deck must be that deal's, every move is replayed through the core, and the result must
be the replay's. A game that passes is kept as the player's, marked offline: it joins their
records and history, never a leaderboard (a random dungeon never is; a day's dungeon played
offline is kept as an unranked ``archive`` game, as a past day's is), and the deck was on
the player's device, so it counts as a game with help for the achievements.
"""

from __future__ import annotations

import datetime as _dt
import secrets
from dataclasses import dataclass
from types import SimpleNamespace

from sqlalchemy import and_, select

from scoundrel.core import Record, ReplayError, Rules, daily_deal, format_cards, random_deal
from scoundrel.core.deal import parse_date

from .database import games, now
from .games import Conflict, GameStore, Mode, StoredGame, StoreError, options_text, row_to_game

#: How far a day's dungeon played offline may be ahead of the server's day: a device east
#: of UTC starts its day first.
AHEAD = _dt.timedelta(days=1)
#: The longest a game may be said to have been played before it is sent.
OLDEST = _dt.timedelta(days=366)


@dataclass(frozen=True)
class OfflineGame:
    """A game as the page sends it (see :mod:`scoundrel.web.routes.games`)."""

    key: str
    """The key the page made for it: sent again, it is the same game."""
    mode: str
    """``random`` (dealt from ``seed``) or ``daily`` (the public dungeon of ``date``)."""
    seed: int | None
    date: str | None
    record: Record
    status: str
    score: int
    undo_count: int
    started_at: _dt.datetime | None = None
    finished_at: _dt.datetime | None = None


def refuse(message: str, reason: str, **params: object) -> StoreError:
    return StoreError(message, reason=reason, params=params)


def illegal(problem: ReplayError) -> StoreError:
    """The refusal of a record with a move the core does not allow."""
    return refuse(str(problem), "offline_illegal", number=problem.position, move=problem.token)


def dealt(sent: OfflineGame, today: _dt.date) -> tuple[Mode, str | None]:
    """The mode it is kept as and its day, once its deck is found to be the deal it names."""
    rules = sent.record.rules
    if sent.mode == "random":
        if sent.seed is None:
            raise refuse("a random dungeon names its seed", "offline_no_deal")
        deck, mode, day = random_deal(rules, sent.seed), Mode.RANDOM, None
    elif sent.mode == "daily":
        if sent.date is None:
            raise refuse("a dungeon of the day names its day", "offline_no_deal")
        try:
            date = parse_date(sent.date)
        except ValueError as problem:
            raise refuse(str(problem), "offline_no_deal") from None
        if date > today + AHEAD:
            raise refuse(f"{date} has not come yet", "offline_future_day", date=date.isoformat())
        if rules != Rules.from_options(rules.ruleset):
            raise refuse(
                "the dungeon of the day is played with the standard options",
                "daily_standard_options",
            )
        deck, mode, day = daily_deal(rules, date), Mode.ARCHIVE, date.isoformat()
    else:
        raise refuse("an offline game is a random dungeon or a day's", "offline_no_deal")
    if sent.record.deck != deck:
        raise refuse("the record's deck is not the deal it names", "offline_not_dealt")
    return mode, day


def replayed(sent: OfflineGame) -> None:
    """Refuse a record whose moves the core does not allow, that is not over, or whose
    result is not the one it claims."""
    try:
        state = sent.record.start().replay(sent.record.moves)[-1]
    except ReplayError as problem:
        raise illegal(problem) from None
    if not state.is_over:
        raise refuse("an offline game is sent once it is over", "offline_not_over")
    if (state.status.value, state.score) != (sent.status, sent.score):
        raise refuse(
            f"the record ends {state.status.value} with {state.score}, "
            f"not {sent.status} with {sent.score}",
            "offline_result",
        )


def _when(stamp: _dt.datetime | None, floor: _dt.datetime, ceiling: _dt.datetime) -> _dt.datetime:
    """A time the page gives, kept within what can be true (never after it was sent)."""
    if stamp is None:
        return ceiling
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=_dt.UTC)
    return min(max(stamp, floor), ceiling)


def keep(store: GameStore, player_id: str, sent: OfflineGame) -> tuple[StoredGame, bool]:
    """Check ``sent`` and keep it as ``player_id``'s game; returns it and whether it is new
    (a game sent again is the game kept the first time)."""
    existing = find(store, player_id, sent.key)
    record = sent.record
    if existing is not None:
        if existing.record == record:
            return existing, False
        raise Conflict("another game was sent with this key", reason="offline_key_used")
    mode, day = dealt(sent, store.today())
    replayed(sent)
    if sent.undo_count and mode != Mode.RANDOM:
        raise StoreError("the dungeon of the day has no undo", reason="no_undo_daily")
    stamp = now()
    finished = _when(sent.finished_at, stamp - OLDEST, stamp)
    started = _when(sent.started_at, stamp - OLDEST, finished)
    values: dict[str, object] = {
        "id": secrets.token_urlsafe(12),
        "player_id": player_id,
        "mode": mode,
        "daily_date": day,
        "ruleset": record.rules.ruleset,
        "options": options_text(record.rules),
        "deck": format_cards(record.deck),
        "moves": " ".join(move.token for move in record.moves),
        "move_count": len(record.moves),
        "status": sent.status,
        "score": sent.score,
        "undo_count": sent.undo_count,
        "hint_count": 0,
        "created_at": started,
        "updated_at": stamp,
        "finished_at": finished,
        "invite": None,
        "client": None,
        "pending": None,
        "loaded": False,
        "offline_key": sent.key,
    }
    store.make_player(player_id)
    try:
        with store.engine.begin() as connection:
            connection.execute(games.insert().values(**values))
    except Exception:
        again = find(store, player_id, sent.key)  # a second copy raced this one
        if again is not None and again.record == record:
            return again, False
        raise
    kept = row_to_game(SimpleNamespace(**values))
    store.keep_awards(kept)
    return kept, True


def find(store: GameStore, player_id: str, key: str) -> StoredGame | None:
    """The player's game sent from offline with ``key``, if it was kept."""
    with store.engine.connect() as connection:
        row = connection.execute(
            select(games).where(and_(games.c.player_id == player_id, games.c.offline_key == key))
        ).first()
    return None if row is None else row_to_game(row)
