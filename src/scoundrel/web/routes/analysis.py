"""The analysis of a finished game: start it, follow it, cancel it. It names the cards of
the whole deal, so it follows the record's rule (:func:`.games.finished`); the workers that
run it are :mod:`..analysis`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from scoundrel.store import StoredGame

from ..context import Parts, Player, Server, rate_limit
from ..errors import Refused
from ..schemas import AnalysisView, answers
from .games import revealed

router = APIRouter()


def analysable(server: Parts, game_id: str, me: str) -> StoredGame:
    """A finished game whose analysis may be shown. An attempt closed at midnight never
    ended: there is nothing to analyse."""
    stored = revealed(
        server,
        game_id,
        me,
        Refused(409, "game_not_over", "a game is analysed once it is over"),
        Refused(
            403,
            "daily_not_over",
            "the dungeon of the day is analysed once the day is over: the analysis shows its cards",
        ),
    )
    if stored.closed:
        raise Refused(409, "game_not_over", "a game is analysed once it is over")
    return stored


@router.post(
    "/api/games/{game_id}/analysis",
    dependencies=[rate_limit("analyses", "analyses")],
    response_model=None,
    responses={**answers(AnalysisView), **answers(AnalysisView, 202)},
)
async def start_analysis(
    game_id: str, me: Player, server: Server, response: Response
) -> dict[str, Any]:
    """Start the analysis of a finished game, or answer the one running or done."""
    stored = analysable(server, game_id, me)
    analysts = server.analyses
    known = analysts.get(game_id)
    fresh = known is None or not (known.active or known.state == "done")
    if fresh and analysts.busy(me) >= analysts.per_player:
        raise Refused(429, "too_many_analyses", "wait for your other analyses to finish first")
    job = analysts.start(game_id, stored.record.to_dict(), me)
    view = job.view()
    response.status_code = 202 if view["state"] == "running" else 200
    return view


@router.get("/api/games/{game_id}/analysis", response_model=None, responses=answers(AnalysisView))
async def get_analysis(game_id: str, me: Player, server: Server) -> dict[str, Any]:
    """How the analysis of a finished game is going: ``none`` if nobody asked yet."""
    analysable(server, game_id, me)
    job = server.analyses.get(game_id)
    return {"state": "none"} if job is None else job.view()


@router.delete(
    "/api/games/{game_id}/analysis", response_model=None, responses=answers(AnalysisView)
)
async def cancel_analysis(game_id: str, me: Player, server: Server) -> dict[str, Any]:
    """Stop an analysis this player asked for (its worker process stops)."""
    analysable(server, game_id, me)
    job = server.analyses.get(game_id)
    if job is None or me not in job.players:
        raise Refused(404, "no_analysis", "you have not asked for an analysis of this game")
    job = server.analyses.cancel(game_id) or job
    return job.view()
