"""Moves and their notation (rule N2).

A :class:`Move` is an immutable value object, interned like :class:`~scoundrel.core.cards.Card`:

* ``Move('F')`` -- flee the room (S5);
* ``Move('7D')``, ``Move('5H')`` -- take a weapon or a potion;
* ``Move('KS/w')``, ``Move('KS/b')`` -- fight a monster with the weapon or bare-handed (S8);
* ``Move('>7D')``, ``Move('>KS/w')`` -- the co-op help card, given to the partner (C5).

>>> Move('ks/W')
Move('KS/w')
>>> Move('>10h') is Move('>TH')
True
>>> m = Move('KS/b'); (m.card, m.weapon, m.help)
(Card('KS'), False, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from .cards import ALL_CARDS, Card, Kind, parse_card
from .errors import NotationError


class Move:
    """One move token. Construct it from notation: ``Move('KS/w')``."""

    __slots__ = ("card", "help", "token", "weapon")

    _by_token: ClassVar[dict[str, Move]] = {}

    card: Card | None
    """The card taken, or ``None`` for a flee."""
    weapon: bool
    """``True`` for ``/w`` (fight with the weapon); ``False`` for everything else."""
    help: bool
    """``True`` if the card is the co-op help card, resolved by the partner (C5)."""
    token: str
    """Canonical notation."""

    def __new__(cls, notation: str) -> Move:
        if type(notation) is str:
            move = cls._by_token.get(notation)
            if move is not None:
                return move
        return parse_move(notation)

    @classmethod
    def _make(cls, card: Card | None, weapon: bool, help: bool) -> Move:
        if card is None:
            token = "F"
        else:
            token = (">" if help else "") + card.code
            if card.is_monster:
                token += "/w" if weapon else "/b"
        move = object.__new__(cls)
        object.__setattr__(move, "card", card)
        object.__setattr__(move, "weapon", weapon)
        object.__setattr__(move, "help", help)
        object.__setattr__(move, "token", token)
        cls._by_token[token] = move
        return move

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("moves are immutable")

    def __reduce__(self) -> tuple[type[Move], tuple[str]]:
        return (Move, (self.token,))

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: object) -> Move:
        return self

    def __repr__(self) -> str:
        return f"Move('{self.token}')"

    def __str__(self) -> str:
        return self.token

    @property
    def is_flee(self) -> bool:
        return self.card is None

    @property
    def bare_handed(self) -> bool:
        """``True`` for ``/b``: a monster fought without the weapon."""
        return self.card is not None and self.card.is_monster and not self.weapon

    def hero(self, leader: int) -> int:
        """The hero this move plays on when hero ``leader`` leads the room: the help card
        goes to the leader's partner (C5), every other move is the leader's own."""
        return 3 - leader if self.help else leader


FLEE: Move = Move._make(None, False, False)

#: For each card index: the moves that take it, in listing order. A monster has
#: (``/w``, ``/b``, ``>/w``, ``>/b``); any other card (own, help).
CARD_MOVES: tuple[tuple[Move, ...], ...] = tuple(
    (
        Move._make(card, True, False),
        Move._make(card, False, False),
        Move._make(card, True, True),
        Move._make(card, False, True),
    )
    if card.is_monster
    else (Move._make(card, False, False), Move._make(card, False, True))
    for card in ALL_CARDS
)


def move_for(card: Card, weapon: bool = False, help: bool = False) -> Move:
    """The move that takes ``card``: for a monster, with the weapon (``/w``) or not
    (``/b``); with ``help``, as the co-op help card (``>``, C5)."""
    moves = CARD_MOVES[card.index]
    if card.is_monster:
        return moves[(2 if help else 0) + (0 if weapon else 1)]
    return moves[1 if help else 0]


def parse_move(text: str) -> Move:
    """Read one move token (N2). Raises :class:`NotationError` naming what is wrong."""
    if type(text) is str:  # canonical notation (records, the database): no parsing
        move = Move._by_token.get(text)
        if move is not None:
            return move
    elif not isinstance(text, str):
        raise NotationError(f"a move must be given as text, not {type(text).__name__}")
    raw = text.strip()
    if not raw:
        raise NotationError("empty move: expected F, a card such as 7D, or a monster with /w or /b")
    if raw.upper() == "F":
        return FLEE
    help = raw.startswith(">")
    body = raw[1:].strip() if help else raw
    suffix: str | None = None
    if "/" in body:
        body, _, suffix = body.partition("/")
        suffix = suffix.strip().lower()
        if suffix not in ("w", "b"):
            raise NotationError(
                f"{text!r}: after '/' write w (with the weapon) or b (bare-handed), not {suffix!r}"
            )
    try:
        card = parse_card(body)
    except NotationError as error:
        if body.strip() == raw:
            raise
        raise NotationError(f"{text!r} is not a move: {error}") from None
    if card.kind is Kind.MONSTER:
        if suffix is None:
            raise NotationError(
                f"{text!r}: {card.code} is a monster, so say how to fight it: "
                f"{card.code}/w (with the weapon) or {card.code}/b (bare-handed)"
            )
        return move_for(card, suffix == "w", help)
    if suffix is not None:
        raise NotationError(
            f"{text!r}: {card.code} is a {card.kind.value}, and only monsters take /w or /b"
        )
    return move_for(card, help=help)


def format_moves(moves: Iterable[Move]) -> str:
    """Moves in notation separated by spaces (the moves field of a record)."""
    return " ".join(move.token for move in moves)


def parse_moves(text: str) -> tuple[Move, ...]:
    """Read white-space separated move tokens; the inverse of :func:`format_moves`."""
    return tuple(parse_move(token) for token in text.split())
