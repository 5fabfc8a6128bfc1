"""Online co-op: "Scoundrel for two" on two devices.

``POST /api/tables`` opens a co-op table in a random dungeon and answers its invite link;
the friend who follows it (``POST /api/tables/join``) takes hero 2's seat. The leader acts
on the room; a monster given as the help card waits for the partner, who chooses weapon or
bare hands (C5). Both browsers (and anyone with the watch link, read-only) follow the table
over a WebSocket: every change is pushed to every viewer as that viewer's own view, with
the partner's presence and, unless the game is ``silent_leader`` (C11), the card the
partner points at.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import json
import random
import time
from collections.abc import Callable
from typing import Any, Literal

import orjson
from fastapi import Depends, FastAPI, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from scoundrel.core import ALL_CARDS, Move, Rules, State
from scoundrel.store import Forbidden, GameStore, StoredGame, StoreError
from scoundrel.store.tables import Tables

from .errors import refusal, request_id
from .guard import foreign
from .hints import Hints
from .limits import Buckets, Flood, client_address
from .live import Hub
from .schemas import GameView, HintView, answers
from .views import game_view

#: What a seat may point at or select: a card, by its code (N1).
CARD_CODES = frozenset(card.code for card in ALL_CARDS)


class NewTable(BaseModel):
    ruleset: Literal["coop"] = "coop"
    options: dict[str, str | bool | int] = Field(default_factory=dict, max_length=8)
    after: str | None = Field(default=None, max_length=24, pattern=r"^[A-Za-z0-9_-]+$")
    """A finished table this player sat at ("Play again"): its partner is told of the new
    table and its invite, to join it rather than open one of their own."""


class JoinIn(BaseModel):
    invite: str = Field(min_length=8, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")


class TableMoveIn(BaseModel):
    move: str = Field(min_length=1, max_length=16)
    after: int | None = Field(default=None, ge=0, le=10_000)


def _give_entry(code: str, leader: int) -> dict[str, Any]:
    """The leader's "give this monster" action: its effect is the partner's to choose."""
    hero = Move(f">{code}/b").hero(leader)  # either way of fighting it: the partner (C5)
    return {
        "move": f">{code}",
        "card": code,
        "help": True,
        "hero": hero,
        "weapon": None,
        "give": True,
        "health": None,
        "damage": None,
        "weapons": None,
        "status": "playing",
        "label": {"code": "give_monster", "card": code, "hero": hero, "deadly": False},
    }


#: While a given monster waits, the partner answers it: the partner's own words for the
#: core's help-card fights ("Fight K♠ with 5♦", not "Hero 2 fights K♠ with 5♦").
_ANSWERED = {"give_fight_weapon": "fight_weapon", "give_fight_bare": "fight_bare"}


def _answer_entry(entry: dict[str, Any]) -> dict[str, Any]:
    label = entry["label"]
    return {**entry, "label": {**label, "code": _ANSWERED.get(label["code"], label["code"])}}


def table_view(
    stored: StoredGame,
    state: State,
    you: int | None,
    names: dict[int, str | None],
    today: _dt.date,
) -> dict[str, Any]:
    """An online table as one of its players (``you``) or a watcher (None) sees it: the
    game view, whose turn it is, the monster waiting for the partner, and the seats."""
    view = game_view(stored, state, owner=you is not None, revealed=stored.revealed(today))
    acting = Tables.to_act(stored, state)
    if stored.pending is not None:
        answers = {move.token for move in Tables.answers(stored, state)}
        view["legal"] = [
            _answer_entry(entry) for entry in view["legal"] if entry["move"] in answers
        ]
    else:
        gives = Tables.gives(state)
        legal = [
            entry
            for entry in view["legal"]
            if not (entry["help"] and entry["card"] in gives and entry["move"][-2] == "/")
        ]
        legal.extend(_give_entry(code, state.leader) for code in gives)
        view["legal"] = legal
    view.update(
        online=True,
        you=you,
        to_act=acting,
        pending=stored.pending,
        seats=[{"hero": n, "taken": n in names, "nickname": names.get(n)} for n in (1, 2)],
        invite=stored.invite if you == 1 and 2 not in names and not state.is_over else None,
        silent_leader=bool(stored.rules.options.get("silent_leader")),
    )
    return view


def add_table_routes(
    app: FastAPI,
    store: GameStore,
    hub: Hub,
    player: Any,
    identify: Callable[[WebSocket], str | None],
    clock: Callable[[], _dt.date],
    hints: Hints,
) -> Tables:
    """Add the online co-op endpoints to ``app``. ``player`` is the dependency that names
    the player behind a request; ``identify`` does the same for a WebSocket (None for a
    visitor without a valid cookie, who may only watch)."""
    tables = Tables(store)
    limit = app.state.limit  # the rate limits of the games at one table apply here too
    buckets: Buckets = app.state.buckets

    def view_for(
        game_id: str, player_id: str | None, played: tuple[StoredGame, State] | None = None
    ) -> dict[str, Any]:
        """The table as ``player_id`` sees it: as the database has it now, or as the
        action just ``played`` left it."""
        if played is None:
            table = tables.table(game_id)
            played = (table, store.state(table))
        stored, state = played
        hero = tables.hero_of(game_id, player_id) if player_id else None
        return table_view(stored, state, hero, tables.names(game_id), clock())

    async def changed(game_id: str) -> None:
        await hub.publish(game_id, {"type": "changed"})

    @app.post(
        "/api/tables",
        status_code=201,
        dependencies=[limit("new_games", "new games")],
        response_model=None,
        responses=answers(GameView, 201),
    )
    async def open_table(body: NewTable, me: str = Depends(player)) -> dict[str, Any]:
        """A co-op table for you and a friend on another device: you are hero 1. After a
        table you played (``after``), your partner there is told of this one."""
        stored = tables.open(me, Rules.from_options(body.ruleset, body.options))
        if body.after is not None:
            await again(body.after, me, stored)
        return view_for(stored.id, me)

    async def again(before: str, me: str, table: StoredGame) -> None:
        """Tell the partner of the finished table ``before`` (if ``me`` sat at it) that
        ``me`` opened ``table``: they may join it with its invite."""
        try:
            finished = tables.table(before)
        except StoreError:
            return
        hero = tables.hero_of(before, me)
        if hero is None or not finished.is_over:
            return
        event = {"type": "again", "hero": hero, "table": table.id, "invite": table.invite}
        await hub.publish(before, event)

    @app.post(
        "/api/tables/join",
        dependencies=[limit("new_games", "new games")],
        response_model=None,
        responses=answers(GameView),
    )
    async def join_table(body: JoinIn, me: str = Depends(player)) -> dict[str, Any]:
        """Take the free seat of the table an invite opens (hero 2). A refusal names the
        table and says why, so that the page can offer what is left: ``table_full`` (it
        can be watched) or ``table_over`` (its replay can be watched)."""
        stored, _hero = tables.join(body.invite, me)
        await changed(stored.id)
        return view_for(stored.id, me)

    @app.get("/api/tables/{game_id}", response_model=None, responses=answers(GameView))
    async def get_table(game_id: str, me: str = Depends(player)) -> dict[str, Any]:
        """The table as you see it: as a player in your seat, or read-only as a watcher."""
        return view_for(game_id, me)

    @app.post(
        "/api/tables/{game_id}/moves",
        dependencies=[limit("moves", "moves")],
        response_model=None,
        responses=answers(GameView),
    )
    async def table_move(
        game_id: str, body: TableMoveIn, me: str = Depends(player)
    ) -> dict[str, Any]:
        """Your action, when it is your turn: the leader's move or give (``>KS``), or the
        partner's answer to a given monster (``>KS/w``, ``>KS/b``)."""
        played = tables.play(game_id, me, body.move, after=body.after)
        await changed(game_id)
        return view_for(game_id, me, played)

    @app.post(
        "/api/tables/{game_id}/take-back",
        dependencies=[limit("moves", "moves")],
        response_model=None,
        responses=answers(GameView),
    )
    async def take_back(game_id: str, me: str = Depends(player)) -> dict[str, Any]:
        """The leader takes back a monster given but not yet fought."""
        played = tables.take_back(game_id, me)
        await changed(game_id)
        return view_for(game_id, me, played)

    @app.get(
        "/api/tables/{game_id}/hint",
        dependencies=[limit("hints", "hints")],
        response_model=None,
        responses=answers(HintView),
    )
    async def table_hint(
        game_id: str, request: Request, me: str = Depends(player)
    ) -> dict[str, Any]:
        """The fair bot's advice for the leader, counted like a hint in a game at one table."""
        stored = tables.table(game_id)
        state = store.state(stored)
        if tables.hero_of(game_id, me) != Tables.to_act(stored, state) or stored.pending:
            raise Forbidden(
                "hints are for the leader, when it is their turn", reason="hints_for_leader"
            )
        advice = await hints.ask(me, state.observation(state.leader), request.is_disconnected)
        counted = store.count_hint(game_id, stored.player_id)
        await changed(game_id)
        return {**advice, "after": len(stored.moves), "hint_count": counted.hint_count}

    @app.websocket("/api/tables/{game_id}/live")
    async def live(websocket: WebSocket, game_id: str) -> None:
        await follow(websocket, game_id)

    async def follow(websocket: WebSocket, game_id: str) -> None:
        """One viewer's connection: their view now and after every change, the partner's
        presence and pointing; the viewer's own selection and pointing go the other way."""
        if foreign(websocket):
            # another site's page may not follow a table with this browser's cookie
            await websocket.close(code=4403, reason="connections come from this site's pages")
            return
        player_id = identify(websocket)
        try:
            stored = await run_in_threadpool(tables.table, game_id)
        except Exception:
            # Accepted first, so that the page sees the close code: a socket refused before
            # it opens reaches a browser as a failed handshake (1006), and the page would
            # keep trying to follow a table that is not there.
            await websocket.accept()
            await websocket.close(code=4404, reason="there is no such table")
            return
        hero = await run_in_threadpool(tables.hero_of, game_id, player_id) if player_id else None
        address = client_address(websocket)
        silent = bool(stored.rules.options.get("silent_leader"))
        await websocket.accept()
        sent: tuple[Any, ...] | None = None

        def changed_view() -> dict[str, Any] | None:
            """The viewer's view if the table changed since the last one sent (a cheap
            look at the row first: most reads after a nudge or a poll find nothing new)."""
            nonlocal sent
            table = tables.table(game_id)
            you = tables.hero_of(game_id, player_id) if player_id else None
            names = tables.names(game_id)
            version = (table.moves, table.pending, table.hint_count, tuple(sorted(names)), you)
            if version == sent:
                return None
            sent = version
            return table_view(table, store.state(table), you, names, clock())

        async def send_view() -> None:
            # Read in the event loop, as a move is: handed to a thread, the read waited for
            # Python's lock behind the loop's work (up to its 5 ms switch interval, and
            # again for each statement), which made the partner's update four times slower
            # at its 99th percentile than the move itself on PostgreSQL.
            view = changed_view()
            if view is not None:
                await websocket.send_json({"type": "view", "game": view, "live": hub.live})

        async def announce(online: bool, ask: bool = False) -> None:
            if hero is not None:
                await hub.publish(
                    game_id, {"type": "presence", "hero": hero, "online": online, "ask": ask}
                )

        async def listen(events: asyncio.Queue[dict[str, Any]]) -> None:
            # Connections made together must not all read at the same moments: each waits
            # a share of the interval of its own before its first look.
            read = time.monotonic() - random.uniform(0, hub.poll_interval)
            while True:
                try:
                    event = await asyncio.wait_for(events.get(), 1.0)
                except TimeoutError:
                    # no event: read the table anyway now and then, every second while
                    # events may not arrive (Redis down)
                    if time.monotonic() - read >= hub.poll_interval:
                        read = time.monotonic()
                        await send_view()
                    continue
                kind = event.get("type")
                if kind == "changed":
                    read = time.monotonic()
                    await send_view()
                elif kind == "presence":
                    if event["hero"] == hero:
                        if not event["online"]:
                            await announce(True)  # another tab of ours closed: we are here
                        continue
                    await websocket.send_json({k: event[k] for k in ("type", "hero", "online")})
                    if event.get("ask"):
                        await announce(True)
                elif kind in ("select", "point") and event.get("hero") != hero:
                    await websocket.send_json(event)
                elif kind == "again" and hero is not None and event.get("hero") != hero:
                    # the partner opened the next table: its invite, for the seat only
                    await websocket.send_json(event)

        def act(message: dict[str, Any]) -> dict[str, Any]:
            """A move or a take-back sent on the socket, answered on it as the HTTP routes
            answer them (with the same rate limit); the mover's view goes with the answer,
            so the nudge that follows sends it nothing more."""
            nonlocal sent
            asked = request_id(message)
            try:
                buckets.take("moves", "moves", player_id, address)
                if message.get("type") == "move":
                    body = TableMoveIn.model_validate(message)
                    stored, state = tables.play(
                        game_id, player_id or "", body.move, after=body.after
                    )
                else:
                    stored, state = tables.take_back(game_id, player_id or "")
            except Exception as problem:
                return {"type": "answer", "id": asked, **refusal(problem)}
            you = tables.hero_of(game_id, player_id) if player_id else None
            names = tables.names(game_id)
            sent = (stored.moves, stored.pending, stored.hint_count, tuple(sorted(names)), you)
            view = table_view(stored, state, you, names, clock())
            return {"type": "answer", "id": asked, "game": view}

        async def receive() -> None:
            flood = Flood()  # what a player's browser may send on a table's socket
            while True:
                text = await websocket.receive_text()
                if flood.over():  # this connection is closed, the table is not
                    await websocket.close(code=1008, reason="too many messages")
                    return
                try:
                    message = json.loads(text) if len(text) <= 512 else None
                except ValueError:
                    continue
                if not isinstance(message, dict):
                    continue
                kind = message.get("type")
                if kind in ("move", "take_back"):
                    answered = act(message)
                    if "game" in answered:
                        await changed(game_id)
                    await websocket.send_text(orjson.dumps(answered).decode())
                    continue
                if hero is None or silent:  # a watcher, or C11: the partner may not advise
                    continue
                card = message.get("card")
                if card is not None and (type(card) is not str or card not in CARD_CODES):
                    continue
                if kind in ("select", "point"):
                    await hub.publish(game_id, {"type": kind, "hero": hero, "card": card})

        async with hub.subscribe(game_id) as events:
            tasks: list[asyncio.Task[None]] = []
            try:
                await send_view()
                await announce(True, ask=True)
                tasks = [asyncio.create_task(listen(events)), asyncio.create_task(receive())]
                done, _pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    with contextlib.suppress(WebSocketDisconnect, Exception):
                        task.result()
            except WebSocketDisconnect:
                pass
            finally:
                for task in tasks:
                    task.cancel()
                for task in tasks:
                    with contextlib.suppress(BaseException):
                        await task
                with contextlib.suppress(Exception):
                    await announce(False)

    return tables
