"""Hint flood benchmark: another player's moves and the health check while co-op hints are
asked for as fast as the server allows.

    .venv/bin/python benchmarks/hints.py [--seconds 15] [--reference GIT_REF]

Starts ``scoundrel serve`` on a free loopback port with a fresh SQLite database and its
default limits. A *mover* plays random solo games, one move every 50 ms, over HTTP, and a
*watcher* asks ``/api/health`` every 100 ms; both record their round trips. Three phases
of ``--seconds`` each: quiet; one flooder; five flooders. A flooder is a player (a cookie
of its own) with a co-op game, keeping 20 hint requests in flight (the burst its hint limit
allows), each sent again as soon as it is answered, or after the Retry-After of a refusal.
Prints, per phase, the mover's median and p90 round trip and its median over the quiet
one's (issue 35: at most 2), the health check's p99 and max (at most 100 ms), and the
hints answered and refused. Fixed seed; loopback only.

``--reference GIT_REF`` measures another version of the code the same way first (a
temporary git worktree, as ``benchmarks/web.py`` does), and prints both.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web import ROOT, free_port, start_server, worktree

BURST = 20  # the hint limit's burst per player (web/limits.py)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def mover(base: str, stop: asyncio.Event, times: list[float], rng: random.Random) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        view = (await client.post("/api/games", json={"mode": "random"})).json()
        while not stop.is_set():
            if view.get("status") != "playing":
                view = (await client.post("/api/games", json={"mode": "random"})).json()
                continue
            move = rng.choice(view["legal"])["move"]
            started = time.perf_counter()
            response = await client.post(
                f"/api/games/{view['id']}/moves", json={"move": move, "after": len(view["moves"])}
            )
            times.append(time.perf_counter() - started)
            if response.status_code == 200:
                view = response.json()
            await asyncio.sleep(0.05)


async def watcher(base: str, stop: asyncio.Event, times: list[float]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        while not stop.is_set():
            started = time.perf_counter()
            await client.get("/api/health")
            times.append(time.perf_counter() - started)
            await asyncio.sleep(0.1)


async def flooder(base: str, stop: asyncio.Event, tally: dict[str, int]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        game = (await client.post("/api/games", json={"ruleset": "coop"})).json()

        async def one() -> None:
            while not stop.is_set():
                response = await client.get(f"/api/games/{game['id']}/hint")
                if response.status_code == 200:
                    tally["answered"] += 1
                    continue
                tally[str(response.status_code)] = tally.get(str(response.status_code), 0) + 1
                wait = float(response.headers.get("retry-after") or 1)
                await asyncio.sleep(min(wait, 5.0))

        await asyncio.gather(*(one() for _ in range(BURST)))


async def phase(base: str, flooders: int, seconds: float, seed: int) -> dict[str, Any]:
    stop = asyncio.Event()
    moves: list[float] = []
    health: list[float] = []
    tally: dict[str, int] = {"answered": 0}
    tasks = [asyncio.create_task(flooder(base, stop, tally)) for _ in range(flooders)]
    await asyncio.sleep(1.0 if flooders else 0)  # the flood is under way
    tasks += [
        asyncio.create_task(mover(base, stop, moves, random.Random(seed))),
        asyncio.create_task(watcher(base, stop, health)),
    ]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.wait(tasks, timeout=120)
    for task in tasks:
        task.cancel()
    return {
        "flooders": flooders,
        "moves": len(moves),
        "move_p50_ms": statistics.median(moves) * 1000 if moves else float("nan"),
        "move_p90_ms": quantile(moves, 0.9) * 1000,
        "health_p99_ms": quantile(health, 0.99) * 1000,
        "health_max_ms": max(health, default=float("nan")) * 1000,
        "hints": tally,
    }


def measure(name: str, src: Path | None, seconds: float) -> None:
    """Each phase against a fresh server from ``src``, printed as it ends."""
    print(f"{name}:", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        # one address, as players on one machine are: its limits count too
        server = start_server(port, Path(folder) / "hints.sqlite3", src, one_address=True)
        try:
            base = f"http://127.0.0.1:{port}"
            quiet = None
            for flooders in (0, 1, 5):
                result = asyncio.run(phase(base, flooders, seconds, seed=flooders))
                quiet = quiet or result["move_p50_ms"]
                report(result, quiet)
        finally:
            server.kill()  # hints still being worked out would hold a graceful stop
            server.wait(30)


def report(result: dict[str, Any], quiet: float) -> None:
    ratio = result["move_p50_ms"] / quiet
    print(
        f"  {result['flooders']} flooder(s): move p50 {result['move_p50_ms']:7.1f} ms"
        f" ({ratio:5.2f}x quiet), p90 {result['move_p90_ms']:7.1f} ms;"
        f" health p99 {result['health_p99_ms']:7.1f} ms, max {result['health_max_ms']:7.1f}"
        f" ms; {result['moves']} moves; hints {result['hints']}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--reference", metavar="GIT_REF")
    args = parser.parse_args()
    if args.reference:
        with worktree(args.reference) as tree:
            measure(f"reference {args.reference}", tree / "src", args.seconds)
    measure("this tree", ROOT / "src", args.seconds)


if __name__ == "__main__":
    main()
