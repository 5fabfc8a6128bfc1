"""The learning environments' speed, each beside the plain batch measured in the same run.

    python benchmarks/vector_env.py                  # strict solo, 4,096 games, 5 rounds
    python benchmarks/vector_env.py --ruleset coop --rounds 3 --json

Every figure is steps a second on one core with random legal actions, from fixed seeds:

* ``single``: ``gymnasium.make("scoundrel/Solo-v0")`` (co-op: the vector environment's
  co-op game has no single counterpart here, so the row is left out), one game, actions
  drawn by NumPy from the mask;
* ``vector_copy`` and ``vector_shared``: ``ScoundrelVectorEnv`` with and without copies of
  its arrays, actions from the batch's ``random_actions()``;
* ``observed``: ``ObservedBatch`` alone (what ``scoundrel bench --observe`` runs);
* ``plain``: the plain batch (``scoundrel.batch.play_random``), moves a second, with no
  observations: the reference;
* with ``--openspiel``, OpenSpiel's own loop, one game, an observation tensor and the legal
  actions at every decision, chance outcomes drawn at random: ``openspiel_scoundrel`` is
  this package's ``python_scoundrel``, ``openspiel_solitaire`` OpenSpiel's Klondike, a
  one-player card game written in C++, as a yardstick of OpenSpiel's speed.

The rounds take turns, so that every figure meets the same moments of the machine; the
median and the best of the rounds are printed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable

import gymnasium
import numpy as np

import scoundrel.rl  # noqa: F401  (registers scoundrel/Solo-v0)
from scoundrel.batch import play_random
from scoundrel.core import Rules
from scoundrel.observed_batch import ObservedBatch
from scoundrel.rl.vector_env import ScoundrelVectorEnv


def single(rules: Rules, seconds: float, seed: int) -> float:
    env = gymnasium.make("scoundrel/Solo-v0", **rules.options)
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(500):
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            _, _, terminated, _, info = env.step(action)
            if terminated:
                _, info = env.reset()
        steps += 500
    return steps / (time.perf_counter() - started)


def vector(rules: Rules, size: int, steps: int, seed: int, copy: bool) -> float:
    envs = ScoundrelVectorEnv(size, rules.ruleset, copy=copy, **rules.options)
    envs.reset(seed=seed)
    games = envs.games
    envs.step(games.random_actions())  # compiled before the clock
    started = time.perf_counter()
    for _ in range(steps):
        envs.step(games.random_actions())
    return steps * size / (time.perf_counter() - started)


def openspiel(name: str, seconds: float, seed: int) -> float:
    import random

    import pyspiel  # type: ignore[import-not-found,unused-ignore]

    import scoundrel.rl.openspiel  # noqa: F401  (registers python_scoundrel)

    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    steps = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, chances)[0])
                continue
            state.observation_tensor()
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (time.perf_counter() - started)


def observed(rules: Rules, size: int, steps: int, seed: int) -> float:
    games = ObservedBatch(rules, size)
    games.reset(seed)
    actions = np.zeros(size, dtype=np.int64)
    started = time.perf_counter()
    for _ in range(steps):
        games.random_actions(actions)
        games.step(actions)
    return steps * size / (time.perf_counter() - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", choices=("solo", "coop"), default="solo")
    parser.add_argument("--option", "-o", action="append", default=[])
    parser.add_argument("--size", type=int, default=4096, help="games at once (default 4096)")
    parser.add_argument("--steps", type=int, default=250, help="steps of each batch a round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--openspiel", action="store_true", help="add OpenSpiel's rows")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rules = Rules.parse(args.ruleset, args.option)
    games = args.size * args.steps // 8  # about as many games as the batches end
    runs: dict[str, Callable[[], float]] = {
        "vector_copy": lambda: vector(rules, args.size, args.steps, args.seed, True),
        "vector_shared": lambda: vector(rules, args.size, args.steps, args.seed, False),
        "observed": lambda: observed(rules, args.size, args.steps, args.seed),
        "plain": lambda: play_random(rules, games, args.seed, args.size).moves_per_s,
    }
    if args.ruleset == "solo":
        runs["single"] = lambda: single(rules, 2.0, args.seed)
    if args.openspiel:
        game = f"python_scoundrel(ruleset={args.ruleset})"
        runs["openspiel_scoundrel"] = lambda: openspiel(game, 2.0, args.seed)
        runs["openspiel_solitaire"] = lambda: openspiel("solitaire", 2.0, args.seed)
    for run in runs.values():  # compile everything before the first round
        run()
    figures: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, run in runs.items():
            figures[name].append(run())
    summary = {
        name: {"median": round(statistics.median(values)), "best": round(max(values))}
        for name, values in figures.items()
    }
    if args.json:
        print(json.dumps({"ruleset": args.ruleset, "size": args.size, **summary}))
        return 0
    print(f"{rules.ruleset}, {args.size} games, {args.rounds} rounds (median, best):")
    for name, values in summary.items():
        unit = "moves/s" if name == "plain" else "steps/s"
        print(f"  {name:20s} {values['median']:>12,} {values['best']:>12,} {unit}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
