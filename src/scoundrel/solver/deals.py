"""The solver over a range of seeded deals: how many could be won, and which could not
(``scoundrel solve --seed S --games N``, spread over processes or a Ray cluster)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..core.deal import random_deal
from ..core.rules import Rules
from ..core.state import State
from .bot import wilson
from .search import solve


@dataclass(frozen=True)
class Solved:
    """The solver's verdict on one deal."""

    seed: int
    winnable: bool
    best_score: int | None
    """With ``best``: the best reachable score."""
    nodes: int
    seconds: float


def solve_deals(rules: Rules, seed: int, games: int, best: bool = False) -> list[Solved]:
    """The deals of seeds ``seed`` .. ``seed + games - 1``, each decided."""
    found = []
    for deal_seed in range(seed, seed + games):
        solution = solve(State.new(rules, random_deal(rules, deal_seed)), best=best)
        found.append(
            Solved(
                deal_seed, solution.winnable, solution.best_score, solution.nodes, solution.seconds
            )
        )
    return found


@dataclass(frozen=True)
class DealsReport:
    """What the solver found over a range of deals, in the order of their seeds."""

    rules: Rules
    deals: tuple[Solved, ...]

    @classmethod
    def of(cls, rules: Rules, parts: Iterable[list[Solved]]) -> DealsReport:
        return cls(rules, tuple(sorted((s for part in parts for s in part), key=_seed)))

    @property
    def winnable(self) -> int:
        return sum(s.winnable for s in self.deals)

    @property
    def unwinnable(self) -> list[int]:
        return [s.seed for s in self.deals if not s.winnable]

    @property
    def mean_best(self) -> float | None:
        scores = [s.best_score for s in self.deals if s.best_score is not None]
        return sum(scores) / len(scores) if scores else None

    def to_dict(self) -> dict[str, Any]:
        low, high = wilson(self.winnable, len(self.deals))
        mean = self.mean_best
        return {
            "ruleset": self.rules.ruleset,
            "options": self.rules.options,
            "seeds": [self.deals[0].seed, self.deals[-1].seed],
            "deals": len(self.deals),
            "winnable": self.winnable,
            "share": round(self.winnable / len(self.deals), 5),
            "ci95": [round(low, 5), round(high, 5)],
            "unwinnable": self.unwinnable,
            "mean_best_score": None if mean is None else round(mean, 3),
            "nodes": sum(s.nodes for s in self.deals),
            "seconds": round(sum(s.seconds for s in self.deals), 2),
        }


def _seed(solved: Solved) -> int:
    return solved.seed
