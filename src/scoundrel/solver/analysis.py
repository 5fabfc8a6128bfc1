"""Post-game analysis: could the deal have been won, what was the best score, and where
did the game slip? With hindsight (the solver sees every card), and fairly: the review
(:mod:`.review`) judges each move by the chance to win a player could have known.

The best reachable score can only stay the same or fall from one position of a game to the
next, so the first move after which it fell is found by bisection: a handful of searches
"can this position still reach the best score?" rather than one full search per move. The
same goes for winning: in a game that could be won and was not, the move after which no
win was left is found the same way.

The answers come in the order of what they cost. Whether the deal could be won and the
fair review come first; the move after which no win was left, the best score and the
first slip come last, within a time budget (:data:`BEST_SECONDS`): in co-op, finding the
best score of a deal and proving it can take many minutes, and an analysis should not
wait for that to say the rest.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.moves import Move
from ..core.state import State
from .review import Review, review
from .search import Cancelled, lowest_win, reach, solve

BEST_SECONDS = 60.0
"""How long (wall-clock seconds) the searches after the first may take by default: where a
lost game lost its chance to win, the best score and the first slip."""


@dataclass(frozen=True)
class Slip:
    """The first move after which the best reachable score fell (or, for
    :attr:`Analysis.win_slip`, after which the deal could no longer be won)."""

    number: int
    """The move's position in the game, counting from 1."""
    played: Move
    better: Move
    """A move that kept the best score (or a win) within reach."""
    best_before: int
    """The best reachable score before the move (for a win slip: the score of
    :attr:`better_line`)."""
    best_after: int | None
    """The best reachable score after it (``None`` for a win slip)."""
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
    best_score: int | None
    """The best score reachable from the first position; ``None`` when its search was
    stopped (see :attr:`stopped_after`)."""
    best_line: tuple[Move, ...]
    """A line from the first position to the best score; when that was not found, the
    best line found (a winning one), or none."""
    line_score: int | None
    """The score :attr:`best_line` ends with (``None`` without a line)."""
    score: int | None
    """The game's own score (``None`` while it is still being played)."""
    moves: int
    slip: Slip | None
    """``None`` if every move kept the best score within reach, or if that was not found
    (see :attr:`stopped_after`)."""
    win_slip: Slip | None
    """In a deal that could be won, the first move after which it no longer could: a game
    lost (or still being played, but lost whatever comes) that once could be won."""
    stopped_after: float | None
    """Seconds after which the searches after the first were stopped: then :attr:`slip`
    was not found (nor :attr:`best_score`, if it is ``None``; nor :attr:`win_slip`, if the
    game was lost and it is ``None``). ``None``: they all finished."""
    nodes: int
    seconds: float
    review: Review | None = None
    """The fair review, when it was asked for."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "winnable": self.winnable,
            "best_score": self.best_score,
            "best_line": " ".join(m.token for m in self.best_line),
            "line_score": self.line_score,
            "score": self.score,
            "moves": self.moves,
            "slip": self.slip.to_dict() if self.slip else None,
            "win_slip": self.win_slip.to_dict() if self.win_slip else None,
            "stopped_after": None if self.stopped_after is None else round(self.stopped_after, 1),
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
    best_seconds: float | None = BEST_SECONDS,
    deadline: float | None = None,
) -> Analysis:
    """Analyse the game that went ``moves`` from ``start``: could the deal be won, the fair
    review (with ``fair``), then where a lost game lost its chance to win, the best score
    and the first slip, whose searches stop after ``best_seconds`` (``None``: no limit) or
    at ``deadline`` (a :func:`time.monotonic` instant), whichever comes first; the analysis
    then says what it could not find.

    ``progress`` gets a stage (``win``, ``best``, ``slip``: the node count; ``review``: the
    moves judged); ``cancel`` as in :func:`~.search.solve`: it stops the whole analysis
    (:class:`~.search.Cancelled`)."""
    started = time.perf_counter()
    states = start.replay(moves)
    nodes = 0
    searching = [0]  # the nodes of the search under way, as last reported

    def tell(stage: str) -> Callable[[int], None]:
        def report(count: int) -> None:
            searching[0] = count
            if progress is not None:
                progress(stage, nodes + count)

        return report

    def turn(
        target: int, known: tuple[int, tuple[Move, ...]], stop: Callable[[], bool] | None
    ) -> tuple[int, int, tuple[Move, ...]] | None:
        """The first move (its number, from 1) after which no line reaches ``target``,
        found by bisection, with the score and line of one that reaches it from the
        position before; ``None`` if the last position still reaches it. ``known`` is a
        line reaching ``target`` from the start, with its score."""
        nonlocal nodes
        lines = {0: known}

        def holds(i: int) -> bool:
            nonlocal nodes
            score, line, count = reach(states[i], target, True, stop, tell("slip"))
            nodes += count
            searching[0] = 0
            if score is not None:
                lines[i] = score, line
            return score is not None

        if holds(len(moves)):
            return None
        low, high = 0, len(moves)
        while high - low > 1:
            middle = (low + high) // 2
            if holds(middle):
                low = middle
            else:
                high = middle
        score, line = lines[low]
        return high, score, line

    final = states[-1]
    first = solve(start, cancel=cancel, progress=tell("win"))  # could it be won at all?
    nodes += first.nodes
    searching[0] = 0

    judged = None
    if fair and moves:
        judged = review(
            start, moves, cancel, None if progress is None else lambda n: progress("review", n)
        )

    # where a lost game lost its chance to win, the best score and the first slip: within
    # the budget
    begun = time.monotonic()
    until = None if best_seconds is None else begun + best_seconds
    if deadline is not None:
        until = deadline if until is None else min(until, deadline)

    def stop() -> bool:
        if cancel is not None and cancel():
            return True
        return until is not None and time.monotonic() > until

    win_slip = None
    best: int | None = None
    best_line, line_score = first.line, first.score
    slip = None
    stopped_after = None
    try:
        if first.winnable and first.score is not None:
            found = turn(lowest_win(start.rules.coop_game), (first.score, first.line), stop)
            if found is not None:  # the game lost its chance to win there
                number, score, line = found
                win_slip = Slip(number, moves[number - 1], line[0], score, None, line)
        solution = solve(start, best=True, cancel=stop, progress=tell("best"))
        nodes += solution.nodes
        searching[0] = 0
        best = solution.best_score
        assert best is not None
        best_line, line_score = solution.line, best
        found = turn(best, (best, solution.line), stop)
        if found is not None:
            number, _, line = found
            after = solve(states[number], best=True, cancel=stop, progress=tell("slip"))
            nodes += after.nodes
            assert after.best_score is not None
            slip = Slip(number, moves[number - 1], line[0], best, after.best_score, line)
    except Cancelled:
        if cancel is not None and cancel():
            raise
        slip = None  # the best score, if found, stands
        stopped_after = time.monotonic() - begun
        nodes += searching[0]  # the stopped search's nodes, as far as it told them
    return Analysis(
        first.winnable,
        best,
        best_line,
        line_score,
        final.score,
        len(moves),
        slip,
        win_slip,
        stopped_after,
        nodes,
        time.perf_counter() - started,
        judged,
    )
