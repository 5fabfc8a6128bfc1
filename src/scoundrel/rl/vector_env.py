"""Scoundrel as a Gymnasium vector environment at the batch's speed (the ``rl`` and
``fast`` extras).

:class:`ScoundrelVectorEnv` is ``num_envs`` games in one
:class:`~scoundrel.observed_batch.ObservedBatch`: a step moves every game and writes every
observation, mask and reward in compiled code. It is ``scoundrel/Solo-v0``'s vector entry
point, so ``gymnasium.make_vec("scoundrel/Solo-v0", num_envs=4096)`` builds it; the
constructor also takes ``ruleset="coop"`` (the leading hero's view and moves, as
:class:`~scoundrel.rl.coop` leaves none to the other).

Each game follows :class:`~scoundrel.rl.solo.SoloEnv`'s conventions:

* the observation is :meth:`Observation.tensor() <scoundrel.core.Observation.tensor>`
  (164 ``int16``), ``infos["action_mask"]`` the legal action ids (181 booleans);
* the reward is 0 on every move and the final score at the end (S13, C10), or 1 for a win
  and 0 for a loss with ``reward="win"``; ``reward_scale`` multiplies it;
* an illegal action ends the game with one below the lowest score (−1 with
  ``reward="win"``) and ``infos["illegal_action"]``, or, with ``illegal="raise"``, raises
  :class:`ValueError` and no game moves.

**Auto-reset on the next step** (``metadata["autoreset_mode"]`` is
``AutoresetMode.NEXT_STEP``, as Gymnasium's own vector environments): the step that ends a
game gives its last observation, ``terminated`` and its reward (and ``infos["score"]``); the
next step ignores that game's action and deals it a new dungeon, with reward 0. Games are
never truncated. Deals are shuffled by the batch's own generator, seeded by
:meth:`reset`'s ``seed``.

``copy=False`` returns the batch's own arrays (read-only, rewritten by the next step) instead
of copies: faster, if the learner copies what it keeps.

>>> import gymnasium
>>> envs = gymnasium.make_vec("scoundrel/Solo-v0", num_envs=8)
>>> observations, infos = envs.reset(seed=0)
>>> observations.shape, infos["action_mask"].shape
((8, 164), (8, 181))
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from scoundrel.core.actions import NUM_ACTIONS
from scoundrel.observed_batch import ENDED_ILLEGAL, ENDED_LOST, ENDED_WON, ObservedBatch

from .spaces import observation_box, settle

__all__ = ["ScoundrelVectorEnv"]

Infos = dict[str, Any]


class ScoundrelVectorEnv(VectorEnv):  # type: ignore[type-arg,misc,unused-ignore]
    """``num_envs`` games of ``ruleset`` (``"solo"`` or ``"coop"``; keyword arguments are
    its rule options, as :class:`~scoundrel.rl.solo.SoloEnv` takes them)."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (Gymnasium's own declaration)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int = 1,
        ruleset: str = "solo",
        reward: str = "score",
        illegal: str = "penalty",
        reward_scale: float = 1.0,
        copy: bool = True,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if render_mode is not None:
            raise ValueError(f"the vector environment does not render: render_mode {render_mode!r}")
        whole = hasattr(num_envs, "__index__") and not isinstance(num_envs, bool)
        if not whole or operator.index(num_envs) < 1:  # NumPy's integers too
            raise ValueError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        num_envs = operator.index(num_envs)
        if ruleset not in ("solo", "coop"):
            raise ValueError(f"ruleset must be 'solo' or 'coop', not {ruleset!r}")
        self.rules = settle(ruleset, options, reward, illegal)
        self.num_envs = num_envs
        self.render_mode = None
        self.copy = copy
        self.single_observation_space = observation_box()
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._games = ObservedBatch(self.rules, num_envs, reward, illegal, reward_scale)
        self._everywhere = np.ones(num_envs, dtype=np.bool_)
        self._everywhere.flags.writeable = False
        self._truncated = np.zeros(num_envs, dtype=np.bool_)
        self._truncated.flags.writeable = False
        self._started = False

    @property
    def games(self) -> ObservedBatch:
        """The batch being played (its arrays are read-only)."""
        return self._games

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array

    def _infos(self) -> Infos:
        """The masks, and where the last step ended a game, its score or its illegal action
        (never after a reset, which ends none)."""
        games = self._games
        infos: Infos = {
            "action_mask": self._out(games.masks),
            "_action_mask": self._out(self._everywhere),
        }
        finished = (games.ended == ENDED_WON) | (games.ended == ENDED_LOST)
        if finished.any():
            infos["score"] = self._out(games.scores)
            infos["_score"] = finished
        illegal = games.ended == ENDED_ILLEGAL
        if illegal.any():
            infos["illegal_action"] = illegal
            infos["_illegal_action"] = illegal
        return infos

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.int16], Infos]:
        """Deal every game a new dungeon; ``seed`` seeds the batch's shuffles (one number;
        Gymnasium's list of seeds is taken by its first)."""
        if options:
            raise ValueError(f"reset takes no options here, not {sorted(options)}")
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        if seed is not None:
            self._np_random_seed = int(seed)
        self._games.reset(seed)
        self._started = True
        return self._out(self._games.observations), self._infos()

    def step(
        self, actions: npt.NDArray[Any] | Any
    ) -> tuple[
        npt.NDArray[np.int16],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        Infos,
    ]:
        """One action id per game (ignored where the game ended on the last step)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        games = self._games
        games.step(actions)
        return (
            self._out(games.observations),
            self._out(games.rewards),
            self._out(games.terminated),
            self._out(self._truncated),
            self._infos(),
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """(num_envs, 181) the legal action ids of each game (as sb3-contrib asks)."""
        return self._games.masks.copy()
