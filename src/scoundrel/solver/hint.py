"""Hints: the searching bot's move for a position, why, and each legal move's chance to win.

A move's chance to win is the share of games won when it is played, then the rest of the
room as the best way that starts with it, then the rest of the game by the fast bot's
judgement, over many orders of the unseen cards (every order when five or fewer are left:
then it is exact). It is a fair estimate: it never uses the dungeon's real order.

Interfaces show :meth:`Hint.text` (English) or build their own sentence from the stable
``reason`` code and the fields, as the browser does in every language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.cards import Kind
from ..core.moves import Move
from ..core.observation import Observation
from .bot import Choice
from .searcher import Estimate, SearchBot, advice_playouts


@dataclass(frozen=True)
class Chance:
    """One legal move's chance to win, from the best way that starts with it."""

    move: Move
    estimate: Estimate

    def to_dict(self) -> dict[str, Any]:
        low, high = self.estimate.interval
        return {
            "move": self.move.token,
            "chance": round(self.estimate.chance, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "mean_score": round(self.estimate.mean_score, 2),
            "games": self.estimate.games,
            "exact": self.estimate.exact,
        }

    def text(self) -> str:
        return f"{describe(self.move)}: {percent(self.estimate)}"


@dataclass(frozen=True)
class Hint:
    move: Move
    plan: tuple[Move, ...]
    """The bot's plan for the rest of the room, starting with :attr:`move`."""
    reason: str
    """``flee``: a flee wins more often than any way through the room; ``face``: the plan
    is the best way through the room; ``final``: the best way to end the game;
    ``doomed``: every way through is fatal, the plan slays as much as it can."""
    health: tuple[tuple[int, int], ...]
    """Each hero's health before and after the plan."""
    kept: str | None
    """The card the plan leaves in the room for the next one."""
    chances: tuple[Chance, ...] = ()
    """Every legal move's chance to win, best first."""
    flee_reason: str | None = None
    """Why a flee (``reason`` ``flee``): ``wins``, it wins more often than any way through
    the room; ``tie``, as often as the best and it scores more on average; ``score``,
    nothing wins and it scores best on average; ``judged``, nothing wins and the fast
    judgement (health, weapons, the cards to come) prefers it; ``close``, no way through
    the room won clearly more of the same games, and the judgement prefers it."""
    judged: bool = False
    """The move is the fast bot's choice, by its judgement of health, weapons and the
    cards to come (see :meth:`SearchBot.advise`): no way won a playout, or none won
    clearly more of the same games than that choice (then a move with a higher chance
    may be listed: the difference is within the luck of the sample)."""

    def text(self) -> str:
        return self.advice() + ("\n" + self.chances_text() if self.chances else "")

    def advice(self) -> str:
        plan = " ".join(move.token for move in self.plan)
        if self.reason == "flee":
            return (
                "Hint: F. Flee: " + self._why_flee() + " Its cards go to the bottom of the dungeon."
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

    def _why_flee(self) -> str:
        if self.flee_reason == "tie":
            return (
                "played out over the orders the unseen cards may lie in, fleeing wins as "
                "often as the best way through this room and scores more on average."
            )
        if self.flee_reason == "score":
            return (
                "in the games played out over the orders the unseen cards may lie in, no move "
                "wins, but fleeing scores best on average."
            )
        if self.flee_reason == "judged":
            return (
                "in the games played out over the orders the unseen cards may lie in, no move "
                "wins; judged by health, weapons and the cards still to come, fleeing is best."
            )
        if self.flee_reason == "close":
            return (
                "in the games played out over the orders the unseen cards may lie in, no way "
                "through this room wins clearly more of them; judged by health, weapons and "
                "the cards still to come, fleeing is best."
            )
        return (
            "played out over the orders the unseen cards may lie in, fleeing wins more "
            "often than any way through this room."
        )

    def chances_text(self) -> str:
        """One line per legal move: its chance to win (with its error bar)."""
        lines = ["Chances to win:"]
        lines += [f"  {chance.text()}" for chance in self.chances]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.move.token,
            "plan": [move.token for move in self.plan],
            "reason": self.reason,
            "health": [list(pair) for pair in self.health],
            "kept": self.kept,
            "chances": [chance.to_dict() for chance in self.chances],
            "flee_reason": self.flee_reason,
            "judged": self.judged,
            "text": self.text(),
        }


def percent(estimate: Estimate) -> str:
    """``34% to win (±8)`` or, when exact, ``34% to win (exact)``."""
    chance = round(estimate.chance * 100)
    if estimate.exact:
        return f"{chance}% to win (exact)"
    low, high = estimate.interval
    margin = round(max(estimate.chance - low, high - estimate.chance) * 100)
    return f"{chance}% to win (±{margin})"


def describe(move: Move) -> str:
    """A move in a few English words: ``Fight K♠ with the weapon``."""
    card = move.card
    if card is None:
        return "Flee"
    if card.kind is Kind.WEAPON:
        text = f"Take {card.symbol}"
    elif card.kind is Kind.POTION:
        text = f"Drink {card.symbol}"
    else:
        text = f"Fight {card.symbol} " + ("with the weapon" if move.weapon else "bare-handed")
    if move.help:  # C5: the partner resolves it
        if card.kind is Kind.MONSTER:
            how = "with their weapon" if move.weapon else "bare-handed"
            return f"Give {card.symbol} to the partner, who fights it {how}"
        return f"Give {card.symbol} to the partner"
    return text


def hint(
    observation: Observation,
    bot: SearchBot | None = None,
    cancel: Callable[[], bool] | None = None,
) -> Hint:
    """The searching bot's advice for ``observation`` (never the deck order: it cannot see
    it), with every legal move's chance to win."""
    bot = bot or SearchBot(playouts=advice_playouts(observation.rules))
    search, chosen = bot.advise(observation, every_move=True, cancel=cancel)
    chances = []
    for move in observation.legal_moves:
        estimate = search.of(move)
        if estimate is not None:
            chances.append(Chance(move, estimate))
    chances.sort(key=lambda c: (c.estimate.chance, c.estimate.mean_score), reverse=True)
    before = tuple(hero.health for hero in observation.heroes)
    if isinstance(chosen, Choice):  # no way won clearly more: the fast bot's choice
        return _judged(observation, chosen, before, tuple(chances))
    way = chosen.way
    if way.flee:
        reason = "flee"
        after = before
    else:
        after = tuple(way.heroes[0::3])
        if way.fatal:
            reason = "doomed"
        elif observation.final_room:
            reason = "final"
        else:
            reason = "face"
    taken = {move.card for move in chosen.moves}
    kept = None
    if reason == "face":
        kept = next((c.code for c in observation.room if c not in taken), None)
    return Hint(
        chosen.move,
        chosen.moves,
        reason,
        tuple(zip(before, after, strict=True)),
        kept,
        tuple(chances),
        _flee_reason(chosen, chances) if way.flee else None,
    )


def _flee_reason(flee: Estimate, chances: list[Chance]) -> str:
    """Why the search's best way is a flee (see :attr:`Hint.flee_reason`)."""
    others = [c.estimate.chance for c in chances if not c.move.is_flee]
    if flee.chance > max(others, default=0.0):
        return "wins"
    return "tie" if flee.chance > 0 else "score"


def _judged(
    observation: Observation, choice: Choice, before: tuple[int, ...], chances: tuple[Chance, ...]
) -> Hint:
    """The hint when the playouts did not single out a way: the fast bot's plan, as the
    searching bot plays it (:meth:`SearchBot.advise`), with every move's chance."""
    if choice.move.is_flee:
        return Hint(
            choice.move,
            choice.moves,
            "flee",
            tuple((h, h) for h in before),
            None,
            chances,
            "close" if any(c.estimate.wins for c in chances) else "judged",
            judged=True,
        )
    if choice.face_value is None:  # every way through the room is fatal
        return Hint(
            choice.move,
            choice.moves,
            "doomed",
            tuple((h, h) for h in before),
            None,
            chances,
            judged=True,
        )
    after = tuple(h - lost for h, lost in zip(before, choice.damage, strict=True))
    reason = "final" if observation.final_room else "face"
    return Hint(
        choice.move,
        choice.moves,
        reason,
        tuple(zip(before, after, strict=True)),
        choice.kept if reason == "face" else None,
        chances,
        judged=True,
    )
