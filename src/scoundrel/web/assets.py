"""The browser's files, under a name that changes when they do.

The whole static tree is served at ``/static/<hash>/…`` where ``<hash>`` is a digest of
every file's path and bytes, computed once at start-up: those answers may be cached for a
year (``immutable``), and a new version is a new address. Relative ES-module imports keep
working inside the hashed folder. The old addresses (``/static/…``) still answer, with
``no-cache``, so that a tab opened before an upgrade keeps working; an unknown hash is not
found.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from fastapi import FastAPI
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


def tree_hash(folder: Path, length: int = 16) -> str:
    """A digest of every file under ``folder``: its path and its bytes."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if "__pycache__" in path.parts:
            continue
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:length]


class CachedFiles(StaticFiles):
    """Static files with one Cache-Control for all of them."""

    def __init__(self, directory: Path, cache_control: str) -> None:
        super().__init__(directory=directory)
        self.cache_control = cache_control

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["cache-control"] = self.cache_control
        return response


class Assets:
    """The static tree of one server: its hash, and where its files are."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.hash = tree_hash(folder)
        self.prefix = f"/static/{self.hash}"

    def mount(self, app: FastAPI) -> None:
        """The hashed tree (cached for a year), then the plain one (checked every time)."""
        app.mount(self.prefix, CachedFiles(self.folder, IMMUTABLE), name="assets")
        app.mount("/static", CachedFiles(self.folder, REVALIDATE), name="static")
