"""Co-op Scoundrel ("Scoundrel for two") as a PettingZoo AEC environment."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, SupportsInt

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from scoundrel.core import Card, Observation, Rules, State, random_deal
from scoundrel.core.actions import NUM_ACTIONS
from scoundrel.rewards import illegal_penalty

from .spaces import (
    final_reward,
    judge,
    mask_array,
    mask_box,
    observation_array,
    observation_box,
    settle,
)

AGENTS = ("hero_1", "hero_2")
AgentObservation = dict[str, npt.NDArray[Any]]


def coop_env(**options: Any) -> CoopEnv:
    """A new :class:`CoopEnv`; the keyword arguments are the co-op rule options (``weapon``,
    ``easier``, ``harder``, ``silent_leader``, ``first_leader``) and ``reward``,
    ``illegal`` and ``render_mode``."""
    return CoopEnv(**options)


class CoopEnv(AECEnv):  # type: ignore[misc]
    """Co-op Scoundrel (rules C1-C11) for two agents, ``"hero_1"`` and ``"hero_2"``.

    **Whose turn it is.** In the rules one hero leads each room (C3) and takes its cards
    (C4), and the help card (C5) is the leader's choice too: the partner only deals with
    what is given, so the core has no move of the partner's. The agent selected is
    therefore always the leader (:attr:`State.leader`), who plays every move of the room,
    help cards included (``>`` actions, the partner fighting a given monster with their own
    weapon in ``>…/w``). Leadership passes after every faced room; after a flee the same
    hero leads the next room (C3), so one agent may act many times in a row.

    **Observations.** For each agent a dict: ``"observation"``, that hero's
    :meth:`Observation.tensor` (viewer = that hero, so the first six hero numbers are its
    own; ``np.int16``, 164 numbers, never the dungeon's order), and ``"action_mask"``
    (``np.int8``, 181): the legal actions for the leader, all zeros for the other hero and
    once the game is over. The action space is ``Discrete(181)`` for both.

    **Reward.** A team reward: 0 on every move and, when the game ends, the final score
    (C10: −288 to 40 with the full deck) to both agents; ``reward="win"`` gives each 1 for
    a win and 0 for a loss. Both agents are terminated at the end; nothing is ever
    truncated (a game has at most :attr:`Rules.max_game_length` moves, 68).

    **Illegal actions** never play another move: by default the game ends with both agents
    terminated and a reward one below the lowest score (−1 with ``reward="win"``), and
    ``infos[agent]["illegal_action"]`` says why; ``illegal="raise"`` raises
    :class:`ValueError` instead.

    **Deals.** ``reset(seed=…)`` seeds the environment's generator, which draws the seed of
    ``random_deal``; ``reset(options={"deck": [...]})`` plays a given dungeon.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "scoundrel_coop_v0",
        "render_modes": ["ansi"],
        "render_fps": 4,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        reward: str = "score",
        illegal: str = "penalty",
        **options: Any,
    ) -> None:
        super().__init__()
        self.rules: Rules = settle("coop", options, reward, illegal, render_mode)
        self.reward_kind = reward
        self.illegal = illegal
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation_box(), "action_mask": mask_box()})
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in AGENTS}
        self._rng: np.random.Generator | None = None
        self._state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the AEC API

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        deck: Sequence[Card | str] | None = (options or {}).get("deck")
        if deck is None:
            deck = random_deal(self.rules, int(self._rng.integers(2**63 - 1)))
        self._state = State.new(self.rules, deck)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = AGENTS[self._state.leader - 1]

    def observe(self, agent: str) -> AgentObservation:
        state = self._live()
        viewer = AGENTS.index(agent) + 1
        if agent == self.agent_selection and not state.is_over and agent in self.agents:
            mask = mask_array(state)
        else:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": observation_array(state, viewer), "action_mask": mask}

    def step(self, action: SupportsInt | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._live()
        if action is None:
            raise ValueError(f"{agent} leads and must act: None is only for a finished game")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        move, text = judge(state, action, self.illegal)
        if text is not None:
            self._end(illegal_penalty(self.rules, self.reward_kind))
            for name in self.agents:
                self.infos[name] = {"illegal_action": text}
        else:
            state = self._state = state.apply(move)
            if state.is_over:
                self._end(final_reward(state, self.reward_kind))
                for name in self.agents:
                    self.infos[name] = {"score": state.score}
            else:
                self.agent_selection = AGENTS[state.leader - 1]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            gymnasium.logger.warn("render() needs render_mode='ansi'; nothing is drawn")
            return None
        state = self._live()
        return str(state.observation(state.leader))

    def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------------ extras

    def core_observation(self, agent: str) -> Observation:
        """What ``agent`` sees now, as the core's :class:`Observation` (for the fair bot,
        :func:`scoundrel.rl.policies.fair_bot_action`); it holds no hidden information."""
        return self._live().observation(AGENTS.index(agent) + 1)

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """``observe(agent)["action_mask"]`` without the observation."""
        return self.observe(agent)["action_mask"]

    def _live(self) -> State:
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def _end(self, reward: float) -> None:
        for name in self.agents:
            self.rewards[name] = reward
            self.terminations[name] = True
