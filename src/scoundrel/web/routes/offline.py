"""The files of offline play (:mod:`scoundrel.web.offline_assets`): Pyodide, served from
the folder the server found it in, and the zip of the rules core the page's worker runs.
Each address names its version, so each answer is kept for good (the service worker keeps
them once the player turns offline play on)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from scoundrel.pyodide import PYODIDE_FILES, PYODIDE_VERSION
from scoundrel.store import NotFound

from ..offline_assets import OfflineAssets

router = APIRouter(include_in_schema=False)

FOREVER = "public, max-age=31536000, immutable"
MEDIA = {
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".json": "application/json",
}


def _assets(request: Request) -> OfflineAssets:
    assets: OfflineAssets = request.app.state.offline
    return assets


def _none() -> NotFound:
    return NotFound("this server does not offer offline play", reason="no_offline_play")


@router.get("/offline/pyodide/{version}/{name}")
async def pyodide_file(request: Request, version: str, name: str) -> Response:
    folder = _assets(request).pyodide
    if folder is None:
        raise _none()
    if version != PYODIDE_VERSION or name not in PYODIDE_FILES:
        raise NotFound(f"no such file of Pyodide {PYODIDE_VERSION}", reason="no_such_file")
    media = MEDIA[name[name.rindex(".") :]]
    return FileResponse(folder / name, media_type=media, headers={"cache-control": FOREVER})


@router.get("/offline/scoundrel-{code_hash}.zip")
async def code(request: Request, code_hash: str) -> Response:
    assets = _assets(request)
    if assets.pyodide is None:
        raise _none()
    if code_hash != assets.code_hash:  # an older version's: its page reloads for the new one
        raise NotFound("this version of the game's code is gone", reason="no_such_file")
    return Response(assets.code, media_type="application/zip", headers={"cache-control": FOREVER})
