"""What a player can see (the observation), and nothing more.

A player sees the room, both heroes (health, weapon and its stack, potion used), who leads,
how many cards lie in the dungeon, which cards have not been seen yet (a player who counts
cards knows that set, but never its order), and the cards known to lie at the bottom of the
dungeon because they were fled from, in order. Fair bots and interfaces work from this.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from operator import attrgetter

from .cards import Card, Kind
from .moves import Move
from .rules import Rules
from .state import Hero, State, Status


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


_index = attrgetter("index")


def observe(state: State, viewer: int = 1) -> Observation:
    """The observation of ``state`` for hero ``viewer`` (1 or 2)."""
    heroes = state.heroes
    if viewer not in range(1, len(heroes) + 1):
        state.hero(viewer)  # raises ValueError, naming the ruleset
    known = state.known_bottom
    count = state.dungeon_count
    hidden = state.dungeon[: count - len(known)]
    return Observation(
        rules=state.rules,
        viewer=viewer,
        status=state.status,
        heroes=heroes,
        leader=state.leader,
        room=state.room,
        dungeon_count=count,
        unseen=tuple(sorted(hidden, key=_index)),
        known_bottom=known,
        discard=state.discard,
        final_room=state.final_room,
        resolved_in_room=state.resolved_in_room,
        help_used=state.help_used,
        legal_moves=state.legal_moves,
        score=state.score,
    )
