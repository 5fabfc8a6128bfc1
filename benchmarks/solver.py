"""Solver benchmark: decide fixed seeded deals with the perfect-information solver.

    python benchmarks/solver.py                  # 1,000 strict solo deals, seeds 0-999
    python benchmarks/solver.py --deals 200 --ruleset coop
    python benchmarks/solver.py --deals 100 --best
    python benchmarks/solver.py --deals 10 --ruleset coop --limit 60

Every deal is decided: there is no node cap and no time limit, unless ``--limit`` gives one
(seconds of CPU time, for co-op, whose search is far larger); deals it stops are counted as
undecided. Prints the median, p90, p99 and max time per deal, both wall-clock (``*_ms``)
and CPU time of this process (``cpu_*_ms``, comparable on a busy machine), the winnable
fraction with its 95% (Wilson) interval, and the hardest deals (by CPU time).

    python benchmarks/solver.py --ruleset coop --seeds 2,17 -v   # chosen deals, one a line
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from scoundrel.core import Rules, State, random_deal
from scoundrel.solver import Cancelled, solve
from scoundrel.solver.bot import wilson


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ruleset", choices=("solo", "coop"), default="solo")
    parser.add_argument("--option", "-o", action="append", default=[])
    parser.add_argument("--best", action="store_true", help="find the best score too")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--limit", type=float, help="give up on a deal after this many CPU s")
    parser.add_argument("--seeds", help="comma-separated seeds instead of --deals/--seed")
    parser.add_argument("--verbose", "-v", action="store_true", help="a line per deal")
    args = parser.parse_args()
    rules = Rules.parse(args.ruleset, args.option)
    times: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    winnable = 0
    undecided: list[int] = []
    hardest: list[tuple[float, int, bool, int]] = []
    seeds = (
        [int(s) for s in args.seeds.split(",")]
        if args.seeds
        else list(range(args.seed, args.seed + args.deals))
    )
    started = time.perf_counter()
    for i, seed in enumerate(seeds):
        state = State.new(rules, random_deal(rules, seed))
        began = time.perf_counter()
        began_cpu = time.process_time()

        def cancel(began: float = began_cpu, limit: float | None = args.limit) -> bool:
            return limit is not None and time.process_time() - began > limit

        try:
            solution = solve(state, best=args.best, cancel=cancel)
        except Cancelled:
            undecided.append(seed)
            times.append(time.perf_counter() - began)
            cpu.append(time.process_time() - began_cpu)
            if args.verbose:
                print(f"seed {seed}: undecided after {cpu[-1]:.1f} s CPU", flush=True)
            continue
        cpu.append(time.process_time() - began_cpu)
        times.append(solution.seconds)
        nodes.append(solution.nodes)
        winnable += solution.winnable
        hardest.append((cpu[-1], seed, solution.winnable, solution.nodes))
        if args.verbose:
            print(
                f"seed {seed}: {'won' if solution.winnable else 'lost'}"
                f" {cpu[-1]:.3f} s CPU {solution.nodes} nodes",
                flush=True,
            )
        elif sys.stderr.isatty():
            print(f"\r{i + 1}/{len(seeds)} deals", end="", file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    decided = len(seeds) - len(undecided)
    low, high = wilson(winnable, decided)
    report = {
        "rules": f"{rules.ruleset} {rules.options}",
        "deals": len(seeds),
        "seeds": [seeds[0], seeds[-1]] if not args.seeds else seeds,
        "best": args.best,
        "undecided": undecided,
        "winnable": winnable,
        "winnable_fraction": round(winnable / decided, 4) if decided else None,
        "winnable_ci95": [round(low, 4), round(high, 4)],
        "median_ms": round(statistics.median(times) * 1000, 1),
        "p90_ms": round(percentile(times, 0.9) * 1000, 1),
        "p99_ms": round(percentile(times, 0.99) * 1000, 1),
        "max_ms": round(max(times) * 1000, 1),
        "mean_ms": round(statistics.fmean(times) * 1000, 1),
        "cpu_median_ms": round(statistics.median(cpu) * 1000, 1),
        "cpu_p90_ms": round(percentile(cpu, 0.9) * 1000, 1),
        "cpu_p99_ms": round(percentile(cpu, 0.99) * 1000, 1),
        "cpu_max_ms": round(max(cpu) * 1000, 1),
        "cpu_mean_ms": round(statistics.fmean(cpu) * 1000, 1),
        "median_nodes": int(statistics.median(nodes)) if nodes else None,
        "max_nodes": max(nodes, default=None),
        "total_s": round(time.perf_counter() - started, 1),
        "total_cpu_s": round(sum(cpu), 1),
        "hardest": [
            {"seed": seed, "cpu_ms": round(t * 1000), "winnable": won, "nodes": n}
            for t, seed, won, n in sorted(hardest, reverse=True)[:5]
        ],
    }
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key:>18}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
