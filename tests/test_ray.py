"""``--ray ADDRESS`` (issue 40): ``bot``, ``solve --games`` and ``arena`` spread their deals
over a Ray cluster — here one of two nodes (a head and a worker) started by the test on
this machine — and give the same results as a local run for the same seeds. Ctrl+C
cancels the cluster's tasks; a cluster that is not there is named at once."""

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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
RAY = Path(sys.executable).parent / "ray"

if not RAY.exists():
    if os.environ.get("CI"):  # CI installs the test extra, Ray in it: a broken run
        raise AssertionError(f"no {RAY}: the test extra installs Ray")
    pytest.skip("Ray is not installed (pip install -e '.[test]')", allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _ray(*args: str, env: dict[str, str]) -> None:
    done = subprocess.run([str(RAY), *args], capture_output=True, text=True, env=env, timeout=180)
    assert done.returncode == 0, f"ray {' '.join(args)}: {done.stderr[-1500:]}"


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A head node and a worker node, one CPU each, on this machine.

    The nodes' directory is short and directly under /tmp: Ray puts Unix sockets in it, and a
    socket's path may not pass 107 bytes (pytest's own temporary paths grow past it)."""
    port = _free_port()
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("PYTHONPATH", None)  # the nodes know only what is installed, as a real cluster
    common = ["--num-cpus=1", "--object-store-memory=100000000", "--disable-usage-stats"]
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")
    _ray("start", "--head", f"--port={port}", "--include-dashboard=false",
         f"--temp-dir={temp}", *common, env=env)  # fmt: skip
    address = f"127.0.0.1:{port}"
    try:
        _ray("start", f"--address={address}", *common, env=env)
        assert _cluster(address)["nodes"] == 2
        yield address
    finally:
        subprocess.run([str(RAY), "stop", "--force"], capture_output=True, env=env, timeout=120)
        shutil.rmtree(temp, ignore_errors=True)


def _cluster(address: str) -> dict[str, Any]:
    """How many nodes are alive, and how many CPUs are free, asked of the cluster."""
    script = (
        "import json, ray\n"
        f"ray.init(address={address!r}, log_to_driver=False, logging_level='error')\n"
        "alive = [node for node in ray.nodes() if node['Alive']]\n"
        "print(json.dumps({'nodes': len(alive),"
        " 'free': ray.available_resources().get('CPU', 0.0)}))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    result: dict[str, Any] = json.loads(found.stdout.strip().splitlines()[-1])
    return result


def run(*args: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(HERE / "arena"), "RAY_USAGE_STATS_ENABLED": "0"}
    done = subprocess.run(
        [sys.executable, "-m", "scoundrel", *args, "--json"],
        capture_output=True, text=True, env=env, check=False, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def _without_times(found: Any) -> Any:
    if isinstance(found, dict):
        return {k: _without_times(v) for k, v in found.items() if k != "seconds"}
    if isinstance(found, list):
        return [_without_times(v) for v in found]
    return found


@pytest.mark.parametrize(
    "args",
    [
        ["bot", "--games", "60", "--seed", "3"],
        # a co-op game the searching bot loses early (its games take a minute or two)
        ["bot", "--games", "1", "--seed", "12", "--level", "search", "--ruleset", "coop"],
        ["solve", "--games", "12", "--seed", "40"],
        # a policy from a file the nodes do not have: shipped with the job
        ["arena", "fast", "fair_policies:first_move", "--games", "12"],
    ],
    ids=["bot", "bot-search-coop", "solve", "arena"],
)
def test_a_cluster_gives_the_local_results(cluster: str, args: list[str]) -> None:
    local = run(*args)
    spread = run(*args, "--ray", cluster)
    assert _without_times(spread) == _without_times(local)


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_ctrl_c_cancels_the_cluster_s_tasks(cluster: str, stop: str) -> None:
    """Ctrl+C, or ``kill``, cancels the cluster's tasks of the command it stops."""
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    process = subprocess.Popen(
        [sys.executable, "-m", "scoundrel", "arena", "fast", "--games", "200000",
         "--ray", cluster],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while _cluster(cluster)["free"] > 0:  # until both nodes are busy with its games
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the cluster never got busy"
            time.sleep(1)
        os.killpg(process.pid, getattr(signal, stop))
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130, err
    assert b"cancelled" in err and b"Traceback" not in err
    deadline = time.monotonic() + 60
    while _cluster(cluster)["free"] < 2:  # its tasks were cancelled: the CPUs are free
        assert time.monotonic() < deadline, f"tasks still hold the cluster after {stop}"
        time.sleep(1)


def test_a_cluster_that_is_not_there_is_named_at_once() -> None:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "scoundrel", "bot", "--games", "3", "--ray",
         f"127.0.0.1:{_free_port()}"],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "cannot reach a Ray cluster at '127.0.0.1:" in done.stderr
    assert time.monotonic() - started < 30  # not Ray's minutes of retrying


def test_without_ray_the_option_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from scoundrel.spread import Spread, SpreadError

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    with pytest.raises(SpreadError, match=r"pip install 'scoundrel-cards\[ray\]'"):
        Spread(1, "auto").__enter__()
