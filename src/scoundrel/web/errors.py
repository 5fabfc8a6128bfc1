"""Every refusal the server gives, in the one error shape, whether it answers an HTTP
request or a message on the game socket (:mod:`scoundrel.web.play`).

:func:`answer` turns an exception into a status, the ``{"error": …}`` body and any
headers; :func:`install_refusals` makes it the HTTP API's handler for each of them.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from sqlalchemy.exc import DataError, DBAPIError

from scoundrel.core import IllegalMoveError, NotationError, OptionError
from scoundrel.store import ErrorKind, StoreError

from .guard import error_body, excerpt, shorten_quotes
from .limits import RateLimited

log = logging.getLogger("scoundrel.web")

#: The longest request id a socket answer echoes back (a page counts 1, 2, 3…).
MAX_ID = 40
#: A refusal: the HTTP status, the body, and headers to add (or None).
Answer = tuple[int, dict[str, Any], Mapping[str, str] | None]


class Refused(Exception):
    """A request the API refuses with its own error code (the store's errors are named
    after their class)."""

    def __init__(self, status: int, code: str, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.reason = reason


def _problems(errors: list[Any], skip: int) -> str:
    """What a validation found wrong, field by field, each part short (``skip``: how many
    leading parts of each location to leave out, such as FastAPI's ``body``)."""
    return "; ".join(
        f"{'.'.join(excerpt(str(p)) for p in item['loc'][skip:]) or 'body'}: "
        f"{excerpt(item['msg'], 120)}"
        for item in errors
    )


#: The HTTP status of each kind of refusal the store gives.
STATUS_OF = {
    ErrorKind.INVALID: 400,
    ErrorKind.NOT_FOUND: 404,
    ErrorKind.FORBIDDEN: 403,
    ErrorKind.CONFLICT: 409,
}


def answer(problem: Exception) -> Answer | None:
    """The refusal for ``problem``, or None if it is not one the API expects (a fault)."""
    if isinstance(problem, RateLimited):
        wait = None if problem.retry_after is None else {"retry-after": str(problem.retry_after)}
        body = error_body(problem.code, problem.message, params=problem.params)
        return problem.status, body, wait
    if isinstance(problem, StoreError):
        body = error_body(
            problem.code,
            problem.message,
            reason=problem.reason,
            params=problem.params,
            **problem.details,
        )
        return STATUS_OF[problem.kind], body, None
    if isinstance(problem, Refused):
        return problem.status, error_body(problem.code, problem.message, problem.reason), None
    if isinstance(problem, NotationError):
        return 400, error_body("notation", str(problem)), None
    if isinstance(problem, IllegalMoveError):
        # the rule that refuses it, as the table's "blocked" moves give it (its code and
        # the params a translation needs)
        refusal = problem.refusal
        explained = None
        if refusal is not None:
            explained = {"code": refusal.code, "rule": refusal.rule, **refusal.params}
        body = error_body(
            "illegal_move",
            problem.reason,
            params={"move": str(problem.move)},
            move=str(problem.move),
            refusal=explained,
        )
        return 409, body, None
    if isinstance(problem, DataError):
        # text the database cannot hold (a NUL character, say): bad input, nothing written
        return (
            400,
            error_body("invalid_input", "the request holds characters that are not allowed"),
            None,
        )
    if isinstance(problem, DBAPIError):
        # the database server is restarting or unreachable: nothing was written; the pool
        # is renewed after a dropped connection, so the next requests reconnect
        return (
            503,
            error_body("database_unavailable", "the database is unavailable: try again"),
            None,
        )
    if isinstance(problem, OptionError):
        return 400, error_body("option", shorten_quotes(str(problem))), None
    if isinstance(problem, RequestValidationError):  # an HTTP body: its places start "body"
        found = _problems(list(problem.errors()), 1)
        return 422, error_body("invalid_request", found or "the request body is not valid"), None
    if isinstance(problem, ValidationError):  # a socket message, checked by a model
        found = _problems(problem.errors(), 0)
        return 422, error_body("invalid_request", found or "the message is not valid"), None
    return None


def refusal(problem: Exception) -> dict[str, Any]:
    """A refusal as a socket answers it: the HTTP status beside the ``{"error": …}`` body.
    A fault nobody expected is logged and answered 500 ``internal``, without its details."""
    known = answer(problem)
    if known is None:
        log.error("a socket message failed", exc_info=problem)
        known = (500, error_body("internal", "the server failed to answer"), None)
    status, body, _headers = known
    return {"status": status, **body}


def request_id(message: dict[str, Any]) -> Any:
    """The id a socket message gives its request, echoed in the answer: a number or a
    short text (anything else is answered with ``null``)."""
    asked = message.get("id")
    if asked is None or isinstance(asked, bool) or not isinstance(asked, (int, str)):
        return None
    return asked if len(str(asked)) <= MAX_ID else None


REFUSALS: tuple[type[Exception], ...] = (
    RateLimited,
    StoreError,
    Refused,
    NotationError,
    IllegalMoveError,
    DataError,
    DBAPIError,
    OptionError,
    RequestValidationError,
)


def install_refusals(app: FastAPI) -> None:
    """Answer each of :data:`REFUSALS` over HTTP as :func:`answer` says."""

    async def refuse(_request: Request, problem: Exception) -> JSONResponse:
        known = answer(problem)
        assert known is not None, f"{type(problem).__name__} has a handler but no answer"
        status, body, headers = known
        return JSONResponse(status_code=status, content=body, headers=headers)

    for kind in REFUSALS:
        app.add_exception_handler(kind, refuse)
