"""A player's own games: starting one, a move, an undo. One implementation
(:class:`Play`) serves both ways a browser may ask: an HTTP request each (the API), or a
message on the page's game socket, ``/api/play``.

The socket is how the table page plays. Over HTTP every move pays for a request: its
parsing, the middleware, the cookie's signature, the dependencies. Over the socket the
player is known once, when it connects, and a move is one small message each way. Every
message is a request with an ``id``; its answer carries the same ``id`` and either the
game, exactly as the HTTP API would answer it, or the refusal in the API's one error shape
with the HTTP status it would have had::

    → {"id": 1, "op": "new", "mode": "random", "ruleset": "solo", "options": {}}
    ← {"id": 1, "game": {...}}
    → {"id": 2, "op": "move", "game": "Hk3…", "move": "KS/w", "after": 0}
    ← {"id": 2, "status": 409, "error": {"code": "illegal_move", ...}}
    → {"id": 3, "op": "undo", "game": "Hk3…", "after": 4, "undos": 0}

``after`` and ``undos`` say which position the page showed: how many moves and how many
undos the game had. A move or undo chosen on a position the game has since left (another
tab played or undid meanwhile) is refused with 409 ``stale_position``, and the page shows
the game as it stands; no window ever plays on, or takes back, a move it did not show.

The same rate limits apply as over HTTP, and a flood of messages closes the socket (1008).
A socket without the server's signed cookie is refused before it opens (close code 4401
for an ASGI client; a browser sees the handshake answered 403): the page then plays over
HTTP, whose first answer gives it one. Online tables keep their own socket (``coop.py``).
"""

from __future__ import annotations

import datetime as _dt
import logging
from collections.abc import Callable
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, Field, StringConstraints
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from scoundrel.core import Rules, parse_date
from scoundrel.store import GameStore, NotFound, StoreError

from .errors import refusal, request_id
from .guard import GAME_ID, foreign
from .identity import Identity
from .limits import Buckets, DailyGate, Flood, client_address
from .views import game_view

log = logging.getLogger("scoundrel.web")

#: Where the table page opens its game socket.
PLAY_PATH = "/api/play"


#: An option's name and value as a client may send them: short (every real one is).
OptionName = Annotated[str, StringConstraints(max_length=24)]
OptionValue = (
    Annotated[str, StringConstraints(max_length=24)] | bool | Annotated[int, Field(ge=-99, le=99)]
)


class NewGame(BaseModel):
    """A new game, as ``POST /api/games`` and the socket's ``new`` ask for it."""

    mode: Literal["random", "daily", "archive"] = "random"
    ruleset: Literal["solo", "coop"] = "solo"
    options: dict[OptionName, OptionValue] = Field(default_factory=dict, max_length=10)
    date: str | None = Field(default=None, max_length=10)
    """The day of an ``archive`` game (YYYY-MM-DD, before today)."""


MOVE_LENGTH = 16
MOST_MOVES = 10_000


class Seen(BaseModel):
    """The position a player's request was made on (every field may be left out)."""

    after: int | None = Field(default=None, ge=0, le=MOST_MOVES)
    """How many moves the player had seen: a request made on an older position is refused."""
    undos: int | None = Field(default=None, ge=0, le=MOST_MOVES)
    """How many undos the player had seen (with ``after``, one point of the game's history)."""


class MoveIn(Seen):
    move: str = Field(min_length=1, max_length=MOVE_LENGTH)


def _count(value: Any) -> bool:
    return value is None or (type(value) is int and 0 <= value <= MOST_MOVES)


def move_of(request: dict[str, Any]) -> tuple[str, int | None, int | None]:
    """A socket message's move, ``after`` and ``undos``, as :class:`MoveIn` reads them.
    The usual message, a short text and two counts, is taken as it is; anything else goes
    through the model, whose refusal names the field."""
    move, after, undos = request.get("move"), request.get("after"), request.get("undos")
    if type(move) is str and 0 < len(move) <= MOVE_LENGTH and _count(after) and _count(undos):
        return move, after, undos
    body = MoveIn.model_validate(request)
    return body.move, body.after, body.undos


def seen_of(request: dict[str, Any]) -> Seen:
    """A socket message's ``after`` and ``undos``, as :class:`Seen` reads them."""
    return Seen.model_validate({key: request[key] for key in ("after", "undos") if key in request})


class Play:
    """What a player does to their own games, however the request arrives."""

    def __init__(
        self,
        store: GameStore,
        identity: Identity,
        buckets: Buckets,
        gate: DailyGate,
        clock: Callable[[], _dt.date],
    ) -> None:
        self.store = store
        self.identity = identity
        self.buckets = buckets
        self.gate = gate
        self.clock = clock

    def new(self, me: str, address: str | None, body: NewGame) -> dict[str, Any]:
        """A new game for ``me`` (or their attempt at the dungeon of the day)."""
        rules = Rules.from_options(body.ruleset, body.options)
        client = None
        if body.mode == "daily":  # a new scored attempt is counted against the address
            date = self.clock().isoformat()
            if self.store.daily_attempt(me, date, rules.ruleset) is None:
                client = self.gate.admit(address, date, rules.ruleset)
        day = None if body.date is None else date_of(body.date)
        stored = self.store.start(me, body.mode, rules, today=self.clock(), client=client, day=day)
        return game_view(stored, self.store.state(stored), owner=True)

    def move(
        self, me: str, game_id: str, move: str, after: int | None, undos: int | None = None
    ) -> dict[str, Any]:
        """``me`` plays ``move`` in their game, chosen on the position after ``after``
        moves and ``undos`` undos."""
        stored, state = self.store.play(game_id, me, move.strip(), after=after, undos=undos)
        revealed = stored.is_over and stored.revealed(self.clock())  # today only if over
        return game_view(stored, state, owner=True, revealed=revealed)

    def undo(self, me: str, game_id: str, seen: Seen | None = None) -> dict[str, Any]:
        """``me`` takes back the last move of their game, the one shown on the position
        ``seen`` names (if it names one)."""
        seen = seen or Seen()
        stored, state = self.store.undo(game_id, me, after=seen.after, undos=seen.undos)
        return game_view(stored, state, owner=True)

    # ------------------------------------------------------------------ the socket

    def message(self, me: str, address: str | None, text: str | bytes) -> bytes:
        """The answer to one message of the game socket, as JSON."""
        asked: Any = None
        try:
            try:
                request = orjson.loads(text)
            except orjson.JSONDecodeError:
                raise StoreError("a message is one JSON object", reason="invalid_message") from None
            if not isinstance(request, dict):
                raise StoreError("a message is one JSON object", reason="invalid_message")
            asked = request_id(request)
            view = self._dispatch(me, address, request)
            return orjson.dumps({"id": asked, "game": view})
        except Exception as problem:  # every refusal is answered; the socket stays open
            return orjson.dumps({"id": asked, **refusal(problem)})

    def _dispatch(self, me: str, address: str | None, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        if op == "new":
            self.buckets.take("new_games", "new games", me, address)
            self.identity.make_row(me, address)
            fields = {key: value for key, value in request.items() if key not in ("id", "op")}
            return self.new(me, address, NewGame.model_validate(fields))
        if op == "move":
            game_id, (move, after, undos) = game_of(request), move_of(request)
            self.buckets.take("moves", "moves", me, address)
            return self.move(me, game_id, move, after, undos)
        if op == "undo":
            return self.undo(me, game_of(request), seen_of(request))
        raise StoreError("op must be new, move or undo", reason="unknown_op")

    async def serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        """One page's game socket, until it closes. Plain ASGI: a move is the busiest thing
        the server does, and each message would otherwise pass through the framework's
        WebSocket object and its error handlers, to no end here (every refusal is
        answered by :meth:`message`)."""
        connection = HTTPConnection(scope)
        if foreign(connection):  # another site's page may not play with this browser's cookie
            await close(send, 4403, "connections come from this site's pages")
            return
        me = self.identity.socket_player(connection)
        if me is None:
            await close(send, 4401, "no player yet: play over HTTP first")
            return
        address = client_address(connection)
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        flood = Flood()  # messages per second; the limits on moves and new games besides
        while True:
            message = await receive()
            if message["type"] != "websocket.receive":  # websocket.disconnect
                return
            if flood.over():  # this connection is closed, nothing else
                await close(send, 1008, "too many messages")
                return
            text = message.get("text")
            if text is None:
                text = message.get("bytes") or b""
            reply = self.message(me, address, text)
            try:
                await send({"type": "websocket.send", "text": reply.decode()})
            except OSError:  # the page went away meanwhile
                return


class PlaySocket:
    """ASGI middleware that answers the game socket, ``/api/play``, itself (with
    :meth:`Play.serve`) and hands everything else to the application."""

    def __init__(self, app: ASGIApp, play: Play) -> None:
        self.app = app
        self.play = play

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == PLAY_PATH:
            await self.play.serve(scope, receive, send)
        else:
            await self.app(scope, receive, send)


async def close(send: Send, code: int, reason: str) -> None:
    """Close a socket (refuse it, before it is accepted) with ``code``, saying why."""
    await send({"type": "websocket.close", "code": code, "reason": reason})


def game_of(request: dict[str, Any]) -> str:
    """The game a message names: an id the server could have made, else not found."""
    game_id = request.get("game")
    if not isinstance(game_id, str) or not GAME_ID.match(game_id):
        raise NotFound("there is no such game", reason="no_such_game")
    return game_id


def date_of(text: str) -> _dt.date:
    """A day named in a request (YYYY-MM-DD), or a 400 ``bad_date`` naming the problem."""
    try:
        return parse_date(text)
    except ValueError as error:
        raise StoreError(str(error), reason="bad_date") from None
