"""Many games at once that answer, after every step, with what a learner needs: each game's
observation, legal-action mask, reward and whether it ended, all written in compiled code
into arrays kept from step to step (the ``fast`` extra). ``scoundrel bench --observe`` and
the Gymnasium vector environment :class:`~scoundrel.rl.vector_env.ScoundrelVectorEnv` run
on it.

It moves the games with :mod:`scoundrel.batch`'s compiled rules (themselves compiled from
:mod:`scoundrel.core.kernel`) and writes :meth:`Observation.tensor()
<scoundrel.core.Observation.tensor>` as :meth:`Batch.observations
<scoundrel.batch.Batch.observations>` does; ``tests/test_observed_batch.py`` checks every
observation, mask, reward and score against :class:`~scoundrel.core.State` over random games
of every ruleset.

**Auto-reset, on the next step** (Gymnasium's ``NEXT_STEP`` mode). The step that ends a game
returns its last observation, a zero mask, ``terminated`` and the final reward; the next
step ignores that game's action and deals it a new dungeon (reward 0). A game ends when it
is won or lost, or, with ``illegal="penalty"``, when its action is not legal (the reward is
then one below the lowest score, or −1 with ``reward="win"``, and the game is not moved).

**Deals.** New dungeons are shuffled in compiled code (Fisher–Yates with a xorshift64*
generator seeded by :meth:`ObservedBatch.reset`), uniformly over the orders of the rules'
deck: they are not :func:`~scoundrel.core.random_deal`'s seeded deals, so training never
draws the arena's held-out deals by seed. :attr:`ObservedBatch.decks` tells each game's
deal.

**Whose view.** The observation is the leading hero's (:attr:`State.leader
<scoundrel.core.State.leader>`), who makes every move (in solo, the one hero).

>>> from scoundrel.core import Rules
>>> games = ObservedBatch(Rules.solo(), 3)
>>> games.reset(seed=1)
>>> games.observations.shape, games.masks.shape, int(games.masks[0].sum())
((3, 164), (3, 181), 5)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from .batch import (
    _COLUMNS,
    _HEAD,
    _KNOWN,
    _LEADER,
    _LEFT,
    _MAX_LEGAL,
    _OBS_BOTTOM,
    _OBS_ROOM,
    _OBS_UNSEEN,
    _RING,
    _RING_MASK,
    _ROOM,
    _ROOM_N,
    _STATUS,
    _UNSEEN_AT,
    KIND,
    PLAYING,
    VALUE,
    WON,
    _advanced,
    _below,
    _inline,
    _legal,
    _njit,
    _observe_seen,
    _score,
    _seeded,
    _start,
    _start_rules,
    _step,
    play_random,
)
from .bench import BenchResult
from .core import ALL_CARDS, Card, Rules
from .core.actions import NUM_ACTIONS
from .core.observation import TENSOR_LAYOUT, TENSOR_SIZE
from .rewards import check_choices, illegal_penalty

__all__ = ["ObservedBatch", "ObservedResult", "play_observed"]

#: :attr:`ObservedBatch.ended` codes: how the game of the last step ended.
GOING, ENDED_WON, ENDED_LOST, ENDED_ILLEGAL = 0, 1, 2, 3
_UNSEEN_WIDTH = dict((name, length) for name, _, length in TENSOR_LAYOUT)["unseen"]


@_inline
def _unshow(
    state: NDArray[np.int16],
    dungeon: NDArray[np.int8],
    g: int,
    observations: NDArray[np.int16],
) -> None:
    """Clear the room's cards and the known bottom game ``g``'s observation shows, before
    the game changes (everything else of it is written whole by :func:`_show`)."""
    for i in range(state[g, _ROOM_N]):
        observations[g, _OBS_ROOM + state[g, _ROOM + i]] = 0
    head, left = state[g, _HEAD], state[g, _LEFT]
    for depth in range(1, state[g, _KNOWN] + 1):
        observations[g, _OBS_BOTTOM + dungeon[g, (head + left - depth) & _RING_MASK]] = 0


@_inline
def _show(
    state: NDArray[np.int16],
    dungeon: NDArray[np.int8],
    g: int,
    heroes: int,
    coop: bool,
    strict: bool,
    legal: NDArray[np.int16],
    legal_n: NDArray[np.int16],
    observations: NDArray[np.int16],
    masks: NDArray[np.bool_],
    decks: NDArray[np.int8],
    drawn: NDArray[np.int16],
    may_move: bool,
) -> None:
    """Write game ``g``'s observation (the leader's) and mask over what :func:`_unshow`
    left, and keep its legal ids (none unless ``may_move``: a game an illegal action
    ended keeps its position and has no move). The observation's unseen counts are kept from step to
    step: ``drawn`` says how many of the deck's cards have been taken off them."""
    # The unseen cards are the deck's last left - known cards (S5: cards are drawn from
    # the top, and the fled ones, known, lie under every card never seen): take the
    # newly drawn ones off the counts.
    size = decks.shape[1]
    unseen_left = state[g, _LEFT] - state[g, _KNOWN]
    while drawn[g] < size - unseen_left:
        card = decks[g, drawn[g]]
        observations[g, _UNSEEN_AT[KIND[card]] + VALUE[card]] -= 1
        drawn[g] += 1
    _observe_seen(state, dungeon, g, state[g, _LEADER], heroes, coop, strict, observations)
    for k in range(legal_n[g]):  # the mask holds the last legal ids, and no others
        masks[g, legal[g, k]] = False
    n = 0
    if may_move and state[g, _STATUS] == PLAYING:  # S11, S12, C8, C9: no move once over
        n = _legal(state, g, coop, legal[g])
        for k in range(n):
            masks[g, legal[g, k]] = True
    legal_n[g] = n


@_inline
def _allowed(legal: NDArray[np.int16], legal_n: NDArray[np.int16], g: int, action: int) -> bool:
    """Whether ``action`` is among game ``g``'s legal ids."""
    found = False
    for k in range(legal_n[g]):
        found |= legal[g, k] == action
    return found


@_inline
def _deal_new(
    state: NDArray[np.int16],
    dungeon: NDArray[np.int8],
    decks: NDArray[np.int8],
    g: int,
    cards: NDArray[np.int8],
    x: np.uint64,
    leader: int,
    most: int,
    relentless: bool,
    observations: NDArray[np.int16],
    drawn: NDArray[np.int16],
    counts: NDArray[np.int16],
) -> np.uint64:
    """Shuffle the rules' ``cards`` into ``decks[g]`` (Fisher–Yates) and start game ``g``
    on it, every card unseen (``counts``, the whole deck's, into its observation); the
    generator's next state."""
    size = len(cards)
    for i in range(size):
        decks[g, i] = cards[i]
    for i in range(size - 1, 0, -1):
        x = _advanced(x)
        j = _below(x, i + 1)
        swap = decks[g, i]
        decks[g, i] = decks[g, j]
        decks[g, j] = swap
    for k in range(_UNSEEN_WIDTH):
        observations[g, _OBS_UNSEEN + k] = counts[k]
    drawn[g] = 0
    _start(state, dungeon, g, decks, g, leader, most, relentless)
    return x


@_njit
def _advance(
    state: NDArray[np.int16],
    dungeon: NDArray[np.int8],
    decks: NDArray[np.int8],
    cards: NDArray[np.int8],
    rng: NDArray[np.uint64],
    actions: NDArray[np.int64],
    pending: NDArray[np.bool_],
    legal: NDArray[np.int16],
    legal_n: NDArray[np.int16],
    observations: NDArray[np.int16],
    masks: NDArray[np.bool_],
    rewards: NDArray[np.float32],
    terminated: NDArray[np.bool_],
    ended: NDArray[np.int8],
    scores: NDArray[np.int32],
    settings: NDArray[np.float64],
    drawn: NDArray[np.int16],
    counts: NDArray[np.int16],
) -> int:
    """One step of every game (the module's docstring says what a step is). ``settings``:
    strict, co-op, dungeon-only death score, heroes, a win as the reward, the penalty, the
    reward scale, the first leader, the starting health, relentless, refuse illegal
    actions. Returns -1, or with refusal on, the first game whose action is not legal
    (and then no game has moved)."""
    strict = settings[0] != 0
    coop = settings[1] != 0
    dungeon_only = settings[2] != 0
    heroes = int(settings[3])
    win_reward = settings[4] != 0
    penalty = settings[5]
    scale = settings[6]
    leader = int(settings[7])
    most = int(settings[8])
    relentless = settings[9] != 0
    size = len(state)
    bad = -1
    if settings[10] != 0:  # refuse: look before anything moves
        for g in range(size):
            if bad < 0 and not pending[g] and not _allowed(legal, legal_n, g, actions[g]):
                bad = g
    # (one return, at the end: an early one keeps Numba from pruning reference counts)
    x = rng[0]
    for g in range(size if bad < 0 else 0):
        reward = 0.0
        end = GOING
        _unshow(state, dungeon, g, observations)
        if pending[g]:  # ended on the last step: a new dungeon
            x = _deal_new(
                state, dungeon, decks, g, cards, x, leader, most, relentless,
                observations, drawn, counts,
            )  # fmt: skip
            pending[g] = False
        else:
            action = actions[g]
            if _allowed(legal, legal_n, g, action):
                _step(state, dungeon, g, action, strict, coop)
                status = state[g, _STATUS]
                if status != PLAYING:
                    score = _score(state, dungeon, g, coop, dungeon_only)
                    scores[g] = score
                    won = status == WON
                    reward = (1.0 if won else 0.0) if win_reward else float(score)
                    end = ENDED_WON if won else ENDED_LOST
            else:
                reward = penalty
                end = ENDED_ILLEGAL
            pending[g] = end != GOING
        rewards[g] = reward * scale
        terminated[g] = end != GOING
        ended[g] = end
        _show(
            state, dungeon, g, heroes, coop, strict, legal, legal_n, observations, masks,
            decks, drawn, end != ENDED_ILLEGAL,
        )  # fmt: skip
    rng[0] = x
    return bad


@_njit
def _pick_random(
    legal: NDArray[np.int16],
    legal_n: NDArray[np.int16],
    rng: NDArray[np.uint64],
    actions: NDArray[np.int64],
) -> None:
    """A uniformly random legal action for every game (0 where none is legal)."""
    x = rng[0]
    for g in range(len(legal_n)):
        n = legal_n[g]
        if n:
            x = _advanced(x)
            actions[g] = legal[g, _below(x, n)]
        else:
            actions[g] = 0
    rng[0] = x


@_njit
def _seed_state(seed: int) -> np.uint64:
    return _seeded(seed)


_Array = TypeVar("_Array", bound="np.ndarray[Any, Any]")


def _read_only(array: _Array) -> _Array:
    """A view of ``array`` that cannot be written through."""
    view = array.view()
    view.flags.writeable = False
    return view


class ObservedBatch:
    """``size`` games of ``rules``, stepped together; every array it shows is read-only and
    rewritten in place by each :meth:`step` (copy what you keep).

    ``reward`` is ``"score"`` (the final score, S13 and C10, at the end) or ``"win"`` (1 for a
    win, 0 for a loss); ``illegal`` is ``"penalty"`` (the game ends with a penalty) or
    ``"raise"`` (:class:`ValueError`, and no game moves); ``reward_scale`` multiplies every
    reward."""

    def __init__(
        self,
        rules: Rules,
        size: int,
        reward: str = "score",
        illegal: str = "penalty",
        reward_scale: float = 1.0,
    ) -> None:
        if size < 1:
            raise ValueError(f"size must be at least 1, not {size}")
        check_choices(reward, illegal)
        self.rules = rules
        self.size = size
        self._raise = illegal == "raise"
        penalty = illegal_penalty(rules, reward)
        leader, most, relentless = _start_rules(rules)
        self._settings = np.array(
            [
                rules.strict,
                rules.coop_game,
                rules.death_score == "dungeon-only",
                rules.heroes,
                reward == "win",
                penalty,
                reward_scale,
                leader,
                most,
                relentless,
                self._raise,
            ],
            dtype=np.float64,
        )
        self._cards = np.array([card.index for card in rules.cards], dtype=np.int8)
        self._counts = np.zeros(_UNSEEN_WIDTH, dtype=np.int16)  # every card of the deck
        for card in self._cards:
            self._counts[_UNSEEN_AT[KIND[card]] + VALUE[card] - _OBS_UNSEEN] += 1
        self._drawn = np.zeros(size, dtype=np.int16)
        self._state = np.zeros((size, _COLUMNS), dtype=np.int16)
        self._dungeon = np.zeros((size, _RING), dtype=np.int8)
        self._decks = np.zeros((size, rules.deck_size), dtype=np.int8)
        self._rng = np.array([_seed_state(0)], dtype=np.uint64)
        self._pending = np.ones(size, dtype=np.bool_)
        self._legal = np.zeros((size, _MAX_LEGAL), dtype=np.int16)
        self._legal_n = np.zeros(size, dtype=np.int16)
        self._actions = np.zeros(size, dtype=np.int64)
        # What a step writes, and read-only views of it for the caller (the compiled step
        # keeps its own invariants in them: each mask holds its game's legal ids only).
        self._out = (
            np.zeros((size, TENSOR_SIZE), dtype=np.int16),
            np.zeros((size, NUM_ACTIONS), dtype=np.bool_),
            np.zeros(size, dtype=np.float32),
            np.zeros(size, dtype=np.bool_),
            np.zeros(size, dtype=np.int8),
            np.zeros(size, dtype=np.int32),
        )
        observations, masks, rewards, terminated, ended, scores = self._out
        #: (size, 164) each game's observation tensor, the leader's view.
        self.observations = _read_only(observations)
        #: (size, 181) the legal action ids of each game (none once it ended).
        self.masks = _read_only(masks)
        #: (size,) the reward of the last step.
        self.rewards = _read_only(rewards)
        #: (size,) whether the last step ended the game.
        self.terminated = _read_only(terminated)
        #: (size,) how the last step ended each game: 0 not, 1 won, 2 lost, 3 illegal.
        self.ended = _read_only(ended)
        #: (size,) the score of each game's last finished game (S13, C10).
        self.scores = _read_only(scores)
        self.reset(0)

    def reset(self, seed: int | None = None) -> None:
        """Deal every game a new dungeon, shuffled by a generator seeded with ``seed``
        (``None``: the generator goes on)."""
        if seed is not None:
            self._rng[0] = _seed_state(int(seed) % 2**63)
        self._pending[:] = True
        self._settings[10] = 0.0  # every game is dealt: no action is read
        try:
            _advance(*self._arrays(self._actions))
        finally:
            self._settings[10] = self._raise

    def _arrays(self, actions: NDArray[np.int64]) -> tuple[Any, ...]:
        return (
            self._state,
            self._dungeon,
            self._decks,
            self._cards,
            self._rng,
            actions,
            self._pending,
            self._legal,
            self._legal_n,
            *self._out,
            self._settings,
            self._drawn,
            self._counts,
        )

    def step(self, actions: NDArray[Any] | Any) -> None:
        """Play one action id in each game (ignored in a game that ended on the last step,
        which is dealt again)."""
        array = np.asarray(actions)
        if array.shape != (self.size,):
            raise ValueError(f"step needs {self.size} action ids, got shape {array.shape}")
        if array.dtype.kind not in "iu":
            raise ValueError(f"action ids are whole numbers, not {array.dtype} values")
        if array.dtype != np.int64:
            array = array.astype(np.int64)
        bad = _advance(*self._arrays(array))
        if bad >= 0:
            raise ValueError(f"game {bad}: action {array[bad]} is not legal there")

    def random_actions(self, out: NDArray[np.int64] | None = None) -> NDArray[np.int64]:
        """A uniformly random legal action for every game (0 where the game ended), drawn
        in compiled code from the batch's generator: the benchmark's policy."""
        actions = self._actions if out is None else out
        _pick_random(self._legal, self._legal_n, self._rng, actions)
        return actions

    @property
    def decks(self) -> NDArray[np.int8]:
        """(size, deck size) the deck each game was dealt, top card first (card indices into
        :data:`~scoundrel.core.ALL_CARDS`). Hidden information: for tests and replays."""
        return self._decks.copy()

    def deck(self, game: int) -> tuple[Card, ...]:
        """The deck game ``game`` was dealt, as cards. Hidden information."""
        return tuple(ALL_CARDS[int(index)] for index in self._decks[game])


@dataclass(frozen=True)
class ObservedResult(BenchResult):
    """``scoundrel bench --observe``: games played to the end through :class:`ObservedBatch`
    with random legal actions (``moves``; ``steps`` counts the steps that dealt again too),
    against the plain batch on as many games."""

    steps: int = 0
    plain_moves_per_s: float = 0.0

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0

    @property
    def observation_cost(self) -> float:
        """How much of the plain batch's speed the observations and masks take."""
        if not self.plain_moves_per_s:
            return 0.0
        return 1.0 - self.moves_per_s / self.plain_moves_per_s

    def to_dict(self) -> dict[str, float | int]:
        return {
            **super().to_dict(),
            "steps": self.steps,
            "steps_per_s": round(self.steps_per_s, 1),
            "plain_moves_per_s": round(self.plain_moves_per_s, 1),
            "observation_cost": round(self.observation_cost, 4),
        }


def play_observed(
    rules: Rules, games: int, seed: int = 0, batch_size: int = 4096
) -> ObservedResult:
    """Step ``batch_size`` games with random legal actions until ``games`` games have
    ended, every step writing observations, masks and rewards; compilation and the first
    deal are outside the clock. Beside it, the plain batch (:func:`scoundrel.batch.
    play_random`, no observations) plays as many games, for the observations' cost."""
    if games < 1 or batch_size < 1:
        raise ValueError("games and batch_size must be at least 1")
    warm = ObservedBatch(rules, 1)  # compile, outside the clock
    warm.step(warm.random_actions())
    batch = ObservedBatch(rules, batch_size)
    batch.reset(seed)
    actions = np.zeros(batch_size, dtype=np.int64)
    ended = moves = steps = 0
    terminated = batch.terminated
    started = time.perf_counter()
    while ended < games:
        batch.random_actions(actions)
        moves += int(np.count_nonzero(batch._legal_n))
        batch.step(actions)
        steps += batch_size
        ended += int(np.count_nonzero(terminated))
    seconds = time.perf_counter() - started
    plain = play_random(rules, ended, seed, batch_size)
    return ObservedResult(ended, moves, seconds, steps, plain.moves_per_s)
