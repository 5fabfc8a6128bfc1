"""Rate limits: token buckets in memory, one per player and one per client address.

A bucket holds up to ``burst`` tokens and gains ``per_second`` tokens a second; a request
takes one token, and a request that finds none is refused (429, with Retry-After) and takes
nothing, so a flood from one player does not drain the bucket of the address that player
shares with others. An address bucket is ``address_factor`` times larger than a player's
(a school or a café is many players behind one address); a limit with no player (players
made, per address) is as given. A loopback address is an address like any other, unless
the operator says the server is behind a reverse proxy (``scoundrel serve --proxy``): the
proxy then names each client (``X-Forwarded-For``), and a request from loopback without a
name is the proxy itself, or this machine, so many players at once: it has no address
bucket.

The limits are per process, in memory: a restart forgets them, and each worker of a server
with several keeps its own.
"""

from __future__ import annotations

import datetime as _dt
import functools
import ipaddress
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import HTTPConnection

from scoundrel.store.games import keep_newest

__all__ = [
    "Buckets",
    "DailyGate",
    "Limits",
    "Rate",
    "RateLimited",
    "TooManyAttempts",
    "client_address",
    "is_loopback",
]


@dataclass(frozen=True)
class Rate:
    """``burst`` requests at once, then ``per_second`` a second."""

    burst: float
    per_second: float

    def __post_init__(self) -> None:
        if self.burst < 1 or self.per_second <= 0:
            raise ValueError(f"a rate needs a burst of at least 1 and a positive refill: {self}")


@dataclass(frozen=True)
class Limits:
    """The server's limits per player (``None``: no limit). The defaults are far above what
    a fast human does: a flood meets them, a player never does."""

    moves: Rate | None = Rate(40, 10)
    new_games: Rate | None = Rate(20, 1 / 3)
    hints: Rate | None = Rate(20, 1 / 2)
    analyses: Rate | None = Rate(5, 1 / 30)
    claims: Rate | None = Rate(5, 5 / 600)
    """Transfer codes tried: 5, then one more every two minutes (against guessing)."""
    new_players: Rate | None = Rate(20, 1 / 3)
    """Players made (by a first write) per address, as given: there is no player yet."""
    address_factor: float = 10
    """An address's bucket is this many times a player's, in burst and in refill."""

    @classmethod
    def unlimited(cls) -> Limits:
        """No limit at all (for tests and benchmarks that play faster than people)."""
        return cls(None, None, None, None, None, None)


class RateLimited(Exception):
    """A request refused by a limit (429); ``retry_after`` is in whole seconds."""

    code = "rate_limited"
    status = 429

    def __init__(
        self,
        message: str,
        retry_after: int | None = None,
        params: dict[str, Any] | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.retry_after = retry_after
        self.params = params or {}
        """What a translation of the message needs (``wait``, ``count``)."""


class TooManyAttempts(RateLimited):
    """The scored attempts at a dungeon of the day from one address are used up."""

    code = "too_many_daily_attempts"


class Buckets:
    """Token buckets by (kind, key), the least recently used forgotten beyond ``size``
    (a forgotten bucket is a full one: forgetting only ever forgives)."""

    def __init__(
        self,
        limits: Limits,
        size: int = 200_000,
        clock: Callable[[], float] = time.monotonic,
        loopback_exempt: bool = False,
    ) -> None:
        self.limits = limits
        self.loopback_exempt = loopback_exempt
        """Behind a proxy: loopback addresses have no bucket (see the module's note)."""
        self._size = size
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: OrderedDict[tuple[str, str], tuple[float, float]] = OrderedDict()

    def take(self, kind: str, what: str, player: str | None, address: str | None) -> None:
        """Take a token for ``kind`` (a field of :class:`Limits`) from the player's bucket
        and the address's; raise :class:`RateLimited` (taking none) if either is empty."""
        rate: Rate | None = getattr(self.limits, kind)
        if rate is None:
            return
        wanted: list[tuple[tuple[str, str], Rate, bool]] = []
        if player is not None:
            wanted.append(((kind, "p:" + player), rate, False))
        if address is not None and not (self.loopback_exempt and is_loopback(address)):
            if player is not None:  # an address is many players: a bigger bucket
                factor = self.limits.address_factor
                rate = Rate(rate.burst * factor, rate.per_second * factor)
            wanted.append(((kind, "a:" + address), rate, True))
        buckets = self._buckets
        with self._lock:
            moment = self._clock()
            levels = []
            for key, bucket_rate, by_address in wanted:
                known = buckets.get(key)
                burst = bucket_rate.burst
                level = burst
                if known is not None:  # refilled since
                    level = min(burst, known[0] + (moment - known[1]) * bucket_rate.per_second)
                if level < 1:
                    wait = max(1, math.ceil((1 - level) / bucket_rate.per_second))
                    who = "from your network" if by_address else "from you"
                    raise RateLimited(
                        f"too many {what} {who} in a short time: nothing was done; try "
                        f"again in {wait} s",
                        wait,
                        {"wait": wait},
                    )
                levels.append((key, level - 1))
            for key, level in levels:
                keep_newest(buckets, key, (level, moment), self._size)


class Flood:
    """The messages one WebSocket may send: a burst of ``burst``, then ``per_second``
    (a token bucket of its own, kept by the connection)."""

    def __init__(self, burst: int = 30, per_second: float = 10.0) -> None:
        self.burst = burst
        self.per_second = per_second
        self._level = float(burst)
        self._since = time.monotonic()

    def over(self) -> bool:
        """Count one more message: True once they come faster than allowed."""
        moment = time.monotonic()
        self._level = min(self.burst, self._level + (moment - self._since) * self.per_second)
        self._since = moment
        if self._level < 1:
            return True
        self._level -= 1
        return False


class DailyGate:
    """At most ``per_address`` scored attempts at each dungeon of the day from one client
    address (``None``: no limit; behind a proxy, loopback: no limit, see the module's note).
    The address is kept only as ``key(address)``, a keyed hash."""

    def __init__(
        self,
        loopback_exempt: bool,
        per_address: int | None,
        key: Callable[[str], str],
        attempts: Callable[[str, str, str], int],
        until_tomorrow: Callable[[], int],
    ) -> None:
        self.loopback_exempt = loopback_exempt
        self.per_address = per_address
        self.key = key
        self.attempts = attempts
        self.until_tomorrow = until_tomorrow

    def admit(self, address: str | None, date: str, ruleset: str) -> str | None:
        """The hash to keep with a new attempt at the dungeon of ``date``; raises
        :class:`TooManyAttempts` once this address has made ``per_address`` of them."""
        if address is None:
            return None
        client = self.key(address)
        if self.per_address is None or (self.loopback_exempt and is_loopback(address)):
            return client
        if self.attempts(client, date, ruleset) >= self.per_address:
            raise TooManyAttempts(
                f"{self.per_address} attempts at this {ruleset} dungeon of the day have been "
                "made from your network today, which is as many as one address may make: "
                "a random dungeon is still open to you",
                self.until_tomorrow(),
                {"count": self.per_address},
            )
        return client


def client_address(connection: HTTPConnection) -> str | None:
    return connection.client.host if connection.client else None


def until_tomorrow(moment: _dt.datetime) -> int:
    """Whole seconds from ``moment`` until the next day (UTC), when a new dungeon of the
    day is dealt (and the attempts at the day's are closed)."""
    moment = moment.astimezone(_dt.UTC)
    midnight = _dt.datetime.combine(moment.date() + _dt.timedelta(days=1), _dt.time(), _dt.UTC)
    return max(1, int((midnight - moment).total_seconds()))


@functools.lru_cache(maxsize=1024)
def is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False
