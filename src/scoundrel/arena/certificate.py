"""The fairness certificate: does a policy play as well when the cards nobody has seen
are reshuffled before every move?

Each deal is played twice: as dealt, and with the unseen cards put in a new order after
the policy has chosen and before each move is made. For a policy that sees only
observations the two games of a deal are alike in law: from the first room on, the order
of the unseen cards is uniformly random given everything seen, in both. So the deals it
wins only as dealt and those it wins only reshuffled are equally likely, and so are the
deals where either game scores more (an exact sign test, McNemar's for the wins). A policy
that reads the hidden order wins as dealt what it loses reshuffled: the test finds it.

The certificate cannot prove a policy fair: it fails to find it reading the order. A
policy that gains a point or two of win rate from peeking needs many deals to be caught;
one that plans from the order collapses at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..solver.bot import BotResult

ALPHA = 0.001
"""A policy is certified when neither test finds the dealt games better at this level
(a fair policy is refused once in a thousand runs or less, per test)."""


@dataclass(frozen=True)
class Outcomes:
    """How a policy fared on consecutive deals: ``won[i]`` and ``scores[i]`` are the game
    of seed ``seed + i``."""

    seed: int
    won: tuple[bool, ...]
    scores: tuple[int, ...]
    seconds: float

    @property
    def result(self) -> BotResult:
        return BotResult(len(self.won), sum(self.won), sum(self.scores), self.seconds)


def sign_test(more: int, fewer: int) -> float:
    """The one-sided p-value of ``more`` against ``fewer`` when each is equally likely:
    the chance of at least ``more`` heads in ``more + fewer`` fair coin tosses."""
    n = more + fewer
    if more <= n / 2:
        return 1.0
    log_half = n * math.log(0.5)
    total = 0.0
    for k in range(more, n + 1):
        total += math.exp(_log_choose(n, k) + log_half)
    return min(1.0, total)


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


@dataclass(frozen=True)
class Certificate:
    """The two runs of one policy over the same deals, and what they show."""

    dealt: Outcomes
    reshuffled: Outcomes

    def __post_init__(self) -> None:
        if self.dealt.seed != self.reshuffled.seed or len(self.dealt.won) != len(
            self.reshuffled.won
        ):
            raise ValueError("a certificate compares the same deals")

    def _pairs(self) -> tuple[int, int, int, int]:
        won_dealt = won_reshuffled = higher_dealt = higher_reshuffled = 0
        pairs = zip(
            self.dealt.won,
            self.reshuffled.won,
            self.dealt.scores,
            self.reshuffled.scores,
            strict=True,
        )
        for won, won_again, score, score_again in pairs:
            won_dealt += won and not won_again
            won_reshuffled += won_again and not won
            higher_dealt += score > score_again
            higher_reshuffled += score_again > score
        return won_dealt, won_reshuffled, higher_dealt, higher_reshuffled

    @property
    def p_wins(self) -> float:
        """The chance of the dealt games winning this much more often by luck alone."""
        won_dealt, won_reshuffled, _, _ = self._pairs()
        return sign_test(won_dealt, won_reshuffled)

    @property
    def p_scores(self) -> float:
        """The chance of the dealt games scoring higher this often by luck alone."""
        _, _, higher_dealt, higher_reshuffled = self._pairs()
        return sign_test(higher_dealt, higher_reshuffled)

    @property
    def fair(self) -> bool:
        """Whether the policy is certified: neither test finds it reading the order."""
        return min(self.p_wins, self.p_scores) >= ALPHA

    def to_dict(self) -> dict[str, Any]:
        won_dealt, won_reshuffled, higher_dealt, higher_reshuffled = self._pairs()
        return {
            "fair": self.fair,
            "alpha": ALPHA,
            "won_only_as_dealt": won_dealt,
            "won_only_reshuffled": won_reshuffled,
            "p_wins": _rounded(self.p_wins),
            "scored_higher_as_dealt": higher_dealt,
            "scored_higher_reshuffled": higher_reshuffled,
            "p_scores": _rounded(self.p_scores),
        }


def _rounded(p: float) -> float:
    """A p-value to three significant figures (tiny ones stay tiny, not 0)."""
    return float(f"{p:.3g}")
