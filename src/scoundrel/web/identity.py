"""Who is asking: anonymous players with ids the server issues and signs, and one-time
transfer codes that carry a player to another device.

- The cookie holds the player's id and an HMAC of it (SHA-256, keyed with the server's
  secret: ``SCOUNDREL_COOKIE_SECRET``, or one made once and kept in the database). A
  cookie without a valid signature is ignored and a fresh id issued; nobody can pick an id.
- A player's row is made by their first write (any request but GET, HEAD and OPTIONS:
  starting a game, a nickname, a transfer code, joining a table); a visitor who only
  reads makes none.
- A cookie from before signing (a bare UUID) still names its player if that player's row
  was made before signing began; it is re-issued signed at once.
- ``POST /api/me/transfer`` makes a code (10 characters of Crockford's base32, 50 bits,
  shown as ``XXXXX-XXXXX``), valid 15 minutes; only its SHA-256 is kept, and a new code
  replaces the old. ``POST /api/me/transfer/claim`` on another device switches that
  device's cookie to the player (the code is then deleted) and gives that player the
  games the device had made so far.
"""

from __future__ import annotations

import base64
import datetime as _dt
import hashlib
import hmac
import re
import secrets
import uuid
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request, Response
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from scoundrel.store import GameStore
from scoundrel.store.database import now
from scoundrel.store.identity import BadCode, Identities

from .guard import AnswerHeaders, Scope
from .limits import Buckets, client_address
from .schemas import TransferCode, Transferred, answers

PLAYER_COOKIE = "scoundrel_player"
YEAR = 365 * 24 * 3600
COOKIE_AGE = 10 * YEAR
TRANSFER_MINUTES = 15
#: Crockford's base32: no I, L, O or U, so a code read aloud or typed is not mistaken.
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 10  # 50 bits
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_READS = frozenset({"GET", "HEAD", "OPTIONS"})


class Identity:
    """Issues and checks signed player ids, makes player rows on first write, and makes and
    claims transfer codes. One per application: ``app.state.identity``."""

    def __init__(
        self, store: GameStore, secret: str | None = None, buckets: Buckets | None = None
    ) -> None:
        self.store = store
        self.rows = Identities(store.engine)
        key = secret or store.setting("cookie_secret", secrets.token_hex(32))
        self._key = hashlib.sha256(("scoundrel-cookie/1|" + key).encode()).digest()
        self._client_key = hashlib.sha256(("scoundrel-client/1|" + key).encode()).digest()
        # players made before cookies were signed: their bare ids are still honoured, and
        # answered with the signed cookie, so a browser sends its bare id only once
        self.signed_since = _dt.datetime.fromisoformat(
            store.setting("signed_cookies_since", now().isoformat())
        )
        self.buckets = buckets

    # ------------------------------------------------------------------ cookies

    def sign(self, player_id: str) -> str:
        return f"{player_id}.{self._signature(player_id)}"

    def _signature(self, player_id: str) -> str:
        digest = hmac.new(self._key, player_id.encode(), hashlib.sha256).digest()[:16]
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()

    def verify(self, cookie: str | None) -> str | None:
        """The player id a signed cookie names, or None (missing, unsigned, forged)."""
        if not cookie or len(cookie) > 80:
            return None
        player_id, _, signature = cookie.partition(".")
        if not _UUID.match(player_id):
            return None
        if not hmac.compare_digest(signature, self._signature(player_id)):
            return None
        return player_id

    def socket_player(self, websocket: HTTPConnection) -> str | None:
        """The player behind a WebSocket, from the signed cookie (None: no player, who may
        only watch)."""
        return self.verify(websocket.cookies.get(PLAYER_COOKIE))

    def identify(self, request: HTTPConnection) -> str:
        """The player behind a request: the id its cookie names if the server signed it (or
        an older player's bare id), else a fresh one; the answer carries the cookie when
        it is new. Makes no row."""
        cookie = request.cookies.get(PLAYER_COOKIE)
        player_id = self.verify(cookie)
        if player_id is not None:
            return player_id
        if cookie and _UUID.match(cookie) and self.rows.existed_before(cookie, self.signed_since):
            player_id = cookie
        else:
            player_id = str(uuid.uuid4())
            request.state.new_player = True
        self.give(request, player_id)
        return player_id

    @staticmethod
    def is_new(request: HTTPConnection) -> bool:
        """Whether this request's player was made by it (a first visit): such a player has
        no games yet, nor anything else to look up."""
        return bool(getattr(request.state, "new_player", False))

    def give(self, request: HTTPConnection, player_id: str) -> None:
        """Set this browser's cookie to ``player_id``, signed: :class:`PlayerCookie` puts it
        on the answer, whatever the answer is (an error too), replacing any set earlier
        while answering the same request."""
        carrier = Response()
        carrier.set_cookie(
            PLAYER_COOKIE,
            self.sign(player_id),
            max_age=COOKIE_AGE,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )
        request.state.player_cookie = carrier.headers["set-cookie"].encode("latin-1")

    def enlist(self, request: HTTPConnection, player_id: str) -> str:
        """Make the player's row if this request writes and it has none yet (players made
        per address are rate limited)."""
        if request.scope.get("method", "GET") in _READS:
            return player_id
        return self.make_row(player_id, client_address(request))

    def make_row(self, player_id: str, address: str | None) -> str:
        """Make the player's row if it has none yet, counting it against the players made
        from ``address`` (rate limited)."""
        if self.store.has_player(player_id):
            return player_id
        if self.buckets is not None:
            self.buckets.take("new_players", "new players", None, address)
        self.store.make_player(player_id)
        return player_id

    # ------------------------------------------------------------------ client addresses

    def client_key(self, address: str) -> str:
        """A keyed hash of a client's address: attempts per address can be counted, and the
        address itself is never kept."""
        return hmac.new(self._client_key, address.encode(), hashlib.sha256).hexdigest()

    # ------------------------------------------------------------------ transfer codes

    def make_code(self, player_id: str) -> dict[str, Any]:
        """A new transfer code for the player (replacing any older one)."""
        code = "".join(secrets.choice(CROCKFORD) for _ in range(CODE_LENGTH))
        expires = now() + _dt.timedelta(minutes=TRANSFER_MINUTES)
        self.rows.put_transfer(player_id, code_hash(code), expires)
        return {
            "code": f"{code[:5]}-{code[5:]}",
            "expires_at": expires.isoformat(),
            "minutes": TRANSFER_MINUTES,
        }


def normal_code(text: str) -> str | None:
    """A code as typed (any case, dashes or spaces, O for 0, I or L for 1) in its canonical
    form, or None if it cannot be one."""
    code = re.sub(r"[\s-]", "", text).upper().translate(_READ_AS)
    if len(code) != CODE_LENGTH or any(char not in CROCKFORD for char in code):
        return None
    return code


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


# ---------------------------------------------------------------------- dependencies


async def identify(request: Request) -> str:
    """The player behind this request, without making a row (see :meth:`Identity.identify`)."""
    identity: Identity = request.app.state.identity
    return identity.identify(request)


Visitor = Annotated[str, Depends(identify)]


class ClaimIn(BaseModel):
    code: str = Field(min_length=1, max_length=32)


def add_transfer_routes(app: FastAPI, identity: Identity, limit: Any, player: Any) -> None:
    """``POST /api/me/transfer`` and ``POST /api/me/transfer/claim``. ``limit(kind, what)``
    makes a rate-limit dependency; ``player`` is the dependency that makes a writer's row."""

    @app.post(
        "/api/me/transfer",
        status_code=201,
        response_model=None,
        responses=answers(TransferCode, 201),
    )
    async def make_transfer(me: str = Depends(player)) -> dict[str, Any]:
        """A one-time code that carries your records to another device (15 minutes)."""
        return identity.make_code(me)

    @app.post(
        "/api/me/transfer/claim",
        dependencies=[limit("claims", "transfer codes tried")],
        response_model=None,
        responses=answers(Transferred),
    )
    async def claim_transfer(body: ClaimIn, request: Request, me: Visitor) -> dict[str, Any]:
        """Become the player who made the code; this device's games go with you."""
        code = normal_code(body.code)
        if code is None:
            raise BadCode("a transfer code is 10 letters and digits, like 7K2QD-M9XWT: check it")
        claimed = identity.rows.claim_transfer(code_hash(code), me, now())
        identity.give(request, claimed.player_id)
        return {"moved": claimed.moved, "kept": claimed.kept}


class PlayerCookie(AnswerHeaders):
    """Puts the player cookie that :meth:`Identity.give` chose on the answer (ASGI)."""

    def headers(
        self, scope: Scope, headers: list[tuple[bytes, bytes]]
    ) -> list[tuple[bytes, bytes]]:
        cookie = scope.get("state", {}).get("player_cookie")
        if cookie is None:
            return headers
        mine = PLAYER_COOKIE.encode() + b"="
        return [
            (name, value)
            for name, value in headers
            if not (name.lower() == b"set-cookie" and value.startswith(mine))
        ] + [(b"set-cookie", cookie)]
