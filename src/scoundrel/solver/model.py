"""A compact model of a position for searching: cards as small integers, heroes as tuples.

The search needs millions of room expansions, so it works on plain integers rather than on
:class:`~scoundrel.core.State` objects. This module is the one place that turns a core state
into that form, and ``tests/solver/test_model.py`` checks that :func:`expand` gives exactly
the outcomes the core's own rules give, room after room, so the two cannot drift apart.

Card codes: a monster is its value (2-15), a weapon ``16 + value``, a potion ``32 + value``.
Same-value cards of different suits get the same code, so the search treats them alike.

A hero is three integers: health, weapon value (0: none) and *reach*, the value below which
the weapon can still be used (0: no weapon; :data:`FRESH` for an unused one; S9/C7 wear sets
it to the last kill in strict play and one more in lenient play). Solo heroes are
``(h, w, r)``; co-op heroes ``(h1, w1, r1, h2, w2, r2)``.

A move is an integer too: the card code, plus :data:`WITH_WEAPON` for ``/w`` and
:data:`HELP` for the co-op help card; :data:`FLEE_MOVE` is ``F``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..core.cards import Card, Kind
from ..core.kernel import (
    BARE_DAMAGE,
    FRESH,
    HEALED,
    MAX_HEALTH,
    NO_REACH,
    POTION_BASE,
    WEAPON_BASE,
    WEAPON_DAMAGE,
    WORN,
    coop_score,
    may_help,
    rooms_ahead,
    solo_score,
    takes,
)
from ..core.moves import FLEE, Move, move_for
from ..core.position import Hero
from ..core.state import State

WITH_WEAPON = 64
HELP = 128
FLEE_MOVE = 256
_CODE = 63

Heroes = tuple[int, ...]
Line = tuple[int, ...]


def code(card: Card) -> int:
    """The search code of a card (see :mod:`scoundrel.core.kernel`)."""
    if card.kind is Kind.MONSTER:
        return card.value
    if card.kind is Kind.WEAPON:
        return WEAPON_BASE + card.value
    return POTION_BASE + card.value


def hero_codes(heroes: Sequence[Hero]) -> Heroes:
    """Heroes in search form: ``(health, weapon value, reach)`` each."""
    codes: list[int] = []
    for hero in heroes:
        weapon = hero.weapon.value if hero.weapon is not None else 0
        reach = NO_REACH if hero.reach is None else hero.reach
        codes += [hero.health, weapon, reach]
    return tuple(codes)


@dataclass(frozen=True)
class Position:
    """A core state in search form. ``taken``, ``potions`` and ``help_used`` describe a room
    that is partly resolved; ``potions`` has one flag per hero (S10, C6)."""

    room: tuple[int, ...]
    dungeon: tuple[int, ...]
    heroes: Heroes
    leader: int
    fled: bool
    taken: int
    potions: tuple[bool, ...]
    help_used: bool
    strict: bool
    coop: bool
    death_score: str
    last_potion: int
    """The value of the last resolved card if it was a potion, else 0 (S13 bonus)."""
    most: int = MAX_HEALTH
    """The health the heroes started with and heal up to (S2, C1, V2)."""
    relentless: bool = False
    """No room may be fled (V1)."""

    @classmethod
    def of(cls, state: State) -> Position:
        last = state.last_resolved
        rules = state.rules
        return cls(
            room=tuple(code(c) for c in state.room),
            dungeon=tuple(code(c) for c in state.dungeon),
            heroes=hero_codes(state.heroes),
            leader=state.leader - 1,
            fled=state.fled_into,
            taken=state.resolved_in_room,
            potions=tuple(h.potion_used for h in state.heroes),
            help_used=state.help_used,
            strict=rules.strict,
            coop=rules.coop_game,
            death_score=rules.death_score,
            last_potion=last.value if last is not None and last.kind is Kind.POTION else 0,
            most=rules.health,
            relentless=rules.relentless,
        )


def _fight(heroes: Heroes, at: int, card: int, weapon: bool, strict: bool) -> Heroes:
    h, w, r = heroes[at], heroes[at + 1], heroes[at + 2]
    if weapon:
        h -= WEAPON_DAMAGE[card][w]
        r = WORN[strict][card]
    else:
        h -= BARE_DAMAGE[card]
    return (*heroes[:at], h, w, r, *heroes[at + 3 :])


class Expansion:
    """Every way to resolve ``n`` more cards of a room, for one position of the heroes.

    ``outcomes`` maps ``(rest, heroes)`` to the first line found for it, where ``rest`` is
    the tuple of cards left in the room. ``deaths`` (collected only when asked) are
    ``(heroes, rest, line)`` for lines where a hero dies, the last move being the fatal one.
    ``last`` maps an outcome to the value of its last card when that was a potion (S13).
    """

    __slots__ = (
        "coop",
        "deaths",
        "healed",
        "last",
        "most",
        "outcomes",
        "strict",
        "targets",
        "visited",
        "want_deaths",
    )

    def __init__(self, strict: bool, coop: bool, want_deaths: bool, most: int) -> None:
        self.strict = strict
        self.coop = coop
        self.most = most  # the heroes' full health (V2)
        self.healed = HEALED[most]
        self.want_deaths = want_deaths
        self.outcomes: dict[tuple[tuple[int, ...], Heroes], Line] = {}
        self.last: dict[tuple[tuple[int, ...], Heroes], int] = {}
        self.deaths: list[tuple[Heroes, tuple[int, ...], Line]] = []
        # Co-op, without deaths: the positions within the room already walked. Two orders
        # often reach the same one (the same cards left, heroes and potions); the first
        # walk from it found every outcome it leads to, each with its first line, so a
        # second one would add nothing.
        self.visited: set[tuple[object, ...]] | None = None if want_deaths else set()
        # Co-op: whom a card may go to, by whether the help card was given (C4, C5), as
        # (the hero's place in the heroes, the move's help flag).
        self.targets: tuple[tuple[tuple[int, int], ...], ...] = ()

    def run(
        self,
        room: tuple[int, ...],
        n: int,
        heroes: Heroes,
        leader: int,
        potions: tuple[bool, ...],
        help_used: bool,
    ) -> Expansion:
        if self.coop:
            own = ((3 * takes(leader, 0), 0),)
            both = (*own, (3 * takes(leader, 1), HELP))
            self.targets = tuple(both if may_help(True, used) else own for used in (False, True))
            self._coop(room, n, heroes, leader * 3, potions, help_used, (), 0)
        else:
            self._solo(room, n, heroes, potions[0], (), 0)
        return self

    def _done(self, room: tuple[int, ...], heroes: Heroes, line: Line, potion: int) -> None:
        key = (room, heroes)
        if key not in self.outcomes or potion > self.last[key]:
            self.outcomes[key] = line
            self.last[key] = potion

    def _solo(
        self, room: tuple[int, ...], n: int, heroes: Heroes, pot: bool, line: Line, potion: int
    ) -> None:
        if n == 0:
            self._done(room, heroes, line, potion)
            return
        seen = 0
        h, w, r = heroes
        for i, card in enumerate(room):
            bit = 1 << card
            if seen & bit:
                continue
            seen |= bit
            rest = room[:i] + room[i + 1 :]
            if card < WEAPON_BASE:  # S8
                if card < r:  # S9: the weapon still reaches it
                    after = h - WEAPON_DAMAGE[card][w]
                    moved = (after, w, WORN[self.strict][card])
                    if after > 0:
                        self._solo(rest, n - 1, moved, pot, (*line, card | WITH_WEAPON), 0)
                    elif self.want_deaths:
                        self.deaths.append(((after, w, r), rest, (*line, card | WITH_WEAPON)))
                after = h - BARE_DAMAGE[card]
                if after > 0:
                    self._solo(rest, n - 1, (after, w, r), pot, (*line, card), 0)
                elif self.want_deaths:
                    self.deaths.append(((after, w, r), rest, (*line, card)))
            elif card < POTION_BASE:  # S7
                self._solo(rest, n - 1, (h, card - WEAPON_BASE, FRESH), pot, (*line, card), 0)
            elif pot:  # S10: a second potion in the room does nothing
                self._solo(rest, n - 1, heroes, pot, (*line, card), card - POTION_BASE)
            else:
                healed = self.healed[h][card - POTION_BASE]
                self._solo(rest, n - 1, (healed, w, r), True, (*line, card), card - POTION_BASE)

    def _coop(
        self,
        room: tuple[int, ...],
        n: int,
        heroes: Heroes,
        lead: int,
        potions: tuple[bool, ...],
        help_used: bool,
        line: Line,
        potion: int,
    ) -> None:
        if n == 0:
            self._done(room, heroes, line, potion)
            return
        visited = self.visited
        if visited is not None:
            here = (room, heroes, potions, help_used)
            if here in visited:
                return
            visited.add(here)
        strict = self.strict
        seen = 0
        for i, card in enumerate(room):
            bit = 1 << card
            if seen & bit:
                continue
            seen |= bit
            rest = room[:i] + room[i + 1 :]
            for at, give in self.targets[help_used]:  # C4 the leader, C5 the partner (once)
                gave = help_used or bool(give)
                if card < WEAPON_BASE:
                    options = [False]
                    if card < heroes[at + 2]:
                        options.append(True)
                    for weapon in options:
                        after = _fight(heroes, at, card, weapon, strict)
                        move = card | give | (WITH_WEAPON if weapon else 0)
                        if after[at] > 0:
                            self._coop(rest, n - 1, after, lead, potions, gave, (*line, move), 0)
                        elif self.want_deaths:
                            self.deaths.append((after, rest, (*line, move)))
                elif card < POTION_BASE:
                    after = (*heroes[:at], heroes[at], card - WEAPON_BASE, FRESH, *heroes[at + 3 :])
                    self._coop(rest, n - 1, after, lead, potions, gave, (*line, card | give), 0)
                else:
                    who = at // 3
                    if potions[who]:  # C6: one potion per hero per room
                        after, drunk = heroes, potions
                    else:
                        healed = self.healed[heroes[at]][card - POTION_BASE]
                        after = (*heroes[:at], healed, *heroes[at + 1 :])
                        drunk = (*potions[:who], True, *potions[who + 1 :])
                    self._coop(rest, n - 1, after, lead, drunk, gave, (*line, card | give), 0)


def won_score(heroes: Heroes, last_potion: int, most: int) -> int:
    """The score of a game won with ``heroes`` (S13 with the last card's potion value and
    full health ``most``, C10)."""
    if len(heroes) == 6:
        return coop_score(True, heroes[0], heroes[3], 0, 0)
    return solo_score(True, heroes[0], last_potion, 0, 0, False, most)


def lost_score(
    heroes: Heroes, rest: tuple[int, ...], dungeon: tuple[int, ...], dungeon_only: bool
) -> int:
    """The score of a game lost with ``heroes``, ``rest`` left in the room and ``dungeon``
    still to come (S13, C10)."""
    in_dungeon = sum(c for c in dungeon if c < WEAPON_BASE)
    in_room = sum(c for c in rest if c < WEAPON_BASE)
    if len(heroes) == 6:
        return coop_score(False, heroes[0], heroes[3], in_dungeon, in_room)
    return solo_score(False, heroes[0], 0, in_dungeon, in_room, dungeon_only, MAX_HEALTH)


def healing(potions: Sequence[int], cards: int, heroes: int) -> int:
    """The most health ``potions`` (values, highest first) can still give among ``cards``
    cards left: one potion heals each hero per room (S10, C6), and every room faced from
    here resolves three cards (the last one what is left)."""
    rooms = rooms_ahead(cards)
    return sum(potions[: rooms * heroes])


def unavoidable_damage(
    monsters: Sequence[tuple[int, int]], weapons: Sequence[int], held: Sequence[int], strict: bool
) -> int:
    """Damage no line avoids: each monster left meets the best weapon that could be used
    on it, of the ``weapons`` still to come (highest first) and those ``held`` (the heroes'
    weapon values, then their reaches); in strict play no weapon slays two monsters of one
    value (S8, S9, C7). ``monsters`` are the values left with how many of each, highest
    value first (see :func:`monster_groups`)."""
    half = len(held) // 2
    damage = 0
    # The monsters fall, so a held weapon that may meet one may meet every later one: the
    # held weapons join the usable ones in order of reach, highest first, each once.
    pending: Sequence[Sequence[int]] = [held[::-1]]  # (reach, value) of each hero
    if half > 1:
        pending = sorted(zip(held[half:], held[:half], strict=True), reverse=True)
    joined = 0
    if not strict:  # the best usable weapon meets every monster
        best = weapons[0] if weapons else 0
        for monster, count in monsters:
            while joined < half and monster < pending[joined][0]:
                if pending[joined][1] > best:
                    best = pending[joined][1]
                joined += 1
            if monster > best:
                damage += (monster - best) * count
        return damage
    usable: Sequence[int] = weapons
    for monster, count in monsters:
        if joined < half and monster < pending[joined][0]:
            while joined < half and monster < pending[joined][0]:
                joined += 1
            usable = sorted((*weapons, *(value for _, value in pending[:joined])), reverse=True)
        for k in range(min(count, len(usable))):  # the k-th copy meets the k-th best
            if monster > usable[k]:
                damage += monster - usable[k]
        if count > len(usable):  # the rest meet no weapon
            damage += monster * (count - len(usable))
    return damage


def monster_groups(monsters: Iterable[int]) -> tuple[tuple[int, int], ...]:
    """Monster values with how many of each, highest first (for
    :func:`unavoidable_damage`)."""
    counts: dict[int, int] = {}
    for monster in monsters:
        counts[monster] = counts.get(monster, 0) + 1
    return tuple(sorted(counts.items(), reverse=True))


def dominates(a: Heroes, b: Heroes) -> bool:
    """Whether heroes ``a`` are at least as well off as ``b`` in every respect: health,
    weapon value and reach (a higher weapon with a higher reach does everything the other
    does, with no more damage)."""
    if a[0] < b[0] or a[1] < b[1] or a[2] < b[2]:
        return False
    return len(a) == 3 or (a[3] >= b[3] and a[4] >= b[4] and a[5] >= b[5])


def card_move(card: Card, item: int) -> Move:
    """The core move for search move ``item`` played on ``card``."""
    return move_for(card, bool(item & WITH_WEAPON), bool(item & HELP))


def room_moves(room: tuple[Card, ...], line: Line) -> list[Move]:
    """Turn a search line within one room into core moves (same-code cards alike)."""
    left = list(room)
    moves: list[Move] = []
    for item in line:
        card = next(c for c in left if code(c) == item & _CODE)
        left.remove(card)
        moves.append(card_move(card, item))
    return moves


def to_moves(state: State, line: Line) -> list[Move]:
    """Turn a search line into core moves, applying them to ``state`` as it goes (so every
    move is checked by the rules core). Same-code cards are interchangeable."""
    return replay_line(state, line)[0]


def replay_line(state: State, line: Line) -> tuple[list[Move], State]:
    """:func:`to_moves`, and the state the line ends in."""
    moves: list[Move] = []
    for item in line:
        if item == FLEE_MOVE:
            move = FLEE
        else:
            card = next(c for c in state.room if code(c) == item & _CODE)
            move = card_move(card, item)
        state = state.apply(move)
        moves.append(move)
    return moves, state
