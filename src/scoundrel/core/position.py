"""The value types of a position: a game's :class:`Status`, a :class:`Hero`, a final
:class:`Score` and the :class:`Preview` of a move: what the rules decided, made by
:mod:`scoundrel.core.state` and shown by the observation. They live apart from the state so
that the modules the state imports can name them (a refusal, with the errors, likewise)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import Card
from .kernel import reaches

if TYPE_CHECKING:
    from .moves import Move


class Status(enum.StrEnum):
    """Whether the game goes on (S11, S12, C8, C9)."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


@dataclass(frozen=True)
class Hero:
    """What there is to know about one hero (C1): all of it is face up."""

    health: int
    weapon: Card | None
    stack: tuple[Card, ...]
    """Monsters slain with the current weapon, oldest first (S8)."""
    potion_used: bool
    """Whether a potion already healed (or failed to heal at 20) in this room (S10, C6)."""
    reach: int | None
    """The weapon may be used on monsters whose value is below this (S9, C7), the
    kernel's convention (:func:`~scoundrel.core.kernel.worn`); ``None`` without a weapon.
    A fresh weapon reaches every monster: 16 (:data:`~scoundrel.core.kernel.FRESH`)."""

    @property
    def last_kill(self) -> int | None:
        """The value of the last monster slain with the current weapon (N4)."""
        return self.stack[-1].value if self.stack else None

    def can_use_weapon_on(self, card: Card) -> bool:
        """Whether ``/w`` is allowed against this monster (S9, C7)."""
        return self.reach is not None and card.is_monster and reaches(self.reach, card.value)


@dataclass(frozen=True)
class Score:
    """A final score with the parts it was added up from (S13, C10).

    ``parts`` are ``(name, points)`` pairs; the names are stable keys for interfaces to
    translate: ``health``, ``health_hero1``, ``health_hero2``, ``potion_bonus``,
    ``monsters_in_dungeon``, ``monsters_in_room``.
    """

    total: int
    parts: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Preview:
    """What a move would do, for interfaces: each hero after it, and the game's status."""

    move: Move
    heroes: tuple[Hero, ...]
    damage: tuple[int, ...]
    """Health each hero would lose (negative: health gained)."""
    status: Status
