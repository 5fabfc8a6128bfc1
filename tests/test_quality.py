"""The core stays lint-clean and type-checks under ``mypy --strict`` (CONTRIBUTING.md)."""

from __future__ import annotations

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
