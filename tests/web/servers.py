"""Real server processes for the reliability tests: ``scoundrel serve`` started as a
command, a private Redis, a private PostgreSQL cluster, and players that talk HTTP and
WebSocket to them. Everything listens on loopback ports picked free at start."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(check: Any, seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        try:
            result = check()
            if result:
                return result
        except Exception:
            if time.monotonic() > deadline:
                raise
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        time.sleep(0.05)


class Server:
    """``scoundrel serve`` as a child process in its own process group (workers too)."""

    def __init__(
        self,
        db: str,
        redis: str | None = None,
        workers: int = 1,
        port: int | None = None,
        prefix: tuple[str, ...] = (),
        options: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        self.prefix = prefix
        self.options = options
        """More options of ``scoundrel serve`` (``--proxy``)."""
        self.env = env or {}
        """What the command runs under (``faketime -f …``: a clock of the test's choosing)."""
        self.db = db
        self.redis = redis
        self.workers = workers
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.base = f"http://127.0.0.1:{self.port}"
        # what the server prints goes to a file (a pipe nobody reads could fill and block it)
        self.log = Path(tempfile.gettempdir()) / f"scoundrel-server-{self.port}.log"

    def start(self) -> Server:
        command = [*self.prefix, sys.executable, "-m", "scoundrel", "serve"]
        command += ["--port", str(self.port)]
        command += ["--db", self.db, "--workers", str(self.workers)]
        if self.redis:
            command += ["--redis", self.redis]
        command += self.options
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=self.log.open("ab"),
            start_new_session=True,
            # no rate limits: these players move as fast as the machine lets them
            env={
                **os.environ,
                "SCOUNDREL_DAILY_SECRET": "reliability",
                "SCOUNDREL_RATE_LIMITS": "off",
                **self.env,
            },
        )
        try:
            wait_for(self.healthy, 40, f"the server on port {self.port}")
        except AssertionError:
            self.kill()
            raise
        return self

    def healthy(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
        return httpx.get(f"{self.base}/api/health", timeout=2).status_code == 200

    def kill(self) -> None:
        """SIGKILL: no shutdown, nothing flushed (every worker of the group)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        self.process = None


class Redis:
    """A private redis-server on a free port, with no persistence."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            if os.environ.get("CI"):
                pytest.fail("CI installs redis-server: it is missing")
            pytest.skip("no redis-server here (apt-get install redis-server)")
        self.binary = binary
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Redis:
        self.process = subprocess.Popen(
            [self.binary, *("--port", str(self.port), "--bind", "127.0.0.1"), "--save", ""],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(self._answers, 10, "redis-server")
        return self

    def _answers(self) -> bool:
        with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None


class PostgresCluster:
    """A PostgreSQL cluster of its own (Debian's pg_createcluster), so a test may restart
    it without disturbing the other tests' server."""

    def __init__(self) -> None:
        if os.geteuid() != 0 or shutil.which("pg_createcluster") is None:
            if os.environ.get("CI"):
                pytest.fail("CI runs as root with PostgreSQL installed")
            pytest.skip("needs root and Debian's PostgreSQL (pg_createcluster)")
        self.version = sorted(os.listdir("/usr/lib/postgresql"), key=int)[-1]
        self.name = f"t{os.getpid()}_{free_port()}"
        self.port = free_port()
        self.url = f"postgresql+psycopg:///scoundrel?host=/var/run/postgresql&port={self.port}"

    def _run(self, *command: str) -> None:
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def create(self) -> PostgresCluster:
        self._run("pg_createcluster", self.version, self.name, "-p", str(self.port))
        self.start()
        me = subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
        for sql in (
            f'CREATE ROLE "{me}" SUPERUSER LOGIN',
            f'CREATE DATABASE scoundrel OWNER "{me}"',
        ):
            self._run("su", "postgres", "-c", f"psql -q -p {self.port} -c '{sql}'")
        return self

    def start(self) -> None:
        self._run("pg_ctlcluster", self.version, self.name, "start")

    def restart(self) -> None:
        self._run("pg_ctlcluster", self.version, self.name, "restart", "-m", "fast")

    def drop(self) -> None:
        subprocess.run(
            ["pg_dropcluster", self.version, self.name, "--stop"], capture_output=True, timeout=120
        )


class Player:
    """One browser: a cookie jar over HTTP, and WebSockets that carry the same cookie."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.base, timeout=10)

    def use(self, server: Server) -> None:
        """Talk to another server process from now on, keeping the cookie."""
        cookies = self.http.cookies
        self.http.close()
        self.server = server
        self.http = httpx.Client(base_url=server.base, timeout=10, cookies=cookies)

    def call(self, method: str, path: str, **body: Any) -> dict[str, Any]:
        response = self.http.request(method, path, json=body or None)
        assert response.status_code < 300, (method, path, response.status_code, response.text)
        data: dict[str, Any] = response.json()
        return data

    def socket(self, game_id: str) -> ClientConnection:
        cookie = "; ".join(f"{name}={value}" for name, value in self.http.cookies.items())
        url = f"ws://127.0.0.1:{self.server.port}/api/tables/{game_id}/live"
        return connect(url, additional_headers={"Cookie": cookie}, open_timeout=10)

    def close(self) -> None:
        self.http.close()


def next_view(socket: ClientConnection, timeout: float, moves: int | None = None) -> dict[str, Any]:
    """The next view pushed on ``socket`` (with at least ``moves`` moves, if given)."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no view with {moves} moves within {timeout} s")
        try:
            message = json.loads(socket.recv(timeout=left))
        except TimeoutError:
            continue
        if message["type"] == "view" and (moves is None or len(message["game"]["moves"]) >= moves):
            return message


def healthiest(view: dict[str, Any]) -> str:
    """The legal move (not a give) that leaves the weakest hero strongest."""
    plain = [entry for entry in view["legal"] if not entry.get("give")]
    if not plain:
        return str(view["legal"][0]["move"])
    return str(max(plain, key=lambda entry: min(entry["health"]))["move"])
