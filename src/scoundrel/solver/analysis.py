"""Post-game analysis: could the deal have been won, what was the best score, and where
did the game slip? With hindsight (the solver sees every card), and fairly: the review
(:mod:`.review`) judges each move by the chance to win a player could have known.

The best reachable score can only stay the same or fall from one position of a game to the
next, so the first move after which it fell is found by bisection: a handful of searches
"can this position still reach the best score?" rather than one full search per move.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.moves import Move
from ..core.state import State
from .review import Review, review
from .search import reach, solve


@dataclass(frozen=True)
class Slip:
    """The first move after which the best reachable score fell."""

    number: int
    """The move's position in the game, counting from 1."""
    played: Move
    better: Move
    """A move that kept the best score within reach."""
    best_before: int
    best_after: int
    better_line: tuple[Move, ...]
    """A line from the position before the slip that reaches ``best_before``."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.number,
            "played": self.played.token,
            "better": self.better.token,
            "best_before": self.best_before,
            "best_after": self.best_after,
            "better_line": " ".join(m.token for m in self.better_line),
        }


@dataclass(frozen=True)
class Analysis:
    winnable: bool
    """Whether the deal could be won from its first position."""
    best_score: int
    best_line: tuple[Move, ...]
    """A line from the first position to the best score."""
    score: int | None
    """The game's own score (``None`` while it is still being played)."""
    moves: int
    slip: Slip | None
    """``None`` if every move kept the best score within reach."""
    nodes: int
    seconds: float
    review: Review | None = None
    """The fair review, when it was asked for."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "winnable": self.winnable,
            "best_score": self.best_score,
            "best_line": " ".join(m.token for m in self.best_line),
            "score": self.score,
            "moves": self.moves,
            "slip": self.slip.to_dict() if self.slip else None,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
            "review": self.review.to_dict() if self.review else None,
        }


def analyse(
    start: State,
    moves: Sequence[Move],
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[str, int], None] | None = None,
    fair: bool = True,
) -> Analysis:
    """Analyse the game that went ``moves`` from ``start``. ``progress`` gets a stage
    (``best``, ``slip``: the node count; ``review``: the moves judged); ``cancel`` as in
    :func:`~.search.solve`. With ``fair`` the fair review is added."""
    started = time.perf_counter()
    states = start.replay(moves)
    nodes = 0

    def tell(stage: str) -> Callable[[int], None]:
        def report(count: int) -> None:
            if progress is not None:
                progress(stage, nodes + count)

        return report

    solution = solve(start, best=True, cancel=cancel, progress=tell("best"))
    nodes += solution.nodes
    best = solution.best_score
    assert best is not None

    lines = {0: solution.line}  # a line to ``best`` from each position known to hold

    def holds(i: int) -> bool:
        nonlocal nodes
        score, line, count = reach(states[i], best, True, cancel, tell("slip"))
        nodes += count
        if score is not None:
            lines[i] = line
        return score is not None

    slip = None
    if not holds(len(moves)):
        # the first position that can no longer reach ``best``: holds(0) is true
        low, high = 0, len(moves)
        while high - low > 1:
            middle = (low + high) // 2
            if holds(middle):
                low = middle
            else:
                high = middle
        line = lines[low]
        after = solve(states[high], best=True, cancel=cancel, progress=tell("slip"))
        nodes += after.nodes
        assert after.best_score is not None
        slip = Slip(high, moves[low], line[0], best, after.best_score, line)
    final = states[-1]
    judged = None
    if fair and moves:
        judged = review(
            start, moves, cancel, None if progress is None else lambda n: progress("review", n)
        )
    return Analysis(
        solution.winnable,
        best,
        solution.line,
        final.score,
        len(moves),
        slip,
        nodes,
        time.perf_counter() - started,
        judged,
    )
