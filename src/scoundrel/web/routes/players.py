"""A player's own pages of data: their records, their nickname, and the dungeon of the day
with its leaderboard and their streak."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from ..context import Player, Server
from ..limits import until_tomorrow
from ..play import date_of
from ..schemas import DailyView, MeView, NicknameView, answers

router = APIRouter()


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
            "partner": partners.get(game.id),
        }
        for game in played
    ]
    return {"nickname": store.nickname(me), "stats": store.stats(me), "history": history}


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
