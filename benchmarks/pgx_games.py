"""A yardstick from another library: pgx's games (JAX) stepped on this machine's CPU, as
``benchmarks/vector_env.py`` steps ours, so that both are measured on the same machine.

    python3 -m venv /tmp/pgx && /tmp/pgx/bin/pip install pgx jax
    taskset -c 0 /tmp/pgx/bin/python benchmarks/pgx_games.py --games 2048 leduc_holdem backgammon

pgx is not a dependency of this package (it needs JAX); this script imports nothing of
ours. Every game is ``jax.vmap``'d over ``--size`` games and ``jax.jit``-compiled (outside
the clock), actions are random legal ones drawn in the same compiled step, and finished
games are dealt again in that step (``pgx.experimental.auto_reset``). pgx is made for
accelerators: on one CPU core it is far from its published figures, which were measured on
GPUs and TPUs. Prints steps a second, each game's best of ``--rounds``.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false")

import jax
import jax.numpy as jnp
import pgx
from pgx.experimental import auto_reset


def measure(name: str, size: int, steps: int, rounds: int) -> float:
    env = pgx.make(name)
    init = jax.jit(jax.vmap(env.init))
    step = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def advance(state: pgx.State, key: jax.Array) -> tuple[pgx.State, jax.Array]:
        key, pick, move = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(pick, logits, axis=-1)
        state = step(state, action, jax.random.split(move, size))
        return state, key

    key = jax.random.PRNGKey(0)
    state = init(jax.random.split(key, size))
    state, key = advance(state, key)  # compile
    jax.block_until_ready(state)
    best = 0.0
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(steps):
            state, key = advance(state, key)
        jax.block_until_ready(state)
        best = max(best, steps * size / (time.perf_counter() - started))
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=["leduc_holdem", "backgammon", "2048"])
    parser.add_argument("--size", type=int, default=4096)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"pgx {pgx.__version__}, jax {jax.__version__}, {args.size} games, CPU")
    for name in args.games:
        figure = measure(name, args.size, args.steps, args.rounds)
        print(f"  {name:14s} {figure:>12,.0f} steps/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
