"""Live updates of online co-op tables: a hub that carries a table's events to every
connection watching it.

In one process the hub hands events over in memory. With several server processes (or
hosts) a Redis server carries them: every process publishes to and listens on Redis
publish/subscribe, so a move made through one process reaches a partner connected to
another. Events are only a nudge ("the table changed", "hero 2 is here"): each connection
reads the game itself from the database and sends its own viewer's view, so nothing is
lost if an event is. When Redis is down the hub says so (:attr:`Hub.live` is False) and
every connection falls back to reading the database every second, until Redis is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

log = logging.getLogger("scoundrel.live")

CHANNEL = "scoundrel:table:"
#: How often a connection reads its table from the database when no event can be trusted
#: to arrive (Redis down, or several processes and no Redis), and when all is well.
POLL_FALLBACK = 1.0
POLL_SAFETY = 15.0


class Hub:
    """Table events for this process's connections; shared through Redis when given one.

    ``alone`` says whether this process is the only one writing to the database: if it
    is not and there is no Redis, connections poll the database often."""

    def __init__(self, redis_url: str | None = None, alone: bool = True) -> None:
        self.redis_url = redis_url
        self.alone = alone
        self._queues: dict[str, set[asyncio.Queue[dict[str, Any]]]] = {}
        self._redis: Any = None
        self._listener: asyncio.Task[None] | None = None
        self._connected = asyncio.Event()
        self._broken = False
        """A publish failed: the listener drops its connection, connects again and says
        when events flow (the listener alone decides that this process is live)."""

    @property
    def live(self) -> bool:
        """Whether an event published anywhere reaches this process's connections."""
        if self.redis_url is None:
            return self.alone
        return self._connected.is_set()

    @property
    def poll_interval(self) -> float:
        return POLL_SAFETY if self.live else POLL_FALLBACK

    async def start(self) -> None:
        if self.redis_url is None or self._listener is not None:
            return
        from redis import asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        self._redis = aioredis.from_url(
            self.redis_url,
            socket_connect_timeout=1,
            socket_timeout=2,
            health_check_interval=5,
            # a pooled connection from before a restart of Redis fails once: a new one is
            # made and the command sent again, rather than the publish lost
            retry=Retry(NoBackoff(), 1),
        )
        self._listener = asyncio.create_task(self._listen(), name="scoundrel-live")

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
            self._listener = None
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()
            self._redis = None

    async def wait_live(self, timeout: float) -> bool:
        """Wait until events flow (Redis subscribed), at most ``timeout`` seconds."""
        if self.redis_url is None:
            return self.live
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._connected.wait(), timeout)
        return self.live

    async def _listen(self) -> None:
        """Follow every table's channel on Redis; reconnect after a failure."""
        delay = 0.2
        while True:
            pubsub = self._redis.pubsub()
            try:
                self._broken = False
                await pubsub.psubscribe(CHANNEL + "*")
                self._connected.set()
                delay = 0.2
                log.info("live updates through Redis")
                while True:
                    if self._broken:  # a publish failed: is Redis still there?
                        raise ConnectionError("a publish to Redis failed")
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.5)
                    if message is None or message.get("type") != "pmessage":
                        continue
                    channel = message["channel"]
                    if isinstance(channel, bytes):
                        channel = channel.decode()
                    self._deliver(channel[len(CHANNEL) :], json.loads(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis went away: poll until it is back
                if self._connected.is_set():
                    log.warning("Redis unreachable (%s): tables fall back to polling", error)
                self._connected.clear()
                await asyncio.sleep(delay)
                delay = min(2.0, delay * 2)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    async def publish(self, game_id: str, event: dict[str, Any]) -> None:
        """Send ``event`` to every connection watching table ``game_id``, in every process
        if Redis carries it, else in this one (the others will read the database)."""
        if self._redis is not None and self._connected.is_set():
            try:
                await self._redis.publish(CHANNEL + game_id, json.dumps(event))
                return
            except Exception as error:
                log.warning("Redis publish failed (%s): tables fall back to polling", error)
                self._connected.clear()
                self._broken = True  # the listener connects again, and is live once it can
        self._deliver(game_id, event)

    def _deliver(self, game_id: str, event: dict[str, Any]) -> None:
        for queue in self._queues.get(game_id, ()):
            queue.put_nowait(event)

    @contextlib.asynccontextmanager
    async def subscribe(self, game_id: str) -> AsyncIterator[asyncio.Queue[dict[str, Any]]]:
        """A queue of the events of table ``game_id`` while the context lasts."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._queues.setdefault(game_id, set()).add(queue)
        try:
            yield queue
        finally:
            watchers = self._queues.get(game_id)
            if watchers is not None:
                watchers.discard(queue)
                if not watchers:
                    del self._queues[game_id]
