"""A fair game review: each move judged by the chance to win it gave up, as a player who
could not see the dungeon's order could have known it.

Before every move the searching bot (:mod:`.searcher`) weighs every legal move from the
player's observation alone. The position's chance to win is the best move's; the played
move's chance is the best way that starts with it. What a move gave up is the difference,
in points of win chance, and grades it:

=============  ==========================================
grade          points of win chance given up
=============  ==========================================
best           none: it was the searching bot's choice, or as good
good           less than 5
inaccuracy     5 to less than 10
mistake        10 to less than 20
blunder        20 or more
=============  ==========================================

Chances come from playouts over sampled orders of the unseen cards (every order when five
or fewer are left), and the same orders serve every move of a position, so two moves are
compared on the same deals. Small differences are within sampling error: that is why
"good" spans five points.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.moves import Move
from ..core.position import Status
from ..core.state import State
from .searcher import SearchBot, advice_playouts

GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")
#: Below these losses, in points of win chance, a move is good, an inaccuracy, a mistake.
THRESHOLDS = (5.0, 10.0, 20.0)


def grade(loss: float, best: bool) -> str:
    """The grade of a move that gave up ``loss`` points of win chance."""
    if best or loss <= 0:
        return "best"
    for name, limit in zip(GRADES[1:], THRESHOLDS, strict=False):
        if loss < limit:
            return name
    return "blunder"


@dataclass(frozen=True)
class Judged:
    """One move of the game, judged."""

    number: int
    """The move's place in the game, from 1."""
    played: Move
    better: Move
    """The searching bot's choice (the played move itself when it was the best)."""
    chance: float
    """The position's chance to win before the move (the best move's)."""
    played_chance: float
    grade: str
    exact: bool

    @property
    def loss(self) -> float:
        """Points of win chance the move gave up (never negative)."""
        return max(0.0, (self.chance - self.played_chance) * 100)

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.number,
            "played": self.played.token,
            "better": self.better.token,
            "chance": round(self.chance, 4),
            "played_chance": round(self.played_chance, 4),
            "loss": round(self.loss, 1),
            "grade": self.grade,
            "exact": self.exact,
        }


@dataclass(frozen=True)
class Review:
    moves: tuple[Judged, ...]
    result: float | None
    """1 for a won game, 0 for a lost one, ``None`` while it is played: the graph's end."""
    playouts: int

    @property
    def chances(self) -> tuple[float, ...]:
        """The win-chance graph: before each move, then the result."""
        graph = tuple(j.chance for j in self.moves)
        return graph if self.result is None else (*graph, self.result)

    def counts(self) -> dict[str, int]:
        return {name: sum(1 for j in self.moves if j.grade == name) for name in GRADES}

    def worst(self) -> Judged | None:
        """The move that gave up most, if any gave up anything."""
        worst = max(self.moves, key=lambda j: j.loss, default=None)
        return worst if worst is not None and worst.grade != "best" else None

    def to_dict(self) -> dict[str, Any]:
        worst = self.worst()
        return {
            "moves": [j.to_dict() for j in self.moves],
            "chances": [round(c, 4) for c in self.chances],
            "counts": self.counts(),
            "worst": worst.number if worst else None,
            "playouts": self.playouts,
            "thresholds": list(THRESHOLDS),
        }


def review(
    start: State,
    moves: Sequence[Move],
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[int], None] | None = None,
    playouts: int | None = None,
) -> Review:
    """Judge every move of the game that went ``moves`` from ``start``. ``progress`` gets
    the number of moves judged so far; ``cancel`` is polled during the playouts and raises
    :class:`~.search.Cancelled`."""
    if playouts is None:
        playouts = advice_playouts(start.rules)
    bot = SearchBot(playouts=playouts)
    states = start.replay(moves)
    judged: list[Judged] = []
    for number, (state, move) in enumerate(zip(states, moves, strict=False), start=1):
        search = bot.search(state.observation(state.leader), every_move=True, cancel=cancel)
        best = search.best
        mine = search.of(move)
        played = mine.chance if mine is not None else 0.0
        is_best = mine is not None and (mine.line[0] == best.line[0] or played >= best.chance)
        loss = max(0.0, (best.chance - played) * 100)
        judged.append(
            Judged(
                number,
                move,
                move if is_best else best.move,
                best.chance,
                played,
                grade(loss, is_best),
                best.exact,
            )
        )
        if progress is not None:
            progress(number)
    end = states[-1]
    result = None if not end.is_over else 1.0 if end.status is Status.WON else 0.0
    return Review(tuple(judged), result, playouts)
