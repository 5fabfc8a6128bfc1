"""What the arena's tests share: the command run as a user would, with the test policies
(``fair_policies``, ``peeking``) importable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
ENV = {**os.environ, "PYTHONPATH": str(HERE)}
COMMAND = [sys.executable, "-m", "scoundrel", "arena"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """``scoundrel arena ARGS…``, to its end."""
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, env=ENV, check=False, timeout=300
    )
