"""The server's guard rails, outside the game: a limit on request bodies (and on how deeply
their JSON nests), security headers on every answer, one shape for every error, and short
excerpts wherever a message quotes what a client sent.

Errors always look like ``{"error": {"code": "...", "message": "..."}}``: unknown routes,
methods not allowed, bodies too large or too deep, and any exception nobody expected (500,
``internal``, no traceback). Pages (outside ``/api``) that are not found get a small HTML
page instead.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection, Request
from starlette.routing import Match

from scoundrel.store import NotFound

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 16 * 1024
MAX_DEPTH = 32
#: A game id as the server makes them (``secrets.token_urlsafe``), no longer than the
#: column that keeps it: anything else is not a game, and is not quoted back.
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,24}$")

log = logging.getLogger("scoundrel.web")


# ---------------------------------------------------------------------- quoting input


def excerpt(text: str, limit: int = 24) -> str:
    """At most ``limit`` characters of ``text``, with an ellipsis if it was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def quoted(text: str, limit: int = 24) -> str:
    """Client input as a message quotes it: short, in quotes, escaped."""
    return repr(excerpt(text, limit))


_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def shorten_quotes(message: str, limit: int = 24) -> str:
    """A message made elsewhere (the rules core's) with each quoted part cut to an excerpt,
    and the whole to a few lines."""
    shortened = _QUOTED.sub(
        lambda match: (
            match.group(0)
            if len(match.group(0)) <= limit + 2
            else match.group(0)[: limit + 1] + "…" + match.group(0)[-1]
        ),
        message,
    )
    return excerpt(shortened, 300)


def error_body(
    code: str,
    message: str,
    reason: str | None = None,
    params: Mapping[str, Any] | None = None,
    **details: Any,
) -> dict[str, Any]:
    """The one error shape: ``{"error": {"code", "message", "params", ...details}}``, and
    ``reason`` where ``code`` alone does not say which refusal it is. ``code`` and
    ``reason`` are stable names: an interface shows ``reason`` (else ``code``) from its
    message catalog in the player's language, filled in with ``params``; ``message`` is
    the same in English."""
    body: dict[str, Any] = {"code": code, "message": message, "params": dict(params or {})}
    if reason is not None:
        body["reason"] = reason
    return {"error": {**body, **details}}


def error(
    status: int,
    code: str,
    message: str,
    headers: Mapping[str, str] | None = None,
    reason: str | None = None,
    params: Mapping[str, Any] | None = None,
    **details: Any,
) -> JSONResponse:
    """An HTTP answer with :func:`error_body`."""
    return JSONResponse(
        status_code=status,
        content=error_body(code, message, reason, params, **details),
        headers=headers,
    )


# ---------------------------------------------------------------------- request bodies


class BodyLimit:
    """Reads a request's body before the application does, refusing it with 413 as soon as
    more than ``limit`` bytes have arrived (by Content-Length, or counting the chunks when
    there is none), and JSON nested deeper than ``depth`` levels with 400 before anybody
    parses it (a parser would recurse once per level)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY, depth: int = MAX_DEPTH) -> None:
        self.app = app
        self.limit = limit
        self.depth = depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._too_large(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                await self.app(scope, _replay(message, receive), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._too_large(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if too_deep(body, self.depth):
            response = error(
                400,
                "invalid_json",
                f"the JSON body is nested more than {self.depth} levels deep",
            )
            await response(scope, receive, send)
            return
        whole: Message = {"type": "http.request", "body": body, "more_body": False}
        await self.app(scope, _replay(whole, receive), send)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        kib = self.limit / 1024
        size = f"{kib:g} KiB" if kib >= 1 else f"{self.limit} bytes"
        response = error(
            413, "too_large", f"the request body is larger than {size}: nothing was changed"
        )
        await response(scope, receive, send)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1").strip())
    return None


def _replay(first: Message, receive: Receive) -> Receive:
    """A ``receive`` that gives ``first`` once, then what the server says (a disconnect)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return first
        return await receive()

    return replay


_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(rb"[\[\]{}]")


def too_deep(body: bytes, depth: int = MAX_DEPTH) -> bool:
    """Whether JSON text nests arrays and objects more than ``depth`` levels deep (brackets
    inside strings do not count)."""
    if body.count(b"[") + body.count(b"{") <= depth:
        return False
    level = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub(b'""', body)):
        if bracket in (b"[", b"{"):
            level += 1
            if level > depth:
                return True
        else:
            level -= 1
    return False


# ---------------------------------------------------------------------- security headers

_HOST = re.compile(r"^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$")
_STATIC_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]
#: FastAPI's own API documentation page loads Swagger UI from a CDN with an inline script.
_DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: https:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
)


#: The offline table's worker compiles Pyodide's WebAssembly (and nothing else may).
_WORKER_POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; "
    "base-uri 'none'; object-src 'none'"
)
OFFLINE_WORKER = "/js/offline-worker.js"


def content_policy(scope: Scope) -> str:
    """The Content-Security-Policy for an answer: this origin only, no inline script or
    style, never in a frame; WebSockets to this host. The offline table's worker may also
    compile WebAssembly."""
    path = scope.get("path", "")
    if path.startswith("/api/docs"):
        return _DOCS_POLICY
    if path.endswith(OFFLINE_WORKER):
        return _WORKER_POLICY
    host = _header(scope, b"host")
    secure = scope.get("scheme") in ("https", "wss")
    return _policy(host if host and _HOST.match(host) else None, secure)


@functools.lru_cache(maxsize=64)
def _policy(host: str | None, secure: bool) -> str:
    connect = "'self'" if host is None else f"'self' {'wss' if secure else 'ws'}://{host}"
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        f"connect-src {connect}; frame-ancestors 'none'; base-uri 'none'; "
        "form-action 'self'; object-src 'none'"
    )


def security_headers(scope: Scope) -> list[tuple[bytes, bytes]]:
    return [(b"content-security-policy", content_policy(scope).encode()), *_STATIC_HEADERS]


class AnswerHeaders:
    """An ASGI middleware that rewrites the headers of every HTTP answer as it starts:
    subclasses say how in :meth:`headers`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def headers(
        self, scope: Scope, headers: list[tuple[bytes, bytes]]
    ) -> list[tuple[bytes, bytes]]:
        raise NotImplementedError

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def rewritten(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = self.headers(scope, list(message.get("headers", ())))
            await send(message)

        await self.app(scope, receive, rewritten)


class SecurityHeaders(AnswerHeaders):
    """Adds :func:`security_headers` to every HTTP answer that does not set them itself."""

    def headers(
        self, scope: Scope, headers: list[tuple[bytes, bytes]]
    ) -> list[tuple[bytes, bytes]]:
        present = {name.lower() for name, _ in headers}
        return headers + [pair for pair in security_headers(scope) if pair[0] not in present]


# ---------------------------------------------------------------------- errors

_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "too_large",
    415: "unsupported_media_type",
    429: "too_many_requests",
}
_NOT_FOUND_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not found · Scoundrel</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>Nothing here</h1><p>This page does not exist. <a href="/">Play Scoundrel</a></p>
</body></html>
"""


def install_errors(app: FastAPI) -> None:
    """Every error in the one shape: Starlette's HTTP errors (unknown routes, methods not
    allowed, bodies that cannot be parsed) and, last, any exception (500)."""

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, problem: StarletteHTTPException) -> Response:
        status = problem.status_code
        api = request.url.path.startswith("/api")
        if status == 404 and not api:
            return HTMLResponse(_NOT_FOUND_PAGE, status_code=404, headers=problem.headers)
        code = _CODES.get(status, f"http_{status}")
        if status == 404:
            message = "there is nothing at this address of the API"
        elif status == 405:
            allowed = allowed_methods(request)
            headers = {**(problem.headers or {}), "Allow": allowed}
            headers.pop("allow", None)
            message = f"{excerpt(request.method, 10)} is not allowed here" + (
                f" (only {allowed})" if allowed else ""
            )
            return error(status, code, message, headers=headers)
        elif status == 400 and "parsing the body" in str(problem.detail):
            code, message = "invalid_json", "the request body could not be read as JSON"
        else:
            message = excerpt(str(problem.detail), 200)
        return error(status, code, message, headers=problem.headers)

    @app.exception_handler(Exception)
    async def _internal(request: Request, problem: Exception) -> Response:
        log.error("%s %s failed", request.method, request.url.path, exc_info=problem)
        response = error(
            500,
            "internal",
            "the server failed to answer this request; nothing more is known here",
        )
        response.raw_headers.extend(security_headers(request.scope))  # outside the middleware
        return response


#: The methods a route may answer, asked of each address in turn for a 405's ``Allow``.
METHODS = ("DELETE", "GET", "HEAD", "PATCH", "POST", "PUT")


def allowed_methods(request: Request) -> str:
    """Every method some route of this address answers (Starlette's 405 names only the
    first route's: ``/api/games/{id}/analysis`` has three). Each method is asked of the
    routes as the router asks them, so the routes of included routers count too."""
    routes = request.app.router.routes
    allowed = []
    for method in METHODS:
        scope = {**request.scope, "method": method}
        if any(route.matches(scope)[0] is Match.FULL for route in routes):
            allowed.append(method)
    return ", ".join(allowed)


class ErrorDetail(BaseModel):
    """What went wrong: a stable ``code`` (and ``reason`` where the code alone does not
    say which refusal), the ``message`` in English, and the ``params`` a translation
    needs; some refusals add details of their own (a refused move's ``refusal``)."""

    model_config = ConfigDict(extra="allow")

    code: str
    message: str
    params: dict[str, Any] = Field(default_factory=dict)
    reason: str | None = None


class ErrorBody(BaseModel):
    """Every refusal of the API, whatever its status."""

    error: ErrorDetail


_RETRY = {
    "Retry-After": {
        "description": "whole seconds after which the request may succeed",
        "schema": {"type": "integer", "minimum": 1},
    }
}
#: Every refusal the API may answer, in the one error shape, as its schema documents them.
ERRORS: dict[int | str, dict[str, Any]] = {
    400: {
        "model": ErrorBody,
        "description": "Well formed, but refused: bad notation, an "
        "unknown option, a day that is not a date, a body that is not JSON.",
    },
    403: {
        "model": ErrorBody,
        "description": "Not this player's to do (yet): another "
        "player's game or record, the dungeon of the day before the day is over.",
    },
    404: {"model": ErrorBody, "description": "No such game, table or address."},
    405: {"model": ErrorBody, "description": "Not a method of this address (see Allow)."},
    409: {
        "model": ErrorBody,
        "description": "Refused by the game as it stands: an illegal "
        "move, a position the game has left, a game over or a day that has ended.",
    },
    413: {"model": ErrorBody, "description": "The body is larger than 16 KiB."},
    422: {"model": ErrorBody, "description": "A field is missing or out of its bounds."},
    429: {
        "model": ErrorBody,
        "description": "Too many requests: nothing was done.",
        "headers": _RETRY,
    },
    503: {
        "model": ErrorBody,
        "description": "The database or the hint workers are busy or away: nothing was done.",
        "headers": _RETRY,
    },
}


def foreign(websocket: HTTPConnection) -> bool:
    """Whether a WebSocket was opened by another site's page (its Origin is not this
    host): such a page may not act with this browser's cookie."""
    origin = websocket.headers.get("origin")
    return bool(origin) and urlsplit(origin).netloc != websocket.headers.get("host")


async def known_game_id(connection: HTTPConnection) -> None:
    """An API address with a game id that the server could not have made is simply not
    found, and the id is not quoted back."""
    if connection.scope["type"] != "http" or not connection.url.path.startswith("/api/"):
        return
    game_id = connection.path_params.get("game_id")
    if isinstance(game_id, str) and not GAME_ID.match(game_id):
        raise NotFound("there is no such game", reason="no_such_game")
