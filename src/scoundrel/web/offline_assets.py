"""What a browser downloads to play offline: Pyodide (Python for the browser, from npm) and
a zip of this package's rules core with the offline table.

Pyodide is not in the wheel (about 13 MB): the server serves it from the first of these
folders that holds the pinned version:

1. the ``SCOUNDREL_PYODIDE`` setting (a folder holding ``pyodide.mjs`` and its files);
2. the data folder's ``pyodide-<version>``, which ``scoundrel pyodide`` fills from the npm
   registry, checking the package's published hash;
3. ``node_modules/pyodide`` of the current folder or of a source checkout (``npm ci``).

Without one, the game is played online only and the settings say how to add it.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import logging
import tarfile
import urllib.request
import zipfile
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import scoundrel

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
PACKAGE = Path(scoundrel.__file__).parent
#: The modules the offline table needs (a contract of pyproject.toml keeps it so): the
#: package's top, the rules core, and the web's position views and offline table.
CODE = ("__init__.py", "core/*.py", "web/__init__.py", "web/position.py", "web/offline_table.py")


def code_files() -> list[Path]:
    """The package's files the worker is given, relative to the folder above the package."""
    found: list[Path] = []
    for pattern in CODE:
        found += sorted(PACKAGE.glob(pattern))
    return [path.relative_to(PACKAGE.parent) for path in found]


def code_zip() -> bytes:
    """Those files in one zip, the same bytes for the same files (no dates kept)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in code_files():
            info = zipfile.ZipInfo(name.as_posix(), date_time=(2011, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, (PACKAGE.parent / name).read_bytes())
    return out.getvalue()


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
        PACKAGE.parents[1] / "node_modules" / "pyodide",  # a source checkout's src/scoundrel
    ]
    for folder in candidates:
        if holds_pyodide(folder):
            return folder
    if setting:
        log.warning("SCOUNDREL_PYODIDE=%s holds no Pyodide %s", setting, PYODIDE_VERSION)
    return None


@dataclass
class OfflineAssets:
    """The offline game's files as this server serves them."""

    pyodide: Path | None

    @cached_property
    def code(self) -> bytes:
        return code_zip()

    @cached_property
    def code_hash(self) -> str:
        return hashlib.sha256(self.code).hexdigest()[:12]

    @cached_property
    def size(self) -> int:
        """The bytes a page downloads to play offline (the files as they are)."""
        if self.pyodide is None:
            return 0
        return len(self.code) + sum((self.pyodide / n).stat().st_size for n in PYODIDE_FILES)

    def boot(self) -> dict[str, object] | None:
        """What the page is told of offline play (None: this server does not offer it)."""
        if self.pyodide is None:
            return None
        return {
            "pyodide": f"/offline/pyodide/{PYODIDE_VERSION}/",
            "files": list(PYODIDE_FILES),
            "code": f"/offline/scoundrel-{self.code_hash}.zip",
            "size": self.size,
        }


def install_pyodide(data: Path) -> Path:
    """Download the pinned Pyodide from the npm registry into the data folder, checking
    the package's published hash; returns the folder. Raises ``ValueError`` if the
    download is not that package."""
    target = data_folder_pyodide(data)
    if holds_pyodide(target):
        return target
    with urllib.request.urlopen(PYODIDE_TARBALL, timeout=120) as answer:
        tarball = answer.read()
    digest = "sha512-" + base64.b64encode(hashlib.sha512(tarball).digest()).decode()
    if digest != PYODIDE_INTEGRITY:
        raise ValueError(f"{PYODIDE_TARBALL} is not the published package (its hash differs)")
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
