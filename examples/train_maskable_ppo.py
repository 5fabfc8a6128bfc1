"""Train sb3-contrib's MaskablePPO on strict solo Scoundrel (``scoundrel/Solo-v0``).

Needs the train extra: ``pip install -e '.[train]'``. Run, for instance::

    python examples/train_maskable_ppo.py --steps 1000000 --out curve.json

The agent sees the environment's 162 numbers, each divided by its bound, and picks only
legal actions: ``MaskablePPO`` reads the mask from the environment's own ``action_masks()``
(vectorized environments find it through their wrappers). Training deals are random; the
evaluation games are the deals ``random_deal(Rules.solo(), 10_000_000 + i)``, played with
the deterministic masked policy, and the fair bot and the uniform random policy play the
same deals.

Reward: the environment's default, the final score (divided by 30 to lie near -1 to 1).
Both were tried on 300,000 steps: with ``reward="win"`` the agent never learned anything,
since a new policy, like the random one, all but never wins, so every game ends in 0 and
PPO has no signal; the score tells a bad loss from a near win, so the agent first learns
to lose by less (mean score -174 to -64) and then starts to win (1% at 300,000 steps).
``--reward win`` keeps the other choice.

``--env batched`` trains on :class:`scoundrel.rl.vector.BatchVecEnv` instead (``--envs``
games in one Numba batch, the ``fast`` extra), with the same observations, scaling and
rewards; evaluation is unchanged (the Gymnasium environment, the same held-out deals).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from gymnasium import Env, spaces
from gymnasium.wrappers import TransformObservation, TransformReward
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import VecEnv, VecMonitor

from scoundrel.core import Rules, random_deal
from scoundrel.rl.policies import fair_bot_action, random_action
from scoundrel.rl.solo import SoloEnv
from scoundrel.rl.spaces import observation_bounds

EVAL_SEED = 10_000_000  # evaluation deals: EVAL_SEED + i, never dealt in training
REWARD = "score"
RULES = Rules.solo(weapon="strict")
_LOW, _HIGH = observation_bounds()
SCALE = np.maximum(np.maximum(np.abs(_LOW), _HIGH), 1).astype(np.float32)
BOX = spaces.Box(low=-1.0, high=1.0, shape=SCALE.shape, dtype=np.float32)

PPO: dict[str, Any] = {
    "gamma": 0.995,
    "ent_coef": 0.01,
    "learning_rate": 3e-4,
    "policy_kwargs": {"net_arch": [128, 128]},
}

Policy = Callable[[SoloEnv, npt.NDArray[np.int16]], int]  # (env, observation) -> action


def scaled(observation: npt.NDArray[np.int16]) -> npt.NDArray[np.float32]:
    """The observation with every number within -1 and 1."""
    return observation.astype(np.float32) / SCALE


def make_env(reward: str = REWARD) -> Env[Any, Any]:
    """A training environment: scaled observations; the score reward divided by 30."""
    env: Env[Any, Any] = TransformObservation(SoloEnv(reward=reward, weapon="strict"), scaled, BOX)
    if reward == "score":  # -188 to 30
        env = TransformReward(env, lambda reward: reward / 30)
    return env


def make_training_env(kind: str, envs: int, reward: str, seed: int) -> VecEnv:
    """``envs`` training games: copies of the Gymnasium environment (``gym``) or one
    Numba batch (``batched``), both scaled as :func:`make_env` scales."""
    if kind == "gym":
        return make_vec_env(lambda: make_env(reward), n_envs=envs, seed=seed)
    from scoundrel.rl.vector import BatchVecEnv  # needs Numba: only when asked for

    reward_scale = 1 / 30 if reward == "score" else 1.0
    batched = BatchVecEnv(
        envs, seed=seed, reward=reward, scale=SCALE, reward_scale=reward_scale, weapon="strict"
    )
    return VecMonitor(batched)  # episode returns and lengths, as make_vec_env's Monitor


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p, n = wins / games, games
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def evaluate(policy: Policy, games: int) -> dict[str, Any]:
    """Play the evaluation deals 0 to ``games`` - 1: wins, win rate (95% interval), mean score."""
    env, wins, scores = SoloEnv(reward="win", weapon="strict"), 0, []
    for game in range(games):
        deck = random_deal(RULES, EVAL_SEED + game)
        observation, info = env.reset(options={"deck": deck})
        terminated, reward = False, 0.0
        while not terminated:
            action = policy(env, observation)
            observation, reward, terminated, _, info = env.step(action)
        wins += reward == 1.0
        scores.append(info["score"])
    low, high = wilson(wins, games)
    rate = wins / games if games else 0.0
    mean = float(np.mean(scores)) if scores else 0.0
    return {
        "games": games,
        "wins": wins,
        "win_rate": rate,
        "win_low": low,
        "win_high": high,
        "mean_score": mean,
    }


def agent(model: MaskablePPO) -> Policy:
    def act(env: SoloEnv, observation: npt.NDArray[np.int16]) -> int:
        mask = env.action_masks()
        action, _ = model.predict(scaled(observation), action_masks=mask, deterministic=True)
        return int(action)

    return act


def fair_bot(env: SoloEnv, observation: npt.NDArray[np.int16]) -> int:
    return fair_bot_action(env.core_observation())


def uniform(seed: int) -> Policy:
    rng = np.random.default_rng(seed)
    return lambda env, observation: random_action(env.action_masks(), rng)


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000, help="training steps")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=200, help="games per evaluation")
    parser.add_argument("--final-games", type=int, help="games at the end (--eval-games)")
    parser.add_argument("--eval-every", type=int, default=50_000, help="steps between them")
    parser.add_argument("--out", type=Path, help="write the learning curve here (JSON)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--reward", choices=("win", "score"), default=REWARD)
    parser.add_argument("--envs", type=int, default=8, help="environments played at once")
    parser.add_argument(
        "--env",
        choices=("gym", "batched"),
        default="gym",
        help="train on Gymnasium envs or on the Numba batch (BatchVecEnv)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    torch.set_num_threads(args.threads)
    final_games = args.eval_games if args.final_games is None else args.final_games
    env = make_training_env(args.env, args.envs, args.reward, args.seed)
    rollout = max(8, min(256, args.steps // args.envs, args.eval_every // args.envs))
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=rollout,
        batch_size=min(256, rollout * args.envs),
        seed=args.seed,
        device="cpu",
        **PPO,
    )
    start, trained, curve = time.perf_counter(), 0.0, []
    while True:
        games = final_games if model.num_timesteps >= args.steps else args.eval_games
        point = evaluate(agent(model), games)
        point.update(
            steps=model.num_timesteps,
            train_minutes=trained / 60,
            wall_minutes=(time.perf_counter() - start) / 60,
        )
        curve.append(point)
        print(
            f"{point['steps']:>9,} steps {point['train_minutes']:6.1f} min: "
            f"win {point['win_rate']:.1%}, score {point['mean_score']:.1f}",
            flush=True,
        )
        if model.num_timesteps >= args.steps:
            break
        began = time.perf_counter()
        target = min(args.steps, model.num_timesteps + args.eval_every) - model.num_timesteps
        model.learn(total_timesteps=target, reset_num_timesteps=False)
        trained += time.perf_counter() - began
    baselines = {
        "fair_bot": evaluate(fair_bot, final_games),
        "random": evaluate(uniform(args.seed), final_games),
    }
    result = {
        "config": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
        "steps_per_second": model.num_timesteps / trained if trained else None,
        "curve": curve,
        "baselines": baselines,
    }
    header = f"{'policy':<12}{'steps':>11}{'minutes':>9}  {'win rate (95% CI)':<21}"
    print(f"\n{header}{'score':>7}  games")
    rows = [("MaskablePPO", p) for p in curve] + [(k, v) for k, v in baselines.items()]
    for name, row in rows:
        steps, minutes = row.get("steps", ""), row.get("train_minutes")
        when = f"{steps:>11,}{minutes:>9.1f}" if minutes is not None else " " * 20
        ci = f"{row['win_rate']:6.1%} ({row['win_low']:.1%}-{row['win_high']:.1%})"
        print(f"{name:<12}{when}  {ci:<21}{row['mean_score']:>7.1f}  {row['games']}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return result


if __name__ == "__main__":
    main()
