"""Typed errors of the rules core.

Every error is a :class:`ValueError`, so callers that only care about "bad input" can catch
that. The subclasses separate the questions an interface has to answer differently:

* :class:`NotationError` -- the text is not a card or a move at all (N1, N2);
* :class:`IllegalMoveError` -- the move is well formed but the rules forbid it here;
* :class:`OptionError` -- an unknown ruleset, option or option value;
* :class:`RecordError` -- a record (N3) that cannot be read or does not describe a game;
* :class:`ReplayError` -- a record whose moves stop being legal at some position (N4).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Refusal:
    """Why a move is not legal: a stable ``code`` (``game_over``, ``final_room``,
    ``relentless``, ``flee_twice``, ``flee_after_taking``, ``not_in_room``, ``no_partner``,
    ``help_used``, ``no_weapon``, ``weapon_worn`` (strict weapons), ``weapon_worn_lenient``),
    the ``rule`` id, an English ``text`` and the ``params`` a translation needs (hero, card,
    weapon, last_kill): each code is a catalog key after ``refusal.``."""

    code: str
    rule: str
    text: str
    params: dict[str, Any]


class ScoundrelError(ValueError):
    """Base class of every error raised by the rules core."""


class NotationError(ScoundrelError):
    """Text that is not valid card or move notation (rules N1, N2)."""


class IllegalMoveError(ScoundrelError):
    """A well-formed move that the rules do not allow in this position.

    ``move`` is the offending move and ``reason`` says which rule forbids it; ``refusal``
    (a :class:`Refusal`, when the rules core gave one) says it with
    a stable code and the parameters a translation needs.
    """

    def __init__(self, move: object, reason: str, refusal: Refusal | None = None) -> None:
        super().__init__(f"{move} is not legal: {reason}")
        self.move = move
        self.reason = reason
        self.refusal = refusal


class OptionError(ScoundrelError):
    """An unknown ruleset or option, or an option value that is not allowed."""


class RecordError(ScoundrelError):
    """A record (rule N3) that is not valid JSON or does not describe a game."""


class ReplayError(RecordError):
    """A move of a record that cannot be applied (rule N4).

    ``position`` counts moves from 1, ``token`` is the move (in canonical notation, or as
    written when it is not notation at all) and
    ``reason`` says what is wrong with it.
    """

    def __init__(self, position: int, token: str, reason: str) -> None:
        super().__init__(f"move {position} ({token}): {reason}")
        self.position = position
        self.token = token
        self.reason = reason


class DeckError(RecordError):
    """A deck that is not exactly the cards of its ruleset (S1, C2, C11)."""
