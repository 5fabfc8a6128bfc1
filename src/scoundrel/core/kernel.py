"""The rules as arithmetic on small integers: each rule's numbers live here and nowhere else.

:class:`~scoundrel.core.State` plays with these functions, and so do the solver's room
expansion and search and the fair bot, so a rule changed here changes every one of them.
The functions take and return plain integers and booleans (no objects), which keeps them
fast in Python and lets a compiler for numeric Python take them as they are.

**Card codes.** Cards of the same kind and value behave alike, so a search names a card by
one integer: a monster by its value (2-15), a weapon by :data:`WEAPON_BASE` + its value, a
potion by :data:`POTION_BASE` + its value.

**Reach.** What a hero's weapon can still fight is one integer, the *reach*: the weapon may
be used on a monster whose value is below it (S9, C7). No weapon: :data:`NO_REACH` (0); a
weapon that has slain nothing yet: :data:`FRESH` (every monster is below it); after a kill,
:func:`worn`.

>>> fight(20, 13, 7, True), fight(20, 13, 7, False)
(14, 7)
>>> worn(13, strict=True), worn(13, strict=False)
(13, 14)
>>> drink(15, 9, used=False), drink(15, 9, used=True)
(20, 15)
"""

from __future__ import annotations

#: Health at the start, and the most a hero can have (S2, C1).
MAX_HEALTH = 20
#: Cards in a room (S3).
ROOM_SIZE = 4
#: Cards resolved in a room before it is done and the next is dealt; the last stays (S6).
ROOM_TAKES = ROOM_SIZE - 1
#: The strongest monster: a joker (C11 ``harder``); A is 14, K 13, Q 12, J 11.
HIGHEST_VALUE = 15
#: Card codes: a monster is its value, a weapon WEAPON_BASE + value, a potion POTION_BASE
#: + value.
WEAPON_BASE = 16
POTION_BASE = 32
#: The reach of a hero without a weapon, and of a weapon that has slain nothing (S9, C7).
NO_REACH = 0
FRESH = HIGHEST_VALUE + 1


def is_monster_code(code: int) -> bool:
    return code < WEAPON_BASE


def is_weapon_code(code: int) -> bool:
    return WEAPON_BASE <= code < POTION_BASE


def is_potion_code(code: int) -> bool:
    return code >= POTION_BASE


def code_value(code: int) -> int:
    """The value of the card with this code (2-15)."""
    if code < WEAPON_BASE:
        return code
    if code < POTION_BASE:
        return code - WEAPON_BASE
    return code - POTION_BASE


def damage(monster: int, weapon: int, with_weapon: bool) -> int:
    """Health a fight costs (S8): the monster's value bare-handed; with the weapon, what the
    monster's value exceeds the weapon's by (never less than nothing)."""
    if with_weapon:
        return monster - weapon if monster > weapon else 0
    return monster


def fight(health: int, monster: int, weapon: int, with_weapon: bool) -> int:
    """Health after a fight (S8). At 0 or below the hero is dead (S11, C8)."""
    return health - damage(monster, weapon, with_weapon)


def reaches(reach: int, monster: int) -> bool:
    """Whether a weapon of this reach may be used on this monster (S9, C7)."""
    return monster < reach


def worn(monster: int, strict: bool) -> int:
    """A weapon's reach after it slew ``monster`` (S9, C7): strict weapons are used only on
    weaker monsters, lenient ones on monsters up to the same value."""
    return monster if strict else monster + 1


def drink(health: int, potion: int, used: bool) -> int:
    """Health after a potion (S10, C6): it heals its value up to :data:`MAX_HEALTH`, but only
    the first potion a hero takes in a room; ``used`` says one was taken already."""
    if used:
        return health
    healed = health + potion
    return healed if healed < MAX_HEALTH else MAX_HEALTH


def may_flee(taken: int, fled: bool, dungeon_left: int) -> bool:
    """Whether the room may be fled (S4, S5): before any of its cards is resolved, never
    twice in a row, and never the final room (the dungeon empty)."""
    return taken == 0 and not fled and dungeon_left > 0


def room_done(left_in_room: int, dungeon_left: int) -> bool:
    """Whether a room is done and the next is dealt (S6): one card is left of four, and the
    dungeon has cards. The final room is resolved to its last card instead (S4)."""
    return left_in_room == ROOM_SIZE - ROOM_TAKES and dungeon_left > 0


def to_resolve(room_cards: int, taken: int, final: bool) -> int:
    """How many more cards must be resolved before this room is over (S4, S6)."""
    return room_cards if final else ROOM_TAKES - taken


def potion_bonus(health: int, last_potion: int) -> int:
    """S13: a solo win at full health whose last card was a potion adds that potion's value
    (``last_potion`` is 0 when the last card was not a potion)."""
    return last_potion if health == MAX_HEALTH else 0


def solo_score(
    won: bool,
    health: int,
    last_potion: int,
    dungeon_monsters: int,
    room_monsters: int,
    dungeon_only: bool,
) -> int:
    """The solo score (S13). A win: health, plus :func:`potion_bonus`. A death: health (0 or
    less) minus every monster left in the dungeon and the room; with the ``dungeon-only``
    option, minus the monsters left in the dungeon alone."""
    if won:
        return health + potion_bonus(health, last_potion)
    if dungeon_only:
        return -dungeon_monsters
    return health - dungeon_monsters - room_monsters


def coop_score(
    won: bool, health_1: int, health_2: int, dungeon_monsters: int, room_monsters: int
) -> int:
    """The co-op score (C10): both heroes' health for a win, minus every monster left in the
    dungeon and the room for a loss."""
    if won:
        return health_1 + health_2
    return -dungeon_monsters - room_monsters


# ---------------------------------------------------------------------- the same, as tables
#
# Hot loops (the state's move function, the solver's room expansion) look these up instead
# of calling the functions above; they are made from those functions, so there is still one
# definition of each rule.

_VALUES = range(HIGHEST_VALUE + 1)
#: ``WEAPON_DAMAGE[monster][weapon]``: :func:`damage` with the weapon.
WEAPON_DAMAGE: tuple[tuple[int, ...], ...] = tuple(
    tuple(damage(monster, weapon, True) for weapon in _VALUES) for monster in _VALUES
)
#: ``WORN[strict][monster]``: :func:`worn`.
WORN: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(worn(monster, False) for monster in _VALUES),
    tuple(worn(monster, True) for monster in _VALUES),
)
#: ``HEALED[health][potion]``: :func:`drink` of a first potion, for a living hero.
HEALED: tuple[tuple[int, ...], ...] = tuple(
    tuple(drink(health, potion, False) for potion in _VALUES) for health in range(MAX_HEALTH + 1)
)
#: ``BARE_DAMAGE[monster]``: :func:`damage` bare-handed.
BARE_DAMAGE: tuple[int, ...] = tuple(damage(monster, 0, False) for monster in _VALUES)
#: ``ROOM_DONE[cards left in the room][whether the dungeon has cards]``: :func:`room_done`.
ROOM_DONE: tuple[tuple[bool, bool], ...] = tuple(
    (room_done(left, 0), room_done(left, 1)) for left in range(ROOM_SIZE + 1)
)
