"""The position as plain text, for terminals and screen readers.

Everything here describes what the core says; nothing decides a rule. Lines are short and
free of box drawing so that a screen reader reads them well.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoundrel.core import (
    Card,
    Hero,
    Kind,
    Observation,
    Rules,
    Score,
    State,
    format_moves,
)
from scoundrel.core.label import weapon_limit

if TYPE_CHECKING:
    from scoundrel.solver import Analysis
    from scoundrel.solver.review import Review

SCORE_LABELS = {
    "health": "health",
    "health_hero1": "hero 1's health",
    "health_hero2": "hero 2's health",
    "potion_bonus": "potion bonus (last card a potion at full health)",
    "monsters_in_dungeon": "monsters left in the dungeon",
    "monsters_in_room": "monsters left in the room",
}


def card_text(card: Card | None, ascii_only: bool = False) -> str:
    if card is None:
        return "-"
    return card.code if ascii_only else card.symbol


def counted(n: int, word: str) -> str:
    """``3 cards``, ``1 card``, ``0 cards``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def cards_text(cards: tuple[Card, ...] | list[Card], ascii_only: bool = False) -> str:
    return " ".join(card_text(card, ascii_only) for card in cards) if cards else "(none)"


def rules_text(rules: Rules) -> str:
    """One line naming the ruleset and every option that is not the default."""
    if rules.ruleset == "solo":
        parts = [f"solo, {rules.weapon} weapons"]
        if rules.death_score != "standard":
            parts.append("death score counts the dungeon only")
    else:
        parts = [f"co-op for two, {rules.weapon} weapons"]
        for name in ("easier", "harder", "silent_leader"):
            if getattr(rules, name):
                parts.append(name.replace("_", " "))
        if rules.first_leader != 1:
            parts.append(f"hero {rules.first_leader} leads first")
    parts.extend(f"{name} {value}" for name, value in rules.variants.items())
    return ", ".join(parts)


#: A weapon's limit as the core states it (S9, C7), in words.
LIMIT_TEXTS = {
    "fresh": ", fresh: usable on any monster",
    "below": ", usable on monsters below {n}",
    "up_to": ", usable on monsters up to {n}",
}


def weapon_text(hero: Hero, rules: Rules, ascii_only: bool = False) -> str:
    limit = weapon_limit(hero, rules)
    if limit.code == "none":
        return "no weapon"
    text = card_text(hero.weapon, ascii_only)
    if hero.stack:
        text += f" with {cards_text(hero.stack, ascii_only)} on it"
    return text + LIMIT_TEXTS[limit.code].format(n=limit.n)


def hero_name(observation: Observation, number: int) -> str:
    if len(observation.heroes) == 1:
        return "You"
    return f"Hero {number}"


def position_text(observation: Observation, ascii_only: bool = False) -> str:
    """The table as a player sees it."""
    lines = [f"Scoundrel: {rules_text(observation.rules)}"]
    for number, hero in enumerate(observation.heroes, start=1):
        name = hero_name(observation, number)
        lead = (
            " (leads this room)"
            if len(observation.heroes) > 1 and number == (observation.leader)
            else ""
        )
        potion = ", potion used this room" if hero.potion_used else ""
        lines.append(
            f"{name}{lead}: health {hero.health}/{observation.rules.health}, "
            f"{weapon_text(hero, observation.rules, ascii_only)}{potion}"
        )
    room = cards_text(observation.room, ascii_only)
    final = " (final room: every card is resolved)" if observation.final_room else ""
    lines.append(f"Room: {room}{final}")
    counts = observation.unseen_counts
    unseen = ", ".join(
        counted(sum(counts[kind].values()), kind.value) for kind in Kind if counts[kind]
    )
    dungeon = f"Dungeon: {counted(observation.dungeon_count, 'card')}"
    if observation.unseen:
        dungeon += f"; unseen {unseen}"
    if observation.known_bottom:
        dungeon += f"; at the bottom: {cards_text(observation.known_bottom, ascii_only)}"
    lines.append(dungeon)
    for kind in Kind:
        cards = sorted((c for c in observation.unseen if c.kind is kind), key=lambda c: c.value)
        if cards:  # each by its rank, as the core writes it (a joker has none to write)
            listed = " ".join(card.rank if card.suit else "Joker" for card in cards)
            lines.append(f"Unseen {kind.value}s: {listed}")
    return "\n".join(lines)


def score_text(score: Score) -> str:
    lines = []
    for name, points in score.parts:
        lines.append(
            f"  {SCORE_LABELS.get(name, name)}: {points:+d}"
            if points
            else f"  {SCORE_LABELS.get(name, name)}: 0"
        )
    lines.append(f"  score: {score.total}")
    return "\n".join(lines)


def outcome_text(state: State) -> str:
    breakdown = state.score_breakdown()
    if breakdown is None:
        return "The game goes on."
    heading = "The dungeon is cleared!" if state.status == "won" else "The dungeon wins."
    return heading + "\n" + score_text(breakdown)


def analysis_text(result: Analysis) -> str:
    """A post-game analysis in a few sentences."""
    lines = []
    best = result.best_score
    if result.winnable:
        lines.append(
            f"The deal could be won. The best possible score was {best}."
            if best is not None
            else f"The deal could be won: a winning line scores {result.line_score}."
        )
    else:
        lines.append(
            "The deal could not be won, even knowing every card."
            + (f" The best possible score was {best}." if best is not None else "")
        )
    if result.score is None:
        lines.append(f"Your game is still on after {result.moves} moves.")
    else:
        lines.append(f"Your game scored {result.score} in {result.moves} moves.")
    slip = result.slip
    if result.stopped_after is not None:
        lines.append(
            f"The search for {'where' if best is not None else 'the best score and where'} "
            f"the game slipped was stopped after {result.stopped_after:.0f} s "
            "(--best-seconds gives it more time)."
        )
    elif slip is None:
        lines.append(
            "Every move kept the best score within reach."
            if result.score is not None
            else "So far every move kept the best score within reach."
        )
    else:
        lines.append(
            f"The first slip was move {slip.number}, {slip.played.token}: before it the best "
            f"reachable score was {slip.best_before}, after it {slip.best_after}."
        )
        lines.append(
            f"Better was {slip.better.token}, for example: {format_moves(slip.better_line)}"
        )
    lost = result.win_slip
    if lost is not None:
        lines.append(
            f"The chance to win was lost at move {lost.number}, {lost.played.token}: "
            "after it no line could win."
        )
        lines.append(
            f"Better was {lost.better.token}, for example: {format_moves(lost.better_line)}"
        )
    lines.append(f"({result.nodes:,} positions searched in {result.seconds:.2f} s.)")
    if result.review is not None and result.review.moves:
        lines += ["", review_text(result.review)]
    return "\n".join(lines)


def chance_chart(chances: tuple[float, ...], rows: int = 5, ascii_only: bool = False) -> list[str]:
    """A win-chance graph in text: one column per position, 0-100% in ``rows`` rows."""
    full, half = ("#", ".") if ascii_only else ("█", "▄")
    lines = []
    for row in range(rows, 0, -1):
        top, middle = row / rows, (row - 0.5) / rows
        cells = "".join(full if c >= top - 1e-9 else half if c >= middle else " " for c in chances)
        label = f"{round(top * 100):>3}%" if row in (rows, (rows + 1) // 2) else "    "
        lines.append(f"{label} |{cells}")
    ticks = "".join("|" if (i + 1) % 10 == 0 else "-" for i in range(len(chances)))
    lines.append(f"  0% +{ticks}")
    return lines


def review_text(review: Review, ascii_only: bool = False) -> str:
    """The fair review: the win-chance graph, the grades, the moves that gave up most."""
    lines = [
        "Fair review: before each move, the chance to win a player could have known "
        f"(the searching bot, {review.playouts} playouts per move; a tick every 10 moves):"
    ]
    lines += chance_chart(review.chances, ascii_only=ascii_only)
    counts = review.counts()
    lines.append(", ".join(f"{name} {n}" for name, n in counts.items()) + ".")
    flagged = sorted(
        (j for j in review.moves if j.grade in ("inaccuracy", "mistake", "blunder")),
        key=lambda j: j.loss,
        reverse=True,
    )
    for judged in flagged[:5]:
        lines.append(
            f"Move {judged.number}, {judged.played.token}: {judged.grade}, it gave up "
            f"{judged.loss:.0f} points ({judged.chance:.0%} to win before, "
            f"{judged.played_chance:.0%} after it); better was {judged.better.token}."
        )
    if not flagged:
        lines.append("No move gave up 5 points of win chance or more.")
    elif len(flagged) > 5:
        lines.append(f"({len(flagged) - 5} more in --json.)")
    return "\n".join(lines)
