"""The table without the server: the browser's offline game, run by Pyodide in a web
worker (``static/js/offline-worker.js``) with this package's core.

A game here is a plain JSON object the page keeps in IndexedDB: the deal it names (a random
dungeon's ``seed``, M1, or the public dungeon of a ``daily_date``, M2, the one every copy
of the program agrees on), its rules and its moves. Each function takes such a game and
answers the game's view, the one the server would give (:func:`position_view`), or a
refusal in the server's error shape (``{"status": …, "error": {…}}``), so that the table
shows both alike. The server checks a game sent from here by replaying it
(:mod:`scoundrel.store.offline`): nothing this module says is trusted.

This module imports the core and :mod:`scoundrel.web.position` alone (a contract of
``pyproject.toml``): the worker is given those files and nothing else.
"""

from __future__ import annotations

import datetime as _dt
import json
import secrets
from collections import OrderedDict
from typing import Any

from scoundrel.core import (
    IllegalMoveError,
    NotationError,
    OptionError,
    Record,
    Rules,
    State,
    daily_deal,
    parse_move,
    random_deal,
)
from scoundrel.core.deal import parse_date

from .position import position_view, run_view

#: A random dungeon's seed: a whole number JavaScript holds exactly (below 2**53), since
#: the page keeps the game as JSON.
SEED_BITS = 52
#: The states of the last games shown, by key: a move replays nothing.
_STATES: OrderedDict[str, tuple[tuple[str, ...], State]] = OrderedDict()
_KEEP = 8


class Refused(Exception):
    """A request refused, in the server's error shape (see ``web/errors.py``)."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.body = {"status": status, "error": {"code": code, "message": message, **extra}}


def _rules(game: dict[str, Any]) -> Rules:
    return Rules.from_options(str(game["ruleset"]), dict(game.get("options") or {}))


def record_of(game: dict[str, Any]) -> Record:
    """The record of ``game``: its rules, the deck its deal names, its moves."""
    rules = _rules(game)
    if game["mode"] == "daily":
        deck = daily_deal(rules, str(game["daily_date"]))
    else:
        deck = random_deal(rules, int(game["seed"]))
    return Record(rules, deck, tuple(parse_move(token) for token in game["moves"]))


def _state(game: dict[str, Any]) -> State:
    key, moves = str(game["key"]), tuple(game["moves"])
    kept = _STATES.get(key)
    if kept is not None and kept[0] == moves:
        _STATES.move_to_end(key)
        return kept[1]
    record = record_of(game)
    state = record.start().replay(record.moves)[-1]
    _remember(key, moves, state)
    return state


def _remember(key: str, moves: tuple[str, ...], state: State) -> None:
    _STATES[key] = (moves, state)
    _STATES.move_to_end(key)
    while len(_STATES) > _KEEP:
        _STATES.popitem(last=False)


def view(game: dict[str, Any]) -> dict[str, Any]:
    """``game`` as its player sees it: the server's view of a game, marked ``offline``;
    its record (with the deck) once it is over."""
    state = _state(game)
    shown: dict[str, Any] = {
        "id": game["id"],
        "key": game["key"],
        "mode": game["mode"],
        "seed": game.get("seed"),
        "daily_date": game.get("daily_date"),
        "ruleset": game["ruleset"],
        "options": _rules(game).options,
        "moves": list(game["moves"]),
        "undo_count": game.get("undo_count", 0),
        "hint_count": 0,
        "owner": True,
        "offline": True,
        "started_at": game.get("started_at"),
        "finished_at": game.get("finished_at"),
        **position_view(state),
        "record": None,
    }
    if state.is_over:
        record = record_of(game)
        shown["record"] = record.to_dict()
        shown["run"] = run_view(record)
    return shown


def deal(settings: dict[str, Any]) -> dict[str, Any]:
    """A new game: a random dungeon, or the public dungeon of the day ``today`` (the page's
    day, UTC, as the server's)."""
    mode = settings.get("mode", "random")
    if settings.get("online"):
        raise Refused(400, "offline_play", "a friend's device is reached through the server")
    rules = Rules.from_options(str(settings.get("ruleset", "solo")), settings.get("options") or {})
    key = secrets.token_urlsafe(16)
    game: dict[str, Any] = {
        "id": f"offline-{key}",
        "key": key,
        "mode": mode,
        "seed": None,
        "daily_date": None,
        "ruleset": rules.ruleset,
        "options": rules.options,
        "moves": [],
        "undo_count": 0,
        "started_at": _now(),
        "finished_at": None,
    }
    if mode == "random":
        game["seed"] = secrets.randbits(SEED_BITS)
    elif mode == "daily":
        if rules != Rules.from_options(rules.ruleset):
            raise Refused(
                400,
                "invalid_request",
                "the dungeon of the day is played with the standard options",
                reason="daily_standard_options",
            )
        game["daily_date"] = parse_date(str(settings.get("today"))).isoformat()
    else:
        raise Refused(
            400,
            "offline_play",
            "offline, a random dungeon or the dungeon of the day",
            reason="offline_mode",
        )
    return view(game)


def move(game: dict[str, Any], token: str, after: int | None = None) -> dict[str, Any]:
    """``game`` after ``token``, chosen on the position after ``after`` moves."""
    moves = list(game["moves"])
    if after is not None and after != len(moves):
        raise Refused(409, "conflict", "the game moved on", reason="stale_position")
    state = _state(game).apply(parse_move(token.strip()))
    moves.append(parse_move(token.strip()).token)
    played = {**game, "moves": moves}
    if state.is_over:
        played["finished_at"] = _now()
    _remember(str(game["key"]), tuple(moves), state)
    return view(played)


def undo(game: dict[str, Any]) -> dict[str, Any]:
    """``game`` with its last move taken back (a random dungeon only, as on the server)."""
    if game["mode"] != "random":
        raise Refused(409, "conflict", "the dungeon of the day has no undo", reason="no_undo_daily")
    if not game["moves"] or _state(game).is_over:
        raise Refused(409, "conflict", "there is no move to take back", reason="nothing_to_undo")
    return view({**game, "moves": game["moves"][:-1], "undo_count": game["undo_count"] + 1})


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def answer(request: str) -> str:
    """One request of the worker, as JSON: ``{"op": "deal" | "view" | "move" | "undo",
    …}``; the answer is ``{"game": view}`` or a refusal."""
    try:
        asked = json.loads(request)
        op = asked.get("op")
        if op == "deal":
            shown = deal(asked.get("settings") or {})
        elif op == "view":
            shown = view(asked["game"])
        elif op == "move":
            shown = move(asked["game"], str(asked["move"]), asked.get("after"))
        elif op == "undo":
            shown = undo(asked["game"])
        else:
            raise Refused(400, "invalid_request", f"unknown op {op!r}")
        return json.dumps({"game": shown})
    except Refused as refused:
        return json.dumps(refused.body)
    except IllegalMoveError as problem:
        refusal = problem.refusal
        explained = None
        if refusal is not None:
            explained = {"code": refusal.code, "rule": refusal.rule, **refusal.params}
        error = {"code": "illegal_move", "message": problem.reason, "refusal": explained}
        return json.dumps({"status": 409, "error": error})
    except (NotationError, OptionError, ValueError, KeyError, TypeError) as problem:
        error = {"code": "invalid_request", "message": str(problem)}
        return json.dumps({"status": 400, "error": error})
