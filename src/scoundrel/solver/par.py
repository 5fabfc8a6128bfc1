"""The par of a deal: how a strong fair player does on it, and whether it can be won at all.

After the dungeon of the day a player wants to know how good their score was. Two yardsticks
answer, both worked out from the deal alone (never from anyone's game):

* **winnable**: whether the deal can be won by a player who sees every card (the solver,
  :func:`~.search.solve`); ``None`` when the solver could not decide in the time it had;
* **the par**: the score of the searching bot (:class:`~.searcher.SearchBot`) playing the
  deal fair, from observations only, as a player does. The bot's playouts are seeded by
  what it sees, so the par of a deal is the same every time it is worked out.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scoundrel.core import State, Status

from .bot import Player, play_game
from .search import Cancelled, solve
from .searcher import SearchBot

#: How long the solver may take to decide whether a deal can be won (a co-op deal may need
#: minutes; most solo deals take a tenth of a second).
SOLVE_SECONDS = 60.0


@dataclass(frozen=True)
class Par:
    """A deal's par: the fair bot's score and whether it won, and whether the deal can be
    won seeing every card (``None``: not decided in the solver's time)."""

    score: int
    won: bool
    winnable: bool | None

    def to_dict(self) -> dict[str, Any]:
        return {"score": self.score, "won": self.won, "winnable": self.winnable}


def par(
    state: State,
    cancel: Callable[[], bool] | None = None,
    progress: Callable[[str, int], None] | None = None,
    solve_seconds: float = SOLVE_SECONDS,
    bot: Player | None = None,
) -> Par:
    """The par of the game that starts at ``state``. ``cancel`` is polled throughout and
    raises :class:`~.search.Cancelled`; ``progress`` gets the stage (``"win"`` while the
    solver decides, ``"par"`` while the bot plays) and the solver's node count or the
    moves the bot has played. ``bot`` is the fair player (default the searching bot)."""
    stop = cancel or (lambda: False)

    def report(stage: str, count: int) -> None:
        if progress is not None:
            progress(stage, count)

    deadline = time.monotonic() + solve_seconds

    def solver_stop() -> bool:
        if stop():
            raise Cancelled
        return time.monotonic() > deadline

    winnable: bool | None
    try:
        winnable = solve(
            state, cancel=solver_stop, progress=lambda nodes: report("win", nodes)
        ).winnable
    except Cancelled:
        if stop():
            raise
        winnable = None  # out of time: not decided
    played = 0
    report("par", played)

    def each(_position: State) -> None:
        nonlocal played
        if stop():
            raise Cancelled
        played += 1
        report("par", played)

    # the co-op playouts keep to the judgement: asking the solver at their known ends plays
    # better but takes a minute or two a game, more than a busy server's analysis time
    end = play_game(bot or SearchBot(known_ends=False), state, each)
    assert end.score is not None
    return Par(end.score, end.status is Status.WON, winnable)
