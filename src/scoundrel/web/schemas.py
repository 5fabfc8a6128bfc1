"""What the API answers, as its OpenAPI schema documents it.

The views are built as plain dicts (``views.py``: a move is the server's busiest work, and
a model checked on every answer would cost it); these models only describe them, for the
schema and its readers, and a test checks every view of whole games against them
(``tests/web/test_schema.py``). A view may carry more than a model names (``extra``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

Status = Literal["playing", "won", "lost", "closed"]
"""In play, or how it ended: ``closed`` is an attempt at the dungeon of a day that ended
before it did (no score)."""


class View(BaseModel):
    model_config = ConfigDict(extra="allow")


class WeaponLimit(View):
    """Which monsters the weapon may fight, as the rules core states it (S9, C7)."""

    code: Literal["none", "fresh", "below", "up_to"] = Field(
        description="no weapon, a fresh one (any monster), strict (below n), lenient (up to n)"
    )
    n: int | None = Field(description="the last kill's value, for below and up_to")


class MoveLabel(View):
    """What a legal move is called, as the rules core decides it: a catalog key after
    ``act.`` and its params (card, weapon, hero, damage, gain, health), as a refusal."""

    code: str
    deadly: bool = Field(description="the hero it plays on would have no health left")


class HeroView(View):
    health: int = Field(le=20, description="may be 0 or less once the hero has fallen")
    max_health: int = Field(
        ge=1, le=20, description="the health the hero starts with and heals up to (S2, V2)"
    )
    weapon: str | None = Field(description="the weapon's card (N1), or none")
    stack: list[str] = Field(description="the monsters slain with it, in order")
    last_kill: int | None
    limit: WeaponLimit
    potion_used: bool


class LegalMove(View):
    move: str = Field(description="the move in notation (N2)")
    card: str | None
    help: bool
    hero: int = Field(description="the hero the move plays on: the partner for the help card (C5)")
    weapon: bool | None
    health: list[int] | None = Field(description="each hero's health after it")
    damage: list[int] | None
    weapons: list[str | None] | None
    status: Literal["playing", "won", "lost"]
    label: MoveLabel


class Refusal(View):
    code: str
    rule: str = Field(description="the rule that refuses it (S…, C…)")
    text: str


class SeatView(View):
    hero: Literal[1, 2]
    taken: bool
    nickname: str | None


class GameView(View):
    """A game as its player (or a watcher) sees it: never the deck while it is played."""

    id: str
    mode: Literal["random", "daily", "archive"]
    daily_date: str | None
    ruleset: Literal["solo", "coop"]
    options: dict[str, str | bool | int]
    moves: list[str]
    undo_count: int = Field(ge=0)
    hint_count: int = Field(ge=0)
    owner: bool
    status: Status
    score: int | None
    score_breakdown: list[list[str | int]] | None
    heroes: list[HeroView] = Field(min_length=1, max_length=2)
    leader: int = Field(ge=1, le=2)
    room: list[str] = Field(max_length=4)
    dungeon_count: int = Field(ge=0)
    unseen: dict[str, dict[str, int]]
    known_bottom: list[str]
    discard_count: int = Field(ge=0)
    final_room: bool
    resolved_in_room: int = Field(ge=0)
    help_used: bool
    legal: list[LegalMove]
    blocked: dict[str, Refusal]
    record: dict[str, Any] | None = Field(
        description="the whole record (N3), with the deck, once it may be shown"
    )
    run: list[dict[str, Any]] | None = Field(
        default=None, description="a finished game room by room, naming no card"
    )
    # an online table's (absent elsewhere)
    online: bool | None = None
    you: int | None = None
    to_act: int | None = None
    pending: str | None = None
    seats: list[SeatView] | None = None
    invite: str | None = None
    silent_leader: bool | None = None


class CurrentGame(View):
    game: GameView | None


class HintView(View):
    move: str
    plan: list[str]
    reason: str = Field(description="flee, face, final or doomed")
    health: list[list[int]]
    chances: list[dict[str, Any]]
    text: str
    after: int = Field(ge=0, description="the moves of the position the hint is for")
    hint_count: int = Field(ge=0)


class LeaderboardEntry(View):
    rank: int = Field(ge=1)
    nickname: str | None
    score: int
    won: bool
    moves: int
    hints: int


class ParView(View):
    """The par of a dungeon of the day (:mod:`scoundrel.solver.par`)."""

    state: Literal["working", "done"]
    score: int | None = Field(None, description="the fair searching bot's score: the par")
    won: bool | None = Field(None, description="whether the searching bot won")
    winnable: bool | None = Field(
        None, description="whether the deal can be won seeing every card (null: not decided)"
    )


class DailyView(View):
    date: str
    today: str
    next_in: int = Field(ge=1, description="seconds until the next day (UTC)")
    streak: dict[str, int | None]
    ruleset: Literal["solo", "coop"]
    leaderboard: list[LeaderboardEntry]
    yours: dict[str, Any] | None = Field(
        description="the player's attempt at that day's dungeon: its id, status and score, "
        "and once over its standing: how many players finished, and the percentile (the "
        "share of the others who scored less, ties counting half; null when alone)"
    )
    par: ParView | None = Field(
        description="the day's par, shown for a past day or once the player's attempt is "
        "over (null otherwise, and where no par is worked out)"
    )


class MeView(View):
    nickname: str | None
    stats: list[dict[str, Any]]
    history: list[dict[str, Any]]
    achievements: dict[str, list[dict[str, Any]]] = Field(
        description="``all``: every achievement (code, and ``fair``: earned only without "
        "undo or hints); ``earned``: the player's, each with its game and when"
    )


class RecordView(View):
    """A game's record (N3): its rules, its whole deck and its moves."""

    format: Literal["scoundrel-record/1"]
    ruleset: Literal["solo", "coop"]
    options: dict[str, str | bool | int]
    deck: str = Field(description="every card, top of the dungeon first (N1)")
    moves: str = Field(description="the moves in notation, space-separated (N2)")


class PositionView(View):
    """One position of a game, as a player saw it."""

    status: Literal["playing", "won", "lost"]
    score: int | None
    heroes: list[HeroView]
    room: list[str]
    legal: list[LegalMove]


class ReplayView(View):
    """A finished game with every position, for the viewer."""

    id: str
    mode: Literal["random", "daily", "archive"]
    ruleset: Literal["solo", "coop"]
    moves: list[str]
    record: RecordView
    steps: list[PositionView] = Field(min_length=1)


class AnalysisView(View):
    """How the analysis of a finished game goes: ``none`` (nobody asked), ``running``
    (with its ``stage`` and ``nodes``), ``done`` (with its ``result``), ``cancelled`` or
    ``failed`` (with a ``reason``)."""

    state: Literal["none", "running", "done", "cancelled", "failed"]
    stage: str | None = None
    nodes: int | None = None
    result: dict[str, Any] | None = None
    reason: str | None = None


class NicknameView(View):
    nickname: str = Field(min_length=1, max_length=24)


class TransferCode(View):
    """A one-time code that carries a player's records to another device."""

    code: str = Field(pattern=r"^[0-9A-Z]{5}-[0-9A-Z]{5}$")
    expires_at: str
    minutes: int = Field(ge=1)


class Transferred(View):
    """What a claimed code did: the games moved to the player, and those kept apart."""

    moved: int = Field(ge=0)
    kept: int = Field(ge=0)


class ExampleView(View):
    ruleset: Literal["solo", "coop"]
    steps: list[str]
    positions: list[PositionView] = Field(min_length=1)
    refused: dict[str, Any] | None


class ExamplesView(RootModel[dict[str, ExampleView]]):
    """Every worked example of the rules pages, by name, played out by the core."""


def answers(model: type[BaseModel], status: int = 200) -> dict[int | str, dict[str, Any]]:
    """A route's answer, documented: ``responses=answers(GameView)``."""
    return {status: {"model": model, "description": model.__doc__ or model.__name__}}
