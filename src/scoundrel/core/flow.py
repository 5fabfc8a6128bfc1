"""Rooms dealt from a dungeon and fled under it, for any kind of card (rules S3-S6).

The one place that cuts a dungeon into rooms and puts a fled room under it: the state
(:class:`~scoundrel.core.State`, with :class:`~scoundrel.core.Card` objects), the solver
and the bots (with the kernel's card codes) all call :func:`deal` (or :func:`draw`, its half
that does not depend on the card kept) and :func:`flee`. Both
take and give tuples, top card first; how many cards a deal draws is the kernel's
:func:`~scoundrel.core.kernel.dealt`, which the compiled batch and the state's own deal
(from its deck, without copying the dungeon) ask too.

>>> deal((5,), (7, 8, 9, 10, 11))  # S6: the card left and three new ones
((5, 7, 8, 9), (10, 11))
>>> flee((1, 2, 3, 4), (7, 8))  # S5: the room goes under, in room order
((7, 8, 1, 2), (3, 4))
>>> deal((5,), (7,))  # the dungeon runs out: the final room holds what is left (S4)
((5, 7), ())
"""

from __future__ import annotations

from typing import TypeVar

from .kernel import dealt

_C = TypeVar("_C")


def deal(kept: tuple[_C, ...], dungeon: tuple[_C, ...]) -> tuple[tuple[_C, ...], tuple[_C, ...]]:
    """The next room and the dungeon left: the cards ``kept`` in the room first, then
    cards from the top of ``dungeon`` until the room is full (S3, S6)."""
    drawn, left = draw(len(kept), dungeon)
    return kept + drawn, left


def draw(kept: int, dungeon: tuple[_C, ...]) -> tuple[tuple[_C, ...], tuple[_C, ...]]:
    """The cards a deal turns up for a room that keeps ``kept`` cards, and the dungeon
    left (S3): for a search that deals the same dungeon after many ways through a room,
    each keeping its own card.

    >>> draw(1, (7, 8, 9, 10, 11))
    ((7, 8, 9), (10, 11))
    """
    drawn = dealt(kept, len(dungeon))
    return dungeon[:drawn], dungeon[drawn:]


def under(room: tuple[_C, ...], dungeon: tuple[_C, ...]) -> tuple[_C, ...]:
    """The dungeon with a fled ``room`` put under it, in room order (S5).

    >>> under((7, 8), (1, 2))
    (1, 2, 7, 8)
    """
    return dungeon + room


def flee(room: tuple[_C, ...], dungeon: tuple[_C, ...]) -> tuple[tuple[_C, ...], tuple[_C, ...]]:
    """Flee ``room`` (S5): it goes under ``dungeon`` in room order, and a new room is
    dealt from the top. The room and the dungeon after it."""
    return deal((), under(room, dungeon))
