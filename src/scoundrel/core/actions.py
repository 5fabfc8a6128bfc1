"""A fixed action space, for programs that choose moves by number (learning agents).

Every move of every ruleset has one action id, the same in solo and co-op: the moves that
take each card, card by card in :data:`~scoundrel.core.cards.ALL_CARDS` order, then flee.
A monster has four moves (``/w``, ``/b``, ``>/w``, ``>/b``), any other card two (its own,
``>`` the help card), so there are 36 × 4 + 18 × 2 + 1 = :data:`NUM_ACTIONS` = 181 ids. Most
are illegal in any one position; :meth:`State.legal_action_mask
<scoundrel.core.State.legal_action_mask>` says which are legal.

>>> from scoundrel.core import Move
>>> NUM_ACTIONS
181
>>> action_id("F"), move_of(180)
(180, Move('F'))
>>> move_of(action_id("KS/w"))
Move('KS/w')
"""

from __future__ import annotations

from collections.abc import Iterable

from .moves import CARD_MOVES, FLEE, Move, parse_move

#: Every move, by action id.
ACTIONS: tuple[Move, ...] = (*(move for moves in CARD_MOVES for move in moves), FLEE)
#: How many action ids there are (the same for every ruleset).
NUM_ACTIONS = len(ACTIONS)

_ID: dict[Move, int] = {move: number for number, move in enumerate(ACTIONS)}


def action_id(move: Move | str) -> int:
    """The action id of a move (or of a move's notation, N2)."""
    if not isinstance(move, Move):
        move = parse_move(move)
    return _ID[move]


def move_of(action: int) -> Move:
    """The move with this action id; ValueError for a number that is no action."""
    if type(action) is not int:
        if not hasattr(action, "__index__"):  # numpy integers are welcome, text is not
            raise ValueError(f"an action id is an integer, not {type(action).__name__}")
        action = action.__index__()
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action ids run from 0 to {NUM_ACTIONS - 1}, not {action}")
    return ACTIONS[action]


def action_mask(moves: Iterable[Move]) -> tuple[bool, ...]:
    """Which action ids are among ``moves``: a tuple of :data:`NUM_ACTIONS` booleans."""
    mask = [False] * NUM_ACTIONS
    for move in moves:
        mask[_ID[move]] = True
    return tuple(mask)


def action_ids(moves: Iterable[Move]) -> list[int]:
    """The action ids of ``moves``, in ascending order."""
    return sorted(_ID[move] for move in moves)
