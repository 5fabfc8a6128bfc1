"""``scoundrel serve``: the browser game (FastAPI).

The server is authoritative: a game is its record in the database; the browser sends moves
in notation and receives the observation, the legal moves and their previews. The deck order
never leaves the server before the game is over.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import gc
import json
import os
from collections.abc import AsyncIterator, Callable
from importlib import resources
from pathlib import Path
from string import Template
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Query, Request, Response
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from scoundrel import __version__
from scoundrel.core import ALL_CARDS
from scoundrel.core.rules import VARIANT_VALUES
from scoundrel.i18n import LANGUAGES, catalog, negotiate
from scoundrel.settings import Settings
from scoundrel.store import Conflict, Forbidden, GameStore, StoredGame, connect, warm
from scoundrel.store.database import now
from scoundrel.store.games import AT_A_TABLE, STALE, seen

from .analysis import Analyses
from .assets import Assets
from .coop import add_table_routes
from .errors import Refused, install_refusals
from .examples import examples_view
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
from .identity import identify as known_player
from .limits import (
    Buckets,
    DailyGate,
    Limits,
    client_address,
    limiter,
    until_tomorrow,
)
from .live import Hub
from .play import MOST_MOVES, MoveIn, NewGame, Play, PlaySocket, Seen, date_of
from .schemas import (
    AnalysisView,
    CurrentGame,
    DailyView,
    ExamplesView,
    GameView,
    HintView,
    MeView,
    NicknameView,
    RecordView,
    ReplayView,
    answers,
)
from .views import game_view, move_words, replay_view

LANG_COOKIE = "scoundrel_lang"
YEAR = 365 * 24 * 3600
STATIC = Path(str(resources.files(__package__).joinpath("static")))
#: What each card is (S1, C2), as the core says: the browser draws cards from this rather
#: than deciding by suit and value itself.
CARD_KINDS = {card.code: card.kind.value for card in ALL_CARDS}
#: Each card's value (S1: J 11 … A 14, a joker 15), as the core says: the browser never
#: works a value out of a rank.
CARD_VALUES = {card.code: card.value for card in ALL_CARDS}
#: How a value is written (J for 11 … A for 14), for the counts of unseen cards, which
#: go by value: the browser keeps no table of face cards.
VALUE_RANKS = {card.value: card.rank for card in ALL_CARDS if card.suit is not None}
#: Every move's notation with what the core calls it (``views.move_words``): the browser
#: names a move of a replay, a hint or an analysis from it, and never reads notation.
MOVE_WORDS = move_words()
#: The variants both rulesets take (V1, V2) with their values, the default first: the
#: new-game form offers exactly these, so a variant added to the core appears in it.
VARIANT_CHOICES = {name: list(values) for name, values in VARIANT_VALUES.items()}


class NicknameIn(BaseModel):
    nickname: str = Field(min_length=1, max_length=64)


async def player(request: Request, me: Annotated[str, Depends(known_player)]) -> str:
    """The anonymous player behind this request: the id the server signed into the cookie
    (a new one if there is none), with a row made by the player's first write (see
    ``identity.py``)."""
    identity: Identity = request.app.state.identity
    return identity.enlist(request, me)


Player = Annotated[str, Depends(player)]


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
    :mod:`.limits`): without it, loopback is one address like any other."""
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
    limit = limiter(buckets, known_player)
    assets = Assets(STATIC)
    analysts = analyses or Analyses()
    hinting = hints or Hints()
    hub = Hub(redis_url, alone=alone)
    play = Play(store, identity, buckets, gate, day)

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
    app.state.identity = identity
    app.state.buckets = buckets
    app.state.limit = limit  # limit(kind, what): a rate-limit dependency for any route
    app.state.analyses = analysts
    app.state.hints = hinting
    app.state.hub = hub
    app.add_middleware(GZipMiddleware, minimum_size=600)
    app.add_middleware(BodyLimit, limit=max_body)
    app.add_middleware(PlayerCookie)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(PlaySocket, play=play)  # the game socket, before the rest
    assets.mount(app)
    # the page's template lives beside the static tree, not in it: never served raw
    shell = Template((STATIC.parent / "page.html").read_text("utf-8"))

    # ------------------------------------------------------------------ errors

    install_errors(app)
    install_refusals(app)

    # ------------------------------------------------------------------ who is asking

    def language(request: Request) -> str:
        asked = request.query_params.get("lang")
        return negotiate(
            request.headers.get("accept-language"),
            asked if asked in LANGUAGES else request.cookies.get(LANG_COOKIE),
        )

    # ------------------------------------------------------------------ pages

    def page(request: Request, name: str, **data: Any) -> HTMLResponse:
        lang = language(request)
        messages = catalog(lang)
        body = shell.substitute(
            lang=lang,
            page=name,
            title=messages.get(f"page.{name}", "Scoundrel"),
            version=__version__,
            static=assets.prefix,
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

    for path, name in (
        ("/", "table"),
        ("/rules", "rules"),
        ("/records", "records"),
        ("/daily", "daily"),
    ):
        app.add_api_route(
            path, simple_page(name), response_class=HTMLResponse, include_in_schema=False
        )

    @app.get("/join/{invite}", response_class=HTMLResponse, include_in_schema=False)
    async def join_page(request: Request, invite: str) -> HTMLResponse:
        return page(request, "table", invite=invite[:32])

    @app.get("/replay/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    async def replay_page(request: Request, game_id: str) -> HTMLResponse:
        return page(request, "replay", game=game_id)

    # ------------------------------------------------------------------ games

    @app.post(
        "/api/games",
        status_code=201,
        dependencies=[limit("new_games", "new games")],
        response_model=None,
        responses=answers(GameView, 201),
    )
    async def new_game(body: NewGame, request: Request, me: Player) -> dict[str, Any]:
        return play.new(me, client_address(request), body)

    @app.get("/api/games/current", response_model=None, responses=answers(CurrentGame))
    async def current_game(request: Request, me: Player) -> dict[str, Any]:
        stored = None if identity.is_new(request) else store.current(me)
        if stored is None:
            return {"game": None}
        return {"game": game_view(stored, store.state(stored), owner=True)}

    @app.get("/api/games/{game_id}", response_model=None, responses=answers(GameView))
    async def get_game(game_id: str, me: Player) -> dict[str, Any]:
        stored = store.load(game_id)
        owner = stored.player_id == me
        if not owner and not stored.is_over:
            store.owned(game_id, me)  # raises NotFound: a game in play is its owner's
        if not owner and not stored.revealed(day()):
            raise Forbidden(
                "another player's attempt at the dungeon of the day is shown once the day "
                "is over, so that nobody can learn the dungeon from a finished attempt",
                reason="daily_hidden",
            )
        return game_view(stored, store.state(stored), owner, stored.revealed(day()))

    @app.post(
        "/api/games/{game_id}/moves",
        dependencies=[limit("moves", "moves")],
        response_model=None,
        responses=answers(GameView),
    )
    async def move(game_id: str, body: MoveIn, me: Player) -> dict[str, Any]:
        return play.move(me, game_id, body.move, body.after, body.undos)

    @app.post("/api/games/{game_id}/undo", response_model=None, responses=answers(GameView))
    async def undo(game_id: str, me: Player, body: Seen | None = None) -> dict[str, Any]:
        """Take back the last move: of the position ``{"after": moves, "undos": undos}``
        the page showed, if the body names it (else 409 ``stale_position``)."""
        return play.undo(me, game_id, body)

    def revealed(game_id: str, me: str, playing: Exception, today: Exception) -> StoredGame:
        """A game whose deck may be shown, or the error for why not (hidden information:
        the deck leaves the server only after the game, and after the day for a daily)."""
        stored = store.load(game_id)
        if not stored.is_over:
            store.owned(game_id, me)  # somebody else's game in play: not found
            raise playing
        if not stored.revealed(day()):
            raise today
        return stored

    def finished(game_id: str, me: str) -> StoredGame:
        """A game whose record may be shown."""
        return revealed(
            game_id,
            me,
            Forbidden(
                "the record, with the deck, is shown once the game is over",
                reason="record_after_game",
            ),
            Forbidden(
                "the dungeon of the day is shown once the day is over, so that nobody can "
                "learn it from a finished attempt",
                reason="daily_record_tomorrow",
            ),
        )

    @app.get("/api/games/{game_id}/record", response_model=None, responses=answers(RecordView))
    async def record(game_id: str, me: Player) -> dict[str, Any]:
        return finished(game_id, me).record.to_dict()

    @app.get("/api/games/{game_id}/replay", response_model=None, responses=answers(ReplayView))
    async def replay(game_id: str, me: Player) -> dict[str, Any]:
        """Every position of a finished game, for the viewer."""
        return replay_view(finished(game_id, me))

    # ------------------------------------------------------------------ hints

    @app.get(
        "/api/games/{game_id}/hint",
        dependencies=[limit("hints", "hints")],
        response_model=None,
        responses=answers(HintView),
    )
    async def get_hint(
        game_id: str,
        me: Player,
        request: Request,
        after: Annotated[int | None, Query(ge=0, le=MOST_MOVES)] = None,
        undos: Annotated[int | None, Query(ge=0, le=MOST_MOVES)] = None,
    ) -> dict[str, Any]:
        """The fair bot's move for the owner's game in play, with why; the game counts it.
        ``after`` and ``undos`` name the position the page shows: a hint asked for on a
        position the game has left is refused (409 ``stale_position``), and not counted."""
        stored = store.owned(game_id, me)
        store.still_today(stored)  # no hint for an attempt its day closed
        if stored.is_over:
            raise Refused(409, "game_over", "the game is over: no more hints", "hints_over")
        if stored.online:
            raise Refused(409, "online_table", AT_A_TABLE, "at_a_table")
        if not seen(stored, after, undos):
            raise Conflict(STALE, reason="stale_position")
        state = store.state(stored)
        advice = await hinting.ask(me, state.observation(state.leader), request.is_disconnected)
        counted = store.count_hint(game_id, me, after=len(stored.moves), undos=stored.undo_count)
        return {**advice, "after": len(stored.moves), "hint_count": counted.hint_count}

    # ------------------------------------------------------------------ analysis

    def analysable(game_id: str, me: str) -> StoredGame:
        """A finished game whose analysis may be shown. The analysis names the cards of the
        whole deal, so it follows the record's rule (see :func:`finished`). An attempt
        closed at midnight never ended: there is nothing to analyse."""
        stored = revealed(
            game_id,
            me,
            Refused(409, "game_not_over", "a game is analysed once it is over"),
            Refused(
                403,
                "daily_not_over",
                "the dungeon of the day is analysed once the day is over: the analysis "
                "shows its cards",
            ),
        )
        if stored.closed:
            raise Refused(409, "game_not_over", "a game is analysed once it is over")
        return stored

    @app.post(
        "/api/games/{game_id}/analysis",
        dependencies=[limit("analyses", "analyses")],
        response_model=None,
        responses={**answers(AnalysisView), **answers(AnalysisView, 202)},
    )
    async def start_analysis(game_id: str, me: Player, response: Response) -> dict[str, Any]:
        """Start the analysis of a finished game, or answer the one running or done."""
        stored = analysable(game_id, me)
        known = analysts.get(game_id)
        fresh = known is None or not (known.active or known.state == "done")
        if fresh and analysts.busy(me) >= analysts.per_player:
            raise Refused(429, "too_many_analyses", "wait for your other analyses to finish first")
        job = analysts.start(game_id, stored.record.to_dict(), me)
        view = job.view()
        response.status_code = 202 if view["state"] == "running" else 200
        return view

    @app.get("/api/games/{game_id}/analysis", response_model=None, responses=answers(AnalysisView))
    async def get_analysis(game_id: str, me: Player) -> dict[str, Any]:
        """How the analysis of a finished game is going: ``none`` if nobody asked yet."""
        analysable(game_id, me)
        job = analysts.get(game_id)
        return {"state": "none"} if job is None else job.view()

    @app.delete(
        "/api/games/{game_id}/analysis", response_model=None, responses=answers(AnalysisView)
    )
    async def cancel_analysis(game_id: str, me: Player) -> dict[str, Any]:
        """Stop an analysis this player asked for (its worker process stops)."""
        analysable(game_id, me)
        job = analysts.get(game_id)
        if job is None or me not in job.players:
            raise Refused(404, "no_analysis", "you have not asked for an analysis of this game")
        job = analysts.cancel(game_id) or job
        return job.view()

    # ------------------------------------------------------------------ players

    @app.get("/api/me", response_model=None, responses=answers(MeView))
    async def about_me(me: Player) -> dict[str, Any]:
        played = store.history(me)
        partners = store.partners(me, [game.id for game in played if game.online])
        history = [
            {
                "id": game.id,
                "mode": game.mode,
                "daily_date": game.daily_date,
                "ruleset": game.rules.ruleset,
                "options": game.rules.options,
                "status": game.status,
                "score": game.score,
                "moves": len(game.moves),
                "undo_count": game.undo_count,
                "hint_count": game.hint_count,
                "created_at": game.created_at.isoformat(),
                "online": game.online,
                "partner": partners.get(game.id),
            }
            for game in played
        ]
        return {"nickname": store.nickname(me), "stats": store.stats(me), "history": history}

    add_transfer_routes(app, identity, limit, player)

    @app.put("/api/me/nickname", response_model=None, responses=answers(NicknameView))
    async def set_nickname(body: NicknameIn, me: Player) -> dict[str, Any]:
        return {"nickname": store.set_nickname(me, body.nickname)}

    @app.get("/api/daily", response_model=None, responses=answers(DailyView))
    async def daily(
        me: Player,
        ruleset: Literal["solo", "coop"] = "solo",
        date: Annotated[str | None, Query(max_length=10)] = None,
    ) -> dict[str, Any]:
        now_ = moment()
        today_ = now_.date()
        shown = date_of(date) if date else today_
        mine = store.daily_attempt(me, shown.isoformat(), ruleset)
        return {
            "date": shown.isoformat(),
            "today": today_.isoformat(),
            "next_in": until_tomorrow(now_),
            "streak": store.daily_streak(me, ruleset, today_),
            "ruleset": ruleset,
            "leaderboard": store.leaderboard(shown.isoformat(), ruleset, viewer=me),
            "yours": None
            if mine is None
            else {"id": mine.id, "status": mine.status, "score": mine.score},
        }

    app.state.tables = add_table_routes(
        app, store, hub, player, identity.socket_player, day, hinting
    )

    @app.get("/api/examples", response_model=None, responses=answers(ExamplesView))
    async def examples() -> dict[str, Any]:
        """The rules pages' worked examples, played out by the core."""
        return examples_view()

    @app.get("/api/health", include_in_schema=False)
    async def health() -> dict[str, Any]:
        # live: whether table updates reach every server process (Redis up, or alone);
        # process: which worker answered (an operator's check that each one is live)
        return {"ok": True, "games": store.count_games(), "live": hub.live, "process": os.getpid()}

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
