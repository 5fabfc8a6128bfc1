"""``scoundrel serve``: the browser game (FastAPI).

The server is authoritative: a game is its record in the database; the browser sends moves
in notation and receives the observation, the legal moves and their previews. The deck order
never leaves the server before the game is over.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import gc
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.middleware.gzip import GZipMiddleware
from starlette.concurrency import run_in_threadpool

from scoundrel import __version__
from scoundrel.pyodide import find_pyodide
from scoundrel.settings import Settings
from scoundrel.store import GameStore, connect, warm
from scoundrel.store.database import data_folder, now
from scoundrel.store.pars import DailyPars

from .analysis import Analyses
from .assets import Assets
from .context import Parts, player, rate_limit
from .coop import add_table_routes
from .errors import install_refusals
from .guard import (
    ERRORS,
    MAX_BODY,
    BodyLimit,
    SecurityHeaders,
    install_errors,
    known_game_id,
)
from .hints import Hints
from .identity import Identity, PlayerCookie, add_transfer_routes
from .limits import Buckets, DailyGate, Limits, until_tomorrow
from .live import Hub
from .offline_assets import OfflineAssets
from .pars import Pars
from .play import Play, PlaySocket
from .routes import ROUTERS
from .routes.pages import STATIC

#: The page constants, kept importable from here.
__all__ = ["STATIC", "app_from_environment", "create_app", "settle_collector"]


def create_app(
    db_url: str | None = None,
    daily_secret: str | None = None,
    today: Any = None,
    analyses: Analyses | None = None,
    redis_url: str | None = None,
    alone: bool = True,
    limits: Limits | None = None,
    daily_per_address: int | None = None,
    cookie_secret: str | None = None,
    max_body: int = MAX_BODY,
    clock: Callable[[], _dt.datetime] | None = None,
    hints: Hints | None = None,
    behind_proxy: bool | None = None,
    daily_par: bool | None = None,
) -> FastAPI:
    """The web application over the database at ``db_url`` (default: SQLite in the user's
    data directory). ``clock`` returns the moment (UTC; for tests, default the system's
    clock), or ``today`` only the server's date (for tests: the time of day stays the
    system's); the day ends at midnight UTC. ``analyses`` runs
    the post-game analyses (default: two worker processes at most), ``hints`` the hints
    (default: one worker process, see :mod:`.hints`). ``redis_url`` carries
    live co-op updates between server processes; ``alone=False`` says other processes
    share the database (without Redis, their updates then reach tables by polling).

    The defaults of the following come from the environment (:mod:`scoundrel.settings`).
    ``limits`` are the rate limits (default :class:`Limits`, or none at all if
    ``SCOUNDREL_RATE_LIMITS=off``; ``Limits.unlimited()`` for none);
    ``daily_per_address`` the scored daily attempts per client address and day (default
    ``SCOUNDREL_DAILY_PER_ADDRESS`` or 5; 0: no limit); ``cookie_secret`` signs players' ids
    (default ``SCOUNDREL_COOKIE_SECRET``, or one kept in the database); ``max_body`` is the
    largest request body in bytes. ``behind_proxy`` (default ``SCOUNDREL_PROXY=on``) says
    that requests from loopback come through a reverse proxy that names the client (see
    :mod:`.limits`): without it, loopback is one address like any other. ``daily_par``
    (default ``SCOUNDREL_DAILY_PAR``, on) works out each dungeon of the day's par in the
    analyses' workers (:mod:`.pars`)."""
    if clock is None:
        clock = moment_of(today) if today is not None else now
    moment: Callable[[], _dt.datetime] = clock

    def day() -> _dt.date:
        return moment().date()

    store = GameStore(connect(db_url), daily_secret=daily_secret, today=day)
    settings = Settings.read()
    if limits is None:
        limits = Limits() if settings.rate_limits else Limits.unlimited()
    if behind_proxy is None:
        behind_proxy = settings.proxy
    buckets = Buckets(limits, loopback_exempt=behind_proxy)
    identity = Identity(store, cookie_secret or settings.cookie_secret, buckets)
    if daily_per_address is None:
        daily_per_address = settings.daily_per_address
    gate = DailyGate(
        behind_proxy,
        daily_per_address or None,
        identity.client_key,
        identity.rows.daily_attempts,
        lambda: until_tomorrow(moment()),
    )
    assets = Assets(STATIC)
    offline = OfflineAssets(find_pyodide(settings.pyodide, data_folder()))
    analysts = analyses or Analyses()
    hinting = hints or Hints()
    hub = Hub(redis_url, alone=alone)
    play = Play(store, identity, buckets, gate, day)
    if daily_par is None:
        daily_par = settings.daily_par
    pars = Pars(DailyPars(store), analysts, moment) if daily_par else None

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await run_in_threadpool(warm, store.engine)
        await hub.start()
        yield
        await hub.close()
        await run_in_threadpool(analysts.close)
        await run_in_threadpool(hinting.close)

    app = FastAPI(
        title="Scoundrel",
        version=__version__,
        docs_url="/api/docs",
        responses=ERRORS,  # every route may refuse so: documented once
        redoc_url=None,  # one documentation page, the one the content policy allows
        lifespan=lifespan,
        dependencies=[Depends(known_game_id)],
    )
    app.state.store = store
    app.state.assets = assets
    app.state.offline = offline
    app.state.server = Parts(store, identity, play, hinting, analysts, hub, moment, pars)
    app.state.identity = identity
    app.state.buckets = buckets
    app.state.limit = rate_limit  # limit(kind, what): a rate-limit dependency for any route
    app.state.analyses = analysts
    app.state.hints = hinting
    app.state.hub = hub
    app.add_middleware(GZipMiddleware, minimum_size=600)
    app.add_middleware(BodyLimit, limit=max_body)
    app.add_middleware(PlayerCookie)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(PlaySocket, play=play)  # the game socket, before the rest
    assets.mount(app)

    # ------------------------------------------------------------------ errors

    install_errors(app)
    install_refusals(app)

    # ------------------------------------------------------------------ routes

    for router in ROUTERS:
        app.include_router(router)
    add_transfer_routes(app, identity, rate_limit, player)
    app.state.tables = add_table_routes(
        app, store, hub, player, identity.socket_player, day, hinting
    )

    return app


def moment_of(today: Callable[[], _dt.date]) -> Callable[[], _dt.datetime]:
    """A clock whose day is ``today``'s and whose time of day is the system's."""

    def moment() -> _dt.datetime:
        return _dt.datetime.combine(today(), now().timetz())

    return moment


def app_from_environment() -> FastAPI:
    """The application as ``scoundrel serve --workers N`` starts it in each worker process:
    its settings come from the environment the command sets (:mod:`scoundrel.settings`)."""
    settings = Settings.read()
    app = create_app(
        settings.db,
        daily_secret=settings.daily_secret,
        redis_url=settings.redis,
        alone=settings.alone,
    )
    settle_collector()
    return app


#: The garbage collector's thresholds in a server (Python's default is 700, 10, 10).
SERVER_COLLECTOR = (20_000, 10, 10)


def settle_collector() -> None:
    """Ready Python's cyclic garbage collector for serving, once the application is made.
    Everything made so far lives as long as the server: it is kept out of the collector's
    passes (a full pass over it paused a request for tens of ms). And the youngest objects
    are collected less often: the caches' turnover set off a pass of 10 ms or so every
    thousand messages at the default threshold (10 µs a message, measured in a loop of
    the web benchmark's messages); at this one, none in 7,000."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*SERVER_COLLECTOR)
