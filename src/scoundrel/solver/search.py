"""The perfect-information solver: could this deal be won, and what was the best score?

It sees the whole dungeon (it is for analysis, never for play). The search goes room by
room: at the start of a room it tries every way of facing it (which card stays, in which
order the others are resolved, weapon or bare hands, who takes the co-op help card), keeps
only the outcomes no other outcome beats on health, weapon and reach, tries the most
promising first, and flees last.

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
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.cards import Card, Kind
from ..core.kernel import (
    MAX_HEALTH,
    POTION_BASE,
    ROOM_TAKES,
    WEAPON_BASE,
    coop_score,
    solo_score,
    to_resolve,
)
from ..core.moves import Move, format_moves
from ..core.state import State
from .model import FLEE_MOVE, Expansion, Heroes, Line, Position, dominates, replay_line

_NEVER = -(10**6)


class Cancelled(Exception):
    """The search was cancelled through its ``cancel`` callback."""


@dataclass(frozen=True)
class Solution:
    """What the solver found from a position."""

    winnable: bool
    best_score: int | None
    """The best reachable score, when it was asked for (``best=True``)."""
    line: tuple[Move, ...]
    """Moves from the position: a winning line, or with ``best`` the best line; empty if
    there is no win and the best was not asked for."""
    score: int | None
    """The score the line ends with (``None`` without a line)."""
    nodes: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "winnable": self.winnable,
            "best_score": self.best_score,
            "line": format_moves(self.line),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


class _Found(Exception):
    pass


class _Search:
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
        self.heroes = 2 if position.coop else 1
        self.target = target
        self.first = first
        self.cancel = cancel
        self.progress = progress
        self.lost: dict[tuple[Any, ...], list[Heroes]] = {}
        self.nodes = 0
        self.path: list[Line] = []
        self.cards: dict[
            tuple[Any, ...], tuple[int, int, tuple[int, ...], tuple[int, ...], dict[Any, int]]
        ] = {}
        self.rooms: dict[tuple[Any, ...], Any] = {}
        self.dungeons: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.deaths = target <= 0
        self.best: int | None = None
        self.best_line: Line = ()
        self.no_potions = (False,) * self.heroes
        self.ceiling = 10**6  # a score known to be the highest possible
        if position.coop:
            self.dead_slack = 14  # C10: see _upper
        elif position.death_score == "dungeon-only":
            self.dead_slack = 56
        else:
            self.dead_slack = 0

    # ------------------------------------------------------------------ scores and bounds

    def _upper(self, key: tuple[Any, ...], cards: tuple[int, ...], heroes: Heroes) -> int:
        """No line from here scores more than this. ``key`` names the cards left."""
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
            # S10, C6: one potion heals per hero per room, and every room faced from here
            # resolves three cards (the last one what is left)
            rooms = (len(cards) + 1) // ROOM_TAKES
            heal = sum(potions[: rooms * self.heroes])
            bonus = potions[0] if potions else 0
            info = (heal, bonus, tuple(monster_list), tuple(weapon_list), {})
            if len(self.cards) > _CARDS_KEPT:
                self.cards.clear()
            self.cards[key] = info
        heal, bonus, monsters, weapons, damages = info
        held = heroes[1::3] + heroes[2::3]
        damage = damages.get(held)
        if damage is None:
            damage = damages[held] = self._damage(monsters, weapons, held)
        spare = sum(heroes[0::3]) + heal - damage
        if self.coop:
            top = 2 * MAX_HEALTH
            return min(spare, top) if spare >= 2 else min(0, spare + self.dead_slack)
        if spare < 1:
            return min(0, spare + self.dead_slack)
        return spare if spare < MAX_HEALTH else MAX_HEALTH + bonus

    def _damage(
        self, monsters: tuple[int, ...], weapons: tuple[int, ...], held: tuple[int, ...]
    ) -> int:
        """Damage no line avoids: each monster meets the best weapon that could be used on
        it, and in strict play no weapon slays two monsters of one value (S9, C7)."""
        half = len(held) // 2
        damage = 0
        previous = -1
        usable = weapons
        copy = 0
        for monster in monsters:
            if monster != previous:
                previous = monster
                copy = 0
                usable = weapons
                for i in range(half):
                    if monster < held[half + i]:
                        usable = tuple(sorted((*usable, held[i]), reverse=True))
            else:
                copy += 1
            k = copy if self.strict else 0
            best = usable[k] if k < len(usable) else 0
            if monster > best:
                damage += monster - best
        return damage

    def _won(self, heroes: Heroes, last_potion: int) -> int:
        if self.coop:
            return coop_score(True, heroes[0], heroes[3], 0, 0)  # C10
        return solo_score(True, heroes[0], last_potion, 0, 0, False)  # S13

    def _dead(self, heroes: Heroes, rest: tuple[int, ...], dungeon: tuple[int, ...]) -> int:
        in_dungeon = sum(c for c in dungeon if c < WEAPON_BASE)
        in_room = sum(c for c in rest if c < WEAPON_BASE)
        if self.coop:
            return coop_score(False, heroes[0], heroes[3], in_dungeon, in_room)  # C10
        dungeon_only = self.p.death_score == "dungeon-only"
        return solo_score(False, heroes[0], 0, in_dungeon, in_room, dungeon_only)  # S13

    def _found(self, score: int, line: Line) -> None:
        self.best = score
        self.best_line = tuple(m for part in self.path for m in part) + line
        self.target = score + 1
        if self.first or score >= self.ceiling:
            raise _Found

    # ------------------------------------------------------------------ the search

    def run(self) -> None:
        p = self.p
        with contextlib.suppress(_Found):
            self._face(
                p.room, p.dungeon, p.fled, p.leader, p.heroes, p.taken, p.potions, p.help_used
            )

    def _visit(
        self,
        room: tuple[int, ...],
        dungeon: tuple[int, ...],
        fled: bool,
        leader: int,
        heroes: Heroes,
    ) -> None:
        self.nodes += 1
        if not self.nodes & 4095:
            if self.cancel is not None and self.cancel():
                raise Cancelled
            if self.progress is not None:
                self.progress(self.nodes)
        # the order of a room matters only while it can still be fled (S5)
        order = room if dungeon and not fled else tuple(sorted(room))
        key = (order, dungeon, fled, leader)
        lost = self.lost.get(key)
        if lost is not None:
            for known in lost:
                if dominates(known, heroes):
                    return
        if self._upper(key, room + dungeon, heroes) >= self.target:
            self._face(room, dungeon, fled, leader, heroes, 0, self.no_potions, False)
        if len(self.lost) > _POSITIONS_KEPT:  # memory stays bounded on very long searches
            self.lost.clear()
            self.dungeons.clear()
        lost = self.lost.setdefault(key, [])
        lost[:] = [known for known in lost if not dominates(heroes, known)]
        lost.append(heroes)
        if len(lost) > _LOST_KEPT:  # forgetting a failure costs time, never correctness
            del lost[0]

    def _expand(
        self,
        room: tuple[int, ...],
        n: int,
        heroes: Heroes,
        leader: int,
        potions: tuple[bool, ...],
        help_used: bool,
        final: bool,
    ) -> tuple[list[tuple[Heroes, tuple[int, ...], Line]], list[tuple[int, Heroes, Line]]]:
        """The ways to face a room that are worth trying, best first: for the final room
        ``(score, heroes, line)``, else ``(card kept, heroes, line)`` with no outcome
        beaten by another that keeps the same card."""
        expansion = Expansion(self.strict, self.coop, self.deaths)
        expansion.run(room, n, heroes, leader, potions, help_used)
        kept: list[tuple[int, Heroes, Line]] = []
        if final:
            for key, line in expansion.outcomes.items():
                kept.append((self._won(key[1], expansion.last[key]), key[1], line))
            kept.sort(key=lambda item: item[0], reverse=True)
            return expansion.deaths, kept
        for (rest, after), line in sorted(expansion.outcomes.items(), key=_promise, reverse=True):
            carry = rest[0]
            if not any(k[0] == carry and dominates(k[1], after) for k in kept):
                kept.append((carry, after, line))
        return expansion.deaths, kept

    def _face(
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
        final = not dungeon  # S4
        n = to_resolve(len(room), taken, final)
        known = (tuple(sorted(room)), n, heroes, leader, potions, help_used)
        faced = self.rooms.get(known)
        if faced is None:
            faced = self._expand(room, n, heroes, leader, potions, help_used, final)
            if len(self.rooms) > _ROOMS_KEPT:
                self.rooms.clear()
            self.rooms[known] = faced
        deaths, kept = faced
        for after, rest, line in deaths:
            score = self._dead(after, rest, dungeon)
            if score >= self.target:
                self._found(score, line)
        if final:
            for score, _, line in kept:
                if score >= self.target:
                    self._found(score, line)
            return
        following = leader ^ 1 if self.coop else leader  # C3
        path = self.path
        deal = dungeon[:ROOM_TAKES]  # S3: the card left and three new ones
        left = dungeon[ROOM_TAKES:]
        left = self.dungeons.setdefault(left, left)  # one copy of each dungeon in memory
        for carry, after, line in kept:
            path.append(line)
            self._visit((carry, *deal), left, False, following, after)
            path.pop()
        if not taken and not fled:  # S5
            self._flee(room, dungeon, leader, heroes)

    def _flee(
        self, room: tuple[int, ...], dungeon: tuple[int, ...], leader: int, heroes: Heroes
    ) -> None:
        """S5: the room goes under the dungeon, and the next one must be faced."""
        below = dungeon + room
        self.path.append((FLEE_MOVE,))
        left = below[4:]
        self._visit(below[:4], self.dungeons.setdefault(left, left), True, leader, heroes)
        self.path.pop()


# Caches are emptied when they grow past these sizes: forgetting costs time, never
# correctness (a few hundred MB at most, on the longest co-op searches).
_ROOMS_KEPT = 50_000
_CARDS_KEPT = 300_000
_POSITIONS_KEPT = 1_000_000
_LOST_KEPT = 12


def _promise(
    item: tuple[tuple[tuple[int, ...], Heroes], Line],
) -> tuple[int, tuple[int, ...], int, int]:
    """Most promising first: health and weapon; then keeping a potion (a potion kept for
    the next room can heal there), a weapon, a small monster; then reach."""
    (rest, heroes), _ = item
    health = sum(heroes[0::3])
    return health + sum(heroes[1::3]), rest, health, sum(heroes[2::3])


def reach(
    state: State,
    target: int,
    first: bool = True,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[int], None] | None = None,
    ceiling: int | None = None,
) -> tuple[int | None, tuple[Move, ...], int]:
    """Search for a line from ``state`` scoring at least ``target``: the first one found
    (``first``), or the best one, knowing that nothing reaches ``ceiling``. Returns
    ``(score, line, nodes)``, the score ``None`` if there is no such line."""
    if state.is_over:
        score = state.score
        assert score is not None
        return (score, (), 0) if score >= target else (None, (), 0)
    search = _Search(Position.of(state), target, first, cancel, progress)
    if ceiling is not None:
        search.ceiling = ceiling - 1
    search.run()
    if search.best is None:
        return None, (), search.nodes
    moves, end = replay_line(state, search.best_line)
    line = tuple(moves)
    if end.score != search.best:  # the core is the judge of every line
        raise AssertionError(f"solver line scores {end.score}, not {search.best}")
    return search.best, line, search.nodes


def solve(
    state: State,
    best: bool = False,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Solution:
    """Decide whether ``state`` can still be won (with a winning line), and with ``best``
    find the best reachable score and a line to it. ``cancel`` is polled now and then and
    raises :class:`Cancelled` when it returns true; ``progress`` gets the node count."""
    started = time.perf_counter()
    nodes = 0
    line: tuple[Move, ...] = ()

    def counting(n: int) -> None:
        if progress is not None:
            progress(nodes + n)

    def search(target: int, first: bool, ceiling: int | None = None) -> int | None:
        nonlocal nodes, line
        score, found, count = reach(state, target, first, cancel, counting, ceiling)
        nodes += count
        if score is not None:
            line = found
        return score

    coop = state.rules.coop_game
    # the lowest winning score: every hero alive with 1 health (S13, C10)
    win = coop_score(True, 1, 1, 0, 0) if coop else solo_score(True, 1, 0, 0, 0, False)
    score: int | None = None
    ceiling = None
    if best and not state.is_over:
        # The top scores first: "at least 30" can only be reached at full health with a
        # potion saved for last, so such searches prune nearly everything and are quick.
        top = (
            coop_score(True, MAX_HEALTH, MAX_HEALTH, 0, 0)
            if coop
            else solo_score(
                True, MAX_HEALTH, max((c.value for c in _potions(state)), default=0), 0, 0, False
            )
        )
        for target in range(top, top - _LADDER, -1):
            score = search(target, True)
            if score is not None:
                break
            ceiling = target  # nothing scores this much: the best is below it
    if score is None:
        score = search(win, not best, ceiling)
    winnable = score is not None
    if best and not winnable:  # no win: the least bad death
        score = search(_NEVER, False)
    return Solution(
        winnable,
        score if best else None,
        line,
        score,
        nodes,
        time.perf_counter() - started,
    )


_LADDER = 10


def _potions(state: State) -> list[Card]:
    return [c for c in (*state.room, *state.dungeon) if c.kind is Kind.POTION]
