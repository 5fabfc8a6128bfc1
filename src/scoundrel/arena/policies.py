"""The policies the arena plays: the package's own by name, or any importable
``module:callable``.

A callable is given an :class:`~scoundrel.core.Observation` (what a player sees, never the
order of the dungeon) and returns a move: a :class:`~scoundrel.core.Move` or its notation
(``"F"``, ``"8H"``, ``"7S/w"``…). An object with a ``plan(observation)`` method, as the
package's bots have, plays the moves of its plan. A class is made with no arguments first.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.errors import NotationError
from ..core.moves import Move, parse_move
from ..core.observation import Observation
from ..core.rules import Rules
from ..solver.bot import Bot, Player, RandomPlayer
from ..solver.searcher import SearchBot

NAMES = ("random", "fast", "search", "search128", "learned")
"""The package's own policies: a uniformly random legal move, the fast bot, the searching
bot (32 playouts a way), the searching bot with 128 playouts a way (stronger, about four
times slower) and the learned bot (strict solo only)."""

THOROUGH_PLAYOUTS = 128
"""The playouts a way of ``search128``."""


class PolicyError(ValueError):
    """A policy that cannot be found or made, or that chose a move it may not make."""


def named(name: str, rules: Rules) -> Player:
    """One of :data:`NAMES` for a game of ``rules``."""
    if name == "search":  # 32 playouts in every ruleset (co-op hints use fewer, to be quick)
        return SearchBot()
    if name == "search128":
        return SearchBot(playouts=THOROUGH_PLAYOUTS)
    if name == "random":
        return RandomPlayer()
    if name == "fast":
        return Bot()
    if name == "learned":
        from ..solver.learned import LearnedBot, plays

        if not plays(rules):
            standard = Rules.solo().options
            changed = [f"{k}={v}" for k, v in rules.options.items() if standard.get(k) != v]
            asked = rules.ruleset if rules.ruleset != "solo" else " ".join(changed)
            raise PolicyError(
                f"the learned bot plays strict solo with the standard options only, not {asked}"
            )
        return LearnedBot()
    raise PolicyError(f"no policy named {name!r}: give one of {', '.join(NAMES)}")


def load(spec: str, rules: Rules) -> Player:
    """The policy ``spec`` names: one of :data:`NAMES`, or ``module:callable``."""
    if spec in NAMES:
        return named(spec, rules)
    module_name, colon, attribute = spec.partition(":")
    if not colon or not module_name or not attribute:
        raise PolicyError(
            f"no policy named {spec!r}: give one of {', '.join(NAMES)}, "
            "or an importable module:callable that takes an observation"
        )
    try:
        found: Any = importlib.import_module(module_name)
    except ImportError as error:
        raise PolicyError(f"policy {spec!r}: cannot import {module_name!r} ({error})") from None
    for part in attribute.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            raise PolicyError(f"policy {spec!r}: {module_name} has no {attribute!r}") from None
    if isinstance(found, type):
        try:
            found = found()
        except Exception as error:  # whatever the class raises, named
            raise PolicyError(f"policy {spec!r}: cannot make one ({error!r})") from None
    if callable(getattr(found, "plan", None)):
        return Checked(spec, found.plan)
    if callable(found):
        return Checked(spec, lambda observation: _Single((found(observation),)))
    raise PolicyError(f"policy {spec!r} is neither callable nor has a plan method")


@dataclass(frozen=True)
class _Single:
    moves: tuple[Any, ...]


@dataclass(frozen=True)
class Planned:
    moves: tuple[Move, ...]


class Checked:
    """A policy from outside the package, whose every move is checked before it is made:
    a move it may not make stops the arena with a message naming it."""

    def __init__(self, spec: str, plan: Callable[[Observation], Any]) -> None:
        self.spec = spec
        self._plan = plan

    def plan(self, observation: Observation) -> Planned:
        chosen = getattr(self._plan(observation), "moves", None)
        if not isinstance(chosen, tuple | list) or not chosen:
            raise PolicyError(f"policy {self.spec!r} chose no move")
        moves = tuple(self._move(item) for item in chosen)
        first = moves[0]
        if first not in observation.legal_moves:
            legal = " ".join(move.token for move in observation.legal_moves)
            raise PolicyError(
                f"policy {self.spec!r} chose {first.token}, which is not allowed here "
                f"(allowed: {legal})"
            )
        return Planned(moves)

    def _move(self, item: object) -> Move:
        if isinstance(item, Move):
            return item
        if isinstance(item, str):
            try:
                return parse_move(item)
            except NotationError as error:
                raise PolicyError(f"policy {self.spec!r} chose {item!r}: {error}") from None
        raise PolicyError(
            f"policy {self.spec!r} returned {item!r}: a move or its notation (such as 'F' "
            "or '7S/w') was expected"
        )
