"""The HTML pages: one shell (``page.html``) with the boot data every page reads: the
language and its messages, and what the core says of cards, moves and variants, so that the
browser works none of it out."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from scoundrel import __version__
from scoundrel.core import ALL_CARDS
from scoundrel.core.rules import VARIANT_VALUES
from scoundrel.i18n import LANGUAGES, catalog, negotiate

from ..position import move_words

LANG_COOKIE = "scoundrel_lang"
YEAR = 365 * 24 * 3600
STATIC = Path(str(resources.files("scoundrel.web").joinpath("static")))
#: What each card is (S1, C2), as the core says: the browser draws cards from this rather
#: than deciding by suit and value itself.
CARD_KINDS = {card.code: card.kind.value for card in ALL_CARDS}
#: Each card's value (S1: J 11 … A 14, a joker 15), as the core says: the browser never
#: works a value out of a rank.
CARD_VALUES = {card.code: card.value for card in ALL_CARDS}
#: How a value is written (J for 11 … A for 14), for the counts of unseen cards, which
#: go by value: the browser keeps no table of face cards.
VALUE_RANKS = {card.value: card.rank for card in ALL_CARDS if card.suit is not None}
#: Every move's notation with what the core calls it (``position.move_words``): the browser
#: names a move of a replay, a hint or an analysis from it, and never reads notation.
MOVE_WORDS = move_words()
#: The variants both rulesets take (V1, V2) with their values, the default first: the
#: new-game form offers exactly these, so a variant added to the core appears in it.
VARIANT_CHOICES = {name: list(values) for name, values in VARIANT_VALUES.items()}
#: The page's template lives beside the static tree, not in it: never served raw.
SHELL = Template((STATIC.parent / "page.html").read_text("utf-8"))

router = APIRouter(include_in_schema=False)


def language(request: Request) -> str:
    """The page's language: ``?lang=``, else the remembered choice, else the browser's."""
    asked = request.query_params.get("lang")
    return negotiate(
        request.headers.get("accept-language"),
        asked if asked in LANGUAGES else request.cookies.get(LANG_COOKIE),
    )


def page(request: Request, name: str, **data: Any) -> HTMLResponse:
    """The page ``name`` in the asker's language, with ``data`` in its boot data. A new
    visitor's id comes with the page: the page's first requests, sent side by side, then
    all carry it (each would otherwise be given an id of its own, and the one answered
    last would take this browser away from a game started in between)."""
    request.app.state.identity.identify(request)
    lang = language(request)
    messages = catalog(lang)
    body = SHELL.substitute(
        lang=lang,
        page=name,
        title=messages.get(f"page.{name}", "Scoundrel"),
        version=__version__,
        static=request.app.state.assets.prefix,
        boot=json.dumps(
            {
                "lang": lang,
                "page": name,
                "languages": LANGUAGES,
                "messages": messages,
                "kinds": CARD_KINDS,
                "values": CARD_VALUES,
                "ranks": VALUE_RANKS,
                "moves": MOVE_WORDS,
                "variants": VARIANT_CHOICES,
                "offline": request.app.state.offline.boot(),
                **data,
            },
            ensure_ascii=False,
        ).replace("<", "\\u003c"),  # no "</script>" nor "<!--" from data (a game id)
    )
    response = HTMLResponse(body)
    if request.query_params.get("lang") in LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, max_age=10 * YEAR, samesite="lax")
    return response


def simple_page(name: str) -> Any:
    async def show(request: Request) -> HTMLResponse:
        return page(request, name)

    return show


for _path, _name in (
    ("/", "table"),
    ("/rules", "rules"),
    ("/records", "records"),
    ("/daily", "daily"),
):
    router.add_api_route(_path, simple_page(_name), response_class=HTMLResponse)


#: The service worker's text (beside the page's template, never served raw): the server
#: fills in this version's hash and files.
SERVICE_WORKER = (STATIC.parent / "service-worker.js").read_text("utf-8")
#: The colour of the installed game's window and splash screen (the page's background).
THEME = "#1b1d22"


def static_files() -> list[str]:
    """Every file of the static tree, as the service worker keeps them."""
    return sorted(
        path.relative_to(STATIC).as_posix()
        for path in STATIC.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    )


@router.get("/sw.js")
async def service_worker(request: Request) -> Response:
    """The service worker, at the top so that it serves every page (its scope is /)."""
    assets = request.app.state.assets
    body = (
        SERVICE_WORKER.replace("__VERSION__", assets.hash)
        .replace("__PREFIX__", assets.prefix)
        .replace("__FILES__", json.dumps(static_files()))
    )
    return Response(body, media_type="text/javascript", headers={"cache-control": "no-cache"})


@router.get("/manifest.webmanifest")
async def manifest(request: Request) -> Response:
    """The web app manifest, in the asker's language: what makes the game installable."""
    lang = language(request)
    messages = catalog(lang)
    prefix = request.app.state.assets.prefix
    icon = f"{prefix}/icons"
    body = {
        "name": "Scoundrel",
        "short_name": "Scoundrel",
        "description": messages.get("app.tagline", ""),
        "lang": lang,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": THEME,
        "theme_color": THEME,
        "icons": [
            {"src": f"{icon}/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": f"{icon}/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {
                "src": f"{icon}/icon-maskable-512.png",
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": f"{icon}/icon.svg", "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return Response(
        json.dumps(body, ensure_ascii=False),
        media_type="application/manifest+json",
        headers={"cache-control": "no-cache"},
    )


@router.get("/join/{invite}", response_class=HTMLResponse)
async def join_page(request: Request, invite: str) -> HTMLResponse:
    return page(request, "table", invite=invite[:32])


@router.get("/replay/{game_id}", response_class=HTMLResponse)
async def replay_page(request: Request, game_id: str) -> HTMLResponse:
    return page(request, "replay", game=game_id)
