"""The solo game as a Gymnasium environment, ``scoundrel/Solo-v0``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsInt

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from scoundrel.core import Card, Observation, Rules, State, random_deal
from scoundrel.core.actions import NUM_ACTIONS
from scoundrel.rewards import illegal_penalty

from .spaces import (
    final_reward,
    judge,
    mask_array,
    observation_array,
    observation_box,
    settle,
)

Info = dict[str, Any]


class SoloEnv(gymnasium.Env[npt.NDArray[Any], np.int64]):
    """Solo Scoundrel (rules S1-S13) for one agent.

    Made with ``gymnasium.make("scoundrel/Solo-v0", weapon="lenient",
    death_score="dungeon-only")`` after ``import scoundrel.rl`` (or with the id
    ``"scoundrel.rl:scoundrel/Solo-v0"``, which imports it): the keyword arguments are the
    solo rule options, checked by :meth:`Rules.from_options` (an unknown option or value
    raises :class:`ValueError` naming it).

    * **Actions**: ``Discrete(181)``, the action ids of :mod:`scoundrel.core.actions`.
      Few are legal at a time: ``info["action_mask"]`` (``np.int8``, 1 = legal) after
      :meth:`reset` and every :meth:`step`, and :meth:`action_masks` (booleans, as
      sb3-contrib's ``MaskablePPO`` asks), both equal to :meth:`State.legal_action_mask`.
    * **Observations**: the hero's :meth:`Observation.tensor` as ``np.int16``, 164 numbers
      (see :func:`~scoundrel.rl.spaces.observation_bounds` for the bounds); they hold what a
      player sees and never the order of the dungeon.
    * **Reward**: 0 on every move, and when the game ends its final score (S13: −188 to 30
      in solo). ``reward="win"`` gives 1 for a win and 0 for a loss instead.
    * **Episode end**: ``terminated`` when the game ends (won or lost). ``truncated`` is
      always false: every game ends within :attr:`Rules.max_game_length` moves (58 in
      solo), so no time limit is needed.
    * **Illegal actions** never play another move. By default (``illegal="penalty"``) the
      episode ends at once: ``terminated`` is true, the reward is one below the lowest score
      (−189; −1 with ``reward="win"``), the observation is unchanged and
      ``info["illegal_action"]`` names the move and the rule that forbids it. That keeps
      random, unmasked exploration (and Gymnasium's ``check_env``) working. With
      ``illegal="raise"`` an illegal action raises :class:`ValueError` with the same text.
    * **Deals**: :meth:`reset` deals ``random_deal(rules, seed)`` with a seed drawn from
      ``self.np_random``, so ``reset(seed=…)`` is reproducible;
      ``reset(options={"deck": [...]})`` plays a given dungeon (cards or codes, top first).
    * ``render_mode="ansi"``: :meth:`render` returns the observation as one line of text.
    """

    # Gymnasium declares it an instance variable, so it cannot be a ClassVar here
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        render_mode: str | None = None,
        reward: str = "score",
        illegal: str = "penalty",
        **options: Any,
    ) -> None:
        self.rules: Rules = settle("solo", options, reward, illegal, render_mode)
        self.reward_kind = reward
        self.illegal = illegal
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = observation_box()
        self._state: State | None = None
        self._ended = False

    # ------------------------------------------------------------------ the Gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.int16], Info]:
        super().reset(seed=seed)
        deck: Sequence[Card | str] | None = (options or {}).get("deck")
        if deck is None:
            deck = random_deal(self.rules, int(self.np_random.integers(2**63 - 1)))
        self._state = State.new(self.rules, deck)
        self._ended = False
        return observation_array(self._state), self._info(self._state)

    def step(self, action: SupportsInt) -> tuple[npt.NDArray[np.int16], float, bool, bool, Info]:
        state = self._state
        if state is None:
            raise RuntimeError("call reset() before step()")
        if self._ended:
            raise RuntimeError("the game is over: call reset() to deal a new one")
        move, text = judge(state, action, self.illegal)
        if text is not None:
            self._ended = True
            info = self._info(state)
            info["illegal_action"] = text
            return (
                observation_array(state),
                illegal_penalty(self.rules, self.reward_kind),
                True,
                False,
                info,
            )
        state = self._state = state.apply(move)
        reward = 0.0
        if state.is_over:
            self._ended = True
            reward = final_reward(state, self.reward_kind)
        return observation_array(state), reward, state.is_over, False, self._info(state)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            gymnasium.logger.warn("render() needs render_mode='ansi'; nothing is drawn")
            return None
        return str(self.core_observation())

    # ------------------------------------------------------------------ extras

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions as booleans (for sb3-contrib's ``MaskablePPO``)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return np.array(self._state.legal_action_mask(), dtype=np.bool_)

    def core_observation(self) -> Observation:
        """What the hero sees now, as the core's :class:`Observation` (for the fair bot,
        :func:`scoundrel.rl.policies.fair_bot_action`); it holds no hidden information."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state.observation(1)

    def _info(self, state: State) -> Info:
        info: Info = {"action_mask": mask_array(state)}
        if state.is_over:
            info["score"] = state.score
        return info
