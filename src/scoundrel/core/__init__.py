"""The rules core of Scoundrel: standard library only, every rule in one place.

See ``docs/rules.md`` in the repository for the rule ids cited throughout (S solo, C co-op,
M modes, N notation and records).
"""

from .cards import ALL_CARDS, Card, Kind, format_cards, parse_card, parse_cards
from .deal import daily_deal, parse_date, random_deal
from .errors import (
    DeckError,
    IllegalMoveError,
    NotationError,
    OptionError,
    RecordError,
    Refusal,
    ReplayError,
    ScoundrelError,
)
from .game import Game
from .kernel import MAX_HEALTH
from .moves import FLEE, Move, format_moves, parse_move, parse_moves
from .observation import Observation
from .position import Hero, Preview, Score, Status
from .record import Record
from .rules import Rules
from .state import Playout, State

__all__ = [
    "ALL_CARDS",
    "FLEE",
    "MAX_HEALTH",
    "Card",
    "DeckError",
    "Game",
    "Hero",
    "IllegalMoveError",
    "Kind",
    "Move",
    "NotationError",
    "Observation",
    "OptionError",
    "Playout",
    "Preview",
    "Record",
    "RecordError",
    "Refusal",
    "ReplayError",
    "Rules",
    "Score",
    "ScoundrelError",
    "State",
    "Status",
    "daily_deal",
    "format_cards",
    "format_moves",
    "parse_card",
    "parse_cards",
    "parse_date",
    "parse_move",
    "parse_moves",
    "random_deal",
]
