"""Solo Scoundrel as a Stable-Baselines3 ``VecEnv`` over one Numba :class:`~scoundrel.batch.Batch`.

:class:`BatchVecEnv` plays ``num_envs`` solo games at once in compiled code (the ``fast``
extra) and speaks sb3's vectorized API, so sb3-contrib's ``MaskablePPO`` trains on it
directly: it reads the masks through ``env_method("action_masks")``
(``sb3_contrib.common.maskable.utils.get_action_masks``). Each game follows
:class:`~scoundrel.rl.solo.SoloEnv`'s conventions: the observation is
:meth:`Observation.tensor() <scoundrel.core.Observation.tensor>` (computed by
:meth:`Batch.observations`), the reward 0 on every move and the final score at the end (or
1/0 with ``reward="win"``), an illegal action ends the game with one below the lowest score
(``illegal="penalty"``) or raises ``ValueError`` (``illegal="raise"``). A finished game is
dealt again at once (sb3's auto-reset): its last observation is
``infos[i]["terminal_observation"]`` and ``infos[i]["score"]`` its score.

Deals are ``random_deal(rules, seed)`` with seeds drawn from a generator seeded by
``seed`` (the constructor's, or :meth:`BatchVecEnv.seed` before :meth:`reset`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

# stable-baselines3 comes with the train extra, which CI (and its mypy run) does without
from stable_baselines3.common.vec_env import VecEnv  # type: ignore[import-not-found,unused-ignore]
from stable_baselines3.common.vec_env.base_vec_env import (  # type: ignore[import-not-found,unused-ignore]
    VecEnvIndices,
    VecEnvStepReturn,
)

from scoundrel.batch import WON, Batch
from scoundrel.core import Card, Rules, random_deal
from scoundrel.core.actions import NUM_ACTIONS
from scoundrel.rewards import illegal_penalty

from .spaces import observation_box, settle

__all__ = ["BatchVecEnv"]

_SEEDS = 2**63 - 1


class BatchVecEnv(VecEnv):  # type: ignore[misc,unused-ignore]
    """``num_envs`` solo games (keyword arguments: the solo rule options, as
    :class:`~scoundrel.rl.solo.SoloEnv` takes them) in one :class:`Batch`.

    ``scale`` (164 numbers) divides every observation, which is then ``float32`` in a
    ``Box(-1, 1)`` (give the bounds of :func:`~scoundrel.rl.spaces.observation_bounds`);
    without it observations are the ``int16`` tensors of
    :func:`~scoundrel.rl.spaces.observation_box`. ``reward_scale`` multiplies every reward.
    """

    def __init__(
        self,
        num_envs: int,
        seed: int | None = None,
        reward: str = "score",
        illegal: str = "penalty",
        scale: npt.NDArray[Any] | None = None,
        reward_scale: float = 1.0,
        **options: Any,
    ) -> None:
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        self.rules: Rules = settle("solo", options, reward, illegal)
        self.reward_kind = reward
        self.illegal = illegal
        self.render_mode: str | None = None
        self.reward_scale = float(reward_scale)
        self._scale = None if scale is None else np.asarray(scale, dtype=np.float32)
        space: spaces.Box = observation_box()
        if self._scale is not None:
            if self._scale.shape != space.shape:
                raise ValueError(f"scale must have shape {space.shape}, not {self._scale.shape}")
            space = spaces.Box(low=-1.0, high=1.0, shape=space.shape, dtype=np.float32)
        super().__init__(num_envs, space, spaces.Discrete(NUM_ACTIONS))
        self._rng = np.random.default_rng(seed)
        self._pending_seed: int | None = None
        self._penalty = illegal_penalty(self.rules, reward)
        self._batch = Batch(self.rules, self._decks(num_envs))
        self._mask: npt.NDArray[np.bool_] | None = None
        self._actions: npt.NDArray[np.int64] | None = None
        self._compile()

    def _compile(self) -> None:
        """Have Numba compile every batch function now (2-3 s, once per process), not in
        the first steps of training: no game moves, none is dealt."""
        batch = self._batch
        batch.legal_mask()
        batch.observations(1)
        batch.step(np.zeros(self.num_envs, np.int64), where=np.zeros(self.num_envs, np.bool_))
        _ = batch.score
        batch.restart(np.zeros(0, np.int64), np.zeros((0, self.rules.deck_size), np.int64))

    # ------------------------------------------------------------------ helpers

    def _decks(self, count: int) -> list[tuple[Card, ...]]:
        seeds = self._rng.integers(_SEEDS, size=count)
        return [random_deal(self.rules, int(seed)) for seed in seeds]

    def _observe(self) -> npt.NDArray[Any]:
        raw = self._batch.observations(1)
        if self._scale is None:
            return raw
        scaled: npt.NDArray[np.float32] = raw.astype(np.float32) / self._scale
        return scaled

    @property
    def batch(self) -> Batch:
        """The games being played (read them, do not move them)."""
        return self._batch

    # ------------------------------------------------------------------ the VecEnv API

    def reset(self) -> npt.NDArray[Any]:
        """Deal a new game in every slot."""
        if self._pending_seed is not None:
            self._rng = np.random.default_rng(self._pending_seed)
            self._pending_seed = None
        self._batch = Batch(self.rules, self._decks(self.num_envs))
        self._mask = None
        self._reset_seeds()
        self._reset_options()
        return self._observe()

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """The deals of the next :meth:`reset` and after come from a generator seeded
        with ``seed``."""
        if seed is None:
            seed = int(np.random.default_rng().integers(2**32))
        self._pending_seed = seed
        return [seed] * self.num_envs

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        actions = self._actions
        if actions is None:
            raise RuntimeError("call step_async() before step_wait()")
        self._actions = None
        batch = self._batch
        mask = self.action_masks()
        inside = (actions >= 0) & (actions < NUM_ACTIONS)
        legal = np.zeros(self.num_envs, dtype=np.bool_)
        legal[inside] = mask[np.flatnonzero(inside), actions[inside]]
        if not legal.all() and self.illegal == "raise":
            first = int(np.flatnonzero(~legal)[0])
            raise ValueError(f"game {first}: action {actions[first]} is illegal there")
        batch.step(np.where(legal, actions, 0), where=legal)
        self._mask = None
        status = batch.status
        over = status != 0
        if self.reward_kind == "win":
            rewards = (status == WON).astype(np.float32)
        else:
            rewards = np.where(over, batch.score, 0).astype(np.float32)
        rewards[~legal] = self._penalty
        dones = over | ~legal
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        observations = self._observe()
        if dones.any():
            scores = batch.score
            for game in np.flatnonzero(dones):
                info = infos[game]
                info["terminal_observation"] = observations[game]
                if legal[game]:
                    info["score"] = int(scores[game])
                else:
                    info["illegal_action"] = f"action {actions[game]} is illegal here"
            ended = np.flatnonzero(dones)
            batch.restart(ended, self._decks(len(ended)))
            observations = self._observe()
        return observations, rewards * np.float32(self.reward_scale), dones, infos

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ masks and attributes

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """(num_envs, 181) booleans: the legal action ids of each game."""
        if self._mask is None:
            self._mask = self._batch.legal_mask()
        return self._mask.copy()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        value = getattr(self, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """``env_method("action_masks")`` gives each game's mask (as sb3-contrib reads
        them); any other method of this object is called once for each index."""
        games: Iterable[int] = self._get_indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[game] for game in games]
        method = getattr(self, method_name)
        return [method(*method_args, **method_kwargs) for _ in games]

    def env_is_wrapped(self, wrapper_class: type[Any], indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]
