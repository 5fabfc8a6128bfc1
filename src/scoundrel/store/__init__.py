"""Services over the core: games kept in a database, records, history, leaderboards."""

from .database import SCHEMA_VERSION, connect, default_url, migrate, warm
from .games import (
    Conflict,
    ErrorKind,
    Forbidden,
    GameStatus,
    GameStore,
    Mode,
    NotFound,
    StoredGame,
    StoreError,
)

__all__ = [
    "SCHEMA_VERSION",
    "Conflict",
    "ErrorKind",
    "Forbidden",
    "GameStatus",
    "GameStore",
    "Mode",
    "NotFound",
    "StoreError",
    "StoredGame",
    "connect",
    "default_url",
    "migrate",
    "warm",
]
