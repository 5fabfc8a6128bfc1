"""Policies from outside the package, for the arena's tests: fair ones, and ones that
choose badly."""

from __future__ import annotations

import time

from scoundrel.core import Move, Observation

NOT_CALLABLE = 3


def first_move(observation: Observation) -> Move:
    """Fair: the first legal move, as a Move."""
    return observation.legal_moves[0]


def illegal(observation: Observation) -> str:
    """A card that is never in a solo room."""
    return "2H" if "2H" not in {c.code for c in observation.room} else "F"


def nonsense(observation: Observation) -> str:
    return "XYZ"


def wrong_type(observation: Observation) -> int:
    return 42


def slow_first_move(observation: Observation) -> Move:
    """Fair and slow: :func:`first_move` after a short wait, so a test can stop the arena
    while it plays."""
    time.sleep(0.002)
    return observation.legal_moves[0]
