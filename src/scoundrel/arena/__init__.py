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
from .log import Deal, Log, LogError
from .policies import NAMES, PolicyError, load

__all__ = [
    "ALPHA",
    "HELD_OUT",
    "NAMES",
    "Certificate",
    "Log",
    "LogError",
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
    log: Log | None = None,
) -> list[Standing]:
    """Every policy of ``policies`` (names or ``module:callable``) on the deals of seeds
    ``seed`` .. ``seed + games - 1``, as dealt and reshuffled, spread over ``jobs``
    processes or the Ray cluster at ``ray`` (:mod:`scoundrel.spread`); ``progress`` is told
    how many games of all have been played. With a ``log`` (:mod:`.log`) the games it
    already holds are not played again, and every chunk is kept in it as it is played."""
    if games < 1:
        raise ValueError("the arena plays at least one deal")
    for spec in policies:
        load(spec, rules)  # a policy that cannot be made is named before any game
    if log is not None:
        log.check()
    modules = [spec.partition(":")[0] for spec in policies if spec not in NAMES]
    slow = ("search", "search128")
    most = 10 if any(spec in slow or spec not in NAMES for spec in policies) else 250
    seeds = range(seed, seed + games)
    found: dict[tuple[int, bool], dict[int, Deal]] = {}
    missing: list[tuple[int, bool, list[int]]] = []
    for number, spec in enumerate(policies):
        for reshuffle in (False, True):
            kept = {} if log is None else log.games(spec, rules, reshuffle)
            found[number, reshuffle] = {s: kept[s] for s in seeds if s in kept}
            missing.append((number, reshuffle, [s for s in seeds if s not in kept]))
    played = sum(len(deals) for deals in found.values())
    if progress is not None and played:
        progress(played)
    left = sum(len(m) for _, _, m in missing)
    with Spread(jobs, ray if left else None, modules) as where:  # a whole log needs no cluster
        size = chunk_size(left, where.workers, most)
        work: list[Work] = sorted(
            (
                (number, policies[number], rules, first, count, reshuffle)
                for number, reshuffle, seeds_left in missing
                for start, length in _runs(seeds_left)
                for first, count in chunks(start, length, size)
            ),
            key=lambda piece: (piece[3], piece[0], piece[5]),
        )
        for number, reshuffle, outcomes in where.map(_play, work):
            if log is not None:
                log.keep(policies[number], rules, reshuffle, outcomes)
            deals = found[number, reshuffle]
            share = outcomes.seconds / len(outcomes.won)
            for i, (won, score) in enumerate(zip(outcomes.won, outcomes.scores, strict=True)):
                deals[outcomes.seed + i] = (won, score, share)
            played += len(outcomes.won)
            if progress is not None:
                progress(played)
    standings = []
    for number, spec in enumerate(policies):
        runs = [_outcomes(seeds, found[number, reshuffle]) for reshuffle in (False, True)]
        standings.append(Standing(spec, Certificate(*runs)))
    return standings


def _runs(seeds: list[int]) -> list[tuple[int, int]]:
    """Increasing ``seeds`` as (first, how many) runs of consecutive ones."""
    runs: list[tuple[int, int]] = []
    for s in seeds:
        if runs and runs[-1][0] + runs[-1][1] == s:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((s, 1))
    return runs


def _outcomes(seeds: range, deals: dict[int, Deal]) -> Outcomes:
    return Outcomes(
        seeds.start,
        tuple(deals[s][0] for s in seeds),
        tuple(deals[s][1] for s in seeds),
        sum(deals[s][2] for s in seeds),
    )
