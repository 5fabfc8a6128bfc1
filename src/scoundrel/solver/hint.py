"""Hints: the fair bot's move for a position, with why (what it costs, what it keeps).

Interfaces show :meth:`Hint.text` (English) or build their own sentence from the stable
``reason`` code and the fields, as the browser does in every language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.moves import Move
from ..core.observation import Observation
from .bot import Bot


@dataclass(frozen=True)
class Hint:
    move: Move
    plan: tuple[Move, ...]
    """The bot's plan for the rest of the room, starting with :attr:`move`."""
    reason: str
    """``flee``: the room looks worse than what a flee would bring; ``face``: the plan is
    the best way through the room; ``final``: the best way to end the game;
    ``doomed``: every way through is fatal, the plan slays as much as it can."""
    health: tuple[tuple[int, int], ...]
    """Each hero's health before and after the plan."""
    kept: str | None
    """The card the plan leaves in the room for the next one."""

    def text(self) -> str:
        plan = " ".join(move.token for move in self.plan)
        if self.reason == "flee":
            return (
                "Hint: F. Flee: facing this room costs more than the rooms a flee is likely "
                "to bring, and its cards go to the bottom of the dungeon."
            )
        if self.reason == "doomed":
            return (
                f"Hint: {self.move.token}. Every way through this room is fatal; "
                f"{plan} slays as much as it can first."
            )
        changes = []
        for number, (before, after) in enumerate(self.health, start=1):
            who = f"hero {number} " if len(self.health) > 1 else ""
            if after < before:
                changes.append(f"{who}loses {before - after} health ({before} → {after})")
            elif after > before:
                changes.append(f"{who}gains {after - before} health ({before} → {after})")
            else:
                changes.append(f"{who}keeps {before} health")
        cost = ", ".join(changes)
        if self.reason == "final":
            return f"Hint: {self.move.token}. The way out: {plan}; {cost}."
        kept = f", and {self.kept} stays for the next room" if self.kept else ""
        return f"Hint: {self.move.token}. Plan for this room: {plan}; {cost}{kept}."

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.move.token,
            "plan": [move.token for move in self.plan],
            "reason": self.reason,
            "health": [list(pair) for pair in self.health],
            "kept": self.kept,
            "text": self.text(),
        }


def hint(observation: Observation, bot: Bot | None = None) -> Hint:
    """The fair bot's advice for ``observation`` (never the deck order: it cannot see it)."""
    choice = (bot or Bot()).plan(observation)
    before = tuple(hero.health for hero in observation.heroes)
    if choice.moves[0].is_flee:
        reason = "flee"
    elif choice.face_value is None:
        reason = "doomed"
    elif observation.final_room:
        reason = "final"
    else:
        reason = "face"
    after = tuple(b - d for b, d in zip(before, choice.damage, strict=True))
    return Hint(
        choice.moves[0],
        choice.moves,
        reason,
        tuple(zip(before, after, strict=True)),
        choice.kept,
    )
