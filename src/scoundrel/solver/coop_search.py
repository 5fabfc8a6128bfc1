"""The co-op search (C1-C11): :class:`~.room_search.RoomSearch` for two heroes.

Co-op has a far larger search than solo, and more to keep it small:

* **A beam search first.** Most co-op deals can be won in many ways; the most promising
  positions after each room (by the bound, the weaker hero's health and the weapons), 32,
  256, then 1,024 of them, usually reach a win within a second or two; from the first
  rooms, 8,192 of them (15 to 30 seconds) find most of the rest, which the full search
  takes minutes over. The beam takes the best two positions of each room start before a
  third of any: filled by rating alone it holds near copies of a few lines and misses wins
  that need a different card kept or a flee. Only when the beams find no win does the
  full search run (a beam proves nothing when it finds none).
* **Weapons in a normal form** for the cards left: reach lowered to the least that fights
  the same monsters, value to the highest of them it can fight (:func:`_normal`).
* **Rooms from the heroes' parts.** The partner's help card and the leader's other cards do
  not interact, so a room's ways out are put together from each hero's, which are cached.
* **Failures remembered with a margin.** A position that cannot reach the target is kept
  with the health ``m`` by which it falls short: every pruned line falls short by at
  least that much (see ``CoopSearch._fail``), so heroes no better armed, with ``a`` and
  ``b`` more health and ``a + b < m``, fail as well; a later visit that is so is dropped.
* **A sharper bound with lenient weapons.** The room faced next (this one, or the next
  four cards after a flee) resolves three cards with only the weapons held or in it.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..core.flow import deal, draw, flee
from ..core.kernel import (
    BARE_DAMAGE,
    FRESH,
    HEALED,
    HIGHEST_VALUE,
    MAX_HEALTH,
    POTION_BASE,
    WEAPON_BASE,
    WEAPON_DAMAGE,
    WORN,
    drink,
    is_final,
    may_flee,
    may_help,
    next_leader,
    stays,
    takes,
)
from .model import FLEE_MOVE, HELP, WITH_WEAPON, Heroes, Line, Position, unavoidable_damage
from .room_search import (
    DEEPEST,
    POLL,
    POSITIONS_KEPT,
    Faced,
    Found,
    Info,
    Kept,
    Next,
    RoomSearch,
    Way,
    Ways,
    collector_paused,
)

_LEADS_KEPT = 200_000  # small entries, often met again (see room_search.Kept)
_PAIRS_KEPT = 50_000
_FAILED_KEPT = 64
#: A margin larger than any (see CoopSearch._fail).
_SAFE = 1 << 20
#: A packed number's bits (health at most MAX_HEALTH, a weapon's value at most
#: HIGHEST_VALUE, a reach at most FRESH), and its guard bit above them.
_BITS = max(MAX_HEALTH, HIGHEST_VALUE, FRESH).bit_length()
_GUARD = 1 << _BITS
_FIELD = _BITS + 1
# the guards of 8-bit fields, for one hero and a deficit, or two heroes and a deficit
_FATAL_GUARDS = {n: sum(128 << (8 * i) for i in range(n + 1)) for n in (3, 6)}
# the guards of four six-bit fields: both heroes' weapon and reach
_ARMS_GUARDS = sum(_GUARD << (_FIELD * i) for i in range(4))
#: The beam searches tried before the full search: each one's width, and the least cards
#: the dungeon must hold for it to run. The widest costs a deal that no beam wins (one
#: that cannot be won, say) 15 to 30 seconds more, and finds the wins the full search took
#: one to five minutes over (the harder variant); from a position further on, the full
#: search is quick and the widest beam would only slow a loss down.
_BEAMS = ((32, 0), (256, 0), (1024, 0), (8192, 40))
#: How many positions of one room start a beam takes before the next ones of any other.
_BEAM_SHARE = 2


class CoopSearch(RoomSearch):
    """The co-op search. With a win as the target it searches with margins (see
    :meth:`_fail`) after the beams; for the least bad death (a target of 0 or less) it goes
    room by room as the solo search does."""

    # C10: a lost game scores the monsters left, and the heroes' health then is at least
    # -DEEPEST for the one killed and 1 for the other
    dead_slack = DEEPEST

    def __init__(
        self,
        position: Position,
        target: int,
        first: bool,
        cancel: Callable[[], bool] | None,
        progress: Callable[[int], None] | None,
    ) -> None:
        super().__init__(position, target, first, cancel, progress)
        self.leads: Kept[_Lead] = Kept(_LEADS_KEPT)
        self.pairs: Kept[_Pair] = Kept(_PAIRS_KEPT)
        self.failed: dict[tuple[Any, ...], list[tuple[int, int, int, int]]] = {}
        # the target being a win: the search with margins (see _fail)
        self.margins = not self.deaths
        self.ceiling = 2 * position.most  # C10

    def knows(
        self, key: tuple[Any, ...], monsters: list[int], damages: dict[Any, int]
    ) -> tuple[tuple[int, ...], Faced, dict[Any, int]]:
        """Each reach's normal form, the rooms one of which is faced next with lenient
        weapons, and the pair bound's own cache (see :meth:`_spare`)."""
        return _reaches(monsters), (() if self.strict else _faced(key, self.relentless)), {}

    def upper(self, info: Info, heroes: Heroes) -> int:
        """Both heroes' health, plus the healing still possible, minus the damage no line
        avoids (C10): a win scores at most both heroes at full health."""
        held = heroes[1::3] + heroes[2::3]
        damages = info.damages
        damage = damages.get(held)
        if damage is None:
            damage = damages[held] = unavoidable_damage(
                info.groups, info.weapons, held, self.strict
            )
        spare = heroes[0] + heroes[3] + info.heal - damage
        if spare >= 2:
            top = 2 * self.most
            return spare if spare < top else top
        return min(0, spare + self.dead_slack)

    def run(self) -> None:
        if not self.margins:
            super().run()
            return
        p = self.p
        with collector_paused(), contextlib.suppress(Found):
            for width, cards in _BEAMS:
                if len(p.dungeon) >= cards:
                    self._beam(width)
            if p.taken:  # a room begun is faced first; margins go on from its ways out
                self.face(
                    p.room, p.dungeon, p.fled, p.leader, p.heroes, p.taken, p.potions, p.help_used
                )
            else:
                self._step(p.room, p.dungeon, p.fled, p.leader, p.heroes, ())

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
        """A room not yet begun, when only lines where both heroes live matter: from the
        heroes' parts (:meth:`_pair`)."""
        if not taken and not self.deaths:
            return [], self._pair(tuple(sorted(room)), heroes, leader, final, False)[0]
        return super().expand(room, n, taken, heroes, leader, potions, help_used, final)

    def onwards(self, nexts: list[Next], leader: int) -> None:
        """With margins (a room begun at the start of the search), each next room start
        with its margin; else the most promising first (:meth:`_order`)."""
        if self.margins:
            for nxt, left, after, line in nexts:
                self._step(nxt, left, False, leader, after, line)
            return
        super().onwards(self._order(nexts, leader), leader)

    def _beam(self, width: int) -> None:
        """Look for a line reaching the target among the ``width`` most promising positions
        at each step (a beam search: quick to find a win when there are many, but it proves
        nothing when it finds none)."""
        p = self.p
        Chain = tuple[Any, Line] | None
        level: list[tuple[Any, ...]] = [
            (p.room, p.dungeon, p.fled, p.leader, p.heroes, p.taken, p.potions, p.help_used, None)
        ]
        while level:
            following: dict[tuple[Any, ...], list[tuple[int, int, tuple[Any, ...]]]] = {}
            for room, dungeon, fled, leader, heroes, taken, potions, help_used, chain in level:
                self.nodes += 1
                if not self.nodes & POLL:
                    self.poll()
                final = is_final(len(dungeon))  # S4
                kept = self.ways(room, taken, heroes, leader, potions, help_used, final)[1]
                if final:
                    for score, _, line in kept:
                        if score >= self.target:
                            self.path = _unchain(chain)
                            self.found(score, line)
                    continue
                nxt = next_leader(leader, True)  # C3
                children = []
                drawn, left = draw(stays(False), dungeon)  # S3, S6: after every way alike
                left = self.dungeons.setdefault(left, left)
                for carry, after, line in kept:
                    children.append((carry + drawn, left, False, nxt, after, line))
                if may_flee(taken, fled, len(dungeon), self.relentless):  # S5
                    room2, left = flee(room, dungeon)
                    children.append((room2, left, True, leader, heroes, (FLEE_MOVE,)))
                for room2, dungeon2, fled2, leader2, heroes2, line in children:
                    order = _order_key(room2, dungeon2, fled2, self.relentless)
                    key = (order, dungeon2, fled2, leader2)
                    info = self.info(key, room2 + dungeon2)
                    heroes2 = _normal(heroes2, info.reaches)
                    upper = self.upper(info, heroes2)
                    if upper < self.target:
                        continue
                    packed = _pack(heroes2)
                    rivals = following.setdefault(key, [])
                    if any(
                        not ((other | _GUARDS) - packed) & _GUARDS ^ _GUARDS
                        for other, _, _ in rivals
                    ):
                        continue
                    guarded = packed | _GUARDS
                    rivals[:] = [r for r in rivals if (guarded - r[0]) & _GUARDS ^ _GUARDS]
                    rating = _rate(upper, heroes2)
                    step: Chain = (chain, line)
                    rivals.append(
                        (
                            packed,
                            rating,
                            (
                                room2,
                                dungeon2,
                                fled2,
                                leader2,
                                heroes2,
                                0,
                                self.no_potions,
                                False,
                                step,
                            ),
                        )
                    )
            # the best two of each room start first, then the next two of each, and so
            # on: a beam of near copies of one line finds no more than the line does
            ranked: list[tuple[int, int, tuple[Any, ...]]] = []
            for rivals in following.values():
                rivals.sort(key=_second, reverse=True)
                ranked.extend(
                    (i // _BEAM_SHARE, -rating, position)
                    for i, (_, rating, position) in enumerate(rivals)
                )
            ranked.sort(key=_tiered)
            level = [item[2] for item in ranked[:width]]
        self.path = []

    def _pair(
        self, room: tuple[int, ...], heroes: Heroes, leader: int, final: bool, fatal: bool = True
    ) -> _Pair:
        """:meth:`expand` for a room not yet begun, when only lines where both heroes live
        matter, put together from the two heroes' parts: the partner resolves
        the help card, if any (C5), and the leader the other cards, in any order (C4). The
        two do not interact (each hero has their own potion per room, C6), so every way to
        face the room is one way of each, and the help card can be given first.

        Returns ``(kept, dead)``: ``kept`` as :meth:`expand` gives it, and ``dead`` the
        lines on which a hero dies, played on as if health could go below zero, as
        ``(deficit, card kept, leader after, partner after)``, the least deficit first:
        the deficit is the least health more (both heroes together) with which the line
        is not fatal (see :meth:`_fail`). Lines beaten by another in every respect are
        left out of both. Without ``fatal``,
        ``dead`` is empty and lines stop where a hero dies (the beam needs no more)."""
        at = 3 * takes(leader, 0)  # C4: the leader's own cards
        lead = heroes[at : at + 3]
        given_at = 3 * takes(leader, 1)  # C5: the help card's hero
        partner = heroes[given_at : given_at + 3]
        helps = may_help(True, False)  # C5: a room not yet begun
        # Each outcome is put together from the leader's part and the partner's, and so is
        # the number that :func:`_front` compares it by (hero 1's fields first): the parts'
        # numbers are packed once, and the heroes and line only for the outcomes kept.
        hero_bits = 3 * _FIELD  # one hero's three numbers
        ahead_at, other_at = (hero_bits, 0) if leader == 0 else (0, hero_bits)
        ahead_at8, other_at8 = (32, 8) if leader == 0 else (8, 32)
        partner_number = _pack(partner) << other_at  # the partner given no card
        partner_number8 = _pack8(partner) << other_at8
        kept: list[Way] = []
        dead: list[tuple[int, tuple[int, ...], Heroes, Heroes]] = []
        for carry, rest in _carries(room, final):
            ways, lost = self._lead(rest, lead, fatal)
            outcomes = [
                (ahead6 << ahead_at | partner_number, ahead, partner, 0, line)
                for ahead, line, ahead6, _ in ways
            ]
            deaths = [
                (ahead8 << ahead_at8 | partner_number8 | _LACK[deficit], ahead, partner, deficit)
                for ahead, deficit, ahead8 in lost
            ]
            given = 0
            for j, card in enumerate(rest if helps else ()):
                bit = 1 << card
                if given & bit:
                    continue
                given |= bit
                ways, lost = self._lead(rest[:j] + rest[j + 1 :], lead, fatal)
                for other, move, lack in self._help(card, partner):
                    number = _pack(other) << other_at
                    number8 = _pack8(other) << other_at8
                    if not lack:
                        for ahead, line, ahead6, _ in ways:
                            outcomes.append((ahead6 << ahead_at | number, ahead, other, move, line))
                    elif fatal:
                        for ahead, _, _, ahead8 in ways:
                            deaths.append(
                                (ahead8 << ahead_at8 | number8 | _LACK[lack], ahead, other, lack)
                            )
                    for ahead, deficit, ahead8 in lost:
                        deficit += lack
                        deaths.append(
                            (ahead8 << ahead_at8 | number8 | _LACK[deficit], ahead, other, deficit)
                        )
            if final:
                for _, ahead, other, move, line in outcomes:
                    both = ahead + other if leader == 0 else other + ahead
                    kept.append((both[0] + both[3], both, (move, *line) if move else line))  # C10
            else:
                for _, ahead, other, move, line in _front(outcomes, _GUARDS):
                    both = ahead + other if leader == 0 else other + ahead
                    kept.append((carry, both, (move, *line) if move else line))
            if deaths:
                for _, ahead, other, deficit in _front(deaths, _FATAL_GUARDS[6]):
                    dead.append((deficit, carry, ahead, other))
        if final:
            kept.sort(key=_first, reverse=True)
        dead.sort(key=_first)  # the least deficit first (see _cface)
        return kept, dead

    def _lead(self, cards: tuple[int, ...], hero: Heroes, fatal: bool = True) -> _Lead:
        """Every way for one hero to resolve ``cards`` (C4) and live, none beaten by
        another, as ``(hero after, line, its number, its number for fatal lines)``; and
        with ``fatal`` the ways that kill the hero, played on, as ``(hero after, deficit,
        its number for fatal lines)`` (see :meth:`_pair`; the numbers as :func:`_pack` and
        :func:`_pack8` give them)."""
        key = (cards, hero, fatal)
        found = self.leads.get(key) or self.leads.recall(key)
        if found is None:
            outcomes: dict[Heroes, Line] = {}
            deaths: list[tuple[Heroes, int]] = []
            self._walk(cards, hero, False, (), 0, outcomes, deaths if fatal else None)
            found = (
                [(h, line, _pack(h), _pack8(h)) for h, line in _frontier(list(outcomes.items()))],
                [(h, deficit, _pack8(h)) for h, deficit in _fatal_frontier(deaths)],
            )
            self.leads.keep(key, found)
        return found

    def _walk(
        self,
        cards: tuple[int, ...],
        hero: Heroes,
        drunk: bool,
        line: Line,
        deficit: int,
        outcomes: dict[Heroes, Line],
        deaths: list[tuple[Heroes, int]] | None,
    ) -> None:
        """Resolve ``cards`` in every order; ``deficit`` is the health the hero lacked to
        live through the worst fight so far (0: alive). Without ``deaths`` a line stops
        at the fight that kills the hero."""
        if not cards:
            if deficit:
                if deaths is not None:
                    deaths.append((hero, deficit))
            elif hero not in outcomes:
                outcomes[hero] = line
            return
        h, w, r = hero
        seen = 0
        for i, card in enumerate(cards):
            bit = 1 << card
            if seen & bit:
                continue
            seen |= bit
            rest = cards[:i] + cards[i + 1 :]
            if card < WEAPON_BASE:  # S8
                if card < r:  # S9, C7
                    after = h - WEAPON_DAMAGE[card][w]
                    if after > 0 or deaths is not None:
                        worn = (after, w, WORN[self.strict][card])
                        lack = deficit if after > 0 or deficit > 1 - after else 1 - after
                        move = card | WITH_WEAPON
                        self._walk(rest, worn, drunk, (*line, move), lack, outcomes, deaths)
                after = h - BARE_DAMAGE[card]
                if after > 0 or deaths is not None:
                    lack = deficit if after > 0 or deficit > 1 - after else 1 - after
                    hurt = (after, w, r)
                    self._walk(rest, hurt, drunk, (*line, card), lack, outcomes, deaths)
            elif card < POTION_BASE:  # S7
                armed = (h, card - WEAPON_BASE, FRESH)
                self._walk(rest, armed, drunk, (*line, card), deficit, outcomes, deaths)
            elif drunk:  # C6: a second potion for the same hero does nothing
                self._walk(rest, hero, drunk, (*line, card), deficit, outcomes, deaths)
            else:
                drank = (_drink(h, card - POTION_BASE, self.most), w, r)
                self._walk(rest, drank, True, (*line, card), deficit, outcomes, deaths)

    def _help(self, card: int, hero: Heroes) -> list[tuple[Heroes, int, int]]:
        """C5: the ways the partner can take the help card, as ``(hero after, move,
        deficit)`` (see :meth:`_walk`)."""
        h, w, r = hero
        move = card | HELP
        if card >= POTION_BASE:  # C6: the partner's first potion of the room
            return [((_drink(h, card - POTION_BASE, self.most), w, r), move, 0)]
        if card >= WEAPON_BASE:  # S7
            return [((h, card - WEAPON_BASE, FRESH), move, 0)]
        ways: list[tuple[Heroes, int, int]] = []
        if card < r:
            after = h - WEAPON_DAMAGE[card][w]
            worn = (after, w, WORN[self.strict][card])
            ways.append((worn, move | WITH_WEAPON, 0 if after > 0 else 1 - after))
        after = h - BARE_DAMAGE[card]
        ways.append(((after, w, r), move, 0 if after > 0 else 1 - after))
        return ways

    # ------------------------------------------------------------------ co-op search

    def _spare(self, info: Info, heroes: Heroes) -> int:
        """Co-op: the heroes' health, plus all the healing still possible, minus the damage
        no line avoids (:meth:`_upper` before its caps): the score of any win from here
        is at most this, and each point of health more raises it by one."""
        held = heroes[1::3] + heroes[2::3]
        damages = info.pair_damages
        damage = damages.get(held)
        if damage is None:
            damage = damages[held] = self._pair_damage(info.groups, info.weapons, held, info.faced)
        return heroes[0] + heroes[3] + info.heal - damage

    def _pair_damage(
        self,
        groups: tuple[tuple[int, int], ...],
        weapons: tuple[int, ...],
        held: Heroes,
        faced: tuple[tuple[tuple[int, ...], int, bool], ...],
    ) -> int:
        """:func:`~.model.unavoidable_damage` for two heroes, a group of same-value
        monsters at a time.

        With lenient weapons (C7), where it is a sum over monsters, it also looks at the
        room that must be faced next (see :func:`_faced`): the three cards resolved there
        meet only the weapons held or in that room."""
        w1, w2, r1, r2 = held
        top = weapons[0] if weapons else 0
        damage = 0
        if not self.strict:  # C7: a weapon may slay any number of monsters of one value
            for monster, count in groups:
                best = top
                if monster < r1 and w1 > best:
                    best = w1
                if monster < r2 and w2 > best:
                    best = w2
                if monster > best:
                    damage += (monster - best) * count
            extra = _SAFE
            for monsters, local, final in faced:
                more = 0
                spared = 0  # the card kept can be the monster costing most more here
                for monster in monsters:
                    best = top
                    near = local
                    if monster < r1:
                        best = w1 if w1 > best else best
                        near = w1 if w1 > near else near
                    if monster < r2:
                        best = w2 if w2 > best else best
                        near = w2 if w2 > near else near
                    if monster > near:
                        cost = monster - near - (monster - best if monster > best else 0)
                        more += cost
                        if cost > spared:
                            spared = cost
                if not final:
                    more -= spared
                if more < extra:
                    extra = more
            return damage + extra if faced else damage
        for monster, count in groups:
            if monster < r1 or monster < r2:
                also = [w for w, r in ((w1, r1), (w2, r2)) if monster < r]
                usable: Sequence[int] = sorted((*weapons[:count], *also), reverse=True)
            else:
                usable = weapons
            for k in range(count):
                best = usable[k] if k < len(usable) else 0
                if monster > best:
                    damage += monster - best
        return damage

    def _step(
        self,
        room: tuple[int, ...],
        dungeon: tuple[int, ...],
        fled: bool,
        leader: int,
        heroes: Heroes,
        line: Line,
    ) -> int:
        """Co-op: go on from a room start along ``line``, unless the bound rules it out.
        Returns the margin of failure (see :meth:`_fail`)."""
        key = (_order_key(room, dungeon, fled, self.relentless), dungeon, fled, leader)
        info = self.info(key, room + dungeon)
        heroes = _normal(heroes, info.reaches)
        spare = self._spare(info, heroes)
        if spare < self.target:
            return self.target - spare
        self.path.append(line)
        margin = self._fail(key, room, dungeon, fled, leader, heroes)
        self.path.pop()
        return margin

    def _fail(
        self,
        key: tuple[Any, ...],
        room: tuple[int, ...],
        dungeon: tuple[int, ...],
        fled: bool,
        leader: int,
        heroes: Heroes,
    ) -> int:
        """Co-op, the target being a win: search from a room start (``heroes`` in normal
        form, ``key`` naming the position as in :meth:`_visit`). If no line reaches the
        target, return its *margin*: a number ``m`` >= 1 such that heroes no better armed
        and with ``a`` and ``b`` more health, ``a + b < m``, fail as well.

        Why margins add up: from heroes with ``a`` and ``b`` more health every line goes
        as before, except that it may end with up to ``a`` and ``b`` more health (a potion
        never heals past 20), or live through a fight that killed a hero before. So a line
        that was cut by the bound (the bound grows by ``a + b``) or ended below the target
        stays short when ``a + b`` is below its shortfall, a line that killed a hero still
        does when ``a + b`` is below what that hero lacked, and the rest lead to positions
        whose own margins cover them. Failures are remembered with their margins."""
        self.nodes += 1
        if not self.nodes & POLL:
            self.poll()
        h1 = heroes[0]
        h2 = heroes[3]
        f = _FIELD
        arms = heroes[1] << 3 * f | heroes[2] << 2 * f | heroes[4] << f | heroes[5]
        failed = self.failed.get(key)
        if failed is not None:
            for known, k1, k2, known_margin in failed:
                if not ((known | _ARMS_GUARDS) - arms) & _ARMS_GUARDS ^ _ARMS_GUARDS:
                    excess = (h1 - k1 if h1 > k1 else 0) + (h2 - k2 if h2 > k2 else 0)
                    if excess < known_margin:
                        return known_margin - excess
        margin = self._cface(room, dungeon, fled, leader, heroes)
        if len(self.failed) > POSITIONS_KEPT:  # memory stays bounded on very long searches
            self.failed.clear()
            self.dungeons.clear()
        failed = self.failed.setdefault(key, [])
        guarded = arms | _ARMS_GUARDS
        failed[:] = [
            entry
            for entry in failed
            if (guarded - entry[0]) & _ARMS_GUARDS ^ _ARMS_GUARDS
            or (entry[1] - h1 if entry[1] > h1 else 0)
            + (entry[2] - h2 if entry[2] > h2 else 0)
            + entry[3]
            > margin
        ]
        failed.append((arms, h1, h2, margin))
        if len(failed) > _FAILED_KEPT:  # forgetting a failure costs time, never correctness
            del failed[0]
        return margin

    def _cface(
        self,
        room: tuple[int, ...],
        dungeon: tuple[int, ...],
        fled: bool,
        leader: int,
        heroes: Heroes,
    ) -> int:
        """Co-op: face a room from its start, or flee it; the margin as in :meth:`_fail`."""
        final = is_final(len(dungeon))  # S4
        known = (tuple(sorted(room)), heroes, leader, final)
        faced = self.pairs.get(known) or self.pairs.recall(known)
        if faced is None:
            faced = self._pair(known[0], heroes, leader, final)
            self.pairs.keep(known, faced)
        kept, dead = faced
        margin = _SAFE
        if final:
            for score, _, line in kept:
                if score < self.target:
                    break
                self.found(score, line)
            if kept:
                margin = self.target - kept[0][0]
            for deficit, _, ahead, other in dead:
                if deficit >= margin:
                    break
                short = self.target - ahead[0] - other[0]
                short = short if short > deficit else deficit
                if short < margin:
                    margin = short
            return margin
        following = next_leader(leader, True)  # C3
        target = self.target
        rated = []
        places: dict[tuple[int, ...], _Place] = {}
        dungeons = self.dungeons

        def place_of(carry: tuple[int, ...]) -> _Place:
            """The next room start with the cards ``carry`` kept: its key, its room, the
            dungeon left, its bounds."""
            place = places.get(carry)
            if place is None:
                nxt, left = deal(carry, dungeon)  # S3, S6
                left = dungeons.setdefault(left, left)  # one copy of each dungeon in memory
                key = (_order_key(nxt, left, False, self.relentless), left, False, following)
                place = places[carry] = (key, nxt, left, self.info(key, nxt + left))
            return place

        for carry, after, line in kept:
            key, nxt, left, info = places.get(carry) or place_of(carry)
            after = _normal(after, info.reaches)
            spare = self._spare(info, after)
            if spare < target:
                if target - spare < margin:
                    margin = target - spare
                continue
            h1, h2 = after[0], after[3]
            rated.append((spare + (h1 if h1 < h2 else h2), nxt, key, left, after, line))
        rated.sort(key=_first, reverse=True)  # the most promising first
        path = self.path
        for _, nxt, key, left, after, line in rated:
            path.append(line)
            found = self._fail(key, nxt, left, False, following, after)
            path.pop()
            if found < margin:
                margin = found
        if may_flee(0, fled, len(dungeon), self.relentless):  # S5
            room2, left = flee(room, dungeon)
            found = self._step(room2, left, True, leader, heroes, (FLEE_MOVE,))
            if found < margin:
                margin = found
        target = self.target
        for deficit, carry, ahead, other in dead:
            if deficit >= margin:  # so are the rest: the least deficit comes first
                break
            info = place_of(carry)[3]
            after = ahead + other if leader == 0 else other + ahead
            short = target - self._spare(info, _normal(after, info.reaches))
            short = short if short > deficit else deficit
            if short < margin:
                margin = short
        return margin

    def _order(self, nexts: list[Next], leader: int) -> list[Next]:
        """Co-op: the ways out of a room that can still reach the target, most promising
        first: by the bound of the next position, and then by the weaker hero's health."""
        rated = []
        for item in nexts:
            room, left, after, _ = item
            key = (_order_key(room, left, False, self.relentless), left, False, leader)
            info = self.info(key, room + left)
            heroes = _normal(after, info.reaches)
            upper = self.upper(info, heroes)
            if upper >= self.target:
                rated.append((upper + min(heroes[0], heroes[3]), item))
        rated.sort(key=_first, reverse=True)
        return [item for _, item in rated]


# Heroes packed into one integer, a field of :data:`_FIELD` bits a number (health, weapon,
# reach: each below :data:`_GUARD`, as the kernel's limits are), with the top bit of each
# field a guard: ``a`` is at least ``b`` in every field exactly when
# ``((a | _GUARDS) - b) & _GUARDS == _GUARDS`` (no field borrows from the next).
_GUARDS = sum(_GUARD << (_FIELD * i) for i in range(6))


def _pack(heroes: Heroes) -> int:
    packed = 0
    for number in heroes:
        packed = packed << _FIELD | number
    return packed


def _pack8(heroes: Heroes) -> int:
    """Heroes played on past a death packed eight bits a number (health may be below
    zero: each number is kept 64 higher, from -63 up), for :func:`_fatal_frontier`."""
    packed = 0
    for number in heroes:
        packed = packed << 8 | (number + 64 if number > -64 else 0)
    return packed


#: A deficit's field in a fatal line's number: the smaller the deficit, the larger.
_LACK = tuple(127 - deficit if deficit < 127 else 0 for deficit in range(1024))


def _reaches(monsters: list[int]) -> tuple[int, ...]:
    """For each reach (0 to FRESH), the least reach that lets the weapon fight the same
    monsters among ``monsters`` (the cards left): one more than the highest of them below
    it, 0 if none is."""
    present = set(monsters)
    table = []
    below = 0
    for reach in range(FRESH + 1):
        table.append(below)
        if reach in present:
            below = reach + 1
    return tuple(table)


def _normal(heroes: Heroes, reaches: tuple[int, ...]) -> Heroes:
    """The heroes with each weapon in its normal form for the cards left: reach lowered to
    the least one that fights the same monsters (:func:`_reaches`), and the weapon's value
    lowered to the highest monster it can still fight, for above that it stops no more
    damage. A weapon that can fight nothing left is no weapon. Nothing the heroes can do
    from here changes (S8, S9, C7), and the score does not depend on weapons."""
    if len(heroes) == 3:
        h, w, r = heroes
        r = reaches[r]
        if w >= r:
            w = r - 1 if r else 0
        return (h, w, r)
    h, w, r, h2, w2, r2 = heroes
    r = reaches[r]
    if w >= r:
        w = r - 1 if r else 0
    r2 = reaches[r2]
    if w2 >= r2:
        w2 = r2 - 1 if r2 else 0
    return (h, w, r, h2, w2, r2)


_Pair = tuple[list[Way], list[tuple[int, tuple[int, ...], Heroes, Heroes]]]
#: The next room start with a card kept (see ``CoopSearch._cface``): key, room, dungeon, bounds.
_Place = tuple[tuple[Any, ...], tuple[int, ...], tuple[int, ...], Info]


def _order_key(
    room: tuple[int, ...], dungeon: tuple[int, ...], fled: bool, relentless: bool
) -> tuple[int, ...]:
    """A room as a position's key names it: its order matters only while it can still be
    fled (S5, V1), when its cards go under the dungeon in that order."""
    return room if may_flee(0, fled, len(dungeon), relentless) else tuple(sorted(room))


_Lead = tuple[list[tuple[Heroes, Line, int, int]], list[tuple[Heroes, int, int]]]
#: An item :func:`_front` sorts out: its number first.
_Numbered = TypeVar("_Numbered", bound=tuple[Any, ...])


def _faced(key: tuple[Any, ...], relentless: bool) -> Faced:
    """The rooms one of which is faced next from the room start ``key`` (as in
    :meth:`CoopSearch._visit`): this one, or after a flee (S5) the next four cards. Each as
    ``(its monsters, its best weapon, whether it is the final room)``: three of its cards
    (all in the final room, S4) are resolved there, with no other weapons than those
    already held and those in the room."""
    room, dungeon, fled = key[0], key[1], key[2]
    rooms = [(room, is_final(len(dungeon)))]
    if may_flee(0, fled, len(dungeon), relentless):
        after, left = flee(room, dungeon)
        rooms.append((after, is_final(len(left))))
    faced = []
    for cards, final in rooms:
        monsters = tuple(c for c in cards if c < WEAPON_BASE)
        local = max((c - WEAPON_BASE for c in cards if WEAPON_BASE <= c < POTION_BASE), default=0)
        faced.append((monsters, local, final))
    return tuple(faced)


def _carries(room: tuple[int, ...], final: bool) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The ways to pick the card that stays (S6; same-value cards alike), as the cards
    kept (in room order) and the cards to resolve; in the final room every card is
    resolved (S4)."""
    ways = []
    seen = set()
    for chosen in itertools.combinations(range(len(room)), stays(final)):
        carry = tuple(room[i] for i in chosen)
        if carry not in seen:
            seen.add(carry)
            ways.append((carry, tuple(card for i, card in enumerate(room) if i not in chosen)))
    return ways


def _drink(health: int, potion: int, most: int) -> int:
    """A first potion (S10, C6); for a line played on past a death, health may be below
    zero, and the potion still heals up to ``most`` (V2)."""
    if health > 0:
        return HEALED[most][health][potion]
    return drink(health, potion, False, most)


def _fatal_frontier(deaths: list[tuple[Heroes, int]]) -> list[tuple[Heroes, int]]:
    """The fatal lines (heroes played on, deficit) that no other beats: with heroes at
    least as well off and a deficit no larger."""
    if not deaths:
        return []
    guards = _FATAL_GUARDS[len(deaths[0][0])]
    numbered = [
        (_pack8(heroes) << 8 | _LACK[deficit], heroes, deficit) for heroes, deficit in deaths
    ]
    return [(heroes, deficit) for _, heroes, deficit in _front(numbered, guards)]


def _front(items: list[_Numbered], guards: int) -> list[_Numbered]:
    """The items no other beats, by their numbers (``item[0]``, fields with guard bits
    ``guards``: see :data:`_GUARDS`), largest number first; of equal ones, the first.
    Sorts ``items`` in place."""
    items.sort(key=_first, reverse=True)
    front: list[int] = []
    kept = []
    for item in items:
        number = item[0]
        for known in front:
            if not ((known | guards) - number) & guards ^ guards:
                break
        else:
            front.append(number)
            kept.append(item)
    return kept


def _frontier(outcomes: list[tuple[Heroes, Line]]) -> list[tuple[Heroes, Line]]:
    """The outcomes no other outcome beats (:func:`dominates`); of equal ones, the first."""
    # a tuple at least as good in every field packs to a number at least as large
    numbered = [(_pack(heroes), heroes, line) for heroes, line in outcomes]
    return [(heroes, line) for _, heroes, line in _front(numbered, _GUARDS)]


def _rate(upper: int, heroes: Heroes) -> int:
    """How promising a co-op position is, for the beam search: the bound, the weaker
    hero's health, and the weapons (in normal form: no more than the highest monster left
    that each can still fight)."""
    return upper + min(heroes[0], heroes[3]) + heroes[1] + heroes[4]


def _second(item: Sequence[Any]) -> Any:
    return item[1]


def _tiered(item: tuple[int, int, Any]) -> tuple[int, int]:
    return item[0], item[1]


def _unchain(chain: Any) -> list[Line]:
    """The lines of a beam position's steps, first step first."""
    lines: list[Line] = []
    while chain is not None:
        chain, line = chain
        lines.append(line)
    lines.reverse()
    return lines


def _first(item: Sequence[Any]) -> Any:
    return item[0]
