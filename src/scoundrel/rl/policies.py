"""Baseline policies to measure agents against, each giving an action id.

* :func:`random_action`: a uniformly random legal action (the floor);
* :func:`fair_bot_action`: the project's fair bot (:class:`scoundrel.solver.Bot`), which
  plays from what a player sees, as an agent does;
* :func:`solver_action`: the perfect-information solver. It reads the dungeon's hidden
  order, so it **cheats**: an upper bound no fair agent can be expected to reach.

>>> import numpy as np
>>> from scoundrel.core import Rules, State, random_deal
>>> state = State.new(Rules.solo(), random_deal(Rules.solo(), 0))
>>> mask = np.array(state.legal_action_mask(), dtype=np.int8)
>>> random_action(mask, np.random.default_rng(0)) in state.legal_actions()
True
>>> fair_bot_action(state.observation()) in state.legal_actions()
True
>>> solver_action(state) in state.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from scoundrel.core import Observation, State
from scoundrel.core.actions import action_id
from scoundrel.solver import Bot, solve

_BOT = Bot()


def random_action(mask: npt.ArrayLike | Sequence[bool], rng: np.random.Generator) -> int:
    """A legal action chosen uniformly at random; ``mask`` marks the legal ids (as
    ``info["action_mask"]`` or ``State.legal_action_mask()`` do)."""
    legal = np.flatnonzero(np.asarray(mask))
    if legal.size == 0:
        raise ValueError("no action is legal: the game is over")
    return int(rng.choice(legal))


def fair_bot_action(observation: Observation) -> int:
    """The fair bot's move for ``observation`` (the acting hero's; in co-op the leader's),
    from :meth:`scoundrel.solver.Bot.choose`. It sees only what a player sees."""
    return action_id(_BOT.choose(observation))


def solver_action(state: State, best: bool = False) -> int:
    """The perfect-information solver's move (:func:`scoundrel.solver.solve`): the first
    move of a winning line when the game can still be won, otherwise of the least bad one;
    with ``best``, of a line to the best reachable score (slower).

    This **cheats**: it reads the order of the dungeon, which no player knows, so it is an
    upper baseline only, never a fair opponent or teacher. It searches anew at every move:
    well under a second for most solo positions, but a co-op deal can take a minute."""
    if state.is_over:
        raise ValueError("the game is over: there is no move to make")
    solution = solve(state, best=best)
    if not solution.line:  # no win: the best score, i.e. the least bad death
        solution = solve(state, best=True)
    return action_id(solution.line[0])
