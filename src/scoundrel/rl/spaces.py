"""What the environments share: the observation bounds, the mask and the reward.

Everything here is built from the core's public API: an observation is
:meth:`Observation.tensor() <scoundrel.core.Observation.tensor>` (164 numbers laid out as
:data:`~scoundrel.core.observation.TENSOR_LAYOUT` says, never the dungeon's order) and the
mask is :meth:`State.legal_action_mask() <scoundrel.core.State.legal_action_mask>` (181
booleans, one per action id of :mod:`scoundrel.core.actions`).

>>> low, high = observation_bounds()
>>> int(low.min()), int(high.max())
(-14, 50)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, SupportsInt

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from scoundrel.core import MAX_HEALTH, Card, Kind, Move, Rules, State, Status
from scoundrel.core.actions import NUM_ACTIONS, move_of
from scoundrel.core.kernel import FRESH, ROOM_SIZE
from scoundrel.core.observation import FLAGS, HERO_FEATURES, TENSOR_LAYOUT, TENSOR_SIZE
from scoundrel.rewards import check_choices

#: The observation's number type: every number of the tensor lies within -14 and 50.
DTYPE = np.int16

# The biggest rulesets: each card of every ruleset is in one of them.
_WIDEST = (Rules.solo(), Rules.coop(harder=True))
_PART = {name: (start, length) for name, start, length in TENSOR_LAYOUT}
_UNSEEN_OFFSET = {Kind.MONSTER: 0, Kind.WEAPON: 14, Kind.POTION: 23}  # values from 2 up


def _unseen_slot(card: Card) -> int:
    return _PART["unseen"][0] + _UNSEEN_OFFSET[card.kind] + card.value - 2


def observation_bounds() -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """The lowest and highest value of each of the 164 numbers, for every ruleset (one
    space fits them all, so an agent can move between rule options):

    * ``room``: 0 or 1 per card;
    * ``unseen``: how many cards of a kind and value exist in the largest deck (a monster
      of 2 to 10: 2; J to A: 4 in co-op; the jokers: 2; a weapon or potion: 1);
    * ``known_bottom``: a place from the bottom, at most the dungeon's count, and the
      dungeon never holds more than the deck less a room (50 in co-op ``harder``);
    * ``heroes``: health from 1 − 15 = −14 (a hero at 1 health hit by a joker bare-handed;
      −13 in solo, by an ace) to 20; weapon 0-10; reach 0-16 (a fresh weapon: 16); last
      kill 0-15; the stack at most every monster of the deck (36); potion used 0-1;
    * ``flags``: ``viewer`` 1-2, ``dungeon_count`` 0-50, ``resolved_in_room`` 0-4,
      ``status`` 0-2, ``max_health`` 1-20 (V2), the others 0-1.
    """
    low = np.zeros(TENSOR_SIZE, dtype=DTYPE)
    high = np.zeros(TENSOR_SIZE, dtype=DTYPE)
    start, length = _PART["room"]
    high[start : start + length] = 1
    for rules in _WIDEST:
        counts: dict[int, int] = {}
        for card in rules.cards:
            slot = _unseen_slot(card)
            counts[slot] = counts.get(slot, 0) + 1
        for slot, count in counts.items():
            high[slot] = max(int(high[slot]), count)
    deepest = max(rules.deck_size for rules in _WIDEST) - ROOM_SIZE
    start, length = _PART["known_bottom"]
    high[start : start + length] = deepest
    cards = [card for rules in _WIDEST for card in rules.cards]
    strongest = max(card.value for card in cards if card.is_monster)
    hero_high = {
        "health": MAX_HEALTH,
        "weapon": max(card.value for card in cards if card.kind is Kind.WEAPON),
        "reach": FRESH,  # below it (S9, C7): a fresh weapon reaches every monster
        "last_kill": strongest,
        "stack": max(sum(card.is_monster for card in rules.cards) for rules in _WIDEST),
        "potion_used": 1,
    }
    start, length = _PART["heroes"]
    for slot in range(length):
        feature = HERO_FEATURES[slot % len(HERO_FEATURES)]
        high[start + slot] = hero_high[feature]
        if feature == "health":
            low[start + slot] = 1 - strongest  # S11, C8: the blow that kills
    flag_high = {"viewer": 2, "dungeon_count": deepest, "resolved_in_room": ROOM_SIZE}
    flag_high["status"] = 2
    flag_high["max_health"] = MAX_HEALTH  # V2: 1 to 20
    start, _ = _PART["flags"]
    for slot, name in enumerate(FLAGS):
        high[start + slot] = flag_high.get(name, 1)
        if name in ("viewer", "max_health"):
            low[start + slot] = 1
    return low, high


def observation_box() -> spaces.Box:
    """The space of one hero's observation tensor."""
    low, high = observation_bounds()
    return spaces.Box(low=low, high=high, shape=(TENSOR_SIZE,), dtype=DTYPE)


def mask_box() -> spaces.Box:
    """The space of an action mask: 181 numbers, 0 or 1."""
    return spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8)


def observation_array(state: State, viewer: int = 1) -> npt.NDArray[np.int16]:
    """Hero ``viewer``'s observation of ``state`` as a fresh array (public information only)."""
    return np.array(state.observation(viewer).tensor(), dtype=DTYPE)


def mask_array(state: State) -> npt.NDArray[np.int8]:
    """:meth:`State.legal_action_mask` as a fresh array of 0 and 1."""
    return np.array(state.legal_action_mask(), dtype=np.int8)


def settle(
    ruleset: str,
    options: Mapping[str, Any],
    reward: str,
    illegal: str = "penalty",
    render_mode: str | None = None,
) -> Rules:
    """The rules of an environment, checked by :meth:`Rules.from_options`; a
    :class:`ValueError` names any unknown option, value, reward, illegal-action choice or
    render mode."""
    if render_mode is not None and render_mode != "ansi":
        raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
    check_choices(reward, illegal)
    return Rules.from_options(ruleset, dict(options))  # OptionError, a ValueError


def judge(state: State, action: SupportsInt, illegal: str) -> tuple[Move, str | None]:
    """The move of an action id (ValueError outside 0-180) and, when the rules refuse it
    here, why; with ``illegal="raise"`` a refused move raises that as a ValueError."""
    number = int(action)
    move = move_of(number)
    refusal = state.explain(move)
    if refusal is None:
        return move, None
    text = f"action {number} ({move}) is illegal here: {refusal.text}"
    if illegal == "raise":
        raise ValueError(text)
    return move, text


def final_reward(state: State, reward: str) -> float:
    """The reward at the end of a game: its score (S13, C10), or 1 for a win and 0 for a
    loss with ``reward="win"``."""
    if reward == "win":
        return 1.0 if state.status is Status.WON else 0.0
    score = state.score
    assert score is not None, "the game is not over"
    return float(score)
