"""A game: a state with its history, for play and undo.

>>> from scoundrel.core import Game, Rules
>>> game = Game(Rules.solo(), seed=3)
>>> [str(c) for c in game.state.room]
['2S', '7S', 'AS', '2C']
>>> game.play('2S/b')
Move('2S/b')
>>> game.undo()
Move('2S/b')
>>> len(game.moves)
0
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from typing import Any

from .cards import Card
from .deal import daily_deal, random_deal
from .errors import NotationError
from .moves import Move, parse_move
from .observation import Observation
from .position import Status
from .record import Record
from .rules import Rules
from .state import State


class Game:
    """A game in progress: the current :class:`State`, the moves so far, undo.

    ``Game(rules, deck)`` starts from a given dungeon (top card first); without a deck the
    dungeon is a random deal, reproducible with ``seed``.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        deck: Iterable[Card | str] | None = None,
        *,
        seed: int | None = None,
    ) -> None:
        self.rules = rules if rules is not None else Rules.solo()
        if deck is None:
            deck = random_deal(self.rules, seed)
        self._states = [State.new(self.rules, deck)]
        self._moves: list[Move] = []
        self.undos = 0
        """How many moves were taken back (interfaces mark such games)."""

    @classmethod
    def daily(
        cls, date: _dt.date | str, rules: Rules | None = None, secret: str | None = None
    ) -> Game:
        """The dungeon of the day (M2)."""
        rules = rules if rules is not None else Rules.solo()
        return cls(rules, daily_deal(rules, date, secret))

    @classmethod
    def from_record(cls, record: Record) -> Game:
        """Replay a record (N4): :class:`ReplayError` names the first move that fails."""
        game = cls(record.rules, record.deck)
        game._states = game.start.replay(record.moves)
        game._moves = list(record.moves)
        return game

    # ------------------------------------------------------------------ playing

    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def start(self) -> State:
        return self._states[0]

    @property
    def states(self) -> tuple[State, ...]:
        """The state before the first move and after each move."""
        return tuple(self._states)

    @property
    def deck(self) -> tuple[Card, ...]:
        """The initial dungeon, top card first."""
        start = self._states[0]
        return start.room + start.dungeon

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        return self.state.legal_moves

    def parse(self, text: str) -> Move:
        """A move typed by a player: notation, or its number in :attr:`legal_moves`
        (counting from 1)."""
        text = text.strip()
        if text.isascii() and text.isdigit():  # not "²", which isdigit() also accepts
            legal = self.legal_moves
            number = int(text)
            if not 1 <= number <= len(legal):
                raise NotationError(
                    f"there is no move {number}: choose 1-{len(legal)}"
                    if legal
                    else "there are no moves: the game is over"
                )
            return legal[number - 1]
        return parse_move(text)

    def play(self, move: Move | str) -> Move:
        """Apply a move (or its notation) and return it."""
        if not isinstance(move, Move):
            move = parse_move(move)
        self._states.append(self.state.apply(move))
        self._moves.append(move)
        return move

    def undo(self) -> Move:
        """Take back the last move and return it."""
        if not self._moves:
            raise IndexError("there is no move to undo")
        self._states.pop()
        self.undos += 1
        return self._moves.pop()

    # ------------------------------------------------------------------ asking

    @property
    def status(self) -> Status:
        return self.state.status

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def score(self) -> int | None:
        return self.state.score

    def observation(self, viewer: int = 1) -> Observation:
        return self.state.observation(viewer)

    @property
    def record(self) -> Record:
        return Record(self.rules, self.deck, tuple(self._moves))

    def summary(self) -> dict[str, Any]:
        """The N4 replay summary of the current position."""
        summary = self.state.summary()
        return {
            "status": summary["status"],
            "score": summary["score"],
            "moves_applied": len(self._moves),
            **{key: summary[key] for key in ("heroes", "leader", "dungeon", "room")},
        }

    def __repr__(self) -> str:
        return f"<Game {self.rules.ruleset} after {len(self._moves)} moves: {self.state!r}>"
