"""The rules' worked examples, as positions the core plays out (seeds 000-004).

Each example starts from a dealt position (reached by a few set-up moves from a stacked
deck) and lists the moves to show one at a time. The browser's rules page and the terminal's
rules screen both play them, so neither can disagree with the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .errors import Refusal
from .rules import Rules
from .state import State


@dataclass(frozen=True)
class Example:
    name: str
    rules: Rules
    top: tuple[str, ...]  # the first cards of the dungeon, top first
    setup: tuple[str, ...]  # moves played before the example starts
    steps: tuple[str, ...]  # the moves the example shows
    refused: str | None = None  # a move shown as not allowed at the end


EXAMPLES = (
    # seeds 003/004: 20 health, no weapon, the room 7D KS 5H 9C
    Example("room", Rules.solo(), ("7D", "KS", "5H", "9C"), (), ("7D", "KS/w", "5H")),
    Example("bare", Rules.solo(), ("7D", "KS", "5H", "9C"), (), ("KS/b",)),
    # seeds 003/004: weapon wear, K ✓ then 10 ✓ then 10 ✕ (strict)
    Example(
        "wear",
        Rules.solo(),
        ("7D", "KS", "10C", "10S", "2H", "3H", "4H"),
        (),
        ("7D", "KS/w", "10C/w"),
        refused="10S/w",
    ),
    # seeds 000/003/004: only the first potion of a room heals (16 -> 20 -> 14 -> 14)
    Example(
        "potions",
        Rules.solo(),
        ("2C", "2S", "4D", "3C", "9H", "6C", "5H"),
        ("2C/b", "2S/b", "4D"),
        ("9H", "6C/b", "5H"),
    ),
    # seed 001: 12 health and no weapon, the room 8D JS 6C 4H, the good and the bad order
    Example(
        "order_good",
        Rules.solo(),
        ("2C", "2S", "4C", "8D", "JS", "6C", "4H"),
        ("2C/b", "2S/b", "4C/b"),
        ("8D", "JS/w", "6C/w"),
    ),
    Example(
        "order_bad",
        Rules.solo(),
        ("2C", "2S", "4C", "8D", "JS", "6C", "4H"),
        ("2C/b", "2S/b", "4C/b"),
        ("8D", "6C/w", "JS/b"),
    ),
    # seed 001/S5: fleeing sends the room under the dungeon; the next room must be faced
    Example(
        "flee",
        Rules.solo(),
        ("AS", "KC", "QS", "JC", "5D", "3H", "2C", "9H"),
        (),
        ("F",),
        refused="F",
    ),
    # seed 002: Anna (hero 1) leads with 9 health and 8D that slew QC; Ben (hero 2) has 17
    # and no weapon; the room is 10D KH 6H 4S.
    Example(
        "help",
        Rules.coop(),
        ("8D", "QC", "7C", "5H", "2H", "3S", "10D", "KH", "6H", "4S"),
        # Anna: 8D, QC with it (20 -> 16), 7C bare (-> 9); 5H stays for Ben's room,
        # where Ben drinks 2H at full health, fights 3S bare (-> 17), and 5H does nothing.
        ("8D", "QC/w", "7C/b", "2H", "3S/b", "5H"),
        (">10D", "6H", "4S/b", "KH/w"),
    ),
)


def _stacked(rules: Rules, top: tuple[str, ...]) -> list[Card]:
    first = [Card(code) for code in top]
    return first + [card for card in rules.cards if card not in first]


def played(example: Example) -> tuple[list[State], Refusal | None]:
    """The example's positions, its start and one after each step, and the refusal of its
    last move shown as not allowed (if it has one)."""
    start = State.new(example.rules, _stacked(example.rules, example.top))
    states = start.replay(example.setup)[-1].replay(example.steps)
    refusal = None
    if example.refused is not None:
        refusal = states[-1].explain(example.refused)
        assert refusal is not None, f"{example.name}: {example.refused} should be refused"
    return list(states), refusal


#: The rules' sections in order, with the examples each one shows.
SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("goal", ()),
    ("deck", ()),
    ("room", ("room", "bare")),
    ("flee", ("flee",)),
    ("weapons", ()),
    ("wear", ("wear",)),
    ("potions", ("potions",)),
    ("order", ("order_good", "order_bad")),
    ("end", ()),
    ("score", ()),
    ("coop", ()),
    ("help", ("help",)),
    ("variants", ()),
    ("notation", ()),
)
