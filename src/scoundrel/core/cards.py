"""Cards (rules S1, C2, C11) and their notation (rule N1).

A :class:`Card` is an immutable value object. There are exactly 54 of them (52 plus the two
jokers); ``Card('KS')`` always returns the same instance, so cards compare by identity and
are cheap to hash. Whether a card is a monster, a weapon or a potion follows from the card
alone: diamonds 2-10 are weapons, hearts 2-10 potions, every other card (clubs, spades, the
red J/Q/K/A used in co-op and the jokers) is a monster.

>>> Card('KS')
Card('KS')
>>> Card('10h') is Card('TH') is Card('10♥')
True
>>> Card('KS').value, Card('KS').kind
(13, <Kind.MONSTER: 'monster'>)
>>> str(Card('10H')), Card('10H').symbol
('10H', '10♥')
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import ClassVar

from .errors import NotationError


class Kind(enum.Enum):
    """What a card does when it is resolved."""

    MONSTER = "monster"
    WEAPON = "weapon"
    POTION = "potion"


#: Suit letters in canonical order, with their symbols and names.
SUITS = ("C", "D", "H", "S")
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_VALUES = {rank: value for value, rank in enumerate(RANKS, start=2)}
JOKER_VALUE = 15

_SYMBOL_TO_SUIT = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
_SYMBOL_TO_SUIT.update({"♧": "C", "♢": "D", "♡": "H", "♤": "S"})


class Card:
    """One playing card. Construct it from notation: ``Card('7D')``, ``Card('RJ')``."""

    __slots__ = ("code", "index", "is_monster", "kind", "rank", "suit", "value")

    _by_code: ClassVar[dict[str, Card]] = {}

    code: str
    """Canonical notation, e.g. ``'10H'``, ``'KS'``, ``'RJ'``."""
    rank: str
    """``'2'``-``'10'``, ``'J'``, ``'Q'``, ``'K'``, ``'A'``, or ``'JOKER'``."""
    suit: str | None
    """``'C'``, ``'D'``, ``'H'``, ``'S'``, or ``None`` for a joker."""
    value: int
    """2-10 for number cards, J 11, Q 12, K 13, A 14, joker 15."""
    kind: Kind
    is_monster: bool
    index: int
    """Position in :data:`ALL_CARDS` (clubs, diamonds, hearts, spades, then RJ, BJ)."""

    def __new__(cls, notation: str) -> Card:
        if type(notation) is str:
            card = cls._by_code.get(notation)
            if card is not None:
                return card
        return parse_card(notation)

    @classmethod
    def _make(cls, code: str, rank: str, suit: str | None, value: int, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "code", code)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "value", value)
        if suit == "D" and value <= 10:
            kind = Kind.WEAPON
        elif suit == "H" and value <= 10:
            kind = Kind.POTION
        else:
            kind = Kind.MONSTER
        object.__setattr__(card, "kind", kind)
        object.__setattr__(card, "is_monster", kind is Kind.MONSTER)
        object.__setattr__(card, "index", index)
        cls._by_code[code] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[str]]:
        return (Card, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __repr__(self) -> str:
        return f"Card('{self.code}')"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, e.g. ``'K♠'``; jokers stay ``'RJ'`` and ``'BJ'``."""
        if self.suit is None:
            return self.code
        return self.rank + SUIT_SYMBOLS[self.suit]

    @property
    def is_joker(self) -> bool:
        return self.suit is None


def _build() -> tuple[Card, ...]:
    cards: list[Card] = []
    for suit in SUITS:
        for rank in RANKS:
            cards.append(Card._make(rank + suit, rank, suit, RANK_VALUES[rank], len(cards)))
    for code in ("RJ", "BJ"):
        cards.append(Card._make(code, "JOKER", None, JOKER_VALUE, len(cards)))
    return tuple(cards)


#: All 54 cards in canonical order.
ALL_CARDS: tuple[Card, ...] = _build()


def parse_card(text: str) -> Card:
    """Read a card in N1 notation, leniently: ``10H``, ``TH``, ``th``, ``10♥`` and ``RJ``.

    Raises :class:`NotationError` naming what is wrong.
    """
    if type(text) is str:  # canonical notation (records, the database): no parsing
        card = Card._by_code.get(text)
        if card is not None:
            return card
    elif not isinstance(text, str):
        raise NotationError(f"a card must be given as text, not {type(text).__name__}")
    raw = text.strip().replace("\ufe0f", "")
    if not raw:
        raise NotationError("empty card: expected a rank and a suit, e.g. 7D or KS")
    upper = raw.upper()
    if upper in ("RJ", "BJ"):
        return Card._by_code[upper]
    suit_char = upper[-1]
    suit = _SYMBOL_TO_SUIT.get(suit_char, suit_char)
    rank = upper[:-1]
    if rank == "T":
        rank = "10"
    if suit not in SUIT_SYMBOLS:
        raise NotationError(
            f"{text!r} is not a card: the suit must be C, D, H or S (or ♣ ♦ ♥ ♠), not {raw[-1]!r}"
        )
    if rank not in RANK_VALUES:
        shown = raw[:-1] or "nothing"
        raise NotationError(
            f"{text!r} is not a card: the rank must be 2-10, T, J, Q, K or A, not {shown!r}"
        )
    return Card._by_code[rank + suit]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in notation separated by spaces (the deck field of a record)."""
    return " ".join(card.code for card in cards)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read white-space separated cards; the inverse of :func:`format_cards`."""
    return tuple(parse_card(token) for token in text.split())
