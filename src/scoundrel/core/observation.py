"""What a player can see (the observation), and nothing more.

A player sees the room, both heroes (health, weapon and its stack, potion used), who leads,
how many cards lie in the dungeon, which cards have not been seen yet (a player who counts
cards knows that set, but never its order), and the cards known to lie at the bottom of the
dungeon because they were fled from, in order. Fair bots and interfaces work from this.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from operator import attrgetter

from .cards import Card, Kind
from .moves import Move
from .position import Hero, Status
from .rules import Rules
from .state import State


@dataclass(frozen=True)
class Observation:
    """One hero's view of a position. It never contains the dungeon's hidden order."""

    rules: Rules
    viewer: int
    """The hero (1 or 2) this is for. Co-op is played with open cards, so both views agree
    but for this field."""
    status: Status
    heroes: tuple[Hero, ...]
    leader: int
    room: tuple[Card, ...]
    dungeon_count: int
    unseen: tuple[Card, ...]
    """Cards in the dungeon that have never been seen, in canonical order (not deck order)."""
    known_bottom: tuple[Card, ...]
    """Cards at the bottom of the dungeon, known because they were fled from; the last is
    the bottom card."""
    discard: tuple[Card, ...]
    final_room: bool
    resolved_in_room: int
    help_used: bool
    legal_moves: tuple[Move, ...]
    score: int | None

    @property
    def unseen_counts(self) -> dict[Kind, dict[int, int]]:
        """How many unseen cards there are of each kind and value."""
        counts: dict[Kind, dict[int, int]] = {kind: {} for kind in Kind}
        for (kind, value), count in sorted(
            Counter((c.kind, c.value) for c in self.unseen).items(), key=lambda kv: kv[0][1]
        ):
            counts[kind][value] = count
        return counts

    @property
    def can_flee(self) -> bool:
        return any(move.is_flee for move in self.legal_moves)

    def tensor(self) -> tuple[int, ...]:
        """This observation as numbers (see :func:`observation_tensor`)."""
        return observation_tensor(self)

    def __str__(self) -> str:
        return observation_string(self)


_index = attrgetter("index")


@functools.lru_cache(maxsize=4096)
def _in_order(hidden: tuple[Card, ...]) -> tuple[Card, ...]:
    """The unseen cards in canonical order. They change only when a room is dealt or fled,
    so most positions share them (sorting them was two fifths of an observation)."""
    return tuple(sorted(hidden, key=_index))


def observe(state: State, viewer: int = 1) -> Observation:
    """The observation of ``state`` for hero ``viewer`` (1 or 2)."""
    heroes = state.heroes
    if viewer not in range(1, len(heroes) + 1):
        state.hero(viewer)  # raises ValueError, naming the ruleset
    known = state.known_bottom
    count = state.dungeon_count
    hidden = state.dungeon[: count - len(known)]
    # Observation(...) with its fields set at once: the dataclass's __init__ sets a frozen
    # instance's fifteen fields one object.__setattr__ at a time, a third of the cost of
    # an observation, and the web game makes one for every position it sends.
    seen = object.__new__(Observation)
    seen.__dict__.update(
        rules=state.rules,
        viewer=viewer,
        status=state.status,
        heroes=heroes,
        leader=state.leader,
        room=state.room,
        dungeon_count=count,
        unseen=_in_order(hidden),
        known_bottom=known,
        discard=state.discard,
        final_room=state.final_room,
        resolved_in_room=state.resolved_in_room,
        help_used=state.help_used,
        legal_moves=state.legal_moves,
        score=state.score,
    )
    return seen


# ---------------------------------------------------------------------- as numbers

#: The layout of :func:`observation_tensor`: each part's name, first index and length.
#: Cards are numbered by :attr:`Card.index <scoundrel.core.Card.index>` (0-53).
TENSOR_LAYOUT: tuple[tuple[str, int, int], ...] = (
    ("room", 0, 54),  # 1 for each card in the room
    ("unseen", 54, 32),  # counts: monsters of value 2-15, weapons 2-10, potions 2-10
    ("known_bottom", 86, 54),  # per card: its place counted from the bottom (1), else 0
    ("heroes", 140, 12),  # the viewer, then the partner (zeros in solo): see HERO_FEATURES
    ("flags", 152, 12),  # see FLAGS
)
#: How many numbers :func:`observation_tensor` gives.
TENSOR_SIZE = 164
#: What each hero's six numbers are.
HERO_FEATURES = ("health", "weapon", "reach", "last_kill", "stack", "potion_used")
#: What the twelve numbers of the ``flags`` part are.
FLAGS = (
    "viewer_leads",
    "viewer",
    "dungeon_count",
    "final_room",
    "resolved_in_room",
    "help_used",
    "can_flee",
    "coop",
    "strict",
    "status",  # 0 playing, 1 won, 2 lost
    "max_health",  # the health the heroes start with and heal up to (20, or less: V2)
    "relentless",  # 1 when no room may be fled (V1)
)
_UNSEEN_BASE = {Kind.MONSTER: 54 - 2, Kind.WEAPON: 54 + 14 - 2, Kind.POTION: 54 + 23 - 2}
_STATUS_NUMBER = {Status.PLAYING: 0, Status.WON: 1, Status.LOST: 2}


def _hero_numbers(hero: Hero) -> list[int]:
    return [
        hero.health,
        0 if hero.weapon is None else hero.weapon.value,
        0 if hero.reach is None else hero.reach,
        hero.last_kill or 0,
        len(hero.stack),
        int(hero.potion_used),
    ]


def observation_tensor(seen: Observation) -> tuple[int, ...]:
    """An observation as :data:`TENSOR_SIZE` integers laid out as :data:`TENSOR_LAYOUT`
    says. It is built from the observation alone: the unseen cards are counts by kind and
    value, so the dungeon's order cannot leak into it."""
    numbers = [0] * TENSOR_SIZE
    for card in seen.room:
        numbers[card.index] = 1
    for card in seen.unseen:
        numbers[_UNSEEN_BASE[card.kind] + card.value] += 1
    for depth, card in enumerate(reversed(seen.known_bottom), start=1):
        numbers[86 + card.index] = depth
    mine = seen.viewer - 1
    order = [mine, *(i for i in range(len(seen.heroes)) if i != mine)]
    for slot, hero in enumerate(order):
        numbers[140 + 6 * slot : 146 + 6 * slot] = _hero_numbers(seen.heroes[hero])
    numbers[152:164] = [
        int(seen.leader == seen.viewer),
        seen.viewer,
        seen.dungeon_count,
        int(seen.final_room),
        seen.resolved_in_room,
        int(seen.help_used),
        int(seen.can_flee),
        int(seen.rules.coop_game),
        int(seen.rules.strict),
        _STATUS_NUMBER[seen.status],
        seen.rules.health,
        int(seen.rules.relentless),
    ]
    return tuple(numbers)


def observation_string(seen: Observation) -> str:
    """An observation as one line of text, for logs and for reading by eye."""
    parts = [f"{seen.rules.ruleset} {seen.rules.weapon}", f"hero {seen.viewer} sees"]
    parts.append("room " + (" ".join(card.code for card in seen.room) or "-"))
    for number, hero in enumerate(seen.heroes, start=1):
        lead = "*" if number == seen.leader else ""
        weapon = "-" if hero.weapon is None else hero.weapon.code
        stack = "".join(f" {card.code}" for card in hero.stack)
        potion = " potion used" if hero.potion_used else ""
        parts.append(f"hero {number}{lead} {hero.health}hp {weapon}[{stack.strip()}]{potion}")
    bottom = " ".join(card.code for card in seen.known_bottom)
    parts.append(f"dungeon {seen.dungeon_count}" + (f" bottom {bottom}" if bottom else ""))
    parts.append("unseen " + (" ".join(card.code for card in seen.unseen) or "-"))
    parts.append(seen.status.value if seen.score is None else f"{seen.status.value} {seen.score}")
    return " | ".join(parts)
