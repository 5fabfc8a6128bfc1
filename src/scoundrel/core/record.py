"""Records (rule N3): the save format of a game, and their replay (rule N4).

A record is rules + options + the whole initial dungeon + the moves. It replays on any
version, because the deck is stored in full.

>>> from scoundrel.core import Rules, random_deal
>>> record = Record(Rules.solo(), random_deal(Rules.solo(), seed=7))
>>> Record.from_json(record.to_json()) == record
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cards import Card, format_cards, parse_cards
from .errors import NotationError, OptionError, RecordError, ReplayError
from .moves import Move, format_moves, parse_move
from .rules import Rules
from .state import State, check_deck

if TYPE_CHECKING:
    from .game import Game

FORMAT = "scoundrel-record/1"


@dataclass(frozen=True)
class Record:
    """A game as data: rules, the initial dungeon (top card first) and the moves."""

    rules: Rules
    deck: tuple[Card, ...]
    moves: tuple[Move, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "deck", tuple(self.deck))
        object.__setattr__(self, "moves", tuple(self.moves))
        check_deck(self.rules, self.deck)

    # ------------------------------------------------------------------ reading

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """A record from its JSON object. Raises :class:`RecordError` saying what is wrong,
        or :class:`ReplayError` for a move token that is not notation."""
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        fmt = data.get("format")
        if fmt != FORMAT:
            raise RecordError(f"format must be {FORMAT!r}, not {fmt!r}")
        unknown = sorted(set(data) - {"format", "ruleset", "options", "deck", "moves"})
        if unknown:
            raise RecordError(f"unknown field(s) in the record: {', '.join(unknown)}")
        ruleset = data.get("ruleset")
        if not isinstance(ruleset, str):
            raise RecordError('ruleset must be "solo" or "coop"')
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("options must be a JSON object")
        try:
            rules = Rules.from_options(ruleset, options)
        except OptionError as error:
            raise RecordError(str(error)) from None
        deck_text = data.get("deck")
        if not isinstance(deck_text, str):
            raise RecordError("deck must be a string of cards, top card first")
        try:
            deck = parse_cards(deck_text)
        except NotationError as error:
            raise RecordError(f"deck: {error}") from None
        moves_text = data.get("moves", "")
        if not isinstance(moves_text, str):
            raise RecordError("moves must be a string of move tokens")
        moves = []
        for position, token in enumerate(moves_text.split(), start=1):
            try:
                moves.append(parse_move(token))
            except NotationError as error:
                raise ReplayError(position, token, str(error)) from None
        return cls(rules, deck, tuple(moves))

    @classmethod
    def from_json(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(f"not valid JSON: {error}") from None
        except RecursionError:  # JSON nested thousands of levels deep: no record is
            raise RecordError("not a record: its JSON is nested far too deeply") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise RecordError(f"cannot read {path}: {error.strerror or error}") from None
        except UnicodeDecodeError:
            raise RecordError(f"{path} is not a UTF-8 text file") from None
        return cls.from_json(text)

    # ------------------------------------------------------------------ writing

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "ruleset": self.rules.ruleset,
            "options": self.rules.options,
            "deck": format_cards(self.deck),
            "moves": format_moves(self.moves),
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(indent=1) + "\n", encoding="utf-8")

    # ------------------------------------------------------------------ replaying

    def start(self) -> State:
        """The state before any move."""
        return State._start(self.rules, self.deck)  # the deck was checked when made

    def replay(self) -> Game:
        """The game with every move applied. Raises :class:`ReplayError` at the first move
        that is not legal, naming its position (from 1), token and reason."""
        from .game import Game

        return Game.from_record(self)

    def summary(self) -> dict[str, Any]:
        """The N4 summary of the replayed game."""
        return self.replay().summary()
