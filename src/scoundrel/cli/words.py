"""The terminal's words, in the player's language, from the same catalogs as the browser.

Everything here describes what the core says (a preview, a refusal, a score), in one of the
six languages; nothing decides a rule. The full-screen game and the line game share it.
"""

from __future__ import annotations

import locale
import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from scoundrel.core import (
    Card,
    Hero,
    Move,
    Observation,
    Preview,
    Refusal,
    Rules,
    Score,
    State,
    parse_move,
)
from scoundrel.core.label import Label, move_label, preview_label, weapon_limit
from scoundrel.i18n import DEFAULT, LANGUAGES, catalog, translate

if TYPE_CHECKING:
    from scoundrel.solver import Analysis
    from scoundrel.solver.hint import Hint
    from scoundrel.solver.searcher import Estimate

ASCII = str.maketrans(
    {
        "→": "->",
        "←": "<-",
        "−": "-",
        "–": "-",
        "—": "-",
        "…": "...",
        "±": "+-",
        "·": "-",
        "“": '"',
        "”": '"',
        "«": '"',
        "»": '"',
        "’": "'",
        "\xa0": " ",
    }
)


def terminal_language(env: Mapping[str, str] | None = None) -> str:
    """The language of the terminal's locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``,
    ``LANGUAGE``), if it is one of the six; English otherwise."""
    env = os.environ if env is None else env
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(name, "")
        if not value:
            continue
        for part in value.split(":"):  # LANGUAGE may list several
            base = part.split(".")[0].split("_")[0].split("-")[0].lower()
            if base in LANGUAGES:
                return base
        if name != "LANGUAGE" and value not in ("C", "POSIX"):
            return DEFAULT  # the first locale set decides, as the C library's does
    if env is os.environ:
        with_locale = locale.getlocale()[0] or ""
        base = with_locale.split("_")[0].lower()
        if base in LANGUAGES:
            return base
    return DEFAULT


class Words:
    """Texts in ``lang``; cards as symbols (7♦), or as codes (7D) with ``ascii_only``."""

    def __init__(self, lang: str = DEFAULT, ascii_only: bool = False) -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT
        self.ascii_only = ascii_only

    def __call__(self, key: str, n: int | None = None, **params: Any) -> str:
        text = translate(self.lang, key, n, **params)
        return text.translate(ASCII) if self.ascii_only else text

    # ------------------------------------------------------------------ cards

    def card(self, card: Card | str | None) -> str:
        if card is None:
            return "-"
        if isinstance(card, str):
            card = Card(card)
        return card.code if self.ascii_only else card.symbol

    def cards(self, cards: Iterable[Card | str]) -> str:
        return " ".join(self.card(card) for card in cards)

    def labelled(self, label: str, value: str) -> str:
        """``Room: 7♦ K♠``: a label and what it names, with the language's punctuation
        (French puts a non-breaking space before the colon)."""
        return self("app.labelled", label=label, value=value)

    def label(self, label: str) -> str:
        """``Room: ``: a label before what it names, drawn apart (in its own style)."""
        return self.labelled(label, "")

    def card_name(self, card: Card) -> str:
        """``nine of clubs``: for screen readers and the rules."""
        if card.suit is None:  # a joker (the harder co-op variant)
            return self("card.red_joker" if card.code.startswith("R") else "card.black_joker")
        rank = self(f"rank.{card.rank}")
        return self("card.name", rank=rank, suit=self(f"suit.{card.suit}"))

    # ------------------------------------------------------------------ heroes

    def hero(self, number: int, heroes: int) -> str:
        return self("hero.you") if heroes == 1 else self("hero.name", n=number)

    def weapon(self, hero: Hero, rules: Rules) -> str:
        """``Usable below 9``: the weapon's limit as the core states it (S9, C7); the weapon
        and its stack are drawn beside it."""
        limit = weapon_limit(hero, rules)
        return self(f"weapon.{limit.code}", n=limit.n)

    def rules_line(self, rules: Rules) -> str:
        """The ruleset and every option that is not the default."""
        parts = [self(f"ruleset.{rules.ruleset}"), self(f"option.weapon_{rules.weapon}")]
        if rules.death_score != "standard":
            parts.append(self("option.dungeon_only"))
        for name in ("easier", "harder", "silent_leader"):
            if getattr(rules, name, False):
                parts.append(self(f"option.{name}"))
        if rules.coop_game and rules.first_leader != 1:
            parts.append(
                self.labelled(self("option.first_leader"), self("hero.name", n=rules.first_leader))
            )
        for name, value in rules.variants.items():
            parts.append(self.variant(name, value))
        return ", ".join(parts)

    def variant(self, name: str, value: object) -> str:
        """A variant (V1, V2) with its value: ``Fleeing: never``, ``Health: 14``."""
        return self.labelled(self(f"option.{name}"), self.variant_value(name, value))

    def variant_value(self, name: str, value: object) -> str:
        """A variant's value in words: the catalog's ``option.<name>_<value>`` where it has
        one (``never``, ``14 (Frail)``), else the value itself (a number)."""
        key = f"option.{name}_{value}"
        return self(key) if key in catalog(self.lang) else str(value)

    def dungeon(self, mode: str, date: str | None) -> str:
        """Which dungeon a game is: ``Dungeon of the day: 2026-12-01``, ``Random dungeon``."""
        if mode == "daily":
            return self("daily.title", date=date)
        if mode == "archive":
            return self("mode.archive_on", date=date)
        return self("mode.random")

    def summary(self, mode: str, date: str | None, rules: Rules, moves: int) -> str:
        """``Dungeon of the day: 2026-12-01 · Solo, strict weapons · 7 moves``."""
        where = self.dungeon(mode, date)
        return self.sep.join((where, self.rules_line(rules), self("term.moves", n=moves)))

    @property
    def sep(self) -> str:
        """What separates parts of a line: `` · ``, or `` - `` in ASCII."""
        return " - " if self.ascii_only else " · "

    # ------------------------------------------------------------------ moves

    def move(self, move: Move | str) -> str:
        """A move in a few words, from what the core calls it: ``K♠ with the weapon``,
        ``7♦, given``, ``Flee the room``."""
        label = move_label(move if isinstance(move, Move) else parse_move(move))
        if label.code == "flee":
            return self("act.flee")
        card = self.card(str(label.params["card"]))
        key = _MOVE_KEYS.get(label.code)
        what = self(key, card=card) if key else card
        return self("replay.given", what=what) if label.params["help"] else what

    def move_name(self, move: Move) -> str:
        """A move with a verb where the card alone would not say it: ``Drink 9♥``."""
        label = move_label(move)
        key = None if label.params.get("help") else _NAME_KEYS.get(label.code)
        if key is None:
            return self.move(move)
        return self(key, card=self.card(str(label.params["card"])))

    def label_params(self, label: Label) -> dict[str, Any]:
        """A label's params in words: cards as symbols (or codes), the hero by name."""
        params: dict[str, Any] = dict(label.params)
        for name in ("card", "weapon"):
            if params.get(name):
                params[name] = self.card(str(params[name]))
        params.setdefault("weapon", "")
        if "hero" in params:
            params["hero"] = self("hero.name", n=params["hero"])
        return params

    def label_text(self, label: Label) -> str:
        """A legal move's label from the core, in words: ``Fight K♠ with 5♦: −8, health
        12``, with ``(deadly)`` where the core marks it so."""
        text = self(f"act.{label.code}", **self.label_params(label))
        return text + " " + self("act.deadly") if label.deadly else text

    def action(self, move: Move, preview: Preview, observation: Observation) -> str:
        """What a legal move does, as the core labels it from its preview."""
        return self.label_text(preview_label(preview, observation.leader, observation.heroes))

    def played(self, before: State, move: Move) -> str:
        """What a move did, for the move log, from the core's label of it on the state
        ``before`` it: ``You slay 7♠ with 9♦: −0``, ``Hero 2 drinks 5♥: +5 (given by
        Hero 1)``."""
        person = "you" if len(before.heroes) == 1 else "hero"
        label = preview_label(before.preview(move), before.leader, before.heroes)
        text = self(f"log.{person}.{_LOG_KEYS[label.code]}", **self.label_params(label))
        if move.help:
            text += " " + self("log.given", hero=self("hero.name", n=before.leader))
        return text

    def choose(self, observation: Observation) -> str:
        """What the leader is asked to do: choose one of the room's cards (by its keys),
        and flee only where the core says the room may be fled."""
        cards = len(observation.room)
        keys = "1" if cards == 1 else f"1–{cards}"
        flee = "_flee" if observation.can_flee else ""
        if len(observation.heroes) > 1:
            return self(f"table.choose_room_coop{flee}", n=observation.leader, keys=keys)
        return self(f"table.choose_room{flee}", keys=keys)

    def refusal(self, refusal: Refusal) -> str:
        """Why a move is not allowed, from the core's refusal code."""
        params = dict(refusal.params)
        for name in ("card", "weapon"):
            if params.get(name):
                params[name] = self.card(str(params[name]))
        return self(f"refusal.{refusal.code}", **params)

    # ------------------------------------------------------------------ results

    def score_lines(self, score: Score) -> list[tuple[str, str]]:
        """The score's parts as (label, points), then the total."""
        lines = [
            (self(f"score.{name}"), f"{points:+d}" if points else "0")
            for name, points in score.parts
        ]
        lines.append((self("score.total"), str(score.total)))
        return lines

    # ------------------------------------------------------------------ hints

    def percent(self, chance: float) -> str:
        from babel.numbers import format_percent

        text: str = format_percent(chance, locale=self.lang, format="#,##0%")
        return text.translate(ASCII).replace("\xa0", " ") if self.ascii_only else text

    def number(self, n: int) -> str:
        """``262,021`` in English, ``262.021`` in Italian."""
        from babel.numbers import format_decimal

        text: str = format_decimal(n, locale=self.lang)
        return text.replace("\xa0", " ").replace("\u202f", " ") if self.ascii_only else text

    def margin(self, estimate: Estimate) -> str:
        if estimate.exact:
            return self("hint.exact")
        low, high = estimate.interval
        return ("+-" if self.ascii_only else "±") + str(round((high - low) * 50))

    def advice(self, hint: Hint, heroes: int) -> list[str]:
        """The hint in sentences: the move, the plan, the health it costs."""
        plan = " → ".translate(ASCII) if self.ascii_only else " → "
        plan = plan.join(self.move(move) for move in hint.plan)
        if hint.reason == "flee":
            return [self(_flee_key(hint))]
        if hint.reason == "doomed":
            return [self("hint.doomed", plan=plan)]
        final = hint.reason == "final"
        lines = [self("hint.final" if final else "hint.face", move=self.move(hint.move), plan=plan)]
        if heroes == 1:
            (before, after), *_ = hint.health
            changes = f"{before} → {after}"
            changes = changes.translate(ASCII) if self.ascii_only else changes
        else:
            changes = ", ".join(
                self("hint.change", hero=self("hero.name", n=n), before=before, after=after)
                for n, (before, after) in enumerate(hint.health, start=1)
            )
        lines.append(self("hint.health_end" if final else "hint.health_room", changes=changes))
        if hint.kept and not final:
            lines.append(self("hint.kept", card=self.card(hint.kept)))
        return lines

    def chances(self, hint: Hint) -> list[tuple[str, str, str, bool]]:
        """Each legal move's chance to win: (move, percent, margin, the one advised)."""
        return [
            (
                self.move_name(chance.move),
                self.percent(chance.estimate.chance),
                self.margin(chance.estimate),
                chance.move == hint.move,
            )
            for chance in hint.chances
        ]

    def chances_note(self, hint: Hint) -> str | None:
        """Why the hint's move is not simply the one with the highest chance, when it is
        not (the browser's note says the same); ``None`` when a flee's own sentence says
        it or the hint follows the chances."""
        if hint.reason == "flee" and hint.flee_reason in ("score", "judged", "close"):
            return None
        if all(chance.estimate.chance == 0 for chance in hint.chances):
            return self("hint.chances_judged" if hint.judged else "hint.chances_none")
        return self("hint.chances_close") if hint.judged else None

    # ------------------------------------------------------------------ analysis

    def analysis(self, result: Analysis) -> list[str]:
        """A finished game's analysis: could it be won, the first slip, the fair review."""
        from babel.numbers import format_decimal

        lines = [self("analysis.winnable" if result.winnable else "analysis.unwinnable")]
        if result.best_score is not None:
            lines.append(self("analysis.best", best=result.best_score, score=result.score))
        elif result.line_score is not None:
            lines.append(self("analysis.best_found", best=result.line_score, score=result.score))
        else:
            lines.append(self("analysis.score_only", score=result.score))
        slip = result.slip
        if result.stopped_after is not None:
            known = result.best_score is not None
            stopped = "analysis.slip_stopped" if known else "analysis.stopped"
            lines.append(self(stopped, seconds=self.number(round(result.stopped_after))))
        elif slip is None:
            lines.append(self("analysis.no_slip"))
        else:
            lines.append(self("analysis.slip_title", n=slip.number))
            lines.append(
                self(
                    "analysis.slip_played",
                    played=self.move(slip.played),
                    before=slip.best_before,
                    after=slip.best_after,
                )
            )
            lines.append(
                self("analysis.slip_better", better=self.move(slip.better), before=slip.best_before)
            )
        lost = result.win_slip
        if lost is not None:
            lines.append(self("analysis.win_slip_title", n=lost.number))
            lines.append(self("analysis.win_slip_played", played=self.move(lost.played)))
            lines.append(self("analysis.win_slip_better", better=self.move(lost.better)))
        lines.append(
            self(
                "analysis.stats",
                nodes=self.number(result.nodes),
                seconds=format_decimal(round(result.seconds, 1), locale=self.lang),
            )
        )
        review = result.review
        if review is None or not review.moves:
            return lines
        lines += ["", self("review.title")]
        from .render import chance_chart

        lines += chance_chart(review.chances, ascii_only=self.ascii_only)
        counts = review.counts()
        lines.append(
            ", ".join(self(f"review.count.{name}", n=n) for name, n in counts.items() if n)
        )
        flagged = sorted(
            (j for j in review.moves if j.grade in ("inaccuracy", "mistake", "blunder")),
            key=lambda j: j.loss,
            reverse=True,
        )
        if flagged:
            lines.append(self("review.list_title") + ":")
        for judged in flagged[:5]:
            lines.append(
                self(
                    "review.line",
                    n=judged.number,
                    played=self.move(judged.played),
                    grade=self(f"review.grade.{judged.grade}"),
                    points=self("review.points", n=round(judged.loss)),
                    before=self.percent(judged.chance),
                    after=self.percent(judged.played_chance),
                    better=self.move(judged.better),
                )
            )
        if len(flagged) > 5:
            lines.append(self("review.more", n=len(flagged) - 5))
        if not flagged:
            lines.append(self("review.clean", n=5))
        return lines


#: The words of a move alone (:func:`~scoundrel.core.label.move_label`), by its code: a
#: card equipped or drunk is the card itself.
_MOVE_KEYS = {"fight_weapon": "replay.with_weapon", "fight_bare": "replay.bare"}
#: A move with its verb, where the card alone would not say it.
_NAME_KEYS = {"drink": "move.drink", "equip": "act.equip"}
#: The move log's words (``log.you.*``, ``log.hero.*``) for each label of the core: the log
#: names the hero a move played on, and "given by" the leader for the help card.
_LOG_KEYS = {
    "flee": "flee",
    "equip": "equip",
    "give_weapon": "equip",
    "drink": "drink",
    "drink_full": "drink",
    "give_potion": "drink",
    "give_potion_full": "drink",
    "drink_wasted": "drink_wasted",
    "give_potion_wasted": "drink_wasted",
    "fight_weapon": "fight_weapon",
    "give_fight_weapon": "fight_weapon",
    "fight_bare": "fight_bare",
    "give_fight_bare": "fight_bare",
}


def _flee_key(hint: Hint) -> str:
    """The sentence for why a flee is advised (:attr:`Hint.flee_reason`)."""
    return _FLEE_KEYS.get(hint.flee_reason or "wins", "hint.flee")


_FLEE_KEYS = {
    "wins": "hint.flee",
    "tie": "hint.flee_tie",
    "score": "hint.flee_score",
    "judged": "hint.flee_judged",
    "close": "hint.flee_close",
}
