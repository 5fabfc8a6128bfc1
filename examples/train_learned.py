"""Learn the learned bot's weights (``scoundrel bot --level learned``) for strict solo.

Needs nothing but the package (and NumPy, which the ``rl`` and ``fast`` extras bring).
The recipe behind the weights in the package::

    python examples/train_learned.py --generations 10 --population 16 --games 800 \\
        --check 3000 --jobs 2 --out src/scoundrel/solver/learned.json \\
        --curve examples/results/learned_curve.json

The method is the cross-entropy method, a policy search over the weights of the bot's
evaluation (:data:`scoundrel.solver.learned.FEATURES`):

1. Draw ``--population`` weight vectors from a normal distribution (at first centred on the
   fast bot's hand-tuned weights, so the search starts from the fast bot).
2. Each plays the same ``--games`` training deals; they are ranked by wins, then by mean
   score. The distribution moves to the mean of the best quarter, and its spread to
   theirs (smoothed, with a floor so the search does not stop too soon).
3. Each generation plays new training deals (``random_deal(Rules.solo(), 200_000_000 + …)``).

At the end, the final mean and each generation's best vector play ``--check`` validation
deals (``300_000_000 + …``) beside the fast bot, and the best of them is written. Neither
range meets the arena's held-out deals (from 1,000,000,000) nor the README's seeds 0–1,999:
the arena's figures for the learned bot are on deals it never saw.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from scoundrel.core import Rules
from scoundrel.solver.bot import play_games
from scoundrel.solver.learned import FEATURES, HAND, Learned, LearnedBot
from scoundrel.spread import chunks

TRAIN_SEEDS = 200_000_000
CHECK_SEEDS = 300_000_000
#: The first spread: the fast bot's six weights, then the new terms.
SPREAD = (0.15, 0.15, 0.15, 0.15, 0.4, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3)


def play(job: tuple[tuple[float, ...], int, int]) -> tuple[int, int]:
    """Wins and total score of the weights on deals ``first .. first + games - 1``."""
    weights, first, games = job
    result = play_games(Rules.solo(), games, first, bot=LearnedBot(Learned(weights, {})))
    return result.wins, result.total_score


def rate(
    pool: ProcessPoolExecutor,
    candidates: list[tuple[float, ...]],
    first: int,
    games: int,
    chunk: int,
) -> list[tuple[int, int]]:
    """Each candidate's (wins, total score) on the same deals."""
    pieces = chunks(first, games, chunk)
    jobs = [(c, s, n) for c in candidates for s, n in pieces]
    done = list(pool.map(play, jobs))
    per = len(pieces)
    return [
        (
            sum(w for w, _ in done[i * per : (i + 1) * per]),
            sum(t for _, t in done[i * per : (i + 1) * per]),
        )
        for i in range(len(candidates))
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--generations", type=int, default=10)
    parser.add_argument("--population", type=int, default=16)
    parser.add_argument("--games", type=int, default=600, help="training deals a generation")
    parser.add_argument("--check", type=int, default=3_000, help="validation deals at the end")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--curve", type=Path)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    mean, spread = np.array(HAND), np.array(SPREAD)
    elite_count = max(2, args.population // 4)
    started = time.perf_counter()
    curve: list[dict[str, Any]] = []
    finalists: list[tuple[float, ...]] = []
    chunk = max(25, args.games // 8)
    with ProcessPoolExecutor(args.jobs) as pool:
        for generation in range(args.generations):
            drawn = rng.normal(mean, spread, (args.population - 1, len(FEATURES)))
            candidates = [tuple(map(float, mean)), *(tuple(map(float, d)) for d in drawn)]
            first = TRAIN_SEEDS + generation * args.games
            results = rate(pool, candidates, first, args.games, chunk)
            order = sorted(range(len(candidates)), key=lambda i: results[i], reverse=True)
            elite = np.array([candidates[i] for i in order[:elite_count]])
            finalists.append(candidates[order[0]])
            point = {
                "generation": generation + 1,
                "games_played": (generation + 1) * args.games * args.population,
                "mean_win_rate": results[0][0] / args.games,
                "best_win_rate": results[order[0]][0] / args.games,
                "elite_win_rate": sum(results[i][0] for i in order[:elite_count])
                / (elite_count * args.games),
                "minutes": round((time.perf_counter() - started) / 60, 2),
            }
            curve.append(point)
            print(json.dumps(point), flush=True)
            mean = 0.3 * mean + 0.7 * elite.mean(axis=0)
            spread = np.maximum(0.3 * spread + 0.7 * elite.std(axis=0), 0.03)
        finalists.append(tuple(map(float, mean)))
        checked = rate(pool, [HAND, *finalists], CHECK_SEEDS, args.check, max(25, args.check // 8))
    fast_wins = checked[0][0]
    best = max(range(1, len(checked)), key=lambda i: checked[i])
    learned = Learned(finalists[best - 1], {})
    about = {
        "method": "cross-entropy method over the evaluation's weights, from the fast bot's",
        "generations": args.generations,
        "population": args.population,
        "training_deals_per_generation": args.games,
        "training_seeds": f"{TRAIN_SEEDS}..{TRAIN_SEEDS + args.generations * args.games - 1}",
        "validation_seeds": f"{CHECK_SEEDS}..{CHECK_SEEDS + args.check - 1}",
        "validation_win_rate": checked[best][0] / args.check,
        "validation_win_rate_fast_bot": fast_wins / args.check,
        "minutes": round((time.perf_counter() - started) / 60, 2),
    }
    learned.save(args.out, about)
    if args.curve:
        validation = [{"candidate": "fast bot", "win_rate": fast_wins / args.check}] + [
            {
                "candidate": f"generation {i + 1} best" if i < args.generations else "final mean",
                "win_rate": checked[i + 1][0] / args.check,
            }
            for i in range(len(finalists))
        ]
        args.curve.write_text(
            json.dumps({"generations": curve, "validation": validation, "kept": about}, indent=2)
            + "\n"
        )
    print(
        f"kept {'the final mean' if best == len(finalists) else f'generation {best}'}'s "
        f"weights: {checked[best][0] / args.check:.2%} of {args.check} validation deals "
        f"(the fast bot {fast_wins / args.check:.2%}), in {args.out}"
    )


if __name__ == "__main__":
    main()
