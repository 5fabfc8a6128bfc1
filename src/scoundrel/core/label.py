"""What a move is called and how far a weapon reaches, said once for every interface.

An interface shows a legal move as a sentence ("Fight K♠ with 5♦: −8, health 12", "Drink
5♥: no effect, a potion already healed this room") and a weapon with its limit ("Usable
below 9"). Which sentence fits is a rules matter (a second potion in a room heals nothing,
S10, C6; the help card plays on the partner, C5; a hero at 0 health is dead, S11, C8), so
the choice is made here, and the browser and the terminal only translate what it says: a
stable ``code`` (the catalog key after ``act.``, ``weapon.``) and the ``params`` the
translation needs, in the shape of a :class:`~scoundrel.core.errors.Refusal`.

>>> from scoundrel.core import Card, Rules, State
>>> deck = [Card(c) for c in '7D KS 5H 9C'.split()] + [
...     c for c in Rules.solo().cards if c.code not in ('7D', 'KS', '5H', '9C')]
>>> s = State.new(Rules.solo(), deck).apply('7D')
>>> fight = action_labels(s)[Move('KS/w')]
>>> fight.code, fight.params['weapon'], fight.params['damage'], fight.deadly
('fight_weapon', '7D', 6, False)
>>> weapon_limit(s.apply('KS/w').heroes[0], s.rules)
Limit(code='below', n=13)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import Kind
from .moves import Move
from .position import Hero, Preview
from .rules import Rules

if TYPE_CHECKING:
    from .state import State

#: The codes of :func:`action_label`: each is a catalog key after ``act.``.
ACTION_CODES = (
    "flee",
    "equip",
    "give_weapon",
    "drink",
    "drink_wasted",
    "drink_full",
    "give_potion",
    "give_potion_wasted",
    "give_potion_full",
    "fight_weapon",
    "fight_bare",
    "give_fight_weapon",
    "give_fight_bare",
)
#: The codes of :func:`move_label`: a move without its position.
MOVE_CODES = ("flee", "equip", "drink", "fight_weapon", "fight_bare")
#: The codes of :func:`weapon_limit`: each is a catalog key after ``weapon.``.
LIMIT_CODES = ("none", "fresh", "below", "up_to")


@dataclass(frozen=True)
class Label:
    """What a move is called: a stable ``code`` and the ``params`` its sentence needs.

    ``params`` name cards by their code (``card``, ``weapon``: the weapon a fight uses),
    the hero the move plays on by number (``hero``, C5), and numbers: ``damage`` (health
    a fight costs), ``gain`` (health a potion heals), ``health`` (the hero's health after
    it). ``deadly``: the hero the move plays on would have no health left (S11, C8)."""

    code: str
    params: dict[str, str | int | bool] = field(default_factory=dict)
    deadly: bool = False


@dataclass(frozen=True)
class Limit:
    """Which monsters a hero's weapon may still fight (S9, C7): ``none`` (no weapon),
    ``fresh`` (any monster), ``below`` ``n`` (strict weapons: weaker than the last kill) or
    ``up_to`` ``n`` (lenient weapons: at most the last kill)."""

    code: str
    n: int | None = None


def action_label(
    move: Move,
    leader: int,
    before: Sequence[Hero],
    health: Sequence[int],
    damage: Sequence[int],
) -> Label:
    """What legal ``move`` does, when hero ``leader`` leads and the heroes are ``before``:
    ``health`` is each hero's health after it and ``damage`` what each lost (negative:
    healed), as :meth:`State.outcomes` and :class:`Preview` give them."""
    card = move.card
    hero = move.hero(leader)  # C5: the help card plays on the partner
    if card is None:  # S5
        return Label("flee", {"hero": hero})
    target = hero - 1
    after = health[target]
    lost = damage[target]
    params: dict[str, str | int | bool] = {"card": card.code, "hero": hero}
    if card.kind is Kind.WEAPON:  # S7 (C5: the partner equips it)
        return Label("give_weapon" if move.help else "equip", params)
    if card.kind is Kind.POTION:  # S10, C6: one potion a room heals, up to full health
        if before[target].potion_used:
            how = "wasted"
        elif lost == 0:
            how = "full"
        else:
            how = ""
        code = ("give_potion" if move.help else "drink") + (f"_{how}" if how else "")
        params.update(gain=-lost, health=after)
        return Label(code, params, after <= 0)
    if move.weapon:  # S8
        weapon = before[target].weapon
        params["weapon"] = weapon.code if weapon is not None else ""
    params.update(damage=lost, health=after)
    code = "fight_weapon" if move.weapon else "fight_bare"
    # S11, C8: deadly at 0 or less
    return Label(f"give_{code}" if move.help else code, params, after <= 0)


def preview_label(preview: Preview, leader: int, before: Sequence[Hero]) -> Label:
    """:func:`action_label` from a move's :class:`Preview`."""
    health = [hero.health for hero in preview.heroes]
    return action_label(preview.move, leader, before, health, preview.damage)


def action_labels(state: State) -> dict[Move, Label]:
    """The label of every legal move of ``state``, in listing order."""
    leader = state.leader
    before = state.heroes
    return {
        move: action_label(move, leader, before, health, damage)
        for move, health, damage, _weapons, _status in state.outcomes()
    }


def move_label(move: Move) -> Label:
    """A move without its position, for a list of moves (a replay, a hint's plan): the
    card, whether it is fought with the weapon or bare-handed (S8), equipped (S7) or drunk
    (S10), and ``help`` when it is the help card (C5)."""
    card = move.card
    if card is None:
        return Label("flee")
    if card.kind is Kind.WEAPON:
        code = "equip"
    elif card.kind is Kind.POTION:
        code = "drink"
    else:
        code = "fight_weapon" if move.weapon else "fight_bare"
    return Label(code, {"card": card.code, "help": move.help})


def weapon_limit(hero: Hero, rules: Rules) -> Limit:
    """Which monsters ``hero``'s weapon may fight under ``rules`` (S9, C7)."""
    if hero.weapon is None:
        return Limit("none")
    last = hero.last_kill
    if last is None:
        return Limit("fresh")
    return Limit("below" if rules.strict else "up_to", last)
