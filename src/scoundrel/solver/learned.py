"""The learned fair bot (``--level learned``): the fast bot's way of playing a room, judged
by an evaluation whose weights were learned by playing, not set by hand.

At each room the bot looks at the same ways to face it as the fast bot (the solver's room
expansion) and, where a flee is allowed, at sample rooms dealt from the cards it has not
seen. It scores where each way leaves the hero with a weighted sum of what a fair player
knows (:data:`FEATURES`): the fast bot's terms (health, what the weapon should still save,
the card kept, the solver's bound), and terms the fast bot does not have — how much of
the dungeon's monsters the weapon can still reach, how dear each lost point of health is
once health runs low, how much healing is left for the health missing, a kept monster
the weapon cannot reach.

The weights were learned by the cross-entropy method, a policy search
(``examples/train_learned.py``): each round plays a population of weight vectors on the
same training deals, keeps the ones that won most, and draws the next population around
them. It starts at the fast bot's hand-tuned weights, so the first round is the fast bot.
The weights ship in the package (``learned.json``, under a kilobyte); playing needs
nothing but Python.

It is trained for strict solo with the standard options, and plays only that.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.kernel import HIGHEST_VALUE, POTION_BASE, WEAPON_BASE
from ..core.observation import Observation
from ..core.rules import Rules
from .bot import SAMPLES, Bot, Choice, Judge, Weights
from .model import Heroes

WEIGHTS_FILE = "learned.json"

FEATURES: tuple[str, ...] = (
    # the fast bot's weights (bot.Weights), as it uses them
    "weapon",
    "monster",
    "potion",
    "spare_weapon",
    "flee_margin",
    "bound",
    # terms of its own
    "reachable",
    "wounds",
    "healing_left",
    "unreachable_kept",
    "weapon_value",
    "reach",
)
"""The names of the learned weights, in their order."""

HAND: tuple[float, ...] = (0.5, 0.6, 0.8, 0.85, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
"""The fast bot's weights in this form: where learning starts."""


class LearnedUnavailable(ValueError):
    """The learned bot cannot play these rules."""


def plays(rules: Rules) -> bool:
    """Whether the learned bot was trained for ``rules`` (strict solo, standard options)."""
    return rules == Rules.solo()


@dataclass(frozen=True)
class Learned:
    """Learned weights, one per name in :data:`FEATURES`, and how they were learned."""

    weights: tuple[float, ...]
    about: dict[str, Any]

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES):
            raise ValueError(f"{len(self.weights)} weights for {len(FEATURES)} features")

    @property
    def hand(self) -> Weights:
        """The part the fast bot has too."""
        return Weights(*self.weights[:6])

    @property
    def extra(self) -> tuple[float, ...]:
        return self.weights[6:]

    def judge(self, rules: Rules, leader: int, pool: tuple[int, ...]) -> Judge:
        return LearnedJudge(self, rules, leader, pool)

    @classmethod
    def load(cls, path: Path | None = None) -> Learned:
        """The weights in ``path``, or the ones in the package."""
        source = path or resources.files("scoundrel.solver").joinpath(WEIGHTS_FILE)
        data = json.loads(source.read_text("utf-8"))
        named = data.get("weights") if isinstance(data, dict) else None
        if not isinstance(named, dict):
            raise ValueError(f"{source}: no weights (an object of name: number)")
        missing = [name for name in FEATURES if name not in named]
        if missing:
            raise ValueError(f"{source}: no weight for {', '.join(missing)}")
        odd = [name for name in FEATURES if not isinstance(named[name], int | float)]
        if odd:
            raise ValueError(f"{source}: the weight of {', '.join(odd)} is not a number")
        return cls(tuple(float(named[name]) for name in FEATURES), data.get("about", {}))

    def save(self, path: Path, about: dict[str, Any] | None = None) -> None:
        data = {
            "weights": dict(zip(FEATURES, self.weights, strict=True)),
            "about": about if about is not None else self.about,
        }
        path.write_text(json.dumps(data, indent=2) + "\n", "utf-8")


@cache
def packaged() -> Learned:
    return Learned.load()


class LearnedJudge(Judge):
    """The fast bot's judge with the learned weights, and the learned terms added to the
    value of where a way leaves the hero."""

    def __init__(self, learned: Learned, rules: Rules, leader: int, pool: tuple[int, ...]) -> None:
        super().__init__(learned.hand, rules, leader, pool)
        self.extra = learned.extra
        monsters = self.pool_monsters
        # the total of the pool's monsters below each reach
        self._below = [sum(m for m in monsters if m < reach) for reach in range(HIGHEST_VALUE + 2)]
        self._healing = sum(c - POTION_BASE for c in pool if c >= POTION_BASE)

    def terms(self, heroes: Heroes, carry: Sequence[int]) -> tuple[float, ...]:
        """The learned terms of where a way leaves the hero (one hero: solo)."""
        health, weapon, reach = heroes[0], heroes[1], heroes[2]
        missing = self.most - health
        kept = carry[0] if carry else 0
        return (
            self._below[min(reach, HIGHEST_VALUE + 1)] / 10 if weapon else 0.0,
            missing * missing / self.most,
            min(missing, self._healing) / 10,
            kept / 10 if 0 < kept < WEAPON_BASE and not (weapon and kept < reach) else 0.0,
            weapon / 10,
            reach / 10 if weapon else 0.0,
        )

    def value(self, heroes: Heroes, carry: tuple[int, ...]) -> float:
        total = super().value(heroes, carry)
        for weight, term in zip(self.extra, self.terms(heroes, carry), strict=True):
            total += weight * term
        return total


class LearnedBot(Bot):
    """The learned bot: ``LearnedBot().choose(observation)`` (``learned``: the weights in
    the package unless given). The same weights serve the searching bot's playouts:
    ``SearchBot(weights=packaged())``."""

    def __init__(self, learned: Learned | None = None, samples: int = SAMPLES) -> None:
        super().__init__(learned or packaged(), samples)

    def plan(self, observation: Observation) -> Choice:
        if not plays(observation.rules):
            raise LearnedUnavailable(
                "the learned bot plays strict solo with the standard options only"
            )
        return super().plan(observation)
