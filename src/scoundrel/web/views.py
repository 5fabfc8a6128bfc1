"""What the server sends to the browser: JSON made from the core's observation.

The deck order never appears here while a game is playing: a view is built from
:meth:`State.observation` (room, heroes, counts of unseen cards, cards known at the
bottom), the legal moves and their previews. The record, with its deck, is only added once
the game is over.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from scoundrel.core import FLEE, Card, Hero, Kind, Move, State
from scoundrel.core.moves import CARD_MOVES
from scoundrel.store import StoredGame


def hero_view(hero: Hero) -> dict[str, Any]:
    return {
        "health": hero.health,
        "weapon": hero.weapon.code if hero.weapon else None,
        "stack": [card.code for card in hero.stack],
        "last_kill": hero.last_kill,
        "reach": hero.reach,
        "potion_used": hero.potion_used,
    }


_KIND_NAMES = {kind: kind.value for kind in Kind}


def _counts(cards: tuple[Card, ...]) -> dict[str, dict[str, int]]:
    """How many unseen cards of each kind and value, values in ascending order."""
    tally = Counter((_KIND_NAMES[card.kind], card.value) for card in cards)
    counts: dict[str, dict[str, int]] = {name: {} for name in _KIND_NAMES.values()}
    for (kind, value), count in sorted(tally.items(), key=lambda item: item[0][1]):
        counts[kind][str(value)] = count
    return counts


def _refusal(state: State, move: Move) -> dict[str, Any] | None:
    refusal = state.explain(move)
    if refusal is None:
        return None
    return {"code": refusal.code, "rule": refusal.rule, "text": refusal.text, **refusal.params}


def position_view(state: State) -> dict[str, Any]:
    """A position as a player sees it, with every legal move and its preview."""
    seen = state.observation(state.leader)
    legal = []
    for move in seen.legal_moves:
        preview = state.preview(move)
        legal.append(
            {
                "move": move.token,
                "card": move.card.code if move.card else None,
                "help": move.help,
                "weapon": move.weapon,
                "health": [hero.health for hero in preview.heroes],
                "damage": list(preview.damage),
                "weapons": [hero.weapon.code if hero.weapon else None for hero in preview.heroes],
                "status": preview.status.value,
            }
        )
    blocked: dict[str, Any] = {}
    if not state.is_over:
        candidates = [FLEE]
        for card in state.room:
            if card.is_monster:
                candidates.append(CARD_MOVES[card.index][0])
                if state.rules.coop_game:
                    candidates.append(CARD_MOVES[card.index][2])
            elif state.rules.coop_game:
                candidates.append(CARD_MOVES[card.index][1])
        for move in candidates:
            refusal = _refusal(state, move)
            if refusal is not None:
                blocked[move.token] = refusal
    breakdown = state.score_breakdown()
    return {
        "status": seen.status.value,
        "score": seen.score,
        "score_breakdown": None if breakdown is None else [list(p) for p in breakdown.parts],
        "heroes": [hero_view(hero) for hero in seen.heroes],
        "leader": seen.leader,
        "room": [card.code for card in seen.room],
        "dungeon_count": seen.dungeon_count,
        "unseen": _counts(seen.unseen),
        "known_bottom": [card.code for card in seen.known_bottom],
        "discard_count": len(seen.discard),
        "final_room": seen.final_room,
        "resolved_in_room": seen.resolved_in_room,
        "help_used": seen.help_used,
        "legal": legal,
        "blocked": blocked,
    }


def about_game(stored: StoredGame) -> dict[str, Any]:
    """What identifies a stored game: mode, day, rules and the moves so far."""
    return {
        "id": stored.id,
        "mode": stored.mode,
        "daily_date": stored.daily_date,
        "ruleset": stored.rules.ruleset,
        "options": stored.rules.options,
        "moves": list(stored.moves),
    }


def replay_view(stored: StoredGame) -> dict[str, Any]:
    """A finished game with every position, for the viewer."""
    record = stored.record
    state = record.start()
    steps = [position_view(state)]
    for move in record.moves:
        state = state.apply(move)
        steps.append(position_view(state))
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
    view["record"] = stored.record.to_dict() if revealed and state.is_over else None
    return view
