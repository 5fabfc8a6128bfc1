"""Uniform random play, to measure the rules core's speed (``scoundrel bench``).

Every game starts from a fixed seeded deal and picks uniformly among all legal moves (flee,
``/w`` and ``/b`` included) with a seeded generator, so a run is repeatable. The loop drives
the core's own move generator and move function through a :class:`~scoundrel.core.Playout`, the
way a search does; no rule is re-implemented here.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from .core import Playout, Rules, random_deal


@dataclass(frozen=True)
class BenchResult:
    games: int
    moves: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    def to_dict(self) -> dict[str, float | int]:
        return {
            "games": self.games,
            "moves": self.moves,
            "seconds": round(self.seconds, 4),
            "games_per_s": round(self.games_per_s, 1),
            "moves_per_s": round(self.moves_per_s, 1),
        }


def play_random(
    rules: Rules,
    games: int,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> BenchResult:
    """Play ``games`` random games; deals are made before the clock starts."""
    decks = [random_deal(rules, seed + i) for i in range(games)]
    rng = random.Random(seed)
    pick = rng.random
    moves = 0
    started = time.perf_counter()
    for number, deck in enumerate(decks, start=1):
        playout = Playout.deal(rules, deck)
        legal_moves = playout.legal
        step = playout.step
        while True:
            legal = legal_moves()
            if not legal:
                break
            step(legal[int(pick() * len(legal))])
            moves += 1
        if progress is not None and not number % 1000:
            progress(number)
    seconds = time.perf_counter() - started
    return BenchResult(games, moves, seconds)
