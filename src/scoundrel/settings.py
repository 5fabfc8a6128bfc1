"""What an operator sets in the environment, read in one place.

=============================== ============================================================
``SCOUNDREL_DB``                the store's SQLAlchemy URL (``scoundrel serve --workers``
                                hands it to each worker; default: SQLite in the data folder)
``SCOUNDREL_DAILY_SECRET``      mixed into the dungeon of the day, so that its cards cannot
                                be dealt in advance from the public algorithm
``SCOUNDREL_COOKIE_SECRET``     signs players' ids in their cookie (default: a secret the
                                store keeps)
``SCOUNDREL_REDIS``             Redis URL carrying live co-op updates between workers
``SCOUNDREL_RATE_LIMITS``       ``off`` turns the rate limits off (default ``on``)
``SCOUNDREL_PROXY``             ``on``: requests from loopback come through a reverse proxy
                                that names the client (default ``off``)
``SCOUNDREL_DAILY_PER_ADDRESS`` scored daily attempts per client address and day (default
                                5; 0: no limit)
``SCOUNDREL_ALONE``             ``off``: other server processes share the store (set by
                                ``scoundrel serve --workers``)
``SCOUNDREL_DAILY_PAR``         ``off``: no par is worked out for the dungeons of the day
                                (default ``on``: a worker process works each day's out once)
``SCOUNDREL_PYODIDE``           a folder holding Pyodide for offline play (default: the one
                                ``scoundrel pyodide`` downloads, else ``node_modules``)
=============================== ============================================================

An empty variable is an unset one. A value a setting cannot have is a :class:`SettingError`
naming the variable, and nothing starts.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

ON = ("1", "on", "yes", "true")
OFF = ("0", "off", "no", "false")


class SettingError(ValueError):
    """An environment variable holds a value its setting cannot have: one line to show."""


@dataclass(frozen=True)
class Settings:
    """The environment's settings, each ``None`` or its default where it is not set."""

    db: str | None = None
    daily_secret: str | None = None
    cookie_secret: str | None = None
    redis: str | None = None
    rate_limits: bool = True
    proxy: bool = False
    daily_per_address: int = 5
    alone: bool = True
    daily_par: bool = True
    pyodide: str | None = None

    @classmethod
    def read(cls, env: Mapping[str, str] | None = None) -> Settings:
        """The settings in ``env`` (default: this process's environment)."""
        env = os.environ if env is None else env

        def text(name: str) -> str | None:
            return env.get(f"SCOUNDREL_{name}", "").strip() or None

        def flag(name: str, default: bool) -> bool:
            value = text(name)
            if value is None:
                return default
            if value.lower() in ON:
                return True
            if value.lower() in OFF:
                return False
            raise SettingError(f"SCOUNDREL_{name}={value!r}: say on or off (or 1 or 0, yes or no)")

        attempts = text("DAILY_PER_ADDRESS")
        if attempts is None:
            per_address = cls.daily_per_address
        elif attempts.isdigit():
            per_address = int(attempts)
        else:
            raise SettingError(
                f"SCOUNDREL_DAILY_PER_ADDRESS={attempts!r}: say a whole number of attempts "
                "(0 for no limit)"
            )
        return cls(
            db=text("DB"),
            daily_secret=text("DAILY_SECRET"),
            cookie_secret=text("COOKIE_SECRET"),
            redis=text("REDIS"),
            rate_limits=flag("RATE_LIMITS", cls.rate_limits),
            proxy=flag("PROXY", cls.proxy),
            daily_per_address=per_address,
            alone=flag("ALONE", cls.alone),
            daily_par=flag("DAILY_PAR", cls.daily_par),
            pyodide=text("PYODIDE"),
        )

    def for_workers(self) -> dict[str, str]:
        """These settings as the environment of the server's worker processes (each one
        reads them back with :meth:`read`)."""
        given = {
            "DB": self.db,
            "DAILY_SECRET": self.daily_secret,
            "COOKIE_SECRET": self.cookie_secret,
            "REDIS": self.redis,
            "PYODIDE": self.pyodide,
        }
        environ = {f"SCOUNDREL_{name}": value or "" for name, value in given.items()}
        environ.update(
            SCOUNDREL_RATE_LIMITS="on" if self.rate_limits else "off",
            SCOUNDREL_PROXY="on" if self.proxy else "off",
            SCOUNDREL_DAILY_PER_ADDRESS=str(self.daily_per_address),
            SCOUNDREL_ALONE="on" if self.alone else "off",
            SCOUNDREL_DAILY_PAR="on" if self.daily_par else "off",
        )
        return environ
