"""``scoundrel serve``: the port is checked and bound before the address is printed."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoundrel", "serve", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_a_port_out_of_range_exits_2_with_one_line(tmp_path: Path) -> None:
    for port in ("99999", "65536", "-1"):
        result = serve("--port", port, "--db", f"sqlite:///{tmp_path}/s.sqlite3")
        assert result.returncode == 2, result
        assert result.stdout == ""  # no "Scoundrel is at" for a port it never listens on
        lines = result.stderr.splitlines()
        assert len(lines) == 1, result.stderr
        assert lines[0].startswith("scoundrel serve: ") and "65535" in lines[0]
        assert port in lines[0] and "Traceback" not in result.stderr
    assert not (tmp_path / "s.sqlite3").exists()  # refused before the database is opened


def test_a_port_in_use_exits_2_before_printing_an_address(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = serve("--port", str(port), "--db", f"sqlite:///{tmp_path}/s.sqlite3")
    assert result.returncode == 2, result
    assert "Scoundrel is at" not in result.stdout
    assert result.stderr == (
        f"scoundrel serve: cannot listen on 127.0.0.1:{port}: address already in use\n"
    )


def test_port_0_listens_on_a_free_port_and_prints_it(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "scoundrel", "serve", "--port", "0"]
    server = subprocess.Popen(
        [*command, "--db", f"sqlite:///{tmp_path}/s.sqlite3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        match = re.match(r"Scoundrel is at http://127\.0\.0\.1:(\d+)/ ", line)
        assert match, line
        port = int(match.group(1))
        assert port != 0
        deadline = time.monotonic() + 30
        while True:  # the socket listens already; the application may still be starting
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        assert response.status_code == 200
        assert response.json()["ok"] is True
    finally:
        server.terminate()
        server.wait(20)
