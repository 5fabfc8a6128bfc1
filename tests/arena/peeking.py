"""A policy that cheats, for the arena's tests: it reads the order of the dungeon out of
the frame of whoever asks it (as a bot handed the simulator's state would), plans the
whole game with the perfect-information solver at its first move, and follows that plan
while it can (then plays as the fast bot)."""

from __future__ import annotations

import sys

from scoundrel.core import Move, Observation, State
from scoundrel.solver import Bot, solve


def _state_of_the_game() -> State:
    frame = sys._getframe(1)
    while frame is not None:
        state = frame.f_locals.get("state")
        if isinstance(state, State):
            return state
        frame = frame.f_back  # type: ignore[assignment]
    raise RuntimeError("no game state to peek at")


class Peeker:
    def __init__(self) -> None:
        self.fast = Bot()
        self.line: list[Move] = []

    def plan(self, observation: Observation) -> object:
        start = not observation.discard and not observation.known_bottom
        if start and observation.resolved_in_room == 0:  # a new game: read its order
            self.line = list(solve(_state_of_the_game()).line)
        if self.line and self.line[0] in observation.legal_moves:
            return _Plan((self.line.pop(0),))
        self.line = []
        return self.fast.plan(observation)


class _Plan:
    def __init__(self, moves: tuple[Move, ...]) -> None:
        self.moves = moves
