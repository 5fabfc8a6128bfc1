"""Rulesets and their options (rules S9, S13, C3, C7, C11, V1, V2, N3).

>>> Rules.solo()
Rules(ruleset='solo', weapon='strict', death_score='standard')
>>> Rules.parse('solo', ['flee=never', 'health=14'])  # doctest: +NORMALIZE_WHITESPACE
Rules(ruleset='solo', weapon='strict', death_score='standard', flee='never', health=14)
>>> Rules.coop(easier=True)  # doctest: +NORMALIZE_WHITESPACE
Rules(ruleset='coop', weapon='lenient', easier=True, harder=False,
      silent_leader=False, first_leader=1)
>>> Rules.coop(easier=True).deck_size
50
>>> Rules.parse('coop', ['weapon=strict', 'harder=yes']).options
{'weapon': 'strict', 'easier': False, 'harder': True, 'silent_leader': False, 'first_leader': 1}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .cards import ALL_CARDS, Card, Kind
from .errors import OptionError
from .kernel import MAX_HEALTH, ROOM_SIZE, ROOM_TAKES

RULESETS = ("solo", "coop")

_WEAPON = ("strict", "lenient")
_DEATH = ("standard", "dungeon-only")
_FLEE = ("allowed", "never")
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}

#: The variants other Scoundrel games play (V1, V2), options of both rulesets, with every
#: value each takes, the default first. Interfaces offer them from here: a new variant is an
#: option here, its rule in the kernel and its catalog strings (``option.<name>``, and
#: ``option.<name>_<value>`` for a word value); no menu names one.
VARIANT_VALUES: dict[str, tuple[Any, ...]] = {
    "flee": _FLEE,
    "health": tuple(range(MAX_HEALTH, 0, -1)),
}
#: The variants' defaults. A record names a variant only when a game plays it (N3), so the
#: record of a standard game reads the same on versions that came before them.
VARIANTS: dict[str, Any] = {name: values[0] for name, values in VARIANT_VALUES.items()}

#: Each ruleset's options with their defaults (N3), in record order.
DEFAULTS: dict[str, dict[str, Any]] = {
    "solo": {"weapon": "strict", "death_score": "standard", **VARIANTS},
    "coop": {
        "weapon": "lenient",
        "easier": False,
        "harder": False,
        "silent_leader": False,
        "first_leader": 1,
        **VARIANTS,
    },
}


@dataclass(frozen=True)
class Rules:
    """A ruleset with every option settled. Build it with :meth:`solo`, :meth:`coop` or
    :meth:`parse`; the constructor checks every value."""

    ruleset: Literal["solo", "coop"] = "solo"
    weapon: str = "strict"
    death_score: str = "standard"
    easier: bool = False
    harder: bool = False
    silent_leader: bool = False
    first_leader: int = 1
    flee: str = "allowed"
    health: int = MAX_HEALTH

    def __post_init__(self) -> None:
        if self.ruleset not in RULESETS:
            raise OptionError(f"unknown ruleset {self.ruleset!r}: choose solo or coop")
        if self.weapon not in _WEAPON:
            raise OptionError(f"weapon must be strict or lenient, not {self.weapon!r}")
        if self.death_score not in _DEATH:
            raise OptionError(
                f"death_score must be standard or dungeon-only, not {self.death_score!r}"
            )
        for name in ("easier", "harder", "silent_leader"):
            if not isinstance(getattr(self, name), bool):
                raise OptionError(f"{name} must be true or false, not {getattr(self, name)!r}")
        if type(self.first_leader) is not int or self.first_leader not in (1, 2):
            raise OptionError(f"first_leader must be 1 or 2, not {self.first_leader!r}")
        if self.flee not in _FLEE:
            raise OptionError(f"flee must be allowed or never, not {self.flee!r}")
        if type(self.health) is not int or self.health not in VARIANT_VALUES["health"]:
            raise OptionError(
                f"health must be a whole number from 1 to {MAX_HEALTH}, not {self.health!r}"
            )
        if self.ruleset == "solo":
            for name in ("easier", "harder", "silent_leader"):
                if getattr(self, name):
                    raise OptionError(f"{name} is a co-op option; solo does not have it")
            if self.first_leader != 1:
                raise OptionError("first_leader is a co-op option; solo has one hero")
        elif self.death_score != "standard":
            raise OptionError("death_score is a solo option; co-op scores a loss by C10")

    def __repr__(self) -> str:
        options = ", ".join(f"{key}={value!r}" for key, value in self.options.items())
        return f"Rules(ruleset={self.ruleset!r}, {options})"

    @classmethod
    def solo(
        cls,
        weapon: str = "strict",
        death_score: str = "standard",
        flee: str = "allowed",
        health: int = MAX_HEALTH,
    ) -> Rules:
        """The solo ruleset (S1-S13), and the variants V1, V2."""
        return cls("solo", weapon=weapon, death_score=death_score, flee=flee, health=health)

    @classmethod
    def coop(
        cls,
        weapon: str = "lenient",
        easier: bool = False,
        harder: bool = False,
        silent_leader: bool = False,
        first_leader: int = 1,
        flee: str = "allowed",
        health: int = MAX_HEALTH,
    ) -> Rules:
        """The co-op ruleset, "Scoundrel for two" (C1-C11), and the variants V1, V2."""
        return cls(
            "coop",
            weapon=weapon,
            easier=easier,
            harder=harder,
            silent_leader=silent_leader,
            first_leader=first_leader,
            flee=flee,
            health=health,
        )

    @classmethod
    def from_options(cls, ruleset: str, options: Mapping[str, Any] | None = None) -> Rules:
        """Rules from a record's ``options`` object (N3); omitted options take defaults."""
        if ruleset not in DEFAULTS:
            raise OptionError(f"unknown ruleset {ruleset!r}: choose solo or coop")
        values = dict(DEFAULTS[ruleset])
        for key, value in (options or {}).items():
            if key not in values:
                known = ", ".join(DEFAULTS[ruleset])
                raise OptionError(f"unknown {ruleset} option {key!r}: the options are {known}")
            values[key] = value
        return cls(ruleset, **values)  # type: ignore[arg-type]

    @classmethod
    def parse(cls, ruleset: str, pairs: Iterable[str] = ()) -> Rules:
        """Rules from ``key=value`` strings, as typed on a command line."""
        options: dict[str, Any] = {}
        defaults = DEFAULTS.get(ruleset)
        if defaults is None:
            raise OptionError(f"unknown ruleset {ruleset!r}: choose solo or coop")
        for pair in pairs:
            key, sep, text = pair.partition("=")
            key = key.strip().replace("-", "_")
            text = text.strip()
            if not sep or not key:
                raise OptionError(f"option {pair!r} must be written key=value, e.g. weapon=lenient")
            if key not in defaults:
                known = ", ".join(defaults)
                raise OptionError(f"unknown {ruleset} option {key!r}: the options are {known}")
            default = defaults[key]
            value: Any
            if isinstance(default, bool):
                if text.lower() in _TRUE:
                    value = True
                elif text.lower() in _FALSE:
                    value = False
                else:
                    raise OptionError(f"{key} must be true or false, not {text!r}")
            elif isinstance(default, int):
                if not text.isdigit():
                    raise OptionError(f"{key} must be a whole number, not {text!r}")
                value = int(text)
            else:
                value = text.lower()
            options[key] = value
        return cls.from_options(ruleset, options)

    @property
    def options(self) -> dict[str, Any]:
        """This ruleset's options with their values, in record order (N3): every option
        of the original rules, and a variant (V1, V2) only when it is played."""
        return {
            key: getattr(self, key)
            for key in DEFAULTS[self.ruleset]
            if key not in VARIANTS or getattr(self, key) != VARIANTS[key]
        }

    @property
    def relentless(self) -> bool:
        """Whether no room may be fled (``flee=never``, V1)."""
        return self.flee == "never"

    @property
    def variants(self) -> dict[str, Any]:
        """The variants (V1, V2) this game plays, each with its value: what a rules line
        names beside the ruleset's own options.

        >>> Rules.coop(health=14).variants
        {'health': 14}
        """
        return {key: getattr(self, key) for key in VARIANTS if getattr(self, key) != VARIANTS[key]}

    @property
    def coop_game(self) -> bool:
        return self.ruleset == "coop"

    @property
    def heroes(self) -> int:
        return 2 if self.ruleset == "coop" else 1

    @property
    def strict(self) -> bool:
        """Whether a used weapon needs a strictly weaker monster (S9, C7)."""
        return self.weapon == "strict"

    @property
    def cards(self) -> tuple[Card, ...]:
        """This ruleset's cards in canonical order (S1, C2, C11)."""
        return _deck(self.ruleset, self.easier, self.harder)

    @property
    def deck_size(self) -> int:
        return len(self.cards)

    @property
    def max_game_length(self) -> int:
        """No game of these rules has more moves than this. Every card is one move, and a
        flee (S5) is one more: the room after a flee must be faced, and facing it (S6)
        takes 3 cards and deals 3 more from the dungeon, so a dungeon of ``n`` cards left
        after the first room allows at most ``ceil(n / 3)`` flees; the final room (S4) none.
        Solo: 44 + 14 = 58; co-op: 52 + 16 = 68."""
        after_first = self.deck_size - ROOM_SIZE
        return self.deck_size - -after_first // ROOM_TAKES

    @property
    def score_range(self) -> tuple[int, int]:
        """The lowest and highest score a game of these rules can have (S13, C10).

        The best: a solo win at full health with a 10 of hearts last (20 + 10), or a co-op
        win with both heroes at full health (20 + 20); full health is less with V2. The
        worst: a hero dies, having lost at least their starting health, so monsters worth
        at least that have left the table; every other monster counts against the score
        (and in solo a dead hero's health is what those monsters left, so the total is the
        same)."""
        monsters = sum(card.value for card in self.cards if card.is_monster)
        best = (
            self.health * 2
            if self.coop_game
            else self.health + max(card.value for card in self.cards if card.kind is Kind.POTION)
        )
        return self.health - monsters, best


_DECKS: dict[tuple[str, bool, bool], tuple[Card, ...]] = {}


def _deck(ruleset: str, easier: bool, harder: bool) -> tuple[Card, ...]:
    key = (ruleset, easier, harder)
    deck = _DECKS.get(key)
    if deck is None:
        cards = []
        for card in ALL_CARDS:
            if card.is_joker:
                if harder:  # C11 harder: two jokers, monsters of value 15
                    cards.append(card)
            elif ruleset == "solo" and card.suit in ("D", "H") and card.value > 10:
                continue  # S1: no red J/Q/K/A in solo
            elif easier and card.code in ("AH", "AD"):
                continue  # C11 easier: without the red aces
            else:
                cards.append(card)
        deck = _DECKS[key] = tuple(cards)
    return deck


def count_kinds(cards: Iterable[Card]) -> dict[Kind, int]:
    """How many monsters, weapons and potions there are among ``cards``."""
    counts = dict.fromkeys(Kind, 0)
    for card in cards:
        counts[card.kind] += 1
    return counts
