"""Load benchmark of solo players and online co-op pairs, for 1 and 2 server workers.

    .venv/bin/python benchmarks/tables.py [--players 200] [--moves 20] [--workers 1 2]
        [--db postgresql:///bench?host=/var/run/postgresql] [--redis redis://127.0.0.1:6379/0]

Starts ``scoundrel serve --workers N`` on a free loopback port (a fresh SQLite file unless
``--db`` names a database, which is emptied first; with several workers give PostgreSQL
and Redis). Half the players play solo as the table page does, over the game socket
(``/api/play``); the other half sit in co-op pairs at online tables, each player following
the table over its WebSocket and acting on it, as the page does. Every player waits a
random "think" time before each move. Measured: every move's round trip (request sent to
response read), and for the co-op pairs the partner update (move sent to the partner's
socket receiving the view that holds it). Prints throughput and p50/p90/p99/max for both,
and the server's CPU per move. Fixed seed; bounded in count and time; loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).parent))
from web import answering, cpu_seconds, free_port, socket_player


def start(workers: int, db: str, redis: str | None, port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "scoundrel", "serve", "--port", str(port), "--db", db]
    command += ["--workers", str(workers)] + (["--redis", redis] if redis else [])
    env = {**os.environ, "SCOUNDREL_RATE_LIMITS": "off"}  # one address, many players
    server = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env=env,
    )
    return answering(server, port, 40)


def group_cpu(leader: int) -> float:
    """CPU seconds of the server and its worker processes (its process group)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getpgid(int(entry.name)) == leader:
                total += cpu_seconds(int(entry.name))
        except (ProcessLookupError, PermissionError):
            continue
    return total


def pick(view: dict[str, Any], rng: random.Random) -> str:
    """A random legal move (the server decides what is legal)."""
    return str(rng.choice(view["legal"])["move"])


class Results:
    def __init__(self) -> None:
        self.moves: list[float] = []
        self.updates: list[float] = []
        self.errors: list[str] = []


async def solo(base: str, number: int, args: argparse.Namespace, out: Results) -> None:
    """A solo player, as the table page plays: over the game socket (see web.py)."""
    await socket_player(
        base, number, args.moves, tuple(args.think), args.seed, out.moves, out.errors
    )


async def pair(base: str, number: int, args: argparse.Namespace, out: Results) -> None:
    """Two players at one online table, each with its socket; whoever is to act moves."""
    rng = random.Random(args.seed * 1000 + 500 + number)
    ws_base = base.replace("http://", "ws://")
    clients = [httpx.AsyncClient(base_url=base, timeout=30) for _ in range(2)]
    try:
        await asyncio.sleep(rng.uniform(0, args.think[1]))
        table = (await clients[0].post("/api/tables", json={"ruleset": "coop"})).json()
        view = (await clients[1].post("/api/tables/join", json={"invite": table["invite"]})).json()
        sockets = []
        for client in clients:
            cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
            sockets.append(
                await websockets.connect(
                    f"{ws_base}/api/tables/{view['id']}/live",
                    additional_headers={"Cookie": cookie},
                )
            )
        waiting: dict[int, tuple[float, int]] = {}  # position -> (when sent, by whom)
        answers: dict[int, asyncio.Future[dict[str, Any]]] = {}  # request id -> its answer

        async def follow(socket: Any, me: int) -> None:
            async for raw in socket:
                message = json.loads(raw)
                if message["type"] == "answer":
                    answers.pop(message["id"]).set_result(message)
                    continue
                if message["type"] != "view":
                    continue
                game = message["game"]
                key = len(game["moves"]) * 2 + (1 if game["pending"] else 0)
                sent = waiting.get(key)
                if sent is not None and sent[1] != me:  # the partner's screen, not the mover's
                    del waiting[key]
                    out.updates.append(time.perf_counter() - sent[0])

        followers = [asyncio.create_task(follow(socket, n)) for n, socket in enumerate(sockets)]
        for _ in range(args.moves):
            if view["status"] != "playing":
                break
            await asyncio.sleep(rng.uniform(*args.think))
            who = view["to_act"] - 1
            move = pick(view, rng)
            started = time.perf_counter()
            # the partner's socket will see the position after this move: a give keeps the
            # moves and sets the given card; any other move adds one
            given = move.startswith(">") and "/" not in move
            count = len(view["moves"])
            waiting[count * 2 + 1 if given else (count + 1) * 2] = (started, who)
            # as the table page does: the action over the mover's socket
            answers[count] = asyncio.get_running_loop().create_future()
            request = {"type": "move", "id": count, "move": move, "after": count}
            await sockets[who].send(json.dumps(request))
            answer = await asyncio.wait_for(answers[count], 30)
            out.moves.append(time.perf_counter() - started)
            if "game" not in answer:
                out.errors.append(f"{answer.get('status')} {str(answer.get('error'))[:80]}")
                break
            view = answer["game"]
        await asyncio.sleep(0.5)  # the last updates arrive
        for task in followers:
            task.cancel()
        for socket in sockets:
            await socket.close()
    finally:
        for client in clients:
            await client.aclose()


def quantiles(values: list[float]) -> dict[str, float]:
    ms = sorted(v * 1000 for v in values)
    if len(ms) < 2:
        return {"p50": float("nan"), "p90": float("nan"), "p99": float("nan"), "max": float("nan")}
    q = statistics.quantiles(ms, n=100)
    return {
        "p50": round(statistics.median(ms), 2),
        "p90": round(q[89], 2),
        "p99": round(q[98], 2),
        "max": round(ms[-1], 2),
    }


async def run(workers: int, args: argparse.Namespace, db: str) -> dict[str, Any]:
    port = free_port()
    server = start(workers, db, args.redis, port)
    base = f"http://127.0.0.1:{port}"
    out = Results()
    try:
        solos = args.players // 2
        pairs = (args.players - solos) // 2
        cpu_before = group_cpu(server.pid)
        started = time.perf_counter()
        await asyncio.wait_for(
            asyncio.gather(
                *(solo(base, n, args, out) for n in range(solos)),
                *(pair(base, n, args, out) for n in range(pairs)),
            ),
            timeout=900,
        )
        seconds = time.perf_counter() - started
        cpu = group_cpu(server.pid) - cpu_before
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(20)
    return {
        "workers": workers,
        "players": args.players,
        "moves": len(out.moves),
        "errors": len(out.errors),
        "first_errors": out.errors[:3],
        "moves_per_s": round(len(out.moves) / seconds, 1),
        "move_ms": quantiles(out.moves),
        "partner_updates": len(out.updates),
        "partner_update_ms": quantiles(out.updates),
        "server_cpu_ms_per_move": round(cpu * 1000 / max(1, len(out.moves)), 2),
    }


def empty(db: str) -> None:
    """Start from an empty database (drop every table of ours)."""
    from sqlalchemy import MetaData, create_engine

    engine = create_engine(db.replace("postgresql://", "postgresql+psycopg://", 1))
    meta = MetaData()
    meta.reflect(engine)
    meta.drop_all(engine)
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--think", type=float, nargs=2, default=(0.2, 1.0))
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file per run)")
    parser.add_argument("--redis", help="Redis URL (needed for live updates across workers)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for workers in args.workers:
            if args.db:
                empty(args.db)
                db = args.db
            else:
                db = f"sqlite:///{folder}/bench-{workers}.sqlite3"
            results.append(asyncio.run(run(workers, args, db)))
    if args.json:
        print(json.dumps(results))
        return
    for r in results:
        m, u = r["move_ms"], r["partner_update_ms"]
        print(
            f"{r['workers']} worker(s), {r['players']} players: {r['moves']} moves, "
            f"{r['moves_per_s']} moves/s, {r['errors']} errors {r['first_errors'] or ''}\n"
            f"  move round trip: p50 {m['p50']} ms, p90 {m['p90']} ms, p99 {m['p99']} ms, "
            f"max {m['max']} ms\n"
            f"  partner update ({r['partner_updates']}): p50 {u['p50']} ms, p90 {u['p90']} ms, "
            f"p99 {u['p99']} ms, max {u['max']} ms\n"
            f"  server CPU {r['server_cpu_ms_per_move']} ms per move"
        )


if __name__ == "__main__":
    main()
