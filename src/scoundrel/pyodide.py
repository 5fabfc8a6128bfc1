"""Pyodide, Python for the browser, which offline play runs the rules core on: the version
pinned, where a server finds it, and how an operator downloads it.

Pyodide is not in the wheel (about 13 MB): a server serves it from the first of these
folders that holds the pinned version:

1. the ``SCOUNDREL_PYODIDE`` setting (a folder holding ``pyodide.mjs`` and its files);
2. the data folder's ``pyodide-<version>``, which ``scoundrel pyodide`` fills from the npm
   registry, checking the package's published hash;
3. ``node_modules/pyodide`` of the current folder or of a source checkout (``npm ci``).

Without one, the game is played online only and its settings say how to add it.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import logging
import tarfile
import urllib.request
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger("scoundrel.web")

#: The Pyodide the offline game runs on (package.json pins the same one for ``npm ci``).
PYODIDE_VERSION = "314.0.8"
#: The npm registry's hash of that package (its ``dist.integrity``, also in package-lock.json).
PYODIDE_INTEGRITY = (
    "sha512-74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YHSVUpHs"
    "oarLQ=="
)
PYODIDE_TARBALL = f"https://registry.npmjs.org/pyodide/-/pyodide-{PYODIDE_VERSION}.tgz"
#: The files a page loads: the loader, the interpreter and the standard library.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
#: A source checkout's top folder (the package is its ``src/scoundrel``).
CHECKOUT = Path(__file__).resolve().parents[2]


def data_folder_pyodide(data: Path) -> Path:
    """Where ``scoundrel pyodide`` puts Pyodide in the data folder ``data``."""
    return data / f"pyodide-{PYODIDE_VERSION}"


def holds_pyodide(folder: Path) -> bool:
    """Whether ``folder`` holds the pinned Pyodide's files."""
    try:
        about = json.loads((folder / "package.json").read_text("utf-8"))
    except (OSError, ValueError):
        return False
    return about.get("version") == PYODIDE_VERSION and all(
        (folder / name).is_file() for name in PYODIDE_FILES
    )


def find_pyodide(setting: str | None, data: Path | None) -> Path | None:
    """The first folder that holds the pinned Pyodide (see the module's note), or None."""
    candidates = [Path(setting)] if setting else []
    if data is not None:
        candidates.append(data_folder_pyodide(data))
    candidates += [
        Path.cwd() / "node_modules" / "pyodide",
        CHECKOUT / "node_modules" / "pyodide",
    ]
    for folder in candidates:
        if holds_pyodide(folder):
            return folder
    if setting:
        log.warning("SCOUNDREL_PYODIDE=%s holds no Pyodide %s", setting, PYODIDE_VERSION)
    return None


def download(url: str) -> bytes:
    """The bytes at ``url`` (the npm registry's tarball)."""
    with urllib.request.urlopen(url, timeout=120) as answer:
        data: bytes = answer.read()
    return data


def install_pyodide(data: Path, fetch: Callable[[str], bytes] = download) -> Path:
    """Download the pinned Pyodide from the npm registry into the data folder, checking
    the package's published hash; returns the folder. Raises ``ValueError`` if the
    download is not that package (nothing is kept then)."""
    target = data_folder_pyodide(data)
    if holds_pyodide(target):
        return target
    tarball = fetch(PYODIDE_TARBALL)
    digest = "sha512-" + base64.b64encode(hashlib.sha512(tarball).digest()).decode()
    if digest != PYODIDE_INTEGRITY:
        raise ValueError(f"{PYODIDE_TARBALL} is not the published package: its hash differs")
    partial = target.with_name(target.name + ".partial")
    partial.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(tarball)) as archive:
        for name in ("package.json", *PYODIDE_FILES):
            member = archive.extractfile(f"package/{name}")
            if member is None:
                raise ValueError(f"the package has no {name}")
            (partial / name).write_bytes(member.read())
    partial.replace(target)
    return target
