"""The core stays lint-clean and type-checks under ``mypy --strict`` (CONTRIBUTING.md)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def _tool(name: str) -> str | None:
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


def test_ruff_is_clean() -> None:
    ruff = _tool("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    result = _run(ruff, "check", "src", "tests")
    assert result.returncode == 0, result.stdout + result.stderr
    result = _run(ruff, "format", "--check", "src", "tests")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean() -> None:
    pytest.importorskip("mypy")
    result = _run(sys.executable, "-m", "mypy", "--strict", "src/scoundrel")
    assert result.returncode == 0, result.stdout + result.stderr


BIOME = ROOT / "node_modules" / ".bin" / "biome"


def test_biome_finds_the_browser_code_clean_and_formatted() -> None:
    """The browser's JavaScript is linted and formatted by Biome (pinned in
    package-lock.json, configured in biome.jsonc), as ruff does the Python."""
    if not BIOME.exists():
        missing = f"no Biome at {BIOME} (npm ci at the top of the repository)"
        if os.environ.get("CI"):  # CI installs it: its absence is a broken run, not a skip
            pytest.fail(missing)
        pytest.skip(missing + ": JavaScript checks skipped")
    result = _run(str(BIOME), "ci", "--colors=off", "--error-on-warnings")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
