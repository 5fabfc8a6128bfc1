"""Many games at once, compiled with Numba (the ``fast`` extra): ``scoundrel bench --batch``.

:class:`Batch` holds N games in two NumPy arrays and moves them all with one call:
:meth:`Batch.legal_mask` gives an (N, 181) mask over the action ids of
:mod:`scoundrel.core.actions`, :meth:`Batch.step` plays one action id in every game still
being played. :func:`play_random` is the benchmark: uniform random play (flee, ``/w``,
``/b`` and, in co-op, the help card included, as in :mod:`scoundrel.bench`) run entirely in
compiled code, one move of each of ``batch_size`` games a sweep, a finished game's slot
taking the next deal.

**One definition of each rule.** Every rule, of a card (a fight's damage, weapon wear,
which monsters a weapon reaches, a potion, the scores) and of the flow of play (how many
cards a deal draws, when a room is done or the game won, whether a room may be fled, who
leads next, whom a card acts on and whether the help card may be given), is a function of
:mod:`scoundrel.core.kernel`, compiled here as it is: each kernel function's own code object
is handed to ``numba.njit`` in a copy of the kernel's namespace where the other kernel
functions are the compiled ones (compiled code can only call compiled code). What is left
here is moving card indices in arrays as those functions say (the room, the dungeon as a
ring, a fled room written after its last card); ``tests/test_batch.py`` checks it against
:class:`~scoundrel.core.State` move by move, and ``tests/test_flow_plants.py`` that a flow
rule changed in the kernel changes the batch as it changes the state.

>>> from scoundrel.core import Rules
>>> games = Batch.from_seeds(Rules.solo(), [1, 2, 3])
>>> games.legal_mask().shape, games.health.tolist()
((3, 181), [[20], [20], [20]])
>>> games.step([action_id("F")] * 3)
>>> games.dungeon_count.tolist(), games.fled_into.tolist()
([40, 40, 40], [True, True, True])

**Layout.** A game is a row of ``state`` (int16 columns named below) and a row of
``dungeon``: a ring of 64 card indices (:data:`~scoundrel.core.ALL_CARDS` order), the top
card at column ``_HEAD``, ``_LEFT`` cards long. A flee writes the room after its last card
(S5); no deck has more than 54 cards, so the ring never overflows.
"""

from __future__ import annotations

import time
import types
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar, cast

try:
    import numba
    import numpy as np
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        "scoundrel.batch needs the fast extra: pip install 'scoundrel-cards[fast]' "
        f"(Numba, NumPy): {error}"
    ) from error
from numpy.typing import NDArray

from .bench import BenchResult
from .core import ALL_CARDS, Card, DeckError, Kind, Rules, Status, kernel, random_deal
from .core.actions import ACTIONS, NUM_ACTIONS, action_id
from .core.kernel import FRESH, NO_REACH, ROOM_SIZE
from .core.moves import CARD_MOVES, FLEE
from .core.observation import FLAGS, HERO_FEATURES, TENSOR_LAYOUT, TENSOR_SIZE

__all__ = ["NO_SCORE", "STATUSES", "Batch", "compiled_kernel", "play_random"]

_F = TypeVar("_F", bound=Callable[..., Any])


def _njit(function: _F) -> _F:
    """``numba.njit``, with the function's type kept for mypy."""
    return cast(_F, numba.njit(function))


def _inline(function: _F) -> _F:
    """``numba.njit`` for a function inlined into the compiled code that calls it."""
    return cast(_F, numba.njit(inline="always")(function))


def compiled_kernel() -> dict[str, Any]:
    """Every function of :mod:`scoundrel.core.kernel` by name, compiled by Numba from the
    kernel's own code (its constants are compiled in as they are)."""
    functions = {
        name: value
        for name, value in vars(kernel).items()
        if isinstance(value, types.FunctionType) and value.__module__ == kernel.__name__
    }
    # The kernel's code, run in a namespace where the other kernel functions are the
    # compiled ones: compiled code can call only compiled code (solo_score calls
    # potion_bonus). Calls are inlined into the loops below.
    namespace = dict(vars(kernel))
    for name, function in functions.items():
        clone = types.FunctionType(function.__code__, namespace, name, function.__defaults__)
        clone.__qualname__ = function.__qualname__
        clone.__doc__ = function.__doc__
        namespace[name] = numba.njit(inline="always")(clone)
    return {name: namespace[name] for name in functions}


_KERNEL = compiled_kernel()


def _compiled(function: _F) -> _F:
    """The compiled twin of a kernel function, with the kernel function's signature."""
    return cast(_F, _KERNEL[function.__name__])


damage = _compiled(kernel.damage)
worn = _compiled(kernel.worn)
reaches = _compiled(kernel.reaches)
drink = _compiled(kernel.drink)
may_flee = _compiled(kernel.may_flee)
dealt = _compiled(kernel.dealt)
after_card = _compiled(kernel.after_card)
next_leader = _compiled(kernel.next_leader)
takes = _compiled(kernel.takes)
may_help = _compiled(kernel.may_help)
known_below = _compiled(kernel.known_below)
solo_score = _compiled(kernel.solo_score)
coop_score = _compiled(kernel.coop_score)

# ---------------------------------------------------------------------- tables and columns

_NEXT_ROOM, _WON_GAME = kernel.NEXT_ROOM, kernel.WON_GAME
#: ``status`` codes: the index into :data:`STATUSES`.
PLAYING, WON, LOST = 0, 1, 2
STATUSES: tuple[Status, Status, Status] = (Status.PLAYING, Status.WON, Status.LOST)
#: :attr:`Batch.score` of a game still being played.
NO_SCORE = -(2**15)

_MONSTER, _WEAPON, _POTION = 0, 1, 2
_KIND_CODE = {Kind.MONSTER: _MONSTER, Kind.WEAPON: _WEAPON, Kind.POTION: _POTION}
#: Per card index: value, kind and the action id of its first move.
VALUE = np.array([card.value for card in ALL_CARDS], dtype=np.int16)
KIND = np.array([_KIND_CODE[card.kind] for card in ALL_CARDS], dtype=np.int8)
#: Per action id: the card (-1: flee), with the weapon, given as the help card.
ACTION_CARD = np.array([-1 if m.card is None else m.card.index for m in ACTIONS], dtype=np.int16)
ACTION_WEAPON = np.array([m.weapon for m in ACTIONS], dtype=np.bool_)
ACTION_HELP = np.array([m.help for m in ACTIONS], dtype=np.int16)
# A card's moves have consecutive action ids, in core.moves.CARD_MOVES order: a monster's
# /w, /b, >/w, >/b; any other card's own move, then >. _legal counts on it.
ACTION_BASE = np.array([action_id(CARD_MOVES[card.index][0]) for card in ALL_CARDS], np.int16)
_LAYOUT = {
    4: [(True, False), (False, False), (True, True), (False, True)],
    2: [(False, False), (False, True)],
}
for _card in ALL_CARDS:
    _moves = CARD_MOVES[_card.index]
    _first = int(ACTION_BASE[_card.index])
    if [action_id(move) for move in _moves] != list(range(_first, _first + len(_moves))) or [
        (move.weapon, move.help) for move in _moves
    ] != _LAYOUT[4 if _card.is_monster else 2]:
        raise RuntimeError(f"the action ids of {_card.code} are not laid out as batch expects")
FLEE_ID = action_id(FLEE)

# The observation tensor (core.observation.observation_tensor), as _observe_all writes it.
_PART = {name: start for name, start, _ in TENSOR_LAYOUT}
_OBS_ROOM, _OBS_UNSEEN, _OBS_BOTTOM = _PART["room"], _PART["unseen"], _PART["known_bottom"]
_OBS_HEROES, _OBS_FLAGS = _PART["heroes"], _PART["flags"]
#: Per kind code: where the unseen count of a card of value v is, less v (values from 2).
_UNSEEN_AT = np.array([_OBS_UNSEEN - 2, _OBS_UNSEEN + 14 - 2, _OBS_UNSEEN + 23 - 2], np.int16)
# Where each hero feature and flag goes, by its name in the core's layout (compile-time
# constants for the compiled code below).
_H_HEALTH, _H_WEAPON, _H_REACH, _H_LAST_KILL, _H_STACK, _H_POTION = (
    HERO_FEATURES.index(name)
    for name in ("health", "weapon", "reach", "last_kill", "stack", "potion_used")
)
_HERO_WIDTH = len(HERO_FEATURES)
_F_LEADS, _F_VIEWER, _F_DUNGEON, _F_FINAL, _F_TAKEN, _F_HELP = (
    _OBS_FLAGS + FLAGS.index(name)
    for name in (
        "viewer_leads",
        "viewer",
        "dungeon_count",
        "final_room",
        "resolved_in_room",
        "help_used",
    )
)
_F_FLEE, _F_COOP, _F_STRICT, _F_STATUS, _F_MOST, _F_RELENTLESS = (
    _OBS_FLAGS + FLAGS.index(name)
    for name in ("can_flee", "coop", "strict", "status", "max_health", "relentless")
)

_RING = 64
_RING_MASK = _RING - 1
_MAX_LEGAL = 2 * 2 * ROOM_SIZE + 1
# state columns: one int16 row per game
_HEAD, _LEFT, _ROOM_N, _LEADER, _TAKEN, _FLED, _HELP, _STATUS, _LAST = range(9)
_HEALTH, _REACH, _WEAPON_CARD, _POTION_USED, _ROOM = 9, 11, 13, 15, 17
# cards known at the bottom of the dungeon (fled from); per hero: the value of the last
# monster slain with the weapon (0: none), how many it has slain (the stack, S8)
_KNOWN, _LAST_KILL, _STACK = _ROOM + ROOM_SIZE, _ROOM + ROOM_SIZE + 1, _ROOM + ROOM_SIZE + 3
# the variants each game plays: the health the heroes start with and heal up to (V2), and
# whether no room may be fled (V1)
_MOST, _RELENTLESS = _STACK + 2, _STACK + 3
_COLUMNS = _RELENTLESS + 1

# ---------------------------------------------------------------------- compiled move rules


@_inline
def _start(
    state: NDArray[np.int16],
    dungeon: NDArray[np.int8],
    g: int,
    decks: NDArray[np.int8],
    deck: int,
    leader: int,
    most: int,
    relentless: bool,
) -> None:
    """Game ``g`` at the start of ``decks[deck]`` (card indices, top first), its heroes
    with ``most`` health (S2, C1, V2), no room fled if ``relentless`` (V1)."""
    size = decks.shape[1]
    for i in range(size):
        dungeon[g, i] = decks[deck, i]
    state[g, _HEAD] = 0
    state[g, _LEFT] = size
    state[g, _ROOM_N] = 0
    state[g, _LEADER] = leader  # C3: first_leader
    state[g, _FLED] = 0
    state[g, _STATUS] = PLAYING
    state[g, _LAST] = -1
    state[g, _KNOWN] = 0
    state[g, _MOST] = most
    state[g, _RELENTLESS] = relentless
    for hero in range(2):
        state[g, _HEALTH + hero] = most  # S2, C1, V2
        state[g, _REACH + hero] = NO_REACH
        state[g, _WEAPON_CARD + hero] = -1
        state[g, _LAST_KILL + hero] = 0
        state[g, _STACK + hero] = 0
    for i in range(ROOM_SIZE):
        state[g, _ROOM + i] = -1
    _deal(state, dungeon, g)


@_inline
def _deal(state: NDArray[np.int16], dungeon: NDArray[np.int8], g: int) -> None:
    """S3: draw until the room holds 4 cards or the dungeon is empty; a new room."""
    n = state[g, _ROOM_N]
    head = state[g, _HEAD]
    drawn = dealt(n, state[g, _LEFT])
    for i in range(drawn):  # the top cards of the dungeon, after the card kept (S6)
        state[g, _ROOM + n + i] = dungeon[g, (head + i) & _RING_MASK]
    state[g, _ROOM_N] = n + drawn
    state[g, _HEAD] = (head + drawn) & _RING_MASK
    left = state[g, _LEFT] - drawn
    state[g, _LEFT] = left
    state[g, _KNOWN] = known_below(state[g, _KNOWN], left)
    state[g, _TAKEN] = 0
    state[g, _HELP] = 0  # C5: one help card a room
    state[g, _POTION_USED] = 0  # S10, C6: one potion a room for each hero
    state[g, _POTION_USED + 1] = 0


@_inline
def _legal(state: NDArray[np.int16], g: int, coop: bool, out: NDArray[np.int16]) -> int:
    """The legal action ids of game ``g``, a game still played, into ``out`` in
    ``State.legal_moves`` order; how many there are. (No early return here nor in the
    other functions the random loop inlines: it keeps Numba from pruning reference counts,
    which costs a fifth of the speed.)"""
    n = 0
    room_n = state[g, _ROOM_N]
    leader = state[g, _LEADER]
    reach = state[g, _REACH + leader]
    for i in range(room_n):
        card = state[g, _ROOM + i]
        base = ACTION_BASE[card]
        if KIND[card] == _MONSTER:  # S8: /w when the weapon reaches it (S9, C7), /b always
            if reaches(reach, VALUE[card]):
                out[n] = base
                n += 1
            out[n] = base + 1
        else:
            out[n] = base
        n += 1
    if may_help(coop, state[g, _HELP] != 0):  # C5: one card a room may go to the partner
        reach = state[g, _REACH + takes(leader, 1)]
        for i in range(room_n):
            card = state[g, _ROOM + i]
            base = ACTION_BASE[card]
            if KIND[card] == _MONSTER:  # fought with the partner's weapon or bare-handed
                if reaches(reach, VALUE[card]):
                    out[n] = base + 2
                    n += 1
                out[n] = base + 3
            else:
                out[n] = base + 1
            n += 1
    if may_flee(
        state[g, _TAKEN], state[g, _FLED] != 0, state[g, _LEFT], state[g, _RELENTLESS] != 0
    ):  # S4, S5, V1
        out[n] = FLEE_ID
        n += 1
    return n


@_inline
def _step(
    state: NDArray[np.int16],
    dungeon: NDArray[np.int8],
    g: int,
    action: int,
    strict: bool,
    coop: bool,
) -> None:
    """Play a legal action id in game ``g`` (``State._step``)."""
    n = state[g, _ROOM_N]
    if action == FLEE_ID:  # S5: the room goes under the dungeon, in room order
        head = state[g, _HEAD]
        left = state[g, _LEFT]
        for i in range(n):
            dungeon[g, (head + left) & _RING_MASK] = state[g, _ROOM + i]
            state[g, _ROOM + i] = -1
            left += 1
        state[g, _LEFT] = left
        state[g, _KNOWN] += n  # seen going under, so known
        state[g, _ROOM_N] = 0
        state[g, _FLED] = 1
        _deal(state, dungeon, g)  # C3: whoever fled leads the new room
    else:
        card = ACTION_CARD[action]
        helped = ACTION_HELP[action]
        hero = takes(state[g, _LEADER], helped)  # C4, C5: the help card acts on the partner
        i = 0
        while state[g, _ROOM + i] != card:
            i += 1
        n -= 1
        while i < n:  # S3: the room keeps its order
            state[g, _ROOM + i] = state[g, _ROOM + i + 1]
            i += 1
        state[g, _ROOM + n] = -1
        state[g, _ROOM_N] = n
        state[g, _TAKEN] += 1  # S5: the room is faced
        state[g, _LAST] = card
        value = VALUE[card]
        kind = KIND[card]
        if helped:
            state[g, _HELP] = 1  # C5
        if kind == _MONSTER:  # S8
            if ACTION_WEAPON[action]:
                weapon = VALUE[state[g, _WEAPON_CARD + hero]]
                health = state[g, _HEALTH + hero] - damage(value, weapon, True)
                state[g, _REACH + hero] = worn(value, strict)  # S9, C7
                state[g, _LAST_KILL + hero] = value  # S8: onto the weapon's stack
                state[g, _STACK + hero] += 1
            else:
                health = state[g, _HEALTH + hero] - damage(value, 0, False)
            state[g, _HEALTH + hero] = health
            if health <= 0:  # S11, C8
                state[g, _STATUS] = LOST
        elif kind == _WEAPON:  # S7: equipped, the old weapon and its stack discarded
            state[g, _WEAPON_CARD + hero] = card
            state[g, _REACH + hero] = FRESH
            state[g, _LAST_KILL + hero] = 0
            state[g, _STACK + hero] = 0
        else:  # S10, C6: the first potion of the room heals, later ones are spent
            used = state[g, _POTION_USED + hero] != 0
            health = drink(state[g, _HEALTH + hero], value, used, state[g, _MOST])
            state[g, _HEALTH + hero] = health
            state[g, _POTION_USED + hero] = 1
        after = after_card(n, state[g, _LEFT], state[g, _STATUS] == PLAYING)
        if after == _NEXT_ROOM:  # S6: three resolved, the fourth card stays
            state[g, _FLED] = 0
            state[g, _LEADER] = next_leader(state[g, _LEADER], coop)  # C3
            _deal(state, dungeon, g)
        elif after == _WON_GAME:  # S4: the final room is resolved to its end
            state[g, _STATUS] = WON  # S12, C9


@_inline
def _score(
    state: NDArray[np.int16], dungeon: NDArray[np.int8], g: int, coop: bool, dungeon_only: bool
) -> int:
    """The score of game ``g`` (S13, C10), :data:`NO_SCORE` while it is played."""
    status = state[g, _STATUS]
    if status == PLAYING:
        return NO_SCORE
    in_dungeon = 0
    head = state[g, _HEAD]
    for j in range(state[g, _LEFT]):
        card = dungeon[g, (head + j) & _RING_MASK]
        if KIND[card] == _MONSTER:
            in_dungeon += VALUE[card]
    in_room = 0
    for i in range(state[g, _ROOM_N]):
        card = state[g, _ROOM + i]
        if KIND[card] == _MONSTER:
            in_room += VALUE[card]
    won = status == WON
    if coop:  # C10
        return coop_score(won, state[g, _HEALTH], state[g, _HEALTH + 1], in_dungeon, in_room)
    last = state[g, _LAST]
    potion = VALUE[last] if last >= 0 and KIND[last] == _POTION else 0
    most = state[g, _MOST]  # V2: full health
    return solo_score(won, state[g, _HEALTH], potion, in_dungeon, in_room, dungeon_only, most)


# ---------------------------------------------------------------------- compiled batch loops


@_njit
def _start_all(
    state: NDArray[np.int16],
    dungeon: NDArray[np.int8],
    decks: NDArray[np.int8],
    leader: int,
    most: int,
    relentless: bool,
) -> None:
    for g in range(len(decks)):
        _start(state, dungeon, g, decks, g, leader, most, relentless)


@_njit
def _start_some(
    state: NDArray[np.int16],
    dungeon: NDArray[np.int8],
    games: NDArray[np.int64],
    decks: NDArray[np.int8],
    leader: int,
    most: int,
    relentless: bool,
) -> None:
    for k in range(len(games)):
        _start(state, dungeon, games[k], decks, k, leader, most, relentless)


@_inline
def _observe(
    state: NDArray[np.int16],
    dungeon: NDArray[np.int8],
    g: int,
    viewer: int,
    heroes: int,
    coop: bool,
    strict: bool,
    out: NDArray[np.int16],
) -> None:
    """Hero ``viewer``'s (0 or 1) observation tensor of game ``g`` into row ``g`` of
    ``out`` (zeros), from what a player sees: the room, the unseen cards counted by kind
    and value, the known bottom of the dungeon, both heroes and the flags."""
    head = state[g, _HEAD]
    for j in range(state[g, _LEFT] - state[g, _KNOWN]):  # never seen: counted, not ordered
        card = dungeon[g, (head + j) & _RING_MASK]
        out[g, _UNSEEN_AT[KIND[card]] + VALUE[card]] += 1
    _observe_seen(state, dungeon, g, viewer, heroes, coop, strict, out)


@_inline
def _observe_seen(
    state: NDArray[np.int16],
    dungeon: NDArray[np.int8],
    g: int,
    viewer: int,
    heroes: int,
    coop: bool,
    strict: bool,
    out: NDArray[np.int16],
) -> None:
    """Everything of :func:`_observe` but the unseen cards' counts."""
    for i in range(state[g, _ROOM_N]):
        out[g, _OBS_ROOM + state[g, _ROOM + i]] = 1
    head = state[g, _HEAD]
    left = state[g, _LEFT]
    known = state[g, _KNOWN]
    for depth in range(1, known + 1):  # S5: fled from, so known, counted from the bottom
        card = dungeon[g, (head + left - depth) & _RING_MASK]
        out[g, _OBS_BOTTOM + card] = depth
    for slot in range(heroes):  # the viewer first
        hero = viewer if slot == 0 else 1 - viewer
        at = _OBS_HEROES + _HERO_WIDTH * slot
        weapon = state[g, _WEAPON_CARD + hero]
        out[g, at + _H_HEALTH] = state[g, _HEALTH + hero]
        out[g, at + _H_WEAPON] = VALUE[weapon] if weapon >= 0 else 0
        out[g, at + _H_REACH] = state[g, _REACH + hero]
        out[g, at + _H_LAST_KILL] = state[g, _LAST_KILL + hero]
        out[g, at + _H_STACK] = state[g, _STACK + hero]
        out[g, at + _H_POTION] = state[g, _POTION_USED + hero]
    status = state[g, _STATUS]
    taken = state[g, _TAKEN]
    out[g, _F_LEADS] = state[g, _LEADER] == viewer
    out[g, _F_VIEWER] = viewer + 1
    out[g, _F_DUNGEON] = left
    out[g, _F_FINAL] = left == 0
    out[g, _F_TAKEN] = taken
    out[g, _F_HELP] = state[g, _HELP]
    relentless = state[g, _RELENTLESS] != 0
    fled = state[g, _FLED] != 0
    out[g, _F_FLEE] = status == PLAYING and may_flee(taken, fled, left, relentless)
    out[g, _F_COOP] = coop
    out[g, _F_STRICT] = strict
    out[g, _F_STATUS] = status
    out[g, _F_MOST] = state[g, _MOST]
    out[g, _F_RELENTLESS] = relentless


@_njit
def _observe_all(
    state: NDArray[np.int16],
    dungeon: NDArray[np.int8],
    viewer: int,
    heroes: int,
    coop: bool,
    strict: bool,
    out: NDArray[np.int16],
) -> None:
    """Hero ``viewer``'s observation tensor of every game into ``out`` (zeros)."""
    for g in range(len(state)):
        _observe(state, dungeon, g, viewer, heroes, coop, strict, out)


@_njit
def _mask_all(state: NDArray[np.int16], coop: bool, mask: NDArray[np.bool_]) -> None:
    out = np.empty(_MAX_LEGAL, dtype=np.int16)
    for g in range(len(state)):
        if state[g, _STATUS] == PLAYING:  # S11, S12, C8, C9: no move once over
            for k in range(_legal(state, g, coop, out)):
                mask[g, out[k]] = True


@_njit
def _first_illegal(
    state: NDArray[np.int16],
    actions: NDArray[np.int64],
    active: NDArray[np.bool_],
    coop: bool,
) -> int:
    """The first game still played and moved whose action is not legal, or -1."""
    out = np.empty(_MAX_LEGAL, dtype=np.int16)
    for g in range(len(state)):
        if state[g, _STATUS] != PLAYING or not active[g]:
            continue
        found = False
        for k in range(_legal(state, g, coop, out)):
            if out[k] == actions[g]:
                found = True
        if not found:
            return g
    return -1


@_njit
def _step_all(
    state: NDArray[np.int16],
    dungeon: NDArray[np.int8],
    actions: NDArray[np.int64],
    active: NDArray[np.bool_],
    strict: bool,
    coop: bool,
) -> None:
    for g in range(len(state)):
        if state[g, _STATUS] == PLAYING and active[g]:
            _step(state, dungeon, g, actions[g], strict, coop)


@_njit
def _score_all(
    state: NDArray[np.int16],
    dungeon: NDArray[np.int8],
    coop: bool,
    dungeon_only: bool,
    scores: NDArray[np.int32],
) -> None:
    for g in range(len(state)):
        scores[g] = _score(state, dungeon, g, coop, dungeon_only)


@_inline
def _seeded(seed: int) -> np.uint64:
    """The first state of a xorshift64* generator, ``seed`` mixed through splitmix64."""
    x = np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    x = x ^ (x >> np.uint64(31))
    if x == np.uint64(0):
        x = np.uint64(1)
    return x


@_inline
def _advanced(x: np.uint64) -> np.uint64:
    """The generator's next state."""
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    return x


@_inline
def _below(x: np.uint64, n: int) -> int:
    """A number from 0 to ``n`` - 1 out of the state ``x`` (uniform to 2**-32)."""
    r = (x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32)
    return int((r * np.uint64(n)) >> np.uint64(32))


@_njit
def _random_games(
    decks: NDArray[np.int8],
    slots: int,
    strict: bool,
    coop: bool,
    start: tuple[int, int, bool],
    seed: int,
) -> int:
    """Play every deck with uniformly random legal moves, ``slots`` games a sweep: each
    sweep moves every game once, and a finished game's slot takes the next deck. The
    number of moves played."""
    state = np.empty((slots, _COLUMNS), dtype=np.int16)
    dungeon = np.empty((slots, _RING), dtype=np.int8)
    out = np.empty(_MAX_LEGAL, dtype=np.int16)
    for g in range(slots):
        _start(state, dungeon, g, decks, g, start[0], start[1], start[2])
    dealt = slots
    playing = slots
    moves = 0
    x = _seeded(seed)
    while playing:
        for g in range(slots):
            if state[g, _STATUS] != PLAYING:
                continue
            n = _legal(state, g, coop, out)
            x = _advanced(x)
            pick = _below(x, n)
            _step(state, dungeon, g, out[pick], strict, coop)
            moves += 1
            if state[g, _STATUS] != PLAYING:
                if dealt < len(decks):
                    _start(state, dungeon, g, decks, dealt, start[0], start[1], start[2])
                    dealt += 1
                else:
                    playing -= 1
    return moves


# ---------------------------------------------------------------------- the Python side


def _start_rules(rules: Rules) -> tuple[int, int, bool]:
    """What a game starts with: the first leader (from 0, C3), the heroes' health (S2, C1,
    V2) and whether no room may be fled (V1)."""
    return rules.first_leader - 1, rules.health, rules.relentless


def _deck_array(
    rules: Rules, decks: Iterable[Sequence[Card | str]] | NDArray[Any]
) -> NDArray[np.int8]:
    """Decks as an (N, deck size) array of card indices, each checked to hold exactly the
    rules' cards (S1, C2, C11)."""
    if isinstance(decks, np.ndarray):
        array = np.asarray(decks, dtype=np.int64)
    else:
        rows = [
            [(card if isinstance(card, Card) else Card(card)).index for card in deck]
            for deck in decks
        ]
        for number, row in enumerate(rows):
            if len(row) != rules.deck_size:
                raise DeckError(
                    f"deck {number} has {len(row)} cards, {rules.ruleset} needs {rules.deck_size}"
                )
        array = np.array(rows, dtype=np.int64).reshape(len(rows), rules.deck_size)
    expected = np.array(sorted(card.index for card in rules.cards), dtype=np.int64)
    if array.ndim != 2 or array.shape[1] != len(expected):
        raise DeckError(
            f"decks must be (games, {len(expected)}) card indices for {rules.ruleset}, "
            f"not an array of shape {array.shape}"
        )
    wrong = np.flatnonzero((np.sort(array, axis=1) != expected).any(axis=1))
    if len(wrong):
        raise DeckError(
            f"deck {wrong[0]} does not hold each card of this {rules.ruleset} deck exactly once"
        )
    return array.astype(np.int8)


class Batch:
    """N games of one ruleset, moved together. Arrays given out are copies; card
    fields hold indices into :data:`~scoundrel.core.ALL_CARDS` (-1: none)."""

    rules: Rules
    _state: NDArray[np.int16]
    _dungeon: NDArray[np.int8]

    def __init__(self, rules: Rules, decks: Iterable[Sequence[Card | str]] | NDArray[Any]) -> None:
        """The start of one game for each deck (top card first): Card objects, notation,
        or an (N, deck size) array of card indices."""
        array = _deck_array(rules, decks)
        self.rules = rules
        self._strict = rules.strict
        self._coop = rules.coop_game
        self._dungeon_only = rules.death_score == "dungeon-only"
        self._state = np.empty((len(array), _COLUMNS), dtype=np.int16)
        self._dungeon = np.empty((len(array), _RING), dtype=np.int8)
        _start_all(self._state, self._dungeon, array, *_start_rules(rules))

    @classmethod
    def deal(cls, rules: Rules, decks: Iterable[Sequence[Card | str]] | NDArray[Any]) -> Batch:
        """Same as the constructor."""
        return cls(rules, decks)

    @classmethod
    def from_seeds(cls, rules: Rules, seeds: Iterable[int]) -> Batch:
        """One game for each seed, dealt by :func:`~scoundrel.core.random_deal` (M1)."""
        return cls(rules, [random_deal(rules, seed) for seed in seeds])

    def __len__(self) -> int:
        return len(self._state)

    # ------------------------------------------------------------------ moves

    def legal_mask(self) -> NDArray[np.bool_]:
        """(N, 181) booleans: which action ids are legal in each game (none once over)."""
        mask = np.zeros((len(self._state), NUM_ACTIONS), dtype=np.bool_)
        _mask_all(self._state, self._coop, mask)
        return mask

    def step(
        self, actions: Sequence[int] | NDArray[Any], where: NDArray[np.bool_] | None = None
    ) -> None:
        """Play one action id in each game still being played (only in the games where
        ``where``, N booleans, is true, if given); games already over are left alone
        (their action is ignored). ``ValueError`` if an action is not legal, and then no
        game moves."""
        size = len(self._state)
        array = np.asarray(actions, dtype=np.int64)
        if array.shape != (size,):
            raise ValueError(f"step needs {size} action ids, got shape {array.shape}")
        active = np.ones(size, dtype=np.bool_) if where is None else np.asarray(where, np.bool_)
        if active.shape != (size,):
            raise ValueError(f"where must be {size} booleans, got shape {active.shape}")
        bad = _first_illegal(self._state, array, active, self._coop)
        if bad >= 0:
            raise ValueError(f"game {bad}: action {array[bad]} is not legal there")
        _step_all(self._state, self._dungeon, array, active, self._strict, self._coop)

    def restart(
        self,
        games: Sequence[int] | NDArray[Any],
        decks: Iterable[Sequence[Card | str]] | NDArray[Any],
    ) -> None:
        """Deal a new game in each of the slots ``games`` (indices), one deck each (as the
        constructor takes them)."""
        rows = np.asarray(games, dtype=np.int64).reshape(-1)
        array = _deck_array(self.rules, decks)
        if len(array) != len(rows):
            raise ValueError(f"restart needs one deck for each of the {len(rows)} games")
        if len(rows) and (rows.min() < 0 or rows.max() >= len(self._state)):
            raise IndexError(f"game indices must lie within 0 and {len(self._state) - 1}")
        _start_some(self._state, self._dungeon, rows, array, *_start_rules(self.rules))

    def observations(self, viewer: int = 1) -> NDArray[np.int16]:
        """(N, 164) hero ``viewer``'s observation tensor of each game, row by row equal to
        ``State.observation(viewer).tensor()`` (:func:`~scoundrel.core.observation.
        observation_tensor`): only what a player sees, computed in compiled code."""
        if viewer not in range(1, self.rules.heroes + 1):
            raise ValueError(f"viewer must be 1 to {self.rules.heroes} in {self.rules.ruleset}")
        out = np.zeros((len(self._state), TENSOR_SIZE), dtype=np.int16)
        _observe_all(
            self._state,
            self._dungeon,
            viewer - 1,
            self.rules.heroes,
            self._coop,
            self._strict,
            out,
        )
        return out

    # ------------------------------------------------------------------ what is on the table

    def _column(self, first: int, count: int = 1) -> NDArray[np.int16]:
        if count == 1:
            return self._state[:, first].copy()
        return self._state[:, first : first + count].copy()

    def _per_hero(self, first: int) -> NDArray[np.int16]:
        """(N, heroes): a copy of the columns kept for each hero from ``first``."""
        return self._state[:, first : first + self.rules.heroes].copy()

    @property
    def status(self) -> NDArray[np.int16]:
        """(N,) codes: 0 playing, 1 won, 2 lost (:data:`STATUSES`)."""
        return self._column(_STATUS)

    @property
    def score(self) -> NDArray[np.int32]:
        """(N,) scores (S13, C10); :data:`NO_SCORE` for a game still being played."""
        scores = np.empty(len(self._state), dtype=np.int32)
        _score_all(self._state, self._dungeon, self._coop, self._dungeon_only, scores)
        return scores

    @property
    def health(self) -> NDArray[np.int16]:
        """(N, heroes) health."""
        return self._per_hero(_HEALTH)

    @property
    def weapon(self) -> NDArray[np.int16]:
        """(N, heroes) the card index of each hero's weapon, -1 for none."""
        return self._per_hero(_WEAPON_CARD)

    @property
    def reach(self) -> NDArray[np.int16]:
        """(N, heroes) each weapon's reach in the kernel's convention: monsters below it."""
        return self._per_hero(_REACH)

    @property
    def potion_used(self) -> NDArray[np.bool_]:
        """(N, heroes) whether a potion reached each hero in this room (S10, C6)."""
        used = self._per_hero(_POTION_USED)
        answer: NDArray[np.bool_] = used != 0
        return answer

    @property
    def room(self) -> NDArray[np.int16]:
        """(N, 4) the room's cards in room order (S3), padded with -1."""
        return self._column(_ROOM, ROOM_SIZE)

    @property
    def room_size(self) -> NDArray[np.int16]:
        return self._column(_ROOM_N)

    @property
    def dungeon_count(self) -> NDArray[np.int16]:
        """(N,) face-down cards left."""
        return self._column(_LEFT)

    @property
    def leader(self) -> NDArray[np.int16]:
        """(N,) the hero, 1 or 2, who leads the room (C3); 1 in solo."""
        return self._column(_LEADER) + 1

    @property
    def resolved_in_room(self) -> NDArray[np.int16]:
        return self._column(_TAKEN)

    @property
    def help_used(self) -> NDArray[np.bool_]:
        answer: NDArray[np.bool_] = self._column(_HELP) != 0
        return answer

    @property
    def fled_into(self) -> NDArray[np.bool_]:
        """(N,) whether the room was dealt after a flee, and so must be faced (S5)."""
        answer: NDArray[np.bool_] = self._column(_FLED) != 0
        return answer

    @property
    def last_resolved(self) -> NDArray[np.int16]:
        """(N,) the card index of the last card resolved, -1 before the first."""
        return self._column(_LAST)

    @property
    def last_kill(self) -> NDArray[np.int16]:
        """(N, heroes) the value of the last monster each hero's weapon slew, 0 for none."""
        return self._per_hero(_LAST_KILL)

    @property
    def stack_size(self) -> NDArray[np.int16]:
        """(N, heroes) how many monsters each hero's current weapon has slain (S8)."""
        return self._per_hero(_STACK)

    @property
    def known_count(self) -> NDArray[np.int16]:
        """(N,) how many cards at the bottom of the dungeon are known, fled from (S5)."""
        return self._column(_KNOWN)

    def dungeon(self, game: int) -> list[Card]:
        """Game ``game``'s face-down dungeon, top card first. Hidden information."""
        head, left = int(self._state[game, _HEAD]), int(self._state[game, _LEFT])
        ring = self._dungeon[game]
        return [ALL_CARDS[ring[(head + j) & _RING_MASK]] for j in range(left)]


def play_random(rules: Rules, games: int, seed: int = 0, batch_size: int = 4096) -> BenchResult:
    """Play ``games`` games with uniformly random legal moves, ``batch_size`` at once, all
    in compiled code. The deals are :mod:`scoundrel.bench`'s (``random_deal`` with seeds
    ``seed`` to ``seed + games - 1``), made before the clock starts; so is the compilation
    (a warm-up game first). The moves themselves come from a generator seeded with
    ``seed``, so a run is repeatable."""
    if games < 1 or batch_size < 1:
        raise ValueError("games and batch_size must be at least 1")
    decks = _deck_array(rules, [random_deal(rules, seed + i) for i in range(games)])
    strict, coop, start = rules.strict, rules.coop_game, _start_rules(rules)
    _random_games(decks[:1], 1, strict, coop, start, seed)  # compile, outside the clock
    started = time.perf_counter()
    moves = _random_games(decks, min(batch_size, games), strict, coop, start, seed)
    seconds = time.perf_counter() - started
    return BenchResult(games, int(moves), seconds)
