"""A hint: the fair bot's move for the owner's game in play, with every move's chance; the
game counts it. The worker that computes it is :mod:`..hints`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from scoundrel.store import Conflict
from scoundrel.store.games import AT_A_TABLE, STALE, seen

from ..context import Player, Server, rate_limit
from ..errors import Refused
from ..play import MOST_MOVES
from ..schemas import HintView, answers

router = APIRouter()


@router.get(
    "/api/games/{game_id}/hint",
    dependencies=[rate_limit("hints", "hints")],
    response_model=None,
    responses=answers(HintView),
)
async def get_hint(
    game_id: str,
    me: Player,
    server: Server,
    request: Request,
    after: Annotated[int | None, Query(ge=0, le=MOST_MOVES)] = None,
    undos: Annotated[int | None, Query(ge=0, le=MOST_MOVES)] = None,
) -> dict[str, Any]:
    """The fair bot's move for the owner's game in play, with why; the game counts it.
    ``after`` and ``undos`` name the position the page shows: a hint asked for on a
    position the game has left is refused (409 ``stale_position``), and not counted."""
    store = server.store
    stored = store.owned(game_id, me)
    store.still_today(stored)  # no hint for an attempt its day closed
    if stored.is_over:
        raise Refused(409, "game_over", "the game is over: no more hints", "hints_over")
    if stored.online:
        raise Refused(409, "online_table", AT_A_TABLE, "at_a_table")
    if not seen(stored, after, undos):
        raise Conflict(STALE, reason="stale_position")
    state = store.state(stored)
    advice = await server.hints.ask(me, state.observation(state.leader), request.is_disconnected)
    counted = store.count_hint(game_id, me, after=len(stored.moves), undos=stored.undo_count)
    return {**advice, "after": len(stored.moves), "hint_count": counted.hint_count}
