"""The release as a stranger gets it (issue 37): the sdist and the wheel are built and pass
``twine check``; the wheel holds every file of the package (a style sheet left out of it
once broke the full-screen game of every non-editable install); and the wheel, installed
with pipx into a home of its own outside the checkout, plays: ``--version``, ``deal``,
``solve``, the line game from piped input, and ``serve`` answering its page, every static
file the page names, each language and the health check (the store migrated)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tarfile
import time
import tomllib
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from scoundrel import DISTRIBUTION, __version__
from scoundrel.cli.keep import Keeper
from scoundrel.i18n import LANGUAGES, translate
from tests.cli.test_leaving import Terminal

ROOT = Path(__file__).resolve().parents[1]
WHEEL_NAME = DISTRIBUTION.replace("-", "_")


def run(*args: str | Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(arg) for arg in args], capture_output=True, text=True, check=False, **kwargs
    )  # type: ignore[call-overload]
    assert isinstance(result, subprocess.CompletedProcess)
    return result


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel, built from this checkout as `python -m build` does."""
    out = tmp_path_factory.mktemp("dist")
    built = run(sys.executable, "-m", "build", "--outdir", out, ROOT, timeout=600)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return out


def only(folder: Path, pattern: str) -> Path:
    (found,) = folder.glob(pattern)
    return found


def test_the_distribution_is_named_and_versioned_once() -> None:
    """``scoundrel`` on PyPI is another game: ours installs as scoundrel-cards, keeps the
    command and the import, and reads its version from scoundrel.__version__ only."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project = pyproject["project"]
    assert project["name"] == DISTRIBUTION and project["scripts"] == {
        "scoundrel": "scoundrel.cli.main:main"
    }
    assert "version" not in project and project["dynamic"] == ["version"]
    dynamic = pyproject["tool"]["setuptools"]["dynamic"]
    assert dynamic["version"] == {"attr": "scoundrel.__version__"}
    # the changelog names this version: released, or the next release under Unreleased
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    version = re.escape(__version__)
    assert re.search(
        rf"^## \[{version}\] - \d{{4}}-\d\d-\d\d$|released as {version}\b", changelog, re.M
    )


def test_sdist_and_wheel_pass_twine_check(dist: Path) -> None:
    checked = run(sys.executable, "-m", "twine", "check", "--strict", *sorted(dist.iterdir()))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert only(dist, f"{WHEEL_NAME}-{__version__}-py3-none-any.whl")


def test_the_wheel_holds_every_file_of_the_package(dist: Path) -> None:
    tracked = run("git", "ls-files", "src/scoundrel", cwd=ROOT)
    if tracked.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail("CI runs in a git clone: git ls-files failed")
        pytest.skip("not a git checkout: the package's files are unknown")
    with zipfile.ZipFile(only(dist, "*.whl")) as wheel:
        names = set(wheel.namelist())
    missing = [name for name in tracked.stdout.split() if name.removeprefix("src/") not in names]
    assert missing == []
    with tarfile.open(only(dist, "*.tar.gz")) as sdist:
        top = {Path(name).relative_to(Path(name).parts[0]).as_posix() for name in sdist.getnames()}
    assert {"README.md", "CHANGELOG.md", "LICENSE", "pyproject.toml"} <= top


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return int(answer.status), bytes(answer.read())


@pytest.fixture(scope="module")
def installed(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The wheel installed by pipx into a home of its own: the environment to run it in."""
    home = tmp_path_factory.mktemp("stranger")
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTHON", "VIRTUAL_ENV", "SCOUNDREL", "PIPX", "XDG_"))
    }
    env.update(
        HOME=str(home),
        PIPX_HOME=str(home / "pipx"),
        PIPX_BIN_DIR=str(home / "bin"),
        PIPX_MAN_DIR=str(home / "man"),
        PATH=f"{home / 'bin'}{os.pathsep}{env.get('PATH', '')}",
        NO_COLOR="1",
    )
    wheel = only(dist, "*.whl")
    done = run(sys.executable, "-m", "pipx", "install", wheel, env=env, cwd=home, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    yield env


def test_pipx_installs_the_command_outside_the_checkout(installed: dict[str, str]) -> None:
    home = Path(installed["HOME"])
    command = home / "bin" / "scoundrel"
    assert command.exists()
    version = run(command, "--version", env=installed, cwd=home)
    assert version.returncode == 0 and version.stdout.strip() == f"{DISTRIBUTION} {__version__}"
    python = home / "pipx" / "venvs" / DISTRIBUTION / "bin" / "python"
    where = run(python, "-c", "import scoundrel; print(scoundrel.__file__)", env=installed)
    assert Path(where.stdout.strip()).is_relative_to(home / "pipx"), where.stdout


def test_the_installed_wheel_deals_solves_and_plays(installed: dict[str, str]) -> None:
    home = Path(installed["HOME"])
    command = home / "bin" / "scoundrel"
    dealt = run(command, "deal", "--seed", "44", env=installed, cwd=home)
    assert dealt.returncode == 0, dealt.stderr
    (home / "deal.json").write_text(dealt.stdout, encoding="utf-8")
    solved = run(command, "solve", "deal.json", env=installed, cwd=home, timeout=300)
    assert solved.returncode == 0 and solved.stdout.strip(), solved.stderr
    played = run(
        command,
        *("play", "--plain", "--ascii", "--seed", "44", "--db", f"sqlite:///{home / 'p.db'}"),
        input="1\nquit\n",
        env=installed,
        cwd=home,
        timeout=120,
    )
    assert played.returncode == 0, played.stderr
    assert "Room: 10D JC 5S 7D" in played.stdout and "Equip 10D" in played.stdout


def test_the_installed_wheel_serves_the_game(dist: Path, installed: dict[str, str]) -> None:
    home = Path(installed["HOME"])
    port = free_port()
    database = f"sqlite:///{home / 'served.db'}"
    server = subprocess.Popen(
        [home / "bin" / "scoundrel", "serve", "--port", str(port), "--db", database],
        env=installed,
        cwd=home,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                status, body = get(f"{base}/api/health")
                break
            except OSError:
                assert server.poll() is None, server.communicate()[0]
                time.sleep(0.1)
        else:
            pytest.fail("the installed server did not answer in 30 s")
        assert status == 200 and b'"ok":true' in body.replace(b" ", b"")
        status, page = get(f"{base}/")
        assert status == 200 and b"<html" in page.lower()
        named = set(re.findall(r"""(?:src|href)=["'](/static/[^"']+)""", page.decode()))
        assert named, "the page names no static file"
        with zipfile.ZipFile(only(dist, "*.whl")) as wheel:
            static = [n for n in wheel.namelist() if n.startswith("scoundrel/web/static/")]
        assert any(name.endswith(".js") for name in static)
        shipped = [name.replace("scoundrel/web", "", 1) for name in static]
        for asset in sorted(named) + shipped:
            assert get(base + asset)[0] == 200, asset
        for lang in LANGUAGES:
            status, translated = get(f"{base}/?lang={lang}")
            welcome = translate(lang, "app.welcome")
            assert f'lang="{lang}"' in translated.decode() and welcome in translated.decode()
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_installed_wheel_plays_full_screen(installed: dict[str, str]) -> None:
    """The full-screen game in a terminal of 80×24: it starts, takes a flee, quits, and the
    flee is kept."""
    home = Path(installed["HOME"])
    terminal = Terminal(
        home,
        ["play", "--seed", "3", "--db", f"sqlite:///{home / 'tui.db'}"],
        command=[str(home / "bin" / "scoundrel")],
        environ=installed,
    )
    try:
        terminal.until("Flee")
        terminal.type("f")
        time.sleep(1)
        terminal.type("q")
        assert terminal.ended() == 0, terminal.read()[-2000:]
    finally:
        terminal.close()
    waiting = Keeper(f"sqlite:///{home / 'tui.db'}").unfinished()
    assert waiting is not None and [move.token for move in waiting.game.moves] == ["F"]
