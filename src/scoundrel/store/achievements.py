"""Achievements: what a game (or a run of games) earned, decided by replaying its record
through the rules core, never taken from a client.

Each achievement has a code (its catalog key is ``ach.<code>`` and ``ach.<code>.how``), a
kind (``game``: decided by one game's record; ``record``: by the player's kept games) and
whether it is earned only **fairly**, in a game with no move taken back and no hint asked
for. A game brought from a record file (the terminal's ``--load``) earns nothing: its
first moves may have come from anywhere.

:func:`decide` is the whole judgement of one game: it replays the moves one by one through
:class:`~scoundrel.core.State` and looks at what each did (the card, the weapon, the
health before and after), as a player watching the table would.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select

from scoundrel.core import Kind, Move, Record, State, Status

from .database import achievements, aware, now, seats

if TYPE_CHECKING:
    from .games import GameStore, StoredGame


@dataclass(frozen=True)
class Achievement:
    code: str
    fair: bool
    """Earned only in a game with no undo and no hint."""
    kind: str = "game"
    """``game``: one game's record decides it; ``record``: the player's kept games."""


#: Every achievement, in the order they are shown (docs/playing.md lists them).
ACHIEVEMENTS: tuple[Achievement, ...] = (
    Achievement("first_win", fair=False),
    Achievement("clean_win", fair=True),
    Achievement("no_flee", fair=True),
    Achievement("last_breath", fair=True),
    Achievement("untouched", fair=True),
    Achievement("teetotal", fair=True),
    Achievement("giant_slayer", fair=True),
    Achievement("bare_king", fair=True),
    Achievement("long_stack", fair=True),
    Achievement("escape_artist", fair=True),
    Achievement("high_score", fair=True),
    Achievement("daily_win", fair=False),
    Achievement("relentless", fair=True),
    Achievement("frail", fair=True),
    Achievement("coop_win", fair=False),
    Achievement("coop_alone", fair=True),
    Achievement("coop_harder", fair=True),
    Achievement("coop_strong", fair=True),
    Achievement("generous", fair=False),
    Achievement("streak_3", fair=False, kind="record"),
    Achievement("streak_7", fair=False, kind="record"),
    Achievement("wins_10", fair=False, kind="record"),
)
BY_CODE = {achievement.code: achievement for achievement in ACHIEVEMENTS}

#: The thresholds the achievements name (their catalog texts say the same numbers).
HIGH_SCORE = 25
LONG_STACK = 7
ESCAPES = 7
GIVEN_ROOMS = 12
STRONG = 10
SMALL_WEAPON = 5


@dataclass(frozen=True)
class Step:
    """One move of a replayed game: the position before it, the move and the position
    after it."""

    before: State
    move: Move
    after: State


def steps(record: Record) -> Iterator[Step]:
    """The moves of ``record`` replayed through the core, one by one."""
    state = record.start()
    for move in record.moves:
        after = state.apply(move)
        yield Step(state, move, after)
        state = after


def decide(record: Record, fair: bool, daily: bool) -> set[str]:
    """The codes of the ``game`` achievements ``record`` earns; ``fair`` says the game had
    no undo and no hint, ``daily`` that it is a scored attempt at the dungeon of the day."""
    rules = record.rules
    coop = rules.coop_game
    earned: set[str] = set()
    fled = drunk = given = 0
    end = record.start()
    for step in steps(record):
        move, before, after = step.move, step.before, step.after
        end = after
        card = move.card
        if card is None:
            fled += 1
            continue
        hero = move.hero(before.leader) - 1
        alive = after.heroes[hero].health > 0
        given += move.help  # one help card a room at most (C5): the rooms it was given in
        if card.kind is Kind.POTION:
            drunk += 1
        elif card.is_monster and alive:
            weapon = before.heroes[hero].weapon
            if move.weapon and weapon is not None:
                if card.value == 14 and weapon.value <= SMALL_WEAPON:
                    earned.add("giant_slayer")
                if len(after.heroes[hero].stack) >= LONG_STACK:
                    earned.add("long_stack")
            elif card.rank == "K":
                earned.add("bare_king")
    if end.status is Status.WON:
        healths = [hero.health for hero in end.heroes]
        earned.add("first_win")
        if daily:
            earned.add("daily_win")
        if fled == 0:
            earned.add("no_flee")
        if fled >= ESCAPES:
            earned.add("escape_artist")
        if drunk == 0:
            earned.add("teetotal")
        if rules.flee == "never":
            earned.add("relentless")
        if rules.health <= 14:
            earned.add("frail")
        if not coop:
            if healths == [1]:
                earned.add("last_breath")
            if healths == [rules.health]:
                earned.add("untouched")
            if (end.score or 0) >= HIGH_SCORE:
                earned.add("high_score")
        else:
            earned.add("coop_win")
            if not given:
                earned.add("coop_alone")
            if rules.harder:
                earned.add("coop_harder")
            if min(healths) >= STRONG:
                earned.add("coop_strong")
        earned.add("clean_win")
    if given >= GIVEN_ROOMS:
        earned.add("generous")
    if not fair:
        earned = {code for code in earned if not BY_CODE[code].fair}
    return earned


# ---------------------------------------------------------------------- kept in the store


def award(store: GameStore, game: StoredGame) -> dict[str, list[str]]:
    """Decide what ``game``, just over, earned its players (its owner, or both seats of an
    online table) and keep what is new; returns each player's new codes. A game brought
    from a record file, or one its day closed, earns nothing."""
    if game.loaded or not game.is_over or game.status == "closed":
        return {}
    # played offline, the deck was on the player's device: a game with help
    fair = not game.undo_count and not game.hint_count and not game.offline
    codes = decide(game.record, fair, daily=game.mode == "daily")
    stamp = now()
    with store.engine.connect() as connection:
        sitting = connection.execute(
            select(seats.c.player_id).where(seats.c.game_id == game.id)
        ).all()
    news: dict[str, list[str]] = {}
    for player in [row.player_id for row in sitting] or [game.player_id]:
        earned = codes | _from_record(store, player, game)
        with store.engine.begin() as connection:
            had = {
                row.code
                for row in connection.execute(
                    select(achievements.c.code).where(achievements.c.player_id == player)
                ).all()
            }
            news[player] = [a.code for a in ACHIEVEMENTS if a.code in earned - had]
            for code in news[player]:
                connection.execute(
                    insert(achievements).values(
                        player_id=player, code=code, game_id=game.id, earned_at=stamp
                    )
                )
    return news


def _from_record(store: GameStore, player: str, game: StoredGame) -> set[str]:
    """The ``record`` achievements the player's kept games earn, now that ``game`` ended."""
    earned: set[str] = set()
    if game.mode == "daily":
        best = store.daily_streak(player, game.rules.ruleset, store.today())["best_streak"]
        earned |= {"streak_3"} if best >= 3 else set()
        earned |= {"streak_7"} if best >= 7 else set()
    if game.status == "won":
        wins = sum(group["won"] for group in store.stats(player))
        earned |= {"wins_10"} if wins >= 10 else set()
    return earned


def earned(store: GameStore, player: str) -> list[dict[str, Any]]:
    """The player's achievements, in the order of :data:`ACHIEVEMENTS`: code, when, and the
    game that earned it (if one did)."""
    with store.engine.connect() as connection:
        rows = connection.execute(
            select(achievements.c.code, achievements.c.game_id, achievements.c.earned_at).where(
                achievements.c.player_id == player
            )
        ).all()
    found = {row.code: row for row in rows}
    return [
        {
            "code": a.code,
            "game_id": found[a.code].game_id,
            "earned_at": aware(found[a.code].earned_at).isoformat(),
        }
        for a in ACHIEVEMENTS
        if a.code in found
    ]
