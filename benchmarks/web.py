"""Web benchmark: move round trips with many concurrent players, and the first page's weight.

    .venv/bin/python benchmarks/web.py [--players 200] [--moves 30] [--think 0.2 1.0]

Starts ``scoundrel serve`` on a free loopback port with a fresh SQLite database, then runs
``--players`` simulated players at once, each with its own cookie (so its own games). A
player starts a random solo game and plays ``--moves`` moves, each a uniformly random legal
move taken from the last view, waiting a random "think" time between moves (as people do);
when a game ends it starts another. Every move's round trip (request sent to response read)
is recorded. Prints p50/p90/p99/max in milliseconds, the moves per second, and the bytes a
first visit to ``/`` transfers (the page and every stylesheet and module it loads, gzip as a
browser asks for it). Fixed seed; bounded in count and time; loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(port: int, db: Path) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scoundrel",
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{db}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start")


async def player(
    base: str,
    number: int,
    moves: int,
    think: tuple[float, float],
    seed: int,
    times: list[float],
    errors: list[str],
) -> None:
    rng = random.Random(seed * 1000 + number)
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        await asyncio.sleep(rng.uniform(0, think[1]))  # players arrive over a moment
        view = (await client.post("/api/games", json={"mode": "random"})).json()
        for _ in range(moves):
            if view["status"] != "playing":
                view = (await client.post("/api/games", json={"mode": "random"})).json()
            move = rng.choice(view["legal"])["move"]
            await asyncio.sleep(rng.uniform(*think))
            started = time.perf_counter()
            response = await client.post(f"/api/games/{view['id']}/moves", json={"move": move})
            times.append(time.perf_counter() - started)
            if response.status_code != 200:
                errors.append(f"{response.status_code} {response.text[:80]}")
                return
            view = response.json()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def page_weight(base: str) -> tuple[int, list[str]]:
    """Bytes transferred for a first visit to / (gzip), following stylesheets and modules."""
    total = 0
    fetched: list[str] = []
    with httpx.Client(base_url=base, headers={"accept-encoding": "gzip"}) as client:
        page = client.get("/")
        total += page.num_bytes_downloaded
        fetched.append("/")
        queue = re.findall(r'(?:href|src)="(/static/[^"]+)"', page.text)
        seen: set[str] = set()
        while queue:
            path = queue.pop(0)
            clean = path.split("?")[0]
            if clean in seen:
                continue
            seen.add(clean)
            response = client.get(path)
            total += response.num_bytes_downloaded
            fetched.append(clean)
            if clean.endswith(".js"):
                for name in re.findall(r'from "\./([\w.]+)"', response.text):
                    queue.append(f"/static/js/{name}")
                if clean.endswith("main.js"):  # the table page's own module
                    queue.append("/static/js/table.js")
    return total, fetched


async def main_async(args: argparse.Namespace) -> dict[str, object]:
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(port, Path(folder) / "bench.sqlite3")
        try:
            base = f"http://127.0.0.1:{port}"
            weight, files = page_weight(base)
            times: list[float] = []
            errors: list[str] = []
            cpu_before = cpu_seconds(server.pid)
            started = time.perf_counter()
            await asyncio.wait_for(
                asyncio.gather(
                    *(
                        player(base, n, args.moves, tuple(args.think), args.seed, times, errors)
                        for n in range(args.players)
                    )
                ),
                timeout=600,
            )
            seconds = time.perf_counter() - started
            server_cpu = cpu_seconds(server.pid) - cpu_before
        finally:
            server.terminate()
            server.wait(10)
    ms = sorted(t * 1000 for t in times)
    quantiles = statistics.quantiles(ms, n=100)
    return {
        "players": args.players,
        "moves": len(ms),
        "errors": len(errors),
        "seconds": round(seconds, 2),
        "moves_per_s": round(len(ms) / seconds, 1),
        "p50_ms": round(statistics.median(ms), 2),
        "p90_ms": round(quantiles[89], 2),
        "p99_ms": round(quantiles[98], 2),
        "max_ms": round(ms[-1], 2),
        "server_cpu_ms_per_move": round(server_cpu * 1000 / max(1, len(ms)), 2),
        "first_page_bytes": weight,
        "first_page_files": files,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--think", type=float, nargs=2, default=(0.2, 1.0))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    result = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"{result['players']} players, {result['moves']} moves in {result['seconds']} s "
        f"({result['moves_per_s']} moves/s), {result['errors']} errors\n"
        f"move round trip: p50 {result['p50_ms']} ms, p90 {result['p90_ms']} ms, "
        f"p99 {result['p99_ms']} ms, max {result['max_ms']} ms; "
        f"server CPU {result['server_cpu_ms_per_move']} ms per move\n"
        f"first page load: {result['first_page_bytes']:,} bytes over "
        f"{len(result['first_page_files'])} files (gzip)"  # type: ignore[arg-type]
    )


if __name__ == "__main__":
    main()
