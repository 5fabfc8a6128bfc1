"""Exact fair play in the last rooms: the best chance any fair player has, from what a
player sees.

A fair player knows which cards are still in the dungeon but not their order (S1: it is
shuffled), apart from the rooms fled from, which lie at its bottom in a known order (S5).
Every order of the unseen cards is equally likely. With few of them left, the best chance
to win can be worked out exactly by expectimax over what the player knows: in each room
the player takes the best way through it (or the flee) knowing only the room; the next room
is dealt from the unseen cards in every way it can be, each weighed by how many orders of
the unseen cards deal it.

This is the most any fair player can do, whatever their skill: the searching bot's
playouts, by contrast, finish each order with the fast bot's judgement, and the solver
(:mod:`.search`) reads the order, which no player can.

**Counts, not chances.** A fair player's choices depend only on what they see, and the
orders of the unseen cards (as distinct cards: two cards of one value but different suits
count twice) are equally likely. So a way's chance to win is a whole number of orders over
``n!`` for ``n`` unseen cards, and its mean score a whole sum over ``n!``. The search
counts both in whole numbers (:data:`Value`), so two ways compare exactly. A way that wins
as often as another but scores more is preferred (a higher mean score at the same chance).

The order of the cards dealt into a room matters only if the room may be fled: they then
lie at the bottom of the dungeon in that order, and a later deal may take only some of
them. Rooms that cannot be fled are dealt as sets of cards.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator

from ..core.flow import under
from ..core.kernel import dealt, may_flee, next_leader, to_resolve
from ..core.rules import Rules
from .bot import Seen, Way
from .model import FLEE_MOVE, Expansion, Heroes, dominates, lost_score, won_score
from .room_search import Cancelled

Value = tuple[int, int]
"""(orders won, the sum of the scores over every order), over every order of the cards
unseen at that point."""

CARDS = 13
"""At most how many cards may be left in the dungeon (unseen and known) for the searching
bot to play exactly (:func:`fits`)."""
UNSEEN = 6
"""At most how many of them may be unseen."""
BUDGET = 30_000
"""At most how many rooms the searching bot faces in an endgame before it leaves the
position to its playouts (about a second on one core)."""


class TooBig(Exception):
    """The endgame has more positions than the budget allows."""


def fits(seen: Seen) -> bool:
    """Whether :class:`Endgame` is likely cheap enough for the searching bot at this
    position: solo, with at most :data:`UNSEEN` unseen cards and :data:`CARDS` cards left
    in the dungeon. (Co-op rooms have far more ways through; they are left to the
    playouts.)"""
    return (
        not seen.rules.coop_game
        and len(seen.unseen) <= UNSEEN
        and len(seen.unseen) + len(seen.bottom) <= CARDS
    )


class Endgame:
    """The exact value of positions with few cards left, for one game's rules (solo or
    co-op). It keeps what it worked out, so one instance serves a whole position (every
    way through the room) and the rooms after it."""

    def __init__(
        self,
        rules: Rules,
        budget: int | None = None,
        cancel: Callable[[], bool] | None = None,
    ) -> None:
        self.rules = rules
        self.coop = rules.coop_game
        self.fresh = (False,) * (2 if self.coop else 1)
        """No hero has drunk a potion in a new room (S10, C6)."""
        self.only = rules.death_score == "dungeon-only"
        self.budget = budget
        """At most how many rooms to face before giving up with :class:`TooBig`."""
        self.cancel = cancel
        """Polled every few hundred rooms: when it returns true, :class:`Cancelled`."""
        self.rooms = 0
        """How many rooms have been faced (each a room expansion)."""
        self._deals: dict[tuple[object, ...], Value] = {}
        self._faces: dict[tuple[object, ...], Value] = {}

    # ------------------------------------------------------------------ the position seen

    def orders(self, seen: Seen) -> int:
        """How many orders of the unseen cards there are: the denominator of every
        :data:`Value` of ``seen``."""
        return math.factorial(len(seen.unseen))

    def best(self, seen: Seen) -> Value:
        """The value of ``seen`` to the best fair player: the best way through the rest of
        the room, or the flee."""
        value = self._resolve(
            seen.room,
            to_resolve(len(seen.room), seen.taken, seen.final),
            seen.heroes,
            seen.leader,
            seen.potions,
            seen.help_used,
            seen.unseen,
            seen.bottom,
        )
        if seen.can_flee:
            value = max(value, self.way(seen, Way((FLEE_MOVE,), seen.heroes, (), 0, False)))
        return value

    def way(self, seen: Seen, way: Way) -> Value:
        """The value of going on from ``seen`` by ``way``, and playing on as well as a
        fair player can."""
        orders = self.orders(seen)
        if way.fatal:
            return 0, orders * lost_score(
                way.heroes, way.rest, seen.unseen + seen.bottom, self.only
            )
        if way.flee:  # S5: the room goes under the dungeon, in its order; C3: same leader
            below = under(seen.room, seen.bottom)
            return self.deal((), seen.unseen, below, seen.heroes, True, seen.leader)
        if seen.final:
            return orders, orders * won_score(way.heroes, way.last_potion, self.rules.health)
        leader = next_leader(seen.leader, self.coop)  # C3
        return self.deal(way.rest, seen.unseen, seen.bottom, way.heroes, False, leader)

    # ------------------------------------------------------------------ rooms to come

    def deal(
        self,
        carry: tuple[int, ...],
        unseen: tuple[int, ...],
        bottom: tuple[int, ...],
        heroes: Heroes,
        fled: bool,
        leader: int,
    ) -> Value:
        """The value of dealing the next room onto ``carry`` (S3, S6) and facing it as
        well as can be, led by ``leader`` (C3): ``unseen`` (sorted) lies above ``bottom``
        (in order)."""
        key = (carry, unseen, bottom, heroes, fled, leader)
        known = self._deals.get(key)
        if known is not None:
            return known
        left = len(unseen) + len(bottom)
        need = dealt(len(carry), left)
        drawn = min(need, len(unseen))
        topmost = bottom[: need - drawn]  # the unseen cards run out: known ones follow
        below = bottom[need - drawn :]
        may = may_flee(0, fled, left - need, self.rules.relentless)  # S4, S5, V1
        won = total = 0
        if may:  # the order of the room matters: fled, it lies under the dungeon so
            for order, ways, rest in _draws(unseen, drawn):
                room = carry + order + topmost
                face = self.face(tuple(sorted(room)), rest, below, heroes, leader)
                flee = self.deal((), rest, under(room, below), heroes, True, leader)
                best = max(face, flee)
                won += ways * best[0]
                total += ways * best[1]
        else:  # only which cards are dealt matters
            sets: dict[tuple[int, ...], tuple[int, tuple[int, ...]]] = {}
            for order, ways, rest in _draws(unseen, drawn):
                cards = tuple(sorted(order))
                sets[cards] = (sets[cards][0] + ways if cards in sets else ways, rest)
            for cards, (ways, rest) in sets.items():
                room = tuple(sorted(carry + cards + topmost))
                won_here, total_here = self.face(room, rest, below, heroes, leader)
                won += ways * won_here
                total += ways * total_here
        self._deals[key] = won, total
        return won, total

    def face(
        self,
        room: tuple[int, ...],
        unseen: tuple[int, ...],
        bottom: tuple[int, ...],
        heroes: Heroes,
        leader: int,
    ) -> Value:
        """The value of facing a newly dealt ``room`` (sorted), led by ``leader``, as
        well as can be, without fleeing it."""
        key = (room, unseen, bottom, heroes, leader)
        known = self._faces.get(key)
        if known is None:
            final = not unseen and not bottom  # S4
            n = to_resolve(len(room), 0, final)
            known = self._faces[key] = self._resolve(
                room, n, heroes, leader, self.fresh, False, unseen, bottom
            )
        return known

    def _resolve(
        self,
        room: tuple[int, ...],
        n: int,
        heroes: Heroes,
        leader: int,
        potions: tuple[bool, ...],
        help_used: bool,
        unseen: tuple[int, ...],
        bottom: tuple[int, ...],
    ) -> Value:
        """The value of resolving ``n`` more cards of ``room``, led by ``leader``, as
        well as can be: ``potions`` says which heroes have drunk one in it (S10, C6), and
        ``help_used`` whether the help card has been given (C5)."""
        self.rooms += 1
        if self.budget is not None and self.rooms > self.budget:
            raise TooBig
        if self.cancel is not None and not self.rooms & 255 and self.cancel():
            raise Cancelled
        rules = self.rules
        orders = math.factorial(len(unseen))
        final = not unseen and not bottom  # S4
        expansion = Expansion(rules.strict, self.coop, False, rules.health)
        expansion.run(room, n, heroes, leader, potions, help_used)
        best: Value | None = None
        if final:
            for (_, after), last in expansion.last.items():
                won = (orders, orders * won_score(after, last, rules.health))
                best = won if best is None else max(best, won)
        else:
            onwards = next_leader(leader, self.coop)  # C3
            for rest, after in _undominated(expansion.outcomes):
                value = self.deal(rest, unseen, bottom, after, False, onwards)
                best = value if best is None else max(best, value)
        if best is None or best[0] == 0:
            # nothing survives, or nothing wins: dying here may score more (S13)
            deaths = Expansion(rules.strict, self.coop, True, rules.health)
            deaths.run(room, n, heroes, leader, potions, help_used)
            dungeon = unseen + bottom
            for after, rest, _ in deaths.deaths:
                death = (0, orders * lost_score(after, rest, dungeon, self.only))
                best = death if best is None else max(best, death)
        assert best is not None  # a room always has a line, if only a fatal one
        return best


def _undominated(
    outcomes: Iterable[tuple[tuple[int, ...], Heroes]],
) -> Iterator[tuple[tuple[int, ...], Heroes]]:
    """The outcomes ``(rest, heroes)`` of a room that no other with the same card kept
    beats on health, weapon and reach."""
    kept: dict[tuple[int, ...], list[Heroes]] = {}
    for rest, after in sorted(outcomes, reverse=True):
        same = kept.setdefault(rest, [])
        if not any(dominates(other, after) for other in same):
            same.append(after)
            yield rest, after


def _draws(
    unseen: tuple[int, ...], n: int
) -> Iterator[tuple[tuple[int, ...], int, tuple[int, ...]]]:
    """Every sequence of ``n`` cards that can be drawn from ``unseen`` (sorted codes):
    (the sequence, how many sequences of distinct cards give it, the cards left, sorted)."""
    if n == 0:
        yield (), 1, unseen
        return
    previous = None
    for i, card in enumerate(unseen):
        if card == previous:
            continue
        previous = card
        count = unseen.count(card)
        rest = unseen[:i] + unseen[i + 1 :]
        for order, ways, left in _draws(rest, n - 1):
            yield (card, *order), count * ways, left


__all__ = ["BUDGET", "CARDS", "UNSEEN", "Endgame", "TooBig", "Value", "fits"]
