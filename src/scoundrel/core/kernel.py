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
>>> drink(15, 9, used=False, most=20), drink(15, 9, used=True, most=20)
(20, 15)
>>> drink(10, 9, used=False, most=14)  # V2: a frail hero heals up to 14
14
"""

from __future__ import annotations

#: Health at the start, and the most a hero can have (S2, C1); the ``health`` variant
#: (V2) starts lower, and its heroes heal up to where they started.
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


def drink(health: int, potion: int, used: bool, most: int) -> int:
    """Health after a potion (S10, C6): it heals its value up to ``most``, the health the
    heroes started with (:data:`MAX_HEALTH`, or less with V2), but only the first potion a
    hero takes in a room; ``used`` says one was taken already."""
    if used:
        return health
    healed = health + potion
    return healed if healed < most else most


# ---------------------------------------------------------------------- the flow of play
#
# What happens between cards: how many cards a deal draws, when a room is done, when the
# game is, who leads and who takes the help card. :class:`~scoundrel.core.State`, the
# batch (compiled), the solver and the bots all ask these; the dealing of tuples of cards
# they share is :mod:`scoundrel.core.flow`.

#: What resolving a card leads to (:func:`after_card`); only :data:`GO_ON` is false.
GO_ON, NEXT_ROOM, WON_GAME, LOST_GAME = 0, 1, 2, 3


def dealt(in_room: int, dungeon_left: int) -> int:
    """How many cards a deal draws from the top of the dungeon (S3): the room is filled
    to four cards, or the dungeon runs out."""
    wanted = ROOM_SIZE - in_room
    return wanted if wanted < dungeon_left else dungeon_left


def is_final(dungeon_left: int) -> bool:
    """Whether the room on the table is the final room: the dungeon is empty (S4)."""
    return dungeon_left == 0


def stays(final: bool) -> int:
    """How many cards a room leaves when it is done: the one that stays for the next room
    (S6); the final room is resolved to its last card (S4)."""
    return 0 if final else ROOM_SIZE - ROOM_TAKES


def room_done(left_in_room: int, dungeon_left: int) -> bool:
    """Whether a room is done and the next is dealt (S6): one card is left of four, and the
    dungeon has cards (the final room is resolved to its end instead, S4)."""
    return not is_final(dungeon_left) and left_in_room == stays(False)


def after_card(left_in_room: int, dungeon_left: int, alive: bool) -> int:
    """What resolving a card leads to: :data:`LOST_GAME` when a hero died (S11, C8);
    :data:`NEXT_ROOM` when the room is done and the next must be dealt (S6);
    :data:`WON_GAME` when the final room is done (S4, S12, C9); else :data:`GO_ON`."""
    if not alive:
        return LOST_GAME
    final = is_final(dungeon_left)
    if left_in_room != stays(final):
        return GO_ON
    return WON_GAME if final else NEXT_ROOM


def to_resolve(room_cards: int, taken: int, final: bool) -> int:
    """How many more cards must be resolved before this room is over (S4, S6); a room
    that is not the final one has all four cards less those ``taken``."""
    return room_cards - stays(final)


def rooms_ahead(cards_left: int) -> int:
    """At most how many rooms are still faced with ``cards_left`` cards in the room and
    the dungeon: each resolves three cards (S6) and the last one what is left (S4). The
    potions among them heal each hero at most once a room (S10, C6)."""
    return (cards_left + stays(False)) // ROOM_TAKES


def next_leader(leader: int, coop: bool) -> int:
    """Who leads the next room, heroes counted from 0 (C3): in co-op the other hero after
    a room is faced; after a flee :func:`next_leader` is not asked (the same hero leads)."""
    return leader ^ 1 if coop else leader


def takes(leader: int, helped: int) -> int:
    """The hero (from 0) a card acts on: the leader's own (C4), or the partner's when it
    is the help card, ``helped`` 1 (C5)."""
    return leader ^ helped


def may_help(coop: bool, help_used: bool) -> bool:
    """Whether a card of this room may still go to the partner (C5): once a room, in co-op."""
    return coop and not help_used


def known_below(known: int, dungeon_left: int) -> int:
    """How many cards at the bottom of the dungeon are known (fled from, S5) once it holds
    ``dungeon_left`` cards: a deal draws the known cards last."""
    return known if known < dungeon_left else dungeon_left


def may_flee(taken: int, fled: bool, dungeon_left: int, relentless: bool) -> bool:
    """Whether the room may be fled (S4, S5): before any of its cards is resolved, never
    twice in a row, and never the final room; never at all in a ``relentless`` game
    (``flee=never``, V1)."""
    return not relentless and taken == 0 and not fled and not is_final(dungeon_left)


def potion_bonus(health: int, last_potion: int, most: int) -> int:
    """S13: a solo win at full health (``most``, V2) whose last card was a potion adds that
    potion's value (``last_potion`` is 0 when the last card was not a potion)."""
    return last_potion if health == most else 0


def solo_score(
    won: bool,
    health: int,
    last_potion: int,
    dungeon_monsters: int,
    room_monsters: int,
    dungeon_only: bool,
    most: int,
) -> int:
    """The solo score (S13). A win: health, plus :func:`potion_bonus` (full health is
    ``most``, V2). A death: health (0 or less) minus every monster left in the dungeon and
    the room; with the ``dungeon-only`` option, minus the monsters left in the dungeon alone."""
    if won:
        return health + potion_bonus(health, last_potion, most)
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
#: ``HEALED[most][health][potion]``: :func:`drink` of a first potion, for a living hero of
#: a game whose heroes start with ``most`` health (V2).
HEALED: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(drink(health, potion, False, most) for potion in _VALUES)
        for health in range(MAX_HEALTH + 1)
    )
    for most in range(MAX_HEALTH + 1)
)
#: ``BARE_DAMAGE[monster]``: :func:`damage` bare-handed.
BARE_DAMAGE: tuple[int, ...] = tuple(damage(monster, 0, False) for monster in _VALUES)
#: ``AFTER_CARD[cards left in the room][whether the dungeon has cards]``: :func:`after_card`
#: for heroes alive (a death is checked where the fight is).
AFTER_CARD: tuple[tuple[int, int], ...] = tuple(
    (after_card(left, 0, True), after_card(left, 1, True)) for left in range(ROOM_SIZE + 1)
)
#: ``TAKES[leader][whether it is the help card]``: :func:`takes`.
TAKES: tuple[tuple[int, int], ...] = tuple(
    (takes(leader, 0), takes(leader, 1)) for leader in (0, 1)
)
#: ``NEXT_LEADER[coop][leader]``: :func:`next_leader`.
NEXT_LEADER: tuple[tuple[int, int], ...] = tuple(
    (next_leader(0, coop), next_leader(1, coop)) for coop in (False, True)
)
#: ``MAY_HELP[coop][help_used]``: :func:`may_help`.
MAY_HELP: tuple[tuple[bool, bool], ...] = tuple(
    (may_help(coop, False), may_help(coop, True)) for coop in (False, True)
)
