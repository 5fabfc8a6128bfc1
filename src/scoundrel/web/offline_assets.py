"""What a browser downloads to play offline: Pyodide (Python for the browser, from npm,
found as :mod:`scoundrel.pyodide` says) and a zip of this package's rules core with the
offline table."""

from __future__ import annotations

import hashlib
import io
import zipfile
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import scoundrel
from scoundrel.pyodide import PYODIDE_FILES, PYODIDE_VERSION

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
            "version": PYODIDE_VERSION,
            "pyodide": f"/offline/pyodide/{PYODIDE_VERSION}/",
            "files": list(PYODIDE_FILES),
            "code": f"/offline/scoundrel-{self.code_hash}.zip",
            "size": self.size,
        }
