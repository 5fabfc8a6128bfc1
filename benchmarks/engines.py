"""Every engine's speed against another version of the code, in one run (issue 38).

    python benchmarks/engines.py --reference HEAD~1            # this checkout against HEAD~1
    python benchmarks/engines.py --reference main --deals 100 --bot-games 200

Measures, for the reference (a temporary git worktree) and for this checkout, each in
its own processes on the same machine and in the same run:

* the single-game engine, ``scoundrel bench`` (solo and co-op, moves/s, best of five
  runs, the two versions taking turns);
* the batch, ``scoundrel bench --batch 4096`` (the same);
* the solver, ``benchmarks/solver.py --deals N`` (solo, and co-op with ``--limit 60``):
  CPU seconds in all, and the median per deal;
* both bots' decision times, ``benchmarks/bot.py`` (fast and search): CPU seconds in all
  and the median per decision.

The solver and bot runs of the two versions go side by side, one a core (their CPU times,
not wall-clock, are compared). Prints each figure with the reference's and the change in
per cent; ``--json`` prints them as one object. Fixed seeds throughout.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web import ROOT, worktree

HERE = Path(__file__).resolve().parent


def run(tree: Path, args: list[str]) -> dict[str, Any]:
    """A command's JSON output, run with ``tree``'s sources first on the path."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    done = subprocess.run(
        [sys.executable, *args], env=env, capture_output=True, text=True, check=True, cwd=tree
    )
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def bench(tree: Path, ruleset: str, games: int, batch: int) -> float:
    args = ["-m", "scoundrel", "bench", "--ruleset", ruleset, "--games", str(games), "--json"]
    if batch:
        args += ["--batch", str(batch)]
    return float(run(tree, args)["moves_per_s"])


def both(trees: dict[str, Path], args: list[str]) -> dict[str, dict[str, Any]]:
    """Run one benchmark script for each tree, side by side (one a core)."""
    script = str(HERE / args[0])
    with ThreadPoolExecutor(len(trees)) as pool:
        futures = {
            name: pool.submit(run, tree, [script, *args[1:]]) for name, tree in trees.items()
        }
        return {name: future.result() for name, future in futures.items()}


def measure(trees: dict[str, Path], deals: int, bot_games: int, search_games: int) -> list[Any]:
    rows: list[Any] = []
    for label, games, batch in (("engine", 30_000, 0), ("batch 4096", 400_000, 4096)):
        for ruleset in ("solo", "coop"):
            best = dict.fromkeys(trees, 0.0)
            for _ in range(5):  # the versions take turns: a busy moment hits both
                for name, tree in trees.items():
                    best[name] = max(best[name], bench(tree, ruleset, games, batch))
            rows.append((f"{label} {ruleset}, moves/s", best, "higher"))
            print(rows[-1], file=sys.stderr, flush=True)
    for ruleset, extra in (("solo", []), ("coop", ["--limit", "60"])):
        out = both(
            trees, ["solver.py", "--deals", str(deals), "--ruleset", ruleset, "--json", *extra]
        )
        rows.append(
            (
                f"solver {ruleset} {deals} deals, CPU s",
                {n: o["total_cpu_s"] for n, o in out.items()},
                "lower",
            )
        )
        rows.append(
            (
                f"solver {ruleset}, median ms",
                {n: o["cpu_median_ms"] for n, o in out.items()},
                "lower",
            )
        )
        print(rows[-2:], file=sys.stderr, flush=True)
    for level, games in (("fast", bot_games), ("search", search_games)):
        out = both(trees, ["bot.py", "--level", level, "--games", str(games), "--json"])
        moves = {n: o["every_move"] for n, o in out.items()}
        rows.append(
            (
                f"{level} bot {games} games, CPU s",
                {n: m["total_s"] for n, m in moves.items()},
                "lower",
            )
        )
        rows.append(
            (f"{level} bot, median ms", {n: m["median_ms"] for n, m in moves.items()}, "lower")
        )
        print(rows[-2:], file=sys.stderr, flush=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reference", metavar="GIT_REF", required=True)
    parser.add_argument("--deals", type=int, default=100, help="solver deals (seeds from 0)")
    parser.add_argument("--bot-games", type=int, default=200, help="fast bot games")
    parser.add_argument("--search-games", type=int, default=20, help="searching bot games")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with worktree(args.reference) as reference:
        trees = {"reference": reference, "this": ROOT}
        rows = measure(trees, args.deals, args.bot_games, args.search_games)
    if args.json:
        print(json.dumps({name: figures for name, figures, _ in rows}))
        return 0
    print(f"this checkout against {args.reference}:")
    for name, figures, better in rows:
        ref, this = figures["reference"], figures["this"]
        change = (this - ref) / ref * 100 if ref else 0.0
        gain = -change if better == "lower" else change
        word = "faster" if gain >= 0 else "slower"
        print(f"  {name:<34} {this:>14,.2f}  (reference {ref:,.2f}: {abs(gain):.1f}% {word})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
