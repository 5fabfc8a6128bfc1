"""How hard the terminal games think for a hint and an analysis."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scoundrel.solver import SearchBot


@dataclass(frozen=True)
class Effort:
    """The searching bot's playouts for a hint (None: as many as the browser's hints), and
    for an analysis the searches' seconds for the best score (None: the command's default)
    and whether it makes the fair review. The games use the defaults; tests that press
    thousands of keys think less."""

    playouts: int | None = None
    best_seconds: float | None = None
    review: bool = True
    give_up: float | None = None
    """Seconds after which an analysis stops as if the player had cancelled it."""

    def bot(self) -> SearchBot | None:
        """The hint's searching bot, or None for the default one."""
        from scoundrel.solver import SearchBot

        return None if self.playouts is None else SearchBot(playouts=self.playouts)

    def analysis(self, cancel: Callable[[], bool] | None = None) -> dict[str, Any]:
        """The options of :func:`scoundrel.solver.analyse` this effort asks for, with
        ``cancel`` (the player's) and :attr:`give_up`'s."""
        options: dict[str, Any] = {"fair": self.review, "cancel": cancel}
        if self.best_seconds is not None:
            options["best_seconds"] = self.best_seconds
        if self.give_up is not None:
            until = time.monotonic() + self.give_up

            def stop() -> bool:
                return (cancel is not None and cancel()) or time.monotonic() > until

            options["cancel"] = stop
        return options
