"""Web benchmark: move round trips with many concurrent players, and the first page's weight.

    .venv/bin/python benchmarks/web.py [--players 200] [--moves 30] [--think 0.2 1.0]
                                       [--reference GIT_REF] [--rounds 1]
                                       [--transport auto|socket|http] [--pin]
                                       [--together]

Starts ``scoundrel serve`` on a free loopback port with a fresh SQLite database, then runs
``--players`` simulated players at once, each with its own cookie (so its own games). A
player starts a random solo game and plays ``--moves`` moves, each a uniformly random legal
move taken from the last view, waiting a random "think" time between moves (as people do);
when a game ends it starts another. A player sends its new games and moves as the table page
does: over the game socket (``/api/play``) once its first request has given it a cookie, or
with an HTTP request each on a server without that socket (``--transport`` chooses). Every
move's round trip (request sent to answer read) is recorded. Prints p50/p90/p99/max in
milliseconds, the moves per second, and the bytes a first visit to ``/`` transfers (the
page and every stylesheet and module it loads, gzip as a browser asks for it). Fixed seed;
bounded in count and time; loopback only.

``--reference GIT_REF`` also measures another version of the code in the same run: the ref
is checked out into a temporary git worktree (removed afterwards), a server is started from
that tree (``PYTHONPATH=TREE/src``, the same installed dependencies) and the same load is
played against it, reference first; both sets of figures are printed side by side with the
ratio of server CPU per move (this tree's over the reference's). "This tree" is the ``src``
folder next to this script. ``--rounds N`` runs each server N times, taking turns, and
reports medians (other work on the machine moves single runs a lot), and the ratio of
each round's two runs, made back to back, with their median. ``--pin`` keeps the
server on a core of its own, the players on the rest: on two cores, the server and the
load otherwise take turns on both, and single runs of one tree vary by half.
``--together`` (with ``--reference``) starts both servers at once, on the same core with
``--pin``, each under its own ``--players`` players: the ratio of their CPU per move is
then measured over the same seconds, spared the machine's swings between one run and the
next (other tenants, clock speed); their round trips, sharing a core, are slower than
alone and are not the figures of record.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(
    port: int, db: Path, src: Path | None = None, one_address: bool = False
) -> subprocess.Popen[bytes]:
    """``scoundrel serve`` on ``port``; from the source tree ``src`` if given (else the
    installed package). Every simulated player comes from this machine: unless
    ``one_address``, the server is told it is behind a proxy (``SCOUNDREL_PROXY=1``), so
    that each player has their limits and loopback has none, as many people behind a
    proxy would."""
    env = dict(os.environ)
    if not one_address:
        env["SCOUNDREL_PROXY"] = "1"
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            [str(src), *filter(None, [os.environ.get("PYTHONPATH")])]
        )
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
        env=env,
    )
    core = os.environ.get("SCOUNDREL_BENCH_SERVER_CORE")
    if core is not None:  # --pin
        os.sched_setaffinity(server.pid, {int(core)})
    return answering(server, port, 30)


def answering(
    server: subprocess.Popen[bytes], port: int, seconds: float
) -> subprocess.Popen[bytes]:
    """``server`` once it answers on ``port``; killed (with its process group, if it leads
    one) and the benchmark stopped if it does not within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.1)
    if os.getpgid(server.pid) == server.pid:
        os.killpg(server.pid, signal.SIGKILL)
    else:
        server.kill()
    raise SystemExit("the server did not start")


async def http_player(
    base: str,
    number: int,
    moves: int,
    think: tuple[float, float],
    seed: int,
    times: list[float],
    errors: list[str],
) -> None:
    """A player whose every new game and move is an HTTP request."""
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


async def socket_player(
    base: str,
    number: int,
    moves: int,
    think: tuple[float, float],
    seed: int,
    times: list[float],
    errors: list[str],
) -> None:
    """A player as the table page plays: the page asks for the game in play (an HTTP
    request, whose answer gives it its cookie), then starts games and moves over the game
    socket, ``/api/play``."""
    rng = random.Random(seed * 1000 + number)
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        await asyncio.sleep(rng.uniform(0, think[1]))
        view = (await client.get("/api/games/current")).json()["game"] or {"status": "none"}
        cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
    url = base.replace("http://", "ws://", 1) + "/api/play"
    async with websockets.connect(
        url, additional_headers={"cookie": cookie}, compression=None
    ) as socket:
        asked = 0

        async def ask(message: dict[str, Any]) -> dict[str, Any]:
            nonlocal asked
            asked += 1
            await socket.send(json.dumps({"id": asked, **message}))
            answer: dict[str, Any] = json.loads(await socket.recv())
            return answer

        for _ in range(moves):
            if view["status"] != "playing":
                view = (await ask({"op": "new", "mode": "random"}))["game"]
            move = rng.choice(view["legal"])["move"]
            await asyncio.sleep(rng.uniform(*think))
            started = time.perf_counter()
            answer = await ask(
                {"op": "move", "game": view["id"], "move": move, "after": len(view["moves"])}
            )
            times.append(time.perf_counter() - started)
            if "game" not in answer:
                errors.append(f"{answer.get('status')} {str(answer.get('error'))[:80]}")
                return
            view = answer["game"]


async def offers_socket(base: str) -> bool:
    """Whether the server plays over the game socket (the versions before it did not)."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        await client.get("/api/games/current")  # a cookie
        cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
    url = base.replace("http://", "ws://", 1) + "/api/play"
    try:
        async with websockets.connect(url, additional_headers={"cookie": cookie}):
            return True
    except (websockets.exceptions.InvalidStatus, websockets.exceptions.ConnectionClosed):
        return False


def cpu_times(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of a process so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan"), float("nan")
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    return sum(cpu_times(pid))


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
                folder = clean.rsplit("/", 1)[0]  # imports are relative: /static/<hash>/js
                for name in re.findall(r'from "\./([\w.]+)"', response.text):
                    queue.append(f"{folder}/{name}")
                if clean.endswith("main.js"):  # the table page's own module
                    queue.append(f"{folder}/table.js")
    return total, fetched


async def measure(args: argparse.Namespace, src: Path | None = None) -> dict[str, Any]:
    """The figures of one server (from ``src``, or the installed package) under the load."""
    return (await measure_together(args, [src]))[0]


async def measure_together(
    args: argparse.Namespace, sources: list[Path | None]
) -> list[dict[str, Any]]:
    """The figures of one server per source tree, all started at once and each under its
    own load of ``--players`` players, played at the same time: every server meets the
    same moments of the machine."""
    with contextlib.ExitStack() as stack:
        servers: list[tuple[subprocess.Popen[bytes], str]] = []
        for src in sources:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            port = free_port()
            server = start_server(port, folder / "bench.sqlite3", src)
            stack.callback(server.wait, 10)
            stack.callback(server.terminate)
            servers.append((server, f"http://127.0.0.1:{port}"))
        runs: list[dict[str, Any]] = []
        loads = []
        for _server, base in servers:
            weight, files = page_weight(base)
            transport = args.transport
            if transport == "auto":
                transport = "socket" if await offers_socket(base) else "http"
            player = socket_player if transport == "socket" else http_player
            times: list[float] = []
            errors: list[str] = []
            runs.append(
                {
                    "transport": transport,
                    "times": times,
                    "errors": errors,
                    "weight": weight,
                    "files": files,
                }
            )
            loads += [
                player(base, n, args.moves, tuple(args.think), args.seed, times, errors)
                for n in range(args.players)
            ]
        before = [cpu_times(server.pid) for server, _base in servers]
        started = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*loads), timeout=600)
        seconds = time.perf_counter() - started
        after = [cpu_times(server.pid) for server, _base in servers]
    return [
        figures(args, run, seconds, start, end)
        for run, start, end in zip(runs, before, after, strict=True)
    ]


def figures(
    args: argparse.Namespace,
    run: dict[str, Any],
    seconds: float,
    before: tuple[float, float],
    after: tuple[float, float],
) -> dict[str, Any]:
    """One server's figures from its players' round trips and its CPU times."""
    ms = sorted(t * 1000 for t in run["times"])
    quantiles = statistics.quantiles(ms, n=100)
    moves = max(1, len(ms))
    user = after[0] - before[0]
    system = after[1] - before[1]
    return {
        "transport": run["transport"],
        "players": args.players,
        "moves_per_player": args.moves,
        "think": list(args.think),
        "seed": args.seed,
        "moves": len(ms),
        "errors": len(run["errors"]),
        "seconds": round(seconds, 2),
        "moves_per_s": round(len(ms) / seconds, 1),
        "p50_ms": round(statistics.median(ms), 2),
        "p90_ms": round(quantiles[89], 2),
        "p99_ms": round(quantiles[98], 2),
        "max_ms": round(ms[-1], 2),
        "server_cpu_ms_per_move": round((user + system) * 1000 / moves, 3),
        "server_user_ms_per_move": round(user * 1000 / moves, 3),
        "server_system_ms_per_move": round(system * 1000 / moves, 3),
        "first_page_bytes": run["weight"],
        "first_page_files": run["files"],
    }


@contextlib.contextmanager
def worktree(ref: str) -> Iterator[Path]:
    """``ref`` checked out (detached) into a temporary git worktree, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="scoundrel-ref-"))
    tree = folder / "tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), ref],
        check=True,
        timeout=120,
    )
    try:
        yield tree
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
            check=False,
            timeout=120,
        )
        shutil.rmtree(folder, ignore_errors=True)
        subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], check=False, timeout=60)


def median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One run's figures from several: each number the median over the runs."""
    merged = dict(runs[-1])
    for key, value in merged.items():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            middle = statistics.median(run[key] for run in runs)
            # whole numbers stay whole (players, moves); the rest is shown to 3 places
            merged[key] = int(middle) if middle == int(middle) else round(middle, 3)
    merged["rounds"] = len(runs)
    merged["server_cpu_ms_per_move_each"] = [run["server_cpu_ms_per_move"] for run in runs]
    return merged


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    """This tree's figures, and with ``--reference`` the reference's: the two servers take
    turns (reference first), or with ``--together`` run at once, for ``--rounds`` rounds,
    and each figure is the median."""
    if not args.reference:
        return median_run([await measure(args, ROOT / "src") for _ in range(args.rounds)])
    references: list[dict[str, Any]] = []
    currents: list[dict[str, Any]] = []
    with worktree(args.reference) as tree:
        for _ in range(args.rounds):
            if args.together:
                theirs, ours = await measure_together(args, [tree / "src", ROOT / "src"])
            else:
                theirs = await measure(args, tree / "src")
                ours = await measure(args, ROOT / "src")
            references.append(theirs)
            currents.append(ours)
    reference = median_run(references)
    current = median_run(currents)
    ratio = current["server_cpu_ms_per_move"] / max(1e-9, reference["server_cpu_ms_per_move"])
    # each round's two servers run back to back: their ratio is spared the slow swings of
    # the machine (other tenants, clock speed) that move whole rounds
    each = [
        ours["server_cpu_ms_per_move"] / max(1e-9, theirs["server_cpu_ms_per_move"])
        for theirs, ours in zip(references, currents, strict=True)
    ]
    return {
        "reference": args.reference,
        "current": current,
        "reference_run": reference,
        "cpu_ratio": round(ratio, 3),
        "cpu_ratio_each": [round(r, 3) for r in each],
        "cpu_ratio_of_rounds": round(statistics.median(each), 3),
    }


def summary(result: dict[str, Any]) -> str:
    return (
        f"{result['players']} players, {result['moves']} moves in {result['seconds']} s "
        f"({result['moves_per_s']} moves/s), {result['errors']} errors\n"
        f"move round trip: p50 {result['p50_ms']} ms, p90 {result['p90_ms']} ms, "
        f"p99 {result['p99_ms']} ms, max {result['max_ms']} ms; "
        f"server CPU {result['server_cpu_ms_per_move']} ms per move "
        f"(user {result['server_user_ms_per_move']}, "
        f"system {result['server_system_ms_per_move']})\n"
        f"first page load: {result['first_page_bytes']:,} bytes over "
        f"{len(result['first_page_files'])} files (gzip)"
    )


ROWS = (
    ("transport", "transport"),
    ("moves", "moves"),
    ("errors", "errors"),
    ("seconds", "seconds"),
    ("moves/s", "moves_per_s"),
    ("p50 ms", "p50_ms"),
    ("p90 ms", "p90_ms"),
    ("p99 ms", "p99_ms"),
    ("max ms", "max_ms"),
    ("server CPU ms/move", "server_cpu_ms_per_move"),
    ("  user ms/move", "server_user_ms_per_move"),
    ("  system ms/move", "server_system_ms_per_move"),
    ("first page bytes", "first_page_bytes"),
)


def side_by_side(result: dict[str, Any]) -> str:
    reference: dict[str, Any] = result["reference_run"]
    current: dict[str, Any] = result["current"]
    name = f"reference {result['reference']}"
    width = max(len(name), 12)
    lines = [
        f"{current['players']} players x {current['moves_per_player']} moves each, "
        f"think {current['think']} s, seed {current['seed']}, "
        f"median of {current['rounds']} round(s) each",
        f"{'':20} {name:>{width}} {'this tree':>12}",
    ]
    for label, key in ROWS:
        lines.append(f"{label:20} {reference[key]!s:>{width}} {current[key]!s:>12}")
    if current["rounds"] > 1:
        lines.append(
            f"server CPU ms/move by round: reference {reference['server_cpu_ms_per_move_each']}, "
            f"this tree {current['server_cpu_ms_per_move_each']}"
        )
        lines.append(
            f"this tree / reference in each round: {result['cpu_ratio_each']}, "
            f"median {result['cpu_ratio_of_rounds']}"
        )
    ratio = result["cpu_ratio"]
    lines.append(
        f"server CPU per move, this tree / reference: {ratio} (1/{1 / max(1e-9, ratio):.2f})"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--think", type=float, nargs=2, default=(0.2, 1.0))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--reference",
        metavar="GIT_REF",
        default=None,
        help="also measure this commit (from a temporary git worktree) and compare",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="runs of each server, taking turns; every figure is the median (1)",
    )
    parser.add_argument(
        "--transport",
        choices=("auto", "socket", "http"),
        default="auto",
        help="how players send new games and moves: over the game socket as the table page "
        "does, or an HTTP request each; auto: the socket where the server has one (auto)",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="run the server on the last core and the players on the others, so that "
        "they do not take turns on one core (steadier figures on a small machine)",
    )
    parser.add_argument(
        "--together",
        action="store_true",
        help="with --reference: run both servers at once, each under its own players, "
        "rather than one after the other (their CPU ratio then meets the same moments of "
        "the machine; their round trips share its cores)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.rounds < 1 or args.players < 1 or args.moves < 1:
        parser.error("--players, --moves and --rounds must be at least 1")
    if args.together and not args.reference:
        parser.error("--together compares two servers: give --reference as well")
    if args.pin:
        cores = sorted(os.sched_getaffinity(0))
        if len(cores) < 2:
            parser.error("--pin needs two cores at least")
        os.environ["SCOUNDREL_BENCH_SERVER_CORE"] = str(cores[-1])
        os.sched_setaffinity(0, cores[:-1])  # the players (and the servers' parent)
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    result = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(result))
    elif args.reference:
        print(side_by_side(result))
    else:
        print(summary(result))


if __name__ == "__main__":
    main()
