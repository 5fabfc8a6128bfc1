"""The perfect-information solver: could this deal be won, and what was the best score?

It sees the whole dungeon (it is for analysis, never for play). :func:`solve` asks the
room-by-room searches (:mod:`.room_search` for solo, :mod:`.coop_search` for co-op) for
lines reaching ever lower targets: first the top scores, then any win, and with ``best``
and no win the least bad death. The core replays every line found and is its judge.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.cards import Card, Kind
from ..core.kernel import MAX_HEALTH, coop_score, solo_score
from ..core.moves import Move, format_moves
from ..core.state import State
from .coop_search import CoopSearch
from .model import Line, Position, replay_line
from .room_search import Cancelled, RoomSearch, SoloSearch

__all__ = ["Cancelled", "Solution", "lowest_win", "reach", "solve", "win_line"]

_NEVER = -(10**6)


@dataclass(frozen=True)
class Solution:
    """What the solver found from a position."""

    winnable: bool
    best_score: int | None
    """The best reachable score, when it was asked for (``best=True``)."""
    line: tuple[Move, ...]
    """Moves from the position: a winning line, or with ``best`` the best line; empty if
    there is no win and the best was not asked for."""
    score: int | None
    """The score the line ends with (``None`` without a line)."""
    nodes: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "winnable": self.winnable,
            "best_score": self.best_score,
            "line": format_moves(self.line),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


def searcher(
    position: Position,
    target: int,
    first: bool,
    cancel: Callable[[], bool] | None,
    progress: Callable[[int], None] | None,
) -> RoomSearch:
    """The search for ``position``'s game: solo or co-op."""
    kind = CoopSearch if position.coop else SoloSearch
    return kind(position, target, first, cancel, progress)


def reach(
    state: State,
    target: int,
    first: bool = True,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[int], None] | None = None,
    ceiling: int | None = None,
) -> tuple[int | None, tuple[Move, ...], int]:
    """Search for a line from ``state`` scoring at least ``target``: the first one found
    (``first``), or the best one, knowing that nothing reaches ``ceiling``. Returns
    ``(score, line, nodes)``, the score ``None`` if there is no such line."""
    if state.is_over:
        score = state.score
        assert score is not None
        return (score, (), 0) if score >= target else (None, (), 0)
    search = searcher(Position.of(state), target, first, cancel, progress)
    if ceiling is not None:
        search.ceiling = ceiling - 1
    search.run()
    if search.best is None:
        return None, (), search.nodes
    moves, end = replay_line(state, search.best_line)
    line = tuple(moves)
    if end.score != search.best:  # the core is the judge of every line
        raise AssertionError(f"solver line scores {end.score}, not {search.best}")
    return search.best, line, search.nodes


def win_line(
    position: Position, cancel: Callable[[], bool] | None = None
) -> tuple[int, Line] | None:
    """A winning line from a position in search form, with its score (the first found,
    not the best), or ``None`` when no line wins."""
    search = searcher(position, lowest_win(position.coop), True, cancel, None)
    search.run()
    if search.best is None:
        return None
    return search.best, search.best_line


def solve(
    state: State,
    best: bool = False,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Solution:
    """Decide whether ``state`` can still be won (with a winning line), and with ``best``
    find the best reachable score and a line to it. ``cancel`` is polled now and then and
    raises :class:`Cancelled` when it returns true; ``progress`` gets the node count."""
    started = time.perf_counter()
    nodes = 0
    line: tuple[Move, ...] = ()

    def counting(n: int) -> None:
        if progress is not None:
            progress(nodes + n)

    def search(target: int, first: bool, ceiling: int | None = None) -> int | None:
        nonlocal nodes, line
        score, found, count = reach(state, target, first, cancel, counting, ceiling)
        nodes += count
        if score is not None:
            line = found
        return score

    coop = state.rules.coop_game
    win = lowest_win(coop)
    score: int | None = None
    ceiling = None
    if best and not state.is_over:
        # The top scores first: "at least 30" can only be reached at full health with a
        # potion saved for last, so such searches prune nearly everything and are quick.
        most = state.rules.health  # full health (V2)
        top = (
            coop_score(True, most, most, 0, 0)
            if coop
            else solo_score(
                True, most, max((c.value for c in _potions(state)), default=0), 0, 0, False, most
            )
        )
        for target in range(top, top - _LADDER, -1):
            score = search(target, True)
            if score is not None:
                break
            ceiling = target  # nothing scores this much: the best is below it
    if score is None:
        score = search(win, not best, ceiling)
    winnable = score is not None
    if best and not winnable:  # no win: the least bad death
        score = search(_NEVER, False)
    return Solution(
        winnable,
        score if best else None,
        line,
        score,
        nodes,
        time.perf_counter() - started,
    )


_LADDER = 10


def lowest_win(coop: bool) -> int:
    """The lowest winning score: every hero alive with 1 health (S13, C10)."""
    return coop_score(True, 1, 1, 0, 0) if coop else solo_score(True, 1, 0, 0, 0, False, MAX_HEALTH)


def _potions(state: State) -> list[Card]:
    return [c for c in (*state.room, *state.dungeon) if c.kind is Kind.POTION]
