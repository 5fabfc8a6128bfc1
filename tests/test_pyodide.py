"""Pyodide for offline play (issue 39): the version the server serves is the one npm
installs, and ``scoundrel pyodide`` keeps a download only if it is the published package."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tarfile
from pathlib import Path

import pytest

from scoundrel import pyodide
from scoundrel.pyodide import PYODIDE_FILES, PYODIDE_VERSION, find_pyodide, holds_pyodide

ROOT = Path(__file__).resolve().parents[1]


def test_the_pinned_pyodide_is_the_one_npm_installs() -> None:
    """package.json pins the version the server serves, and package-lock.json holds the
    hash ``scoundrel pyodide`` checks a download against."""
    package = json.loads((ROOT / "package.json").read_text("utf-8"))
    assert package["devDependencies"]["pyodide"] == PYODIDE_VERSION
    lock = json.loads((ROOT / "package-lock.json").read_text("utf-8"))
    entry = lock["packages"]["node_modules/pyodide"]
    assert entry["version"] == PYODIDE_VERSION
    assert entry["integrity"] == pyodide.PYODIDE_INTEGRITY


def _tarball(version: str = PYODIDE_VERSION) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for name in ("package.json", *PYODIDE_FILES, "README.md"):
            data = json.dumps({"version": version}).encode() if name == "package.json" else b"x"
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def test_a_download_is_kept_only_if_it_is_the_published_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tarball = _tarball()
    with pytest.raises(ValueError, match="its hash differs"):
        pyodide.install_pyodide(tmp_path, fetch=lambda url: tarball)
    assert not pyodide.data_folder_pyodide(tmp_path).exists()
    monkeypatch.setattr(pyodide, "PYODIDE_INTEGRITY", _integrity(tarball))
    asked: list[str] = []
    folder = pyodide.install_pyodide(tmp_path, fetch=lambda url: asked.append(url) or tarball)
    assert asked == [pyodide.PYODIDE_TARBALL]
    assert holds_pyodide(folder) and sorted(p.name for p in folder.iterdir()) == sorted(
        ["package.json", *PYODIDE_FILES]
    )
    # found there (after a folder the operator names), and not downloaded again
    assert pyodide.install_pyodide(tmp_path, fetch=lambda url: b"") == folder
    assert find_pyodide(None, tmp_path) in (folder, pyodide.CHECKOUT / "node_modules/pyodide")
    assert find_pyodide(str(folder), None) == folder


def test_another_version_is_not_served(tmp_path: Path) -> None:
    folder = tmp_path / "pyodide"
    with tarfile.open(fileobj=io.BytesIO(_tarball("0.1.0"))) as archive:
        archive.extractall(tmp_path, filter="data")
    (tmp_path / "package").rename(folder)
    assert not holds_pyodide(folder)
    assert find_pyodide(str(folder), None) != folder
