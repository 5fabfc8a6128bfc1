"""The room-by-room search the perfect-information solver runs, and the solo search.

It sees the whole dungeon (it is for analysis, never for play). The search goes room by
room: at the start of a room it tries every way of facing it (which card stays, in which
order the others are resolved, weapon or bare hands), keeps only the outcomes no other
outcome beats on health, weapon and reach, tries the most promising first, and flees last.
:class:`RoomSearch` is what the solo and the co-op search share;
:class:`SoloSearch` is the solo one, and :mod:`.coop_search` the co-op one.

Three things keep it small:

* **A bound.** Health can only come from the potions still to come (one per room and
  hero), and damage that no weapon can prevent will be taken. In strict play a weapon slays
  at most one monster of each value (its kills must fall strictly), so the second 9 meets
  the second-best weapon. ``health + potions - unavoidable damage`` caps the score from any
  position; a position whose cap is below what we look for is dropped.
* **Failures remembered.** For every room start reached, the heroes' states proven not to
  reach the target are kept; a later visit with no more health, weapon or reach is dropped.
* **Same-value cards are alike** (see :mod:`.model`), so 5♣ and 5♠ are one card to it.

With ``best`` it goes on after the first win (branch and bound: every later line must beat
the best so far), and if there is no win it looks for the least bad death instead.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, TypeVar

from ..core.flow import draw, flee
from ..core.kernel import (
    HIGHEST_VALUE,
    POTION_BASE,
    ROOM_SIZE,
    WEAPON_BASE,
    is_final,
    may_flee,
    next_leader,
    stays,
    to_resolve,
)
from .model import (
    FLEE_MOVE,
    Expansion,
    Heroes,
    Line,
    Position,
    dominates,
    healing,
    lost_score,
    monster_groups,
    unavoidable_damage,
    won_score,
)


class Cancelled(Exception):
    """The search was cancelled through its ``cancel`` callback."""


class Found(Exception):
    """A line reaching what was looked for, and no more is wanted (see
    :meth:`RoomSearch.found`)."""


#: The most health below zero a killing blow leaves a hero at: the strongest monster
#: (HIGHEST_VALUE) against a hero with 1 health.
DEEPEST = HIGHEST_VALUE - 1


class RoomSearch:
    """A search from a position for a line scoring at least ``target``: the first found
    (``first``), or the best. Subclasses give the bound (:meth:`upper`)."""

    #: How much a death's score can exceed the heroes' spare health (see :meth:`upper`).
    dead_slack = 0

    def __init__(
        self,
        position: Position,
        target: int,
        first: bool,
        cancel: Callable[[], bool] | None,
        progress: Callable[[int], None] | None,
    ) -> None:
        self.p = position
        self.strict = position.strict
        self.coop = position.coop
        self.most = position.most  # the heroes' full health (V2)
        self.relentless = position.relentless  # no flee (V1)
        self.heroes = 2 if position.coop else 1
        self.target = target
        self.first = first
        self.cancel = cancel
        self.progress = progress
        self.lost: dict[tuple[Any, ...], list[Heroes]] = {}
        self.nodes = 0
        self.path: list[Line] = []
        self.cards: dict[tuple[Any, ...], Info] = {}
        self.rooms: Kept[Ways] = Kept(_ROOMS_KEPT)
        self.dungeons: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.deaths = target <= 0
        self.dungeon_only = position.death_score == "dungeon-only"
        self.best: int | None = None
        self.best_line: Line = ()
        self.no_potions = (False,) * self.heroes
        self.ceiling = 10**6  # a score known to be the highest possible

    # ------------------------------------------------------------------ scores and bounds

    def info(self, key: tuple[Any, ...], cards: tuple[int, ...]) -> Info:
        """What the bound (and the co-op search's normal form of the heroes) needs to
        know about the cards left (``key`` names them)."""
        info = self.cards.get(key)
        if info is None:
            weapon_list: list[int] = []
            monster_list: list[int] = []
            potions: list[int] = []
            for card in cards:
                if card < WEAPON_BASE:
                    monster_list.append(card)
                elif card < POTION_BASE:
                    weapon_list.append(card - WEAPON_BASE)
                else:
                    potions.append(card - POTION_BASE)
            monster_list.sort(reverse=True)
            weapon_list.sort(reverse=True)
            potions.sort(reverse=True)
            damages: dict[Any, int] = {}
            reaches, faced, pair_damages = self.knows(key, monster_list, damages)
            info = Info(
                healing(potions, len(cards), self.heroes),
                potions[0] if potions else 0,
                tuple(monster_list),
                tuple(weapon_list),
                damages,
                reaches,
                monster_groups(monster_list),
                faced,
                pair_damages,
            )
            if len(self.cards) > _CARDS_KEPT:
                self.cards.clear()
            self.cards[key] = info
        return info

    def knows(
        self, key: tuple[Any, ...], monsters: list[int], damages: dict[Any, int]
    ) -> tuple[tuple[int, ...], Faced, dict[Any, int]]:
        """The parts of :class:`Info` only the co-op search needs: ``reaches``,
        ``faced`` and ``pair_damages`` (the solo search none of them)."""
        return (), (), damages

    def upper(self, info: Info, heroes: Heroes) -> int:
        """No line from here scores more than this."""
        raise NotImplementedError

    def poll(self) -> None:
        """Asked every :data:`POLL` + 1 nodes: stop when the caller cancels
        (:class:`Cancelled`), and tell the progress every :data:`_TELL` + 1 nodes."""
        if self.cancel is not None and self.cancel():
            raise Cancelled
        if self.progress is not None and not self.nodes & _TELL:
            self.progress(self.nodes)

    def found(self, score: int, line: Line) -> None:
        """A line from the position's room start reached ``score``: look for better, or
        stop (:class:`Found`) when the first is wanted or nothing scores more."""
        self.best = score
        self.best_line = tuple(m for part in self.path for m in part) + line
        self.target = score + 1
        if self.first or score >= self.ceiling:
            raise Found

    # ------------------------------------------------------------------ the search

    def run(self) -> None:
        p = self.p
        with collector_paused(), contextlib.suppress(Found):
            self.face(
                p.room, p.dungeon, p.fled, p.leader, p.heroes, p.taken, p.potions, p.help_used
            )

    def visit(
        self,
        room: tuple[int, ...],
        dungeon: tuple[int, ...],
        fled: bool,
        leader: int,
        heroes: Heroes,
        fleeable: bool,
    ) -> None:
        """A room start; ``fleeable``: whether it may be fled (the kernel's
        ``may_flee``, asked once by the caller for all the rooms it visits)."""
        self.nodes += 1
        if not self.nodes & POLL:
            self.poll()
        # the order of a room matters only while it can still be fled (S5, V1)
        key = (room if fleeable else tuple(sorted(room)), dungeon, fled, leader)
        lost = self.lost.get(key)
        if lost is not None:
            for known in lost:
                if dominates(known, heroes):
                    return
        if self.upper(self.info(key, room + dungeon), heroes) >= self.target:
            self.face(room, dungeon, fled, leader, heroes, 0, self.no_potions, False)
        if len(self.lost) > POSITIONS_KEPT:  # memory stays bounded on very long searches
            self.lost.clear()
            self.dungeons.clear()
        lost = self.lost.setdefault(key, [])
        lost[:] = [known for known in lost if not dominates(heroes, known)]
        lost.append(heroes)
        if len(lost) > _LOST_KEPT:  # forgetting a failure costs time, never correctness
            del lost[0]

    def ways(
        self,
        room: tuple[int, ...],
        taken: int,
        heroes: Heroes,
        leader: int,
        potions: tuple[bool, ...],
        help_used: bool,
        final: bool,
    ) -> Ways:
        """The ways through a room with ``taken`` of its cards resolved (:meth:`expand`),
        remembered."""
        n = to_resolve(len(room), taken, final)
        known = (tuple(sorted(room)), n, heroes, leader, potions, help_used)
        found = self.rooms.get(known) or self.rooms.recall(known)
        if found is None:
            found = self.expand(room, n, taken, heroes, leader, potions, help_used, final)
            self.rooms.keep(known, found)
        return found

    def expand(
        self,
        room: tuple[int, ...],
        n: int,
        taken: int,
        heroes: Heroes,
        leader: int,
        potions: tuple[bool, ...],
        help_used: bool,
        final: bool,
    ) -> Ways:
        """The ways to resolve ``n`` cards of a room (``taken`` already resolved) that are
        worth trying, best first, as ``(deaths, kept)``: ``kept`` for the final room as
        ``(score, heroes, line)``, else as ``(cards kept, heroes, line)`` with no outcome
        beaten by another that keeps the same cards; ``deaths`` the lines on which a hero
        dies, as ``(heroes, cards left in the room, line)``."""
        expansion = Expansion(self.strict, self.coop, self.deaths, self.most)
        expansion.run(room, n, heroes, leader, potions, help_used)
        kept: list[Way] = []
        if final:
            for key, line in expansion.outcomes.items():
                kept.append((won_score(key[1], expansion.last[key], self.most), key[1], line))
            kept.sort(key=lambda item: item[0], reverse=True)
            return expansion.deaths, kept
        for (rest, after), line in sorted(expansion.outcomes.items(), key=_promise, reverse=True):
            if not any(k[0] == rest and dominates(k[1], after) for k in kept):
                kept.append((rest, after, line))
        return expansion.deaths, kept

    def face(
        self,
        room: tuple[int, ...],
        dungeon: tuple[int, ...],
        fled: bool,
        leader: int,
        heroes: Heroes,
        taken: int,
        potions: tuple[bool, ...],
        help_used: bool,
    ) -> None:
        """Face a room with ``taken`` of its cards resolved, then go on from every way
        out of it (:meth:`onwards`), and flee it last."""
        final = is_final(len(dungeon))  # S4
        deaths, kept = self.ways(room, taken, heroes, leader, potions, help_used, final)
        for after, rest, line in deaths:
            score = lost_score(after, rest, dungeon, self.dungeon_only)
            if score >= self.target:
                self.found(score, line)
        if final:
            for score, _, line in kept:
                if score >= self.target:
                    self.found(score, line)
            return
        drawn, left = draw(stays(False), dungeon)  # S3, S6: the same after every way
        left = self.dungeons.setdefault(left, left)  # one copy of each dungeon in memory
        nexts = [(carry + drawn, left, after, line) for carry, after, line in kept]
        self.onwards(nexts, next_leader(leader, self.coop))  # C3
        if may_flee(taken, fled, len(dungeon), self.relentless):  # S5
            self.flee(room, dungeon, leader, heroes)

    def onwards(self, nexts: list[Next], leader: int) -> None:
        """Go on to the next room starts (all with the same dungeon left), in order."""
        if not nexts:
            return
        path = self.path
        fleeable = may_flee(0, False, len(nexts[0][1]), self.relentless)  # S5, all alike
        for nxt, left, after, line in nexts:
            path.append(line)
            self.visit(nxt, left, False, leader, after, fleeable)
            path.pop()

    def flee(
        self, room: tuple[int, ...], dungeon: tuple[int, ...], leader: int, heroes: Heroes
    ) -> None:
        """S5: the room goes under the dungeon, and the next one must be faced."""
        self.path.append((FLEE_MOVE,))
        room, left = flee(room, dungeon)
        fleeable = may_flee(0, True, len(left), self.relentless)  # S5: not twice in a row
        self.visit(room, self.dungeons.setdefault(left, left), True, leader, heroes, fleeable)
        self.path.pop()


class SoloSearch(RoomSearch):
    """The solo search (S1-S13)."""

    def __init__(
        self,
        position: Position,
        target: int,
        first: bool,
        cancel: Callable[[], bool] | None,
        progress: Callable[[int], None] | None,
    ) -> None:
        super().__init__(position, target, first, cancel, progress)
        if self.dungeon_only:
            # S13: a death scores only the dungeon's monsters, not those left in the room
            # (the killing blow's own room: at most ROOM_SIZE - 1 more of them)
            self.dead_slack = DEEPEST + (ROOM_SIZE - 1) * HIGHEST_VALUE

    def upper(self, info: Info, heroes: Heroes) -> int:
        """Health, plus the healing still possible, minus the damage no line avoids
        (S13): a win above full health scores the best potion left more, at most; a
        death scores its health less the monsters left, which that damage counts."""
        held = heroes[1:]
        damages = info.damages
        damage = damages.get(held)
        if damage is None:
            damage = damages[held] = unavoidable_damage(
                info.groups, info.weapons, held, self.strict
            )
        spare = heroes[0] + info.heal - damage
        if spare < 1:
            return min(0, spare + self.dead_slack)
        most = self.most
        return spare if spare < most else most + info.bonus


_V = TypeVar("_V")


class _Pause:
    """How many searches run in this process, and whether the cyclic collector was on
    before the first of them (see :func:`collector_paused`)."""

    lock = threading.Lock()
    searches = 0
    was_on = False


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while any search runs in this process.

    A search keeps millions of small objects in its tables (lists of ways out, failures
    remembered) and makes no reference cycles: every object it lets go is freed by its
    reference count as usual, but each full collection walks all the tables, again and
    again as they grow. Paused, a long co-op search takes about a quarter less time, with
    the same peak memory (measured in ``docs/performance.md``). Searches in several
    threads share the pause: the collector resumes when the last one ends, if it was on
    before the first began."""
    with _Pause.lock:
        if _Pause.searches == 0:
            _Pause.was_on = gc.isenabled()
            gc.disable()
        _Pause.searches += 1
    try:
        yield
    finally:
        with _Pause.lock:
            _Pause.searches -= 1
            if _Pause.searches == 0 and _Pause.was_on:
                gc.enable()


class Kept(dict[tuple[Any, ...], _V]):
    """A cache of at most twice ``size`` entries that forgets the least recently used
    ones: when it holds ``size``, what it holds becomes its old half (the old half before
    is forgotten), and an old entry asked for again moves back. Read it with
    ``get(key) or recall(key)`` (its values are never empty), so that a hit costs one
    lookup."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self.old: dict[tuple[Any, ...], _V] = {}

    def recall(self, key: tuple[Any, ...]) -> _V | None:
        value = self.old.pop(key, None)
        if value is not None:
            self.keep(key, value)
        return value

    def keep(self, key: tuple[Any, ...], value: _V) -> None:
        if len(self) >= self.size:
            self.old = dict(self)
            self.clear()
        self[key] = value


# How much the caches keep: forgetting costs time, never correctness. The ways through a
# room (``rooms``, and the co-op search's ``pairs``) and a hero's ways through some cards
# (its ``leads``) forget the least recently used half when full (see Kept): emptied
# instead, as the others are, the longest co-op searches redid a third of their rooms and
# leads (``docs/performance.md``).
_ROOMS_KEPT = 50_000
_CARDS_KEPT = 300_000
POSITIONS_KEPT = 1_000_000
_LOST_KEPT = 12
#: Every how many nodes (a power of two, less one) a search asks whether to stop: a co-op
#: beam node costs a quarter of a millisecond, and a cancelled analysis has seconds to
#: notice even on a busy machine.
POLL = 255
#: Every how many nodes it tells its progress.
_TELL = 4095

#: The rooms one of which is faced next (co-op, lenient weapons): see ``coop_search``.
Faced = tuple[tuple[tuple[int, ...], int, bool], ...]


class Info(NamedTuple):
    """What the bound and the normal form of the heroes need to know about the cards left
    (see :meth:`RoomSearch.info`)."""

    heal: int
    """The most the potions left can heal (:func:`~.model.healing`)."""
    bonus: int
    """The best potion left: a solo win's most bonus (S13)."""
    monsters: tuple[int, ...]
    """The monsters left, highest first."""
    weapons: tuple[int, ...]
    """The weapons left (values), highest first."""
    damages: dict[Any, int]
    """The unavoidable damage by the weapons held, as it is asked (a cache)."""
    reaches: tuple[int, ...]
    """Co-op: each reach's normal form."""
    groups: tuple[tuple[int, int], ...]
    """The monsters left by value (:func:`~.model.monster_groups`)."""
    faced: Faced
    """Co-op, lenient weapons: the rooms one of which is faced next."""
    pair_damages: dict[Any, int]
    """Co-op: the two heroes' unavoidable damage by the weapons held (a cache)."""


#: A way through a room: (the cards kept, or in the final room the score; heroes; line).
Way = tuple[Any, Heroes, Line]
#: A room's ways through (see :meth:`RoomSearch.expand`): the deaths and the ways kept.
Ways = tuple[list[tuple[Heroes, tuple[int, ...], Line]], list[Way]]
#: A way out of a room (see :meth:`RoomSearch.face`): the next room, the dungeon, heroes,
#: line.
Next = tuple[tuple[int, ...], tuple[int, ...], Heroes, Line]


def _promise(
    item: tuple[tuple[tuple[int, ...], Heroes], Line],
) -> tuple[int, tuple[int, ...], int, int]:
    """Most promising first: health and weapon; then keeping a potion (a potion kept for
    the next room can heal there), a weapon, a small monster; then reach."""
    (rest, heroes), _ = item
    health = sum(heroes[0::3])
    return health + sum(heroes[1::3]), rest, health, sum(heroes[2::3])
