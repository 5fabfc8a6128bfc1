"""The Gymnasium vector environment over the observed batch (``scoundrel.rl.vector_env``).

That every observation, mask, reward and score is the core's is
``tests/test_observed_batch.py``'s work; here the Gymnasium side: ``make_vec`` builds it
from ``scoundrel/Solo-v0``, spaces hold what it returns, auto-reset is on the next step as
its metadata says, seeds repeat, illegal actions end a game or raise without moving any,
``copy`` decides whether the caller may keep the arrays, co-op plays, Gymnasium's own
vector wrappers run over it, and bad arguments are refused by name.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

try:
    import gymnasium
    import numpy as np
    from gymnasium.vector import AutoresetMode

    import scoundrel.rl  # noqa: F401  (registers scoundrel/Solo-v0)
    from scoundrel.rl.vector_env import ScoundrelVectorEnv
except ImportError as error:  # pragma: no cover - an extra is missing
    if os.environ.get("CI"):
        pytest.fail(f"CI installs the fast and rl extras: {error}", pytrace=False)
    pytest.skip("the fast or rl extra is not installed", allow_module_level=True)

from scoundrel.core import Rules
from scoundrel.core.observation import FLAGS, TENSOR_LAYOUT

_FLAGS_AT = {name: start for name, start, _ in TENSOR_LAYOUT}["flags"]
DUNGEON_COUNT = _FLAGS_AT + FLAGS.index("dungeon_count")


def _random(masks: Any, rng: Any) -> Any:
    """A random legal action per game (0 where none is legal)."""
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def _play(envs: Any, steps: int, seed: int) -> list[tuple[Any, ...]]:
    rng = np.random.default_rng(seed)
    observations, infos = envs.reset(seed=seed)
    trail = [(observations.copy(), infos["action_mask"].copy())]
    for _ in range(steps):
        observations, rewards, terminated, _, infos = envs.step(_random(infos["action_mask"], rng))
        trail.append((observations.copy(), rewards.copy(), terminated.copy()))
    return trail


def test_make_vec_builds_it_from_the_registered_id() -> None:
    envs = gymnasium.make_vec("scoundrel/Solo-v0", num_envs=6)
    assert isinstance(envs, ScoundrelVectorEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert envs.num_envs == 6
    assert envs.single_observation_space.shape == (164,)
    assert envs.observation_space.shape == (6, 164)
    assert envs.action_space.shape == (6,)
    observations, infos = envs.reset(seed=0)
    assert envs.observation_space.contains(observations)
    assert infos["action_mask"].shape == (6, 181) and infos["_action_mask"].all()
    # options reach the rules, as for the single environment (V2: Frail)
    frail = gymnasium.make_vec("scoundrel/Solo-v0", num_envs=2, health=14, weapon="lenient")
    assert frail.unwrapped.rules == Rules.solo(health=14, weapon="lenient")


def test_every_step_stays_in_its_spaces_and_resets_on_the_next_step() -> None:
    envs = ScoundrelVectorEnv(num_envs=64)
    rng = np.random.default_rng(5)
    observations, infos = envs.reset(seed=5)
    full = int(observations[0, DUNGEON_COUNT])
    ended_before = np.zeros(64, dtype=bool)
    endings = 0
    for _ in range(400):
        actions = _random(infos["action_mask"], rng)
        observations, rewards, terminated, truncated, infos = envs.step(actions)
        assert envs.observation_space.contains(observations)
        assert not truncated.any()
        # a game that ended on the last step is dealt again: reward 0, a full dungeon
        assert (rewards[ended_before] == 0).all() and not terminated[ended_before].any()
        assert (observations[ended_before, DUNGEON_COUNT] == full).all()
        assert infos["action_mask"][ended_before].any(axis=1).all()
        # the ending step: its reward is the score, and no move is left
        if terminated.any():
            assert (infos["_score"] == terminated).all()
            assert (rewards[terminated] == infos["score"][terminated]).all()
            assert not infos["action_mask"][terminated].any()
        endings += int(terminated.sum())
        ended_before = terminated
    assert endings > 64  # every slot played more than one game on average


def test_the_same_seed_plays_the_same_games() -> None:
    first = _play(ScoundrelVectorEnv(num_envs=16), 120, seed=9)
    again = _play(ScoundrelVectorEnv(num_envs=16), 120, seed=9)
    other = _play(ScoundrelVectorEnv(num_envs=16), 120, seed=10)
    for a, b in zip(first, again, strict=True):
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y)
    assert not np.array_equal(first[0][0], other[0][0])


def test_an_illegal_action_ends_that_game_with_the_penalty() -> None:
    envs = ScoundrelVectorEnv(num_envs=4)
    _, infos = envs.reset(seed=1)
    actions = _random(infos["action_mask"], np.random.default_rng(1))
    wrong = int(np.flatnonzero(~infos["action_mask"][2])[0])
    actions[2] = wrong
    _, rewards, terminated, _, infos = envs.step(actions)
    assert terminated.tolist() == [False, False, True, False]
    assert rewards[2] == Rules.solo().score_range[0] - 1
    assert infos["illegal_action"].tolist() == [False, False, True, False]
    assert "score" not in infos  # no game was finished by play
    win = ScoundrelVectorEnv(num_envs=2, reward="win", reward_scale=0.5)
    win.reset(seed=1)
    _, rewards, terminated, _, _ = win.step(np.array([-1, 999]))  # out of range: illegal
    assert terminated.all() and (rewards == -0.5).all()


def test_raise_refuses_an_illegal_action_and_moves_no_game() -> None:
    envs = ScoundrelVectorEnv(num_envs=3, illegal="raise")
    observations, infos = envs.reset(seed=2)
    actions = _random(infos["action_mask"], np.random.default_rng(2))
    actions[1] = int(np.flatnonzero(~infos["action_mask"][1])[0])
    with pytest.raises(ValueError, match=r"game 1: action \d+ is not legal"):
        envs.step(actions)
    assert np.array_equal(envs.games.observations, observations)
    with pytest.raises(ValueError, match="action ids"):
        envs.step(np.zeros(2, dtype=np.int64))  # one short
    with pytest.raises(ValueError, match="whole numbers, not float64"):
        envs.step(np.full(3, 1.5))
    assert np.array_equal(envs.games.observations, observations)
    legal = _random(infos["action_mask"], np.random.default_rng(3))
    envs.step(legal.astype(np.uint8))  # any whole-number type
    assert not np.array_equal(envs.games.observations, observations)


def test_copy_decides_whether_the_arrays_are_the_callers() -> None:
    copied = ScoundrelVectorEnv(num_envs=2)
    observations, infos = copied.reset(seed=3)
    observations[:] = 0  # the caller's own arrays: nothing of the batch changes
    infos["action_mask"][:] = False
    assert copied.games.observations.any() and copied.games.masks.any()
    shared = ScoundrelVectorEnv(num_envs=2, copy=False)
    observations, infos = shared.reset(seed=3)
    assert np.shares_memory(observations, shared.games.observations)
    with pytest.raises(ValueError, match="read-only"):
        infos["action_mask"][0, 0] = True  # the batch keeps its masks' invariants


def test_coop_plays_from_the_leaders_view() -> None:
    envs = ScoundrelVectorEnv(num_envs=32, ruleset="coop", harder=True)
    viewer = _FLAGS_AT + FLAGS.index("viewer")
    rng = np.random.default_rng(4)
    observations, infos = envs.reset(seed=4)
    ended = 0
    for _ in range(300):
        assert set(np.unique(observations[:, viewer])) <= {1, 2}
        observations, _, terminated, _, infos = envs.step(_random(infos["action_mask"], rng))
        ended += int(terminated.sum())
    assert ended > 0


def test_gymnasiums_vector_wrappers_run_over_it() -> None:
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(ScoundrelVectorEnv(num_envs=8))
    rng = np.random.default_rng(6)
    _, infos = envs.reset(seed=6)
    episodes = 0
    for _ in range(200):
        *_, infos = envs.step(_random(infos["action_mask"], rng))
        if "episode" in infos:
            episodes += int(infos["_episode"].sum())
            assert (infos["episode"]["l"][infos["_episode"]] > 0).all()
    assert episodes > 0


@pytest.mark.parametrize(
    "arguments, message",
    [
        ({"num_envs": 0}, "num_envs must be"),
        ({"num_envs": 2.5}, "num_envs must be"),
        ({"num_envs": True}, "num_envs must be"),
        ({"ruleset": "trio"}, "ruleset must be"),
        ({"reward": "gold"}, "reward must be"),
        ({"illegal": "ignore"}, "illegal must be"),
        ({"render_mode": "human"}, "does not render"),
        ({"weapon": "blunt"}, "weapon"),
        ({"torches": 3}, "torches"),
    ],
)
def test_bad_arguments_are_refused_by_name(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ScoundrelVectorEnv(**arguments)


def test_it_must_be_reset_before_a_step_and_takes_no_reset_options() -> None:
    envs = ScoundrelVectorEnv(num_envs=2)
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="reset_mask"):
        envs.reset(options={"reset_mask": np.ones(2, dtype=bool)})
