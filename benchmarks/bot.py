"""Fair-bot decision times: how long one move decision takes (the goal is at most 1 s).

    python benchmarks/bot.py                     # 500 strict solo games, seeds 0-499
    python benchmarks/bot.py --ruleset coop --games 200

The win rate itself is ``scoundrel bot --games 100000 --jobs 2``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from scoundrel.core import Rules, State, random_deal
from scoundrel.solver import Bot


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ruleset", choices=("solo", "coop"), default="solo")
    parser.add_argument("--option", "-o", action="append", default=[])
    args = parser.parse_args()
    rules = Rules.parse(args.ruleset, args.option)
    bot = Bot()
    times: list[float] = []
    wins = 0
    for i in range(args.games):
        state = State.new(rules, random_deal(rules, args.seed + i))
        while not state.is_over:
            observation = state.observation(state.leader)
            started = time.perf_counter()
            move = bot.choose(observation)  # one decision, from scratch
            times.append(time.perf_counter() - started)
            state = state.apply(move)
        wins += state.status.value == "won"
    times.sort()
    print(
        f"{rules.ruleset} {rules.options}: {len(times):,} decisions in {args.games} games "
        f"({wins} won): median {statistics.median(times) * 1000:.2f} ms, "
        f"p99 {times[int(len(times) * 0.99)] * 1000:.2f} ms, max {times[-1] * 1000:.2f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
