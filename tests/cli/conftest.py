"""Every test of the command line runs in a home of its own.

``scoundrel play`` keeps its games in a SQLite store in platformdirs' user data folder, and
``save`` without a name writes into its ``records`` folder: both honour ``XDG_DATA_HOME``,
which points into the test's temporary folder here, for the test itself and for every
``python -m scoundrel`` it starts, so that no test reads or writes the real home folder.
The language and the daily secret come from the environment too: they are fixed, so that
the texts are English and ``play --daily`` deals the public dungeon of the day (M2).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scoundrel.cli.keep import Keeper


@pytest.fixture(autouse=True)
def own_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The data folder of this test (``XDG_DATA_HOME``)."""
    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE", "SCOUNDREL_DAILY_SECRET"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    return data


@pytest.fixture
def anyio_backend() -> str:
    """The full-screen game's tests run on asyncio (Textual's loop)."""
    return "asyncio"


@pytest.fixture
def keeper(tmp_path: Path) -> Keeper:
    """The terminal's store of this test (a SQLite file of its own)."""
    return Keeper(f"sqlite:///{tmp_path / 'store.sqlite3'}")
