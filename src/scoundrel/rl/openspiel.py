"""Scoundrel as an OpenSpiel game, ``python_scoundrel``, registered on import.

>>> import pyspiel
>>> import scoundrel.rl.openspiel
>>> game = pyspiel.load_game("python_scoundrel(ruleset=coop)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(2, 181, 52)
>>> game.min_utility(), game.max_utility(), game.max_game_length()
(-288.0, 40.0, 68)

**Parameters**: ``ruleset`` (``solo``, the default, or ``coop``) and the rule options of
docs/rules.md: ``weapon`` and ``death_score`` (empty: the ruleset's default), ``easier``,
``harder``, ``silent_leader`` and ``first_leader``; and the variants of both rulesets,
``flee`` (``allowed`` or ``never``, V1) and ``health`` (20 down to 1, V2). A co-op option set
in solo, or any value
the rules do not know, is refused with the core's message.

**Chance**: the game starts with explicit chance nodes that draw the dungeon one card at a
time, top card first, uniformly over the cards not drawn yet (an outcome is a card's place
in :attr:`Rules.cards`, so ``max_chance_outcomes`` is the deck's size: 44 in solo, 52 in
co-op); the rules' :class:`~scoundrel.core.State` is then built from the drawn deck.

**Players**: one in solo, two in co-op, where the current player is the hero who leads
the room (``State.leader − 1``; the leader plays every move of a room, help cards
included, see :class:`scoundrel.rl.coop.CoopEnv`). Actions are the 181 ids of
:mod:`scoundrel.core.actions`. The team shares its returns: the final score (S13, C10)
for every player, 0 until the end; ``min_utility`` and ``max_utility`` are
:attr:`Rules.score_range`. ``max_game_length`` is :attr:`Rules.max_game_length` (58 solo,
68 co-op): OpenSpiel counts player decisions there, not chance outcomes.

**What a player knows**: the observation (``observation_tensor``/``observation_string``)
is :meth:`Observation.tensor` and ``str(observation)`` for that player's hero. The
information state adds perfect recall without the dungeon's hidden order: the string
lists every move played and every card as it was first seen, in turn, then the
observation; the tensor is the observation's 164 numbers, then one number per possible
move (its action id + 1, 0 for moves not made yet) and one per card (the order in which it
was first seen, 1 for the first, 0 if not seen yet). Before the deal is complete every
player's tensor is all zeros.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found]

from scoundrel.core import ALL_CARDS, Card, Rules, State
from scoundrel.core.actions import NUM_ACTIONS, move_of
from scoundrel.core.observation import TENSOR_LAYOUT, TENSOR_SIZE
from scoundrel.core.rules import VARIANTS

SHORT_NAME = "python_scoundrel"
#: The game's parameters and their defaults (an empty text is the ruleset's default).
PARAMETERS: dict[str, Any] = {
    "ruleset": "solo",
    "weapon": "",
    "death_score": "",
    "easier": False,
    "harder": False,
    "silent_leader": False,
    "first_leader": 1,
    **VARIANTS,
}
_NEUTRAL = {"weapon": "", "death_score": "", "easier": False, "harder": False}
_NEUTRAL.update({"silent_leader": False, "first_leader": 1, **VARIANTS})

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Scoundrel",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.IDENTICAL,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def rules_of(params: dict[str, Any]) -> Rules:
    """The rules a game's parameters describe (defaults: solo, strict weapons)."""
    values = {**PARAMETERS, **params}
    ruleset = str(values.pop("ruleset"))
    known = Rules.from_options(ruleset).options if ruleset in ("solo", "coop") else {}
    options = {
        key: value for key, value in values.items() if key in known or value != _NEUTRAL[key]
    }
    options = {key: value for key, value in options.items() if value != ""}
    return Rules.from_options(ruleset, options)  # OptionError (a ValueError) if wrong


class ScoundrelGame(pyspiel.Game):  # type: ignore[misc]
    """The game: its rules come from the parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        rules = rules_of(dict(params or {}))
        low, high = rules.score_range
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=rules.deck_size,
            num_players=rules.heroes,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=None,
            max_game_length=rules.max_game_length,
        )
        super().__init__(_GAME_TYPE, info, dict(params or {}))
        self.rules = rules

    def new_initial_state(self) -> ScoundrelState:
        """The start of a game: nothing drawn yet."""
        return ScoundrelState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ScoundrelObserver:
        """An observer: the observation, or with ``perfect_recall`` the information state."""
        return ScoundrelObserver(
            self.rules,
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params,
        )


class ScoundrelState(pyspiel.State):  # type: ignore[misc]
    """A position: the cards drawn so far, then the rules' state once the deal is done."""

    def __init__(self, game: ScoundrelGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.drawn: list[int] = []  # places in rules.cards, top card first
        self.state: State | None = None
        self.moves: list[int] = []  # the players' action ids
        self.seen: list[Card] = []  # cards in the order they were first seen
        self.events: list[str] = []  # moves and first sightings, for the information state

    # ------------------------------------------------------------------ the OpenSpiel API

    def current_player(self) -> int:
        state = self.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return state.leader - 1

    def _legal_actions(self, player: int) -> list[int]:
        assert self.state is not None and player == self.state.leader - 1
        return self.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.state is None, "the deal is over"
        left = sorted(set(range(self.rules.deck_size)) - set(self.drawn))
        probability = 1.0 / len(left)
        return [(place, probability) for place in left]

    def _apply_action(self, action: int) -> None:
        if self.state is None:
            self.drawn.append(action)
            if len(self.drawn) == self.rules.deck_size:
                cards = self.rules.cards
                self.state = State.new(self.rules, [cards[place] for place in self.drawn])
                self._see()
            return
        self.state = self.state.apply(move_of(action))
        self.moves.append(action)
        self.events.append(str(move_of(action)))
        self._see()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {self.rules.cards[action].code}"
        return str(move_of(action))

    def is_terminal(self) -> bool:
        return self.state is not None and self.state.is_over

    def returns(self) -> list[float]:
        score = None if self.state is None else self.state.score
        return [float(score or 0)] * self.rules.heroes

    def __str__(self) -> str:
        if self.state is None:
            drawn = " ".join(self.rules.cards[place].code for place in self.drawn)
            return f"dealing: {drawn}"
        return repr(self.state)

    def _see(self) -> None:
        assert self.state is not None
        new = [card for card in self.state.room if card not in self.seen]
        if new:
            self.seen.extend(new)
            self.events.append("+" + ",".join(card.code for card in new))


def _empty(length: int) -> npt.NDArray[np.float32]:
    return np.zeros(length, dtype=np.float32)


class ScoundrelObserver:
    """Observation (the default) or information state (``perfect_recall``) of a player,
    as the PyObserver interface of ``open_spiel.python.observation`` asks."""

    def __init__(self, rules: Rules, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        pieces = [(name, length) for name, _, length in TENSOR_LAYOUT] if self.public else []
        if self.public and self.recall:
            pieces += [("moves", rules.max_game_length), ("seen_order", len(ALL_CARDS))]
        self.tensor = _empty(sum(length for _, length in pieces))
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        index = 0
        for name, length in pieces:
            self.dict[name] = self.tensor[index : index + length]
            index += length

    def set_from(self, state: ScoundrelState, player: int) -> None:
        """Fill :attr:`tensor` with ``state`` as ``player`` knows it."""
        self.tensor.fill(0)
        if not self.public or state.state is None:
            return  # nothing is private in Scoundrel; before the deal nothing is seen
        self.tensor[:TENSOR_SIZE] = state.state.observation(player + 1).tensor()
        if self.recall:
            moves = self.dict["moves"]
            moves[: len(state.moves)] = np.array(state.moves, dtype=np.float32) + 1
            seen_order = self.dict["seen_order"]
            for order, card in enumerate(state.seen, start=1):
                seen_order[card.index] = order

    def string_from(self, state: ScoundrelState, player: int) -> str:
        """``state`` as ``player`` knows it, as text."""
        if not self.public:
            return ""
        if state.state is None:
            return f"dealing: {len(state.drawn)} of {state.rules.deck_size} cards drawn"
        seen = str(state.state.observation(player + 1))
        if self.recall:
            return " ".join(state.events) + " | " + seen
        return seen


pyspiel.register_game(_GAME_TYPE, ScoundrelGame)
