"""The batch's observations and the sb3 ``VecEnv`` over it (``scoundrel.rl.vector``).

:meth:`Batch.observations` must equal :meth:`Observation.tensor` move by move (random
games of solo strict and lenient, and co-op from both heroes' views), and so must the new
columns it reads (last kill, stack, known bottom). :class:`BatchVecEnv` is checked for
shapes, auto-reset, rewards (the core's final score) and masks, and, where sb3-contrib is
installed, trained for a few steps by the example with ``--env batched``.

Skipped without Numba or Gymnasium, except under CI, which installs them; the sb3 part is
skipped without sb3-contrib even under CI (CI does not install PyTorch).
"""

from __future__ import annotations

import importlib.util
import os
from typing import Any

import pytest

try:
    import gymnasium  # noqa: F401
    import numpy as np

    from scoundrel import batch  # noqa: F401
except ImportError as error:  # pragma: no cover - an extra is missing
    if os.environ.get("CI"):
        pytest.fail(f"CI installs the fast and rl extras: {error}", pytrace=False)
    pytest.skip("the fast or rl extra is not installed", allow_module_level=True)

from numpy.typing import NDArray

from scoundrel.batch import Batch
from scoundrel.core import ALL_CARDS, Card, Rules, State, random_deal
from scoundrel.core.actions import NUM_ACTIONS, move_of
from scoundrel.core.observation import TENSOR_SIZE

HAS_SB3 = importlib.util.find_spec("stable_baselines3") is not None
GAMES = 2_000
RULESETS = {
    "solo-strict": Rules.solo(weapon="strict"),
    "solo-lenient": Rules.solo(weapon="lenient"),
    "coop": Rules.coop(),
    "coop-harder-leader2": Rules.coop(weapon="strict", easier=True, harder=True, first_leader=2),
}


def pick_uniform(mask: NDArray[np.bool_], rng: np.random.Generator) -> NDArray[np.int64]:
    """One legal action id per row of ``mask`` (0 for a row without any), uniformly."""
    counts = mask.sum(axis=1)
    nth = (rng.random(len(mask)) * counts).astype(np.int64)
    ranks = np.cumsum(mask, axis=1) - 1
    chosen = mask & (ranks == nth[:, None])
    return np.where(counts > 0, chosen.argmax(axis=1), 0).astype(np.int64)


@pytest.mark.parametrize("name", RULESETS)
def test_observations_equal_the_core_tensor_move_by_move(name: str) -> None:
    rules = RULESETS[name]
    decks = [random_deal(rules, 50_000 + seed) for seed in range(GAMES)]
    games = Batch(rules, decks)
    states = [State.new(rules, deck) for deck in decks]
    rng = np.random.default_rng(7)
    compared = np.ones(GAMES, dtype=np.bool_)  # playing, or ended by the last move
    moves = 0
    while compared.any():
        rows = np.flatnonzero(compared)
        for viewer in range(1, rules.heroes + 1):
            got = games.observations(viewer)[rows]
            want = np.array([states[g].observation(viewer).tensor() for g in rows], np.int16)
            if not np.array_equal(got, want):
                bad = int(np.flatnonzero((got != want).any(axis=1))[0])
                columns = np.flatnonzero(got[bad] != want[bad]).tolist()
                pytest.fail(f"{name} game {rows[bad]} viewer {viewer}: columns {columns} differ")
        for g in rows:  # the new columns, against the core's heroes and known bottom
            state = states[g]
            assert games.known_count[g] == len(state.known_bottom)
            for hero, seen in enumerate(state.heroes):
                assert games.last_kill[g, hero] == (seen.last_kill or 0)
                assert games.stack_size[g, hero] == len(seen.stack)
        playing = games.status == 0
        actions = pick_uniform(games.legal_mask(), rng)
        for g in np.flatnonzero(playing):
            states[g] = states[g].apply(move_of(int(actions[g])))
        games.step(actions)
        moves += 1
        compared = playing
    assert moves > 20


def test_observations_check_the_viewer() -> None:
    games = Batch.from_seeds(Rules.solo(), [1])
    with pytest.raises(ValueError, match="viewer"):
        games.observations(2)
    assert games.observations().dtype == np.int16 and games.observations().shape == (1, TENSOR_SIZE)


def test_step_where_and_restart() -> None:
    rules = Rules.solo()
    games = Batch.from_seeds(rules, [1, 2])
    actions = pick_uniform(games.legal_mask(), np.random.default_rng(0))
    before = games.observations()
    games.step(actions, where=np.array([False, True]))
    after = games.observations()
    assert np.array_equal(before[0], after[0]) and not np.array_equal(before[1], after[1])
    games.restart([1], [random_deal(rules, 2)])
    assert np.array_equal(games.observations(), before)
    with pytest.raises(ValueError):
        games.restart([0, 1], [random_deal(rules, 2)])


# ---------------------------------------------------------------------- the VecEnv

needs_sb3 = pytest.mark.skipif(not HAS_SB3, reason="stable-baselines3 is not installed")


@needs_sb3
def test_vec_env_shapes_auto_reset_and_scores() -> None:
    from scoundrel.rl.spaces import observation_bounds
    from scoundrel.rl.vector import BatchVecEnv

    envs = 16
    env = BatchVecEnv(envs, seed=3, weapon="strict")
    observations = env.reset()
    assert observations.shape == (envs, TENSOR_SIZE) and observations.dtype == np.int16
    assert env.observation_space.contains(observations[0])
    masks = env.action_masks()
    assert masks.shape == (envs, NUM_ACTIONS) and masks.dtype == np.bool_
    listed = env.env_method("action_masks")
    assert len(listed) == envs and np.array_equal(np.stack(listed), masks)
    assert env.has_attr("action_masks")
    # the same deals, played by the core
    rng = np.random.default_rng(5)
    states = [State.new(env.rules, _deck_of(env, g)) for g in range(envs)]
    finished = 0
    for _ in range(400):
        actions = pick_uniform(env.action_masks(), rng)
        for g in range(envs):
            states[g] = states[g].apply(move_of(int(actions[g])))
        observations, rewards, dones, infos = env.step(actions)
        assert observations.shape == (envs, TENSOR_SIZE) and rewards.shape == (envs,)
        assert dones.shape == (envs,) and len(infos) == envs
        for g in range(envs):
            if dones[g]:
                finished += 1
                score = states[g].score
                assert score is not None and rewards[g] == score == infos[g]["score"]
                want = np.array(states[g].observation(1).tensor(), np.int16)
                assert np.array_equal(infos[g]["terminal_observation"], want)
                states[g] = State.new(env.rules, _deck_of(env, g))  # the new deal
                assert env.batch.status[g] == 0
            else:
                assert rewards[g] == 0 and "terminal_observation" not in infos[g]
            assert np.array_equal(observations[g], states[g].observation(1).tensor())
    assert finished > envs
    low, high = observation_bounds()
    scale = np.maximum(np.maximum(np.abs(low), high), 1)
    scaled = BatchVecEnv(4, seed=1, scale=scale, reward_scale=1 / 30)
    first = scaled.reset()
    assert first.dtype == np.float32 and np.abs(first).max() <= 1


def _deck_of(env: Any, game: int) -> list[Card]:
    """The deck of a game just dealt: its room then its dungeon (top first)."""
    room = [ALL_CARDS[c] for c in env.batch.room[game] if c >= 0]
    return [*room, *env.batch.dungeon(game)]


@needs_sb3
def test_vec_env_seeding_illegal_actions_and_rewards() -> None:
    from scoundrel.rl.vector import BatchVecEnv

    one, two = BatchVecEnv(4, weapon="strict"), BatchVecEnv(4, weapon="strict")
    one.seed(11)
    two.seed(11)
    assert np.array_equal(one.reset(), two.reset())
    actions = np.array([int(np.flatnonzero(~mask)[0]) for mask in one.action_masks()])
    _, rewards, dones, infos = one.step(actions)
    assert dones.all() and (rewards == one.rules.score_range[0] - 1).all()
    assert all("illegal_action" in info for info in infos)
    strict = BatchVecEnv(2, seed=0, illegal="raise")
    strict.reset()
    with pytest.raises(ValueError, match="illegal"):
        strict.step(np.array([int(np.flatnonzero(~m)[0]) for m in strict.action_masks()]))
    with pytest.raises(ValueError):
        BatchVecEnv(2, colour="red")
