"""A player's games: a new one, the one in play, a move, an undo, and once a game is over
its record and its replay. The deck leaves the server only after the game, and after its
day for a dungeon of the day (hidden information)."""

from __future__ import annotations

import datetime as _dt
from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from scoundrel.core import Record, RecordError, ReplayError
from scoundrel.store import Forbidden, StoredGame, offline

from ..context import Parts, Player, Server, rate_limit
from ..limits import client_address
from ..play import MOST_MOVES, MoveIn, NewGame, Seen
from ..schemas import CurrentGame, GameView, RecordView, ReplayView, answers
from ..views import game_view, replay_view

router = APIRouter()


@router.post(
    "/api/games",
    status_code=201,
    dependencies=[rate_limit("new_games", "new games")],
    response_model=None,
    responses=answers(GameView, 201),
)
async def new_game(body: NewGame, request: Request, me: Player, server: Server) -> dict[str, Any]:
    return server.play.new(me, client_address(request), body)


@router.get("/api/games/current", response_model=None, responses=answers(CurrentGame))
async def current_game(request: Request, me: Player, server: Server) -> dict[str, Any]:
    store = server.store
    stored = None if server.identity.is_new(request) else store.current(me)
    if stored is None:
        return {"game": None}
    return {"game": game_view(stored, store.state(stored), owner=True)}


@router.get("/api/games/{game_id}", response_model=None, responses=answers(GameView))
async def get_game(game_id: str, me: Player, server: Server) -> dict[str, Any]:
    store, day = server.store, server.day()
    stored = store.load(game_id)
    owner = stored.player_id == me
    if not owner and not stored.is_over:
        store.owned(game_id, me)  # raises NotFound: a game in play is its owner's
    if not owner and not stored.revealed(day):
        raise Forbidden(
            "another player's attempt at the dungeon of the day is shown once the day "
            "is over, so that nobody can learn the dungeon from a finished attempt",
            reason="daily_hidden",
        )
    return game_view(stored, store.state(stored), owner, stored.revealed(day))


@router.post(
    "/api/games/{game_id}/moves",
    dependencies=[rate_limit("moves", "moves")],
    response_model=None,
    responses=answers(GameView),
)
async def move(game_id: str, body: MoveIn, me: Player, server: Server) -> dict[str, Any]:
    return server.play.move(me, game_id, body.move, body.after, body.undos)


@router.post("/api/games/{game_id}/undo", response_model=None, responses=answers(GameView))
async def undo(
    game_id: str, me: Player, server: Server, body: Seen | None = None
) -> dict[str, Any]:
    """Take back the last move: of the position ``{"after": moves, "undos": undos}``
    the page showed, if the body names it (else 409 ``stale_position``)."""
    return server.play.undo(me, game_id, body)


def revealed(
    server: Parts, game_id: str, me: str, playing: Exception, today: Exception
) -> StoredGame:
    """A game whose deck may be shown, or the error for why not (hidden information:
    the deck leaves the server only after the game, and after the day for a daily)."""
    store = server.store
    stored = store.load(game_id)
    if not stored.is_over:
        store.owned(game_id, me)  # somebody else's game in play: not found
        raise playing
    if not stored.revealed(server.day()):
        raise today
    return stored


def finished(server: Parts, game_id: str, me: str) -> StoredGame:
    """A game whose record may be shown."""
    return revealed(
        server,
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


@router.get("/api/games/{game_id}/record", response_model=None, responses=answers(RecordView))
async def record(game_id: str, me: Player, server: Server) -> dict[str, Any]:
    return finished(server, game_id, me).record.to_dict()


@router.get("/api/games/{game_id}/replay", response_model=None, responses=answers(ReplayView))
async def replay(game_id: str, me: Player, server: Server) -> dict[str, Any]:
    """Every position of a finished game, for the viewer."""
    return replay_view(finished(server, game_id, me))


class OfflineIn(BaseModel):
    """A game the page played offline (the core run by Pyodide), sent once it is over."""

    key: str = Field(min_length=16, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")
    """The key the page made for the game: sent again, it is the same game."""
    mode: Literal["random", "daily"]
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    """A random dungeon's seed (M1)."""
    daily_date: str | None = Field(default=None, max_length=10)
    """The day of a public dungeon of the day (M2, no server's secret)."""
    record: dict[str, Any]
    """Its record (N3): rules, deck and moves."""
    status: Literal["won", "lost"]
    score: int = Field(ge=-999, le=999)
    undo_count: int = Field(default=0, ge=0, le=MOST_MOVES)
    started_at: _dt.datetime | None = None
    finished_at: _dt.datetime | None = None


@router.post(
    "/api/games/offline",
    status_code=201,
    dependencies=[rate_limit("new_games", "new games")],
    response_model=None,
    responses=answers(GameView, 201),
)
async def offline_game(
    body: OfflineIn, response: Response, me: Player, server: Server
) -> dict[str, Any]:
    """Keep a game played offline: its deck must be the deal it names, its moves are
    replayed through the core, and its result must be the replay's (else 400 naming what
    is wrong). It joins the player's records, marked, never ranked; sent again (an answer
    lost), it is the game kept the first time (200)."""
    try:
        record = Record.from_dict(body.record)
    except ReplayError as problem:  # a move the core does not allow where it stands
        raise offline.illegal(problem) from None
    except RecordError as problem:
        raise offline.refuse(f"the record: {problem}", "offline_record") from None
    if len(record.moves) > MOST_MOVES:
        raise offline.refuse(f"a game has at most {MOST_MOVES} moves", "offline_record")
    sent = offline.OfflineGame(
        key=body.key,
        mode=body.mode,
        seed=body.seed,
        date=body.daily_date,
        record=record,
        status=body.status,
        score=body.score,
        undo_count=body.undo_count,
        started_at=body.started_at,
        finished_at=body.finished_at,
    )
    kept, new = offline.keep(server.store, me, sent)
    if not new:
        response.status_code = 200
    return game_view(kept, server.store.state(kept), owner=True, revealed=True)
