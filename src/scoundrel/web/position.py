"""A position as a player sees it, as JSON made from the core's observation: the room,
the heroes, counts of unseen cards, the legal moves with their previews and the reasons a
move is refused. The deck order never appears here.

This module imports the rules core alone (a contract of ``pyproject.toml``): the server's
views (:mod:`scoundrel.web.views`) and the offline table in the browser
(:mod:`scoundrel.web.offline_table`, run by Pyodide) make a position's view with the same
code.
"""

from __future__ import annotations

import functools
from typing import Any

from scoundrel.core import (
    ALL_CARDS,
    FLEE,
    Card,
    Hero,
    Kind,
    Move,
    Record,
    Rules,
    State,
    Status,
)
from scoundrel.core.cards import JOKER_VALUE
from scoundrel.core.label import Label, action_label, move_label, weapon_limit
from scoundrel.core.moves import CARD_MOVES, move_for
from scoundrel.core.observation import observe

#: A card's code, or None for no card. (``list(map(_code, cards))`` rather than a list
#: comprehension: on Python 3.11 each comprehension is a function made and called, and a
#: view has a dozen of them.)
_CODES: dict[Card | None, str | None] = {None: None, **{card: card.code for card in ALL_CARDS}}
_code = _CODES.__getitem__


def hero_view(hero: Hero, rules: Rules) -> dict[str, Any]:
    """A hero, with the most health a hero can have and its weapon's limit as the core
    states them (S2, S9, C7): an interface translates them, it works nothing out."""
    limit = weapon_limit(hero, rules)
    return {
        "health": hero.health,
        "max_health": rules.health,
        "weapon": _code(hero.weapon),
        "stack": list(map(_code, hero.stack)),
        "last_kill": hero.last_kill,
        "limit": {"code": limit.code, "n": limit.n},
        "potion_used": hero.potion_used,
    }


def label_view(label: Label) -> dict[str, Any]:
    """A label of the core (:mod:`scoundrel.core.label`) in the shape of a refusal: its
    ``code`` (a catalog key after ``act.``) beside its params, and whether it is deadly."""
    return {"code": label.code, **label.params, "deadly": label.deadly}


def move_words() -> dict[str, dict[str, Any]]:
    """Every move's notation with what the core calls it without a position
    (:func:`~scoundrel.core.label.move_label`): the page's boot data carries it, so that a
    replay, a hint's plan or an analysis names a move without reading its notation."""
    moves = [FLEE, *(move for card_moves in CARD_MOVES for move in card_moves)]
    labels = {move.token: move_label(move) for move in moves}
    return {token: {"code": label.code, **label.params} for token, label in labels.items()}


_KIND_ORDER = tuple(Kind)
_VALUES = range(2, JOKER_VALUE + 1)
_VALUE_TEXT = tuple(str(value) for value in range(JOKER_VALUE + 1))
#: For each card index, its (kind, value) slot in a flat tally of kinds times values.
_SLOT = tuple(_KIND_ORDER.index(card.kind) * (JOKER_VALUE + 1) + card.value for card in ALL_CARDS)
_STATUS = {status: status.value for status in Status}


@functools.lru_cache(maxsize=4096)
def _counts(cards: tuple[Card, ...]) -> dict[str, dict[str, int]]:
    """How many unseen cards of each kind and value, values in ascending order. The unseen
    cards change only when a room is dealt, so most positions share their tally (kept
    here, never changed by its users)."""
    tally = [0] * (len(_KIND_ORDER) * (JOKER_VALUE + 1))
    slot = _SLOT
    for card in cards:
        tally[slot[card.index]] += 1
    counts: dict[str, dict[str, int]] = {}
    for number, kind in enumerate(_KIND_ORDER):
        base = number * (JOKER_VALUE + 1)
        counts[kind.value] = {
            _VALUE_TEXT[value]: tally[base + value] for value in _VALUES if tally[base + value]
        }
    return counts


@functools.cache
def _may_try(card: Card, coop: bool) -> tuple[Move, ...]:
    """The moves with ``card`` a player may try and be refused: a weapon fight, the help
    card."""
    if card.is_monster:
        weapon = move_for(card, weapon=True)
        return (weapon, move_for(card, weapon=True, help=True)) if coop else (weapon,)
    return (move_for(card, help=True),) if coop else ()


def _refusal(state: State, move: Move) -> dict[str, Any] | None:
    refusal = state.explain(move)
    if refusal is None:
        return None
    return {"code": refusal.code, "rule": refusal.rule, "text": refusal.text, **refusal.params}


def position_view(state: State) -> dict[str, Any]:
    """A position as a player sees it, with every legal move and its preview."""
    seen = observe(state, state.leader)  # State.observation, without its import each call
    status = _STATUS
    leader = state.leader
    before = seen.heroes
    legal = [
        {  # what the move says of itself, then what it would do, and what it is called
            "move": move.token,
            "card": _code(move.card),
            "help": move.help,
            "hero": move.hero(leader),
            "weapon": move.weapon,
            "health": health,
            "damage": damage,
            "weapons": list(map(_code, weapons)),
            "status": status[after],
            "label": label_view(action_label(move, leader, before, health, damage)),
        }
        for move, health, damage, weapons, after in state.outcomes()
    ]
    blocked: dict[str, Any] = {}
    if not state.is_over:
        # what a player may try and be refused: flee, a weapon fight, the help card
        coop = state.rules.coop_game
        candidates = [FLEE]
        for card in seen.room:
            candidates += _may_try(card, coop)
        for move in candidates:
            refusal = _refusal(state, move)
            if refusal is not None:
                blocked[move.token] = refusal
    breakdown = state.score_breakdown()
    return {
        "status": status[seen.status],
        "score": seen.score,
        "score_breakdown": None if breakdown is None else list(map(list, breakdown.parts)),
        "heroes": [hero_view(hero, seen.rules) for hero in seen.heroes],
        "leader": seen.leader,
        "room": list(map(_code, seen.room)),
        "dungeon_count": seen.dungeon_count,
        "unseen": _counts(seen.unseen),
        "known_bottom": list(map(_code, seen.known_bottom)),
        "discard_count": len(seen.discard),
        "final_room": seen.final_room,
        "resolved_in_room": seen.resolved_in_room,
        "help_used": seen.help_used,
        "legal": legal,
        "blocked": blocked,
    }


def run_view(record: Record) -> list[dict[str, Any]]:
    """A game room by room, without naming a card (what a share text may show): each
    room was ``fled``, or cost each hero ``lost`` health (negative: healed); ``died``
    marks the room where a hero fell."""
    states = record.start().replay(record.moves)
    rooms: list[dict[str, Any]] = []
    start = states[0]
    for move, after in zip(record.moves, states[1:], strict=True):
        if move.is_flee:
            rooms.append({"fled": True})
            start = after
        elif after.resolved_in_room == 0 or after.is_over:  # the room is done
            lost = [a.health - b.health for a, b in zip(start.heroes, after.heroes, strict=True)]
            died = any(hero.health <= 0 for hero in after.heroes)
            rooms.append({"fled": False, "lost": lost, "died": died})
            start = after
    return rooms
