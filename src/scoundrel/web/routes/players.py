"""A player's own pages of data: their records, their nickname, and the dungeon of the day
with its leaderboard and their streak."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from scoundrel.store import GameStatus
from scoundrel.store.achievements import ACHIEVEMENTS, earned
from scoundrel.store.games import FINISHED

from ..context import Player, Server
from ..limits import until_tomorrow
from ..play import date_of
from ..schemas import DailyView, MeView, NicknameView, answers

router = APIRouter()

#: How far back a day's par is worked out (a year of days; older days show none).
PAR_DAYS = 366


class NicknameIn(BaseModel):
    nickname: str = Field(min_length=1, max_length=64)


@router.get("/api/me", response_model=None, responses=answers(MeView))
async def about_me(me: Player, server: Server) -> dict[str, Any]:
    store = server.store
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
            "offline": game.offline,
            "partner": partners.get(game.id),
        }
        for game in played
    ]
    return {
        "nickname": store.nickname(me),
        "stats": store.stats(me),
        "history": history,
        "achievements": {
            "all": [{"code": a.code, "fair": a.fair} for a in ACHIEVEMENTS],
            "earned": earned(store, me),
        },
    }


@router.put("/api/me/nickname", response_model=None, responses=answers(NicknameView))
async def set_nickname(body: NicknameIn, me: Player, server: Server) -> dict[str, Any]:
    return {"nickname": server.store.set_nickname(me, body.nickname)}


@router.get("/api/daily", response_model=None, responses=answers(DailyView))
async def daily(
    me: Player,
    server: Server,
    ruleset: Literal["solo", "coop"] = "solo",
    date: Annotated[str | None, Query(max_length=10)] = None,
) -> dict[str, Any]:
    store = server.store
    now_ = server.moment()
    today_ = now_.date()
    shown = date_of(date) if date else today_
    day = shown.isoformat()
    mine = store.daily_attempt(me, day, ruleset)
    yours: dict[str, Any] | None = None
    if mine is not None:
        yours = {"id": mine.id, "status": mine.status, "score": mine.score}
        if mine.status in FINISHED and mine.score is not None:
            yours.update(store.standing(day, ruleset, mine.score))
    # today's par tells something of the deal: it waits for the player's own attempt to end
    over = shown < today_ or (mine is not None and mine.status != GameStatus.PLAYING)
    shows_par = over and PAR_DAYS >= (today_ - shown).days >= 0
    if server.pars is not None and shown == today_ and not shows_par:
        server.pars.start(day, ruleset)  # ready by the time the first attempts end
    return {
        "date": day,
        "today": today_.isoformat(),
        "next_in": until_tomorrow(now_),
        "streak": store.daily_streak(me, ruleset, today_),
        "ruleset": ruleset,
        "leaderboard": store.leaderboard(day, ruleset, viewer=me),
        "yours": yours,
        "par": server.pars.view(day, ruleset) if shows_par and server.pars is not None else None,
    }
