"""What the routes read: the server's parts (store, clock, workers), who is asking, and the
rate limits, as FastAPI dependencies. ``create_app`` builds one :class:`Parts` and keeps it
in ``app.state.server``; each area's routes (:mod:`.routes`) take it as ``Server``."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request

from scoundrel.store import GameStore

from .analysis import Analyses
from .hints import Hints
from .identity import Identity
from .identity import identify as known_player
from .limits import client_address
from .live import Hub
from .pars import Pars
from .play import Play


@dataclass(frozen=True)
class Parts:
    """The parts of one server that its routes share."""

    store: GameStore
    identity: Identity
    play: Play
    hints: Hints
    analyses: Analyses
    hub: Hub
    moment: Callable[[], _dt.datetime]
    """The moment (UTC): the system's clock, or a test's."""
    pars: Pars | None = None
    """The dungeons of the day's pars (``None``: none are worked out here)."""

    def day(self) -> _dt.date:
        """The server's date: the day ends at midnight UTC (M2)."""
        return self.moment().date()


def parts_of(request: Request) -> Parts:
    parts: Parts = request.app.state.server
    return parts


Server = Annotated[Parts, Depends(parts_of)]


async def player(request: Request, me: Annotated[str, Depends(known_player)]) -> str:
    """The anonymous player behind this request: the id the server signed into the cookie
    (a new one if there is none), with a row made by the player's first write (see
    ``identity.py``)."""
    identity: Identity = request.app.state.identity
    return identity.enlist(request, me)


Player = Annotated[str, Depends(player)]


def rate_limit(kind: str, what: str) -> Any:
    """A route dependency that takes a token of ``kind`` for the asking player and for the
    client's address from the application's buckets (:mod:`.limits`)."""

    async def check(request: Request, me: Annotated[str, Depends(known_player)]) -> None:
        request.app.state.buckets.take(kind, what, me, client_address(request))

    return Depends(check)
