"""What the server sends to the browser: JSON made from the core's observation.

The deck order never appears here while a game is playing: a view is built from
:meth:`State.observation` (room, heroes, counts of unseen cards, cards known at the
bottom), the legal moves and their previews (:mod:`scoundrel.web.position`). The record,
with its deck, is only added once the game is over.
"""

from __future__ import annotations

import functools
from typing import Any

from scoundrel.core import Rules, State
from scoundrel.store import StoredGame

from .position import position_view, run_view


@functools.lru_cache(maxsize=256)
def _options(rules: Rules) -> dict[str, Any]:
    """A game's options as a view shows them: few sets of rules are played, so each is
    made once (kept here, never changed by its users)."""
    return rules.options


def about_game(stored: StoredGame) -> dict[str, Any]:
    """What identifies a stored game: mode, day, rules and the moves so far."""
    return {
        "id": stored.id,
        "mode": stored.mode,
        "daily_date": stored.daily_date,
        "ruleset": stored.rules.ruleset,
        "options": _options(stored.rules),
        "moves": list(stored.moves),
        "offline": stored.offline,
    }


def replay_view(stored: StoredGame) -> dict[str, Any]:
    """A finished game with every position, for the viewer."""
    record = stored.record
    steps = [position_view(state) for state in record.start().replay(record.moves)]
    return {**about_game(stored), "record": record.to_dict(), "steps": steps}


def game_view(
    stored: StoredGame, state: State, owner: bool, revealed: bool = False
) -> dict[str, Any]:
    """A stored game as its player sees it; ``revealed`` adds the record (with the deck),
    which only a finished game may show (see :meth:`StoredGame.revealed`)."""
    view = {
        **about_game(stored),
        "undo_count": stored.undo_count,
        "hint_count": stored.hint_count,
        "owner": owner,
        **position_view(state),
    }
    view["record"] = None
    if stored.closed:  # its day ended before it did: nothing more to play, no score
        view.update(status=stored.status, score=None, score_breakdown=None, legal=[], blocked={})
        view["record"] = stored.record.to_dict() if revealed else None
        return view
    if state.is_over:  # whoever may see the finished game may see its run
        record = stored.record
        if revealed:
            view["record"] = record.to_dict()
        view["run"] = run_view(record)
    return view
