"""Helpers for the rule tests: exact decks and positions reached by legal moves.

``stacked(rules, 'KC', '7D', ...)`` is a whole dungeon that starts with the given cards (top
card first) and goes on with the ruleset's other cards in canonical order, so a test can build
any position by dealing and playing it. ``play(start, 'tokens')`` applies move tokens one by
one (each must be legal) and returns the state after the last one.
"""

from __future__ import annotations

from collections.abc import Iterable

from scoundrel.core import Card, Move, Rules, State


def stacked(rules: Rules, *codes: str) -> tuple[Card, ...]:
    """A deck of ``rules`` beginning with ``codes`` (top first), then the rest in canonical
    order (:attr:`Rules.cards`). Several codes may be given in one string: ``'7D KS 5H'``."""
    top = [Card(code) for text in codes for code in text.split()]
    if len(set(top)) != len(top):
        raise ValueError(f"a card is stacked twice: {' '.join(c.code for c in top)}")
    chosen = set(top)
    return (*top, *(card for card in rules.cards if card not in chosen))


def new(rules: Rules, *codes: str) -> State:
    """The start of a game whose dungeon is ``stacked(rules, *codes)``."""
    return State.new(rules, stacked(rules, *codes))


def play(start: State, tokens: str = "") -> State:
    """Apply white-space separated move tokens to ``start``, in order."""
    state = start
    for token in tokens.split():
        state = state.apply(token)
    return state


def moves(*tokens: str) -> set[Move]:
    """A set of moves, for comparing with ``state.legal_moves``."""
    return {Move(token) for text in tokens for token in text.split()}


def codes(cards: Iterable[Card]) -> list[str]:
    """Cards in notation, e.g. ``codes(state.room) == ['9C', '4H']``."""
    return [card.code for card in cards]


# ---------------------------------------------------------------------- whole games
#
# Dungeons built so that a whole game can be played with known moves. In each one the first
# card is never taken until the end: it is carried from room to room, so every room after
# the first is that card plus three new ones, and a room's moves take exactly the new ones.

#: Solo (44 cards): a clean clear. 10H is carried to the final room, which is 10H and 2S.
CLEAR_DECK = (
    "10H 2D 3D 4D 5D 6D 7D 8D 10D AC 2H KC QC 3H JC 10C 9C 8C 7C 6C 5C 4C 3C 2C 9D 4H "
    "AS KS 5H QS JS 6H 10S 9S 8S 7S 6S 5S 4S 3S 7H 8H 9H 2S"
)

#: The moves of rooms 1-14 of CLEAR_DECK (three cards each); room 15 is the final room.
CLEAR_ROOMS = (
    "2D 3D 4D",  # junk weapons, each replacing the last (S7)
    "5D 6D 7D",
    "8D 10D AC/w",  # 20 -> 16
    "2H KC/w QC/w",  # 16 -> 18 -> 15 -> 13
    "3H JC/w 10C/w",  # 13 -> 16 -> 15 -> 15
    "9C/w 8C/w 7C/w",
    "6C/w 5C/w 4C/w",
    "3C/w 2C/w 9D",  # 9D replaces 10D and its 13 monsters
    "4H AS/w KS/w",  # 15 -> 19 -> 14 -> 10
    "5H QS/w JS/w",  # 10 -> 15 -> 12 -> 10
    "6H 10S/w 9S/w",  # 10 -> 16 -> 15 -> 15
    "8S/w 7S/w 6S/w",
    "5S/w 4S/w 3S/w",
    "7H 8H 9H",  # 15 -> 20, then two potions without effect (S10)
)

#: Solo (44 cards): the S13 example. KC is carried to the end. Room 14 is KC 3S 2S 9S with
#: 5S the last card of the dungeon; after DEATH_MOVES the hero has 3 health and 9D (last
#: kill 2), the room is KC 9S and 9S/b kills the hero.
DEATH_DECK = (
    "KC 2D 2H 3H 3D 5H 6H 4D 7H 8H 5D 9H 10H 6D 7D 8D 10D AC KS QC JC 10C 9C 8C 7C 6C 5C "
    "4C 3C 2C 9D 4H AS QS JS 10S 8S 7S 6S 4S 3S 2S 9S 5S"
)
DEATH_MOVES = (
    "2D 2H 3H 3D 5H 6H 4D 7H 8H 5D 9H 10H 6D 7D 8D "  # rooms 1-5 at 20 health: no healing
    "10D AC/w KS/w "  # 20 -> 16 -> 13
    "QC/w JC/w 10C/w "  # 13 -> 11 -> 10
    "9C/w 8C/w 7C/w 6C/w 5C/w 4C/w "
    "3C/w 2C/w 9D "
    "4H AS/w QS/w "  # 10 -> 14 -> 9 -> 6
    "JS/w 10S/w 8S/w "  # 6 -> 4 -> 3
    "7S/w 6S/w 4S/w "
    "3S/w 2S/w"  # room 14: KC 3S 2S 9S, two of them taken; 5S is the last card
)

#: Co-op (52 cards): a clean win. 10H is carried to the final (17th) room. Hero 1 ends with
#: 10D, hero 2 with 9D; each room's help card (>) goes to the hero who does not lead.
COOP_DECK = (
    "10H 2D 3D 4D 5D 6D 7D 8D 10D 9D AS AD AC AH KC 2H KS 3H KH 4H KD QC 5H QS QH 6H QD JC "
    "7H JS JH 8H JD 10C 9H 10S 9C 8C 7C 9S 8S 7S 6C 5C 4C 6S 5S 4S 3S 3C 2C 2S"
)
COOP_ROOMS = (
    "2D 3D >4D",  # hero 1 leads
    "5D 6D >7D",  # hero 2 leads
    "8D 10D >9D",  # 1: hero 1 has 10D, hero 2 9D
    "AS/w AD/w >AC/w",  # 2: hero 2 20 -> 15 -> 10, hero 1 20 -> 16
    "AH/w KC/w >2H",  # 1: hero 1 16 -> 12 -> 9, hero 2 10 -> 12
    "KS/w 3H >KH/w",  # 2: hero 2 12 -> 8 -> 11, hero 1 9 -> 6
    "4H >KD/w QC/w",  # 1: hero 1 6 -> 10 -> 8, hero 2 11 -> 7
    "5H QS/w >QH/w",  # 2: hero 2 7 -> 12 -> 9, hero 1 8 -> 6
    "6H >QD/w JC/w",  # 1: hero 1 6 -> 12 -> 11, hero 2 9 -> 6
    "7H JS/w >JH/w",  # 2: hero 2 6 -> 13 -> 11, hero 1 11 -> 10
    "8H >JD/w 10C/w",  # 1: hero 1 10 -> 18, hero 2 11 -> 9
    "9H 10S/w >9C/w",  # 2: hero 2 9 -> 18 -> 17
    "8C/w 7C/w >9S/w",
    "8S/w 7S/w >6C/w",
    "5C/w 4C/w >6S/w",
    "5S/w 4S/w 3S/w",
)
#: The final room of COOP_DECK is 10H 3C 2C 2S, led by hero 1.
COOP_FINAL = "3C/w 2C/w >2S/w 10H"
