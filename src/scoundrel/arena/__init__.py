"""The arena: policies play the same held-out deals, each twice, as dealt and with the
cards nobody has seen reshuffled before every move, and each gets its win rate, 95%
interval, mean score and a fairness certificate (:mod:`.certificate`).

>>> from scoundrel.core import Rules
>>> from scoundrel.arena import arena
>>> [standing] = arena(["fast"], Rules.solo(), games=4)
>>> standing.certificate.fair
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.deal import HELD_OUT, random_deal
from ..core.errors import IllegalMoveError
from ..core.position import Status
from ..core.rules import Rules
from ..core.state import State
from ..solver.bot import Player, play_game
from ..spread import Spread, chunk_size, chunks
from .certificate import ALPHA, Certificate, Outcomes
from .policies import NAMES, PolicyError, load

__all__ = [
    "ALPHA",
    "HELD_OUT",
    "NAMES",
    "Certificate",
    "Outcomes",
    "PolicyError",
    "Standing",
    "arena",
    "play_deals",
]


@dataclass(frozen=True)
class Standing:
    """One policy's two runs over the arena's deals."""

    policy: str
    certificate: Certificate

    def to_dict(self) -> dict[str, Any]:
        return {
            "policy": self.policy,
            "dealt": self.certificate.dealt.result.to_dict(),
            "reshuffled": self.certificate.reshuffled.result.to_dict(),
            "certificate": self.certificate.to_dict(),
        }


def play_deals(player: Player, rules: Rules, seed: int, games: int, reshuffle: bool) -> Outcomes:
    """``player`` on the deals of seeds ``seed`` .. ``seed + games - 1``; with
    ``reshuffle``, the unseen cards in a new order before every move, drawn from a
    generator seeded by the deal's seed (the same run gives the same games)."""
    won: list[bool] = []
    scores: list[int] = []
    started = time.process_time()
    for deal_seed in range(seed, seed + games):
        shuffler = random.Random(f"arena reshuffle {deal_seed}") if reshuffle else None
        try:
            end = play_game(player, State.new(rules, random_deal(rules, deal_seed)), None, shuffler)
        except IllegalMoveError as error:
            raise PolicyError(f"on the deal of seed {deal_seed}: {error}") from None
        won.append(end.status is Status.WON)
        scores.append(end.score or 0)
    return Outcomes(seed, tuple(won), tuple(scores), time.process_time() - started)


Work = tuple[int, str, Rules, int, int, bool]
"""A chunk of the arena: (policy number, policy, rules, first seed, games, reshuffled?)."""


def _play(work: Work) -> tuple[int, bool, Outcomes]:
    number, spec, rules, seed, games, reshuffle = work
    return number, reshuffle, play_deals(load(spec, rules), rules, seed, games, reshuffle)


def arena(
    policies: Sequence[str],
    rules: Rules,
    games: int = 2000,
    seed: int = HELD_OUT,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    ray: str | None = None,
) -> list[Standing]:
    """Every policy of ``policies`` (names or ``module:callable``) on the deals of seeds
    ``seed`` .. ``seed + games - 1``, as dealt and reshuffled, spread over ``jobs``
    processes or the Ray cluster at ``ray`` (:mod:`scoundrel.spread`); ``progress`` is told
    how many games of all have been played."""
    if games < 1:
        raise ValueError("the arena plays at least one deal")
    for spec in policies:
        load(spec, rules)  # a policy that cannot be made is named before any game
    modules = [spec.partition(":")[0] for spec in policies if spec not in NAMES]
    slow = ("search", "search128")
    most = 10 if any(spec in slow or spec not in NAMES for spec in policies) else 250
    found: dict[tuple[int, bool], list[Outcomes]] = {}
    played = 0
    with Spread(jobs, ray, modules) as where:
        size = chunk_size(games * len(policies) * 2, where.workers, most)
        work: list[Work] = [
            (number, spec, rules, first, count, reshuffle)
            for first, count in chunks(seed, games, size)
            for number, spec in enumerate(policies)
            for reshuffle in (False, True)
        ]
        for number, reshuffle, outcomes in where.map(_play, work):
            found.setdefault((number, reshuffle), []).append(outcomes)
            played += len(outcomes.won)
            if progress is not None:
                progress(played)
    standings = []
    for number, spec in enumerate(policies):
        runs = [_joined(found[number, reshuffle]) for reshuffle in (False, True)]
        standings.append(Standing(spec, Certificate(*runs)))
    return standings


def _joined(parts: list[Outcomes]) -> Outcomes:
    parts.sort(key=lambda part: part.seed)
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total
