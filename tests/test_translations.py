"""An editor's checks of the six catalogs (issue 36): one register per language, each
language's typography, texts that fit where they are shown, and English articles before
numbers. :mod:`tests.test_i18n` checks that every catalog has every key, placeholder and
plural form; these check how the texts read."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from scoundrel.i18n import LANGUAGES, catalog, translate

OTHERS = [lang for lang in LANGUAGES if lang != "en"]


def texts(lang: str) -> Iterator[tuple[str, str]]:
    """Every text of a catalog with its key (each plural form on its own)."""
    for key, message in catalog(lang).items():
        if isinstance(message, dict):
            for form, text in message.items():
                yield f"{key}[{form}]", text
        else:
            yield key, message


def filled(lang: str, key: str) -> str:
    """A message as shown, each placeholder given a plausible value: the widest card
    (10♦) for a card or a weapon, the second hero's name, 10 for numbers."""
    hero = translate(lang, "hero.name", n=2)
    message = catalog(lang)[key]
    names = set(re.findall(r"\{(\w+)\}", str(message)))
    params: dict[str, object] = {name: "10" for name in names}
    params.update({name: "10♦" for name in names if "card" in name or name == "weapon"})
    params.update({name: hero for name in names if name in ("hero", "partner", "leader")})
    params.pop("n", None)
    return translate(lang, key, 10 if isinstance(message, dict) or "n" in names else None, **params)


def sentence_starts(text: str) -> set[int]:
    """Where sentences (and lines, and list items) begin in ``text``."""
    starts = {0}
    for found in re.finditer(r"(?:[.!?…:]\s+|\n\s*|[«„“(]\s*|—\s+|•\s*)", text):
        starts.add(found.end())
    return starts


# ---------------------------------------------------------------------------- register

#: Forms of the register each language does not use, anywhere (the player is ты, du/ihr,
#: tu, tú and vous, as each language's rule text speaks to them).
NEVER: dict[str, re.Pattern[str]] = {
    "ru": re.compile(r"(?<!\w)(вы|вас|вам|вами|ваш\w*)(?!\w)", re.IGNORECASE),
    "de": re.compile(r"(?<!\w)Ihnen(?!\w)"),
    "it": re.compile(r"(?<!\w)(prema|scelga|voglia|desidera|Suoi|Sue)(?!\w)"),
    "es": re.compile(r"(?<!\w)(usted|ustedes|pulse|elija|juegue usted)(?!\w)", re.IGNORECASE),
    "fr": re.compile(r"(?<!\w)(tu|te|toi|ton|ta|tes|t['’](?=\w))(?!\w)", re.IGNORECASE),
}

#: Polite forms written with a capital that give themselves away inside a sentence (at
#: its start they are "they", "their" or a plain article).
NEVER_INSIDE: dict[str, re.Pattern[str]] = {
    "de": re.compile(r"(?<!\w)(Sie|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres)(?!\w)"),
    "it": re.compile(r"(?<!\w)(Lei|Suo|Sua)(?!\w)"),
}


@pytest.mark.parametrize("lang", OTHERS)
def test_one_register(lang: str) -> None:
    """Russian said вы in two errors among a catalog of ты; French mixed vous and tu."""
    wrong = []
    for key, text in texts(lang):
        if lang in NEVER:
            wrong += [f"{key}: {m.group(0)!r}" for m in NEVER[lang].finditer(text)]
        if lang in NEVER_INSIDE:
            starts = sentence_starts(text)
            wrong += [
                f"{key}: {m.group(0)!r} inside a sentence"
                for m in NEVER_INSIDE[lang].finditer(text)
                if m.start() not in starts
            ]
    assert wrong == []


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ru", "Твоя попытка закрыта. Вашу игру не сохранить."),
        ("de", "Wählen Sie eine Karte."),
        ("de", "Das kann Ihnen helfen."),
        ("fr", "Choisissez une carte : tu peux fuir."),
        ("it", "Scegli una carta. Può usare la Sua arma."),
        ("es", "Elige una carta o pulse Intro."),
    ],
)
def test_the_register_check_sees_the_other_register(lang: str, text: str) -> None:
    found = bool(NEVER.get(lang, re.compile("(?!)")).search(text))
    pattern = NEVER_INSIDE.get(lang)
    starts = sentence_starts(text)
    found |= bool(pattern) and any(
        m.start() not in starts
        for m in pattern.finditer(text)  # type: ignore[union-attr]
    )
    assert found


# ---------------------------------------------------------------------------- typography

#: Quotation marks each language opens and closes with.
QUOTES = {
    "en": ("“", "”"),
    "it": ("«", "»"),
    "ru": ("«", "»"),
    "de": ("„", "“"),
    "es": ("«", "»"),
    "fr": ("«", "»"),
}
NBSP = "\u00a0\u202f"
#: Messages that list punctuation as characters (a nickname may hold . ' - _), or align
#: commands in columns: their spaces are not typography.
SYMBOLS = {"error.nickname_invalid", "term.plain_help"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_typography_common_to_every_language(lang: str) -> None:
    """No straight double quotes, three dots for an ellipsis, doubled or stray spaces."""
    wrong = []
    opening, closing = QUOTES[lang]
    for key, text in texts(lang):
        if '"' in text:
            wrong.append(f"{key}: straight quotes")
        if "..." in text:
            wrong.append(f"{key}: ... for …")
        if key.split("[")[0] in SYMBOLS:
            continue
        if "  " in text or text != text.strip(" \n"):
            wrong.append(f"{key}: stray spaces")
        if re.search(r"[ \u00a0][,.](?!\.)", text):
            wrong.append(f"{key}: a space before , or .")
        if lang != "fr" and re.search(r" [:;!?]", text):
            wrong.append(f"{key}: a space before : ; ! ?")
        quotes = set("“”„«»") - {opening, closing}
        if found := quotes & set(text):
            wrong.append(f"{key}: quotation marks {''.join(sorted(found))}")
        if opening != closing and text.count(opening) != text.count(closing):
            wrong.append(f"{key}: {opening}…{closing} not paired")
    assert wrong == []


def test_french_spaces_before_high_punctuation() -> None:
    """French puts a non-breaking space before : ; ! ? and inside « »: eight colons had
    an ordinary space, which a browser may break before."""
    wrong = []
    for key, text in texts("fr"):
        if key in SYMBOLS:
            continue
        for found in re.finditer(r"[:;!?]", text):
            at = found.start()
            after = text[at + 1 : at + 2]
            if after and not after.isspace() and after not in NBSP + "»)":
                continue  # inside a word, a URL or a time (12:30, ?seed=)
            if at == 0 or text[at - 1] not in NBSP:
                wrong.append(f"{key}: {text[max(0, at - 12) : at + 1]!r}")
        for found in re.finditer("«", text):
            if text[found.end() : found.end() + 1] not in NBSP:
                wrong.append(f"{key}: « without a non-breaking space")
        for found in re.finditer("»", text):
            if found.start() == 0 or text[found.start() - 1] not in NBSP:
                wrong.append(f"{key}: » without a non-breaking space")
    assert wrong == []


def test_spanish_opens_questions_and_exclamations() -> None:
    wrong = []
    for key, text in texts("es"):
        if key in SYMBOLS:
            continue
        plain = re.sub(r"\?[\w=&]+", "", text)  # a ? of a URL (?seed=1) asks nothing
        if plain.count("?") != plain.count("¿") or plain.count("!") != plain.count("¡"):
            wrong.append(f"{key}: {text[:60]!r}")
    assert wrong == []


def test_german_names_keys_as_german_keyboards_do() -> None:
    wrong = [key for key, text in texts("de") if "Ctrl" in text]
    assert wrong == []


# ---------------------------------------------------------------------------- lengths

#: Texts shown in a fixed space: the terminal's cards (7 columns), its hero panels (24
#: columns in the narrow co-op layout), and buttons and tabs.
LONGEST = {
    "kind_short.monster": 7,
    "kind_short.weapon": 7,
    "kind_short.potion": 7,
    "kind.monster": 10,
    "kind.weapon": 10,
    "kind.potion": 10,
    "hero.potion_used": 24,
    "hero.potion_ready": 24,
    "hero.fallen": 24,
    "weapon.none": 24,
    "weapon.fresh": 24,
    "weapon.below": 24,
    "weapon.up_to": 24,
    **{
        key: 28
        for key in (
            "over.again",
            "over.random",
            "over.copy_record",
            "over.copy_link",
            "over.watch",
            "over.share",
            "over.archive",
        )
    },
}
#: The terminal's list of what a card can do: each way, after its keys (``[Enter]``,
#: ``[G Enter]`` for a help card), in two lines of 43 columns (80×24).
ACTION_COLUMNS = 43


def action_line(lang: str, key: str) -> str:
    keys = "[G Enter] " if key.startswith("act.give") else "[Enter] "
    return keys + filled(lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_texts_fit_where_they_are_shown(lang: str) -> None:
    keys = catalog("en")
    fixed = dict(LONGEST)
    fixed.update({key: 28 for key in keys if key.startswith(("nav.", "status."))})
    wrong = [
        f"{key}: {filled(lang, key)!r} ({len(filled(lang, key))} > {most})"
        for key, most in fixed.items()
        if len(filled(lang, key)) > most
    ]
    wrong += [
        f"{key}: {action_line(lang, key)!r} takes more than two lines"
        for key in keys
        if key.startswith("act.") and len(textwrap.wrap(action_line(lang, key), ACTION_COLUMNS)) > 2
    ]
    assert wrong == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_card_kinds_on_terminal_cards_are_whole_words(lang: str) -> None:
    """German "Heiltrank" was cut to "Heiltra", Spanish "monstruo" to "monstru": the
    terminal's cards show a short form, a whole word, where the kind does not fit."""
    for kind in ("monster", "weapon", "potion"):
        short = translate(lang, f"kind_short.{kind}")
        assert short.isalpha(), short


@pytest.mark.parametrize("lang", LANGUAGES)
def test_yes_and_no_never_share_an_answer(lang: str) -> None:
    """The line game accepts y/yes and n/no in every language besides its own words (so
    a catalog lists only its own: Russian listed no|n but not y|yes)."""
    yes = set(translate(lang, "term.yes").split("|"))
    no = set(translate(lang, "term.no").split("|"))
    assert not yes & no
    assert not yes & {"n", "no"} and not no & {"y", "yes"}
    if lang == "ru":  # Russian listed no|n beside нет|н, but not y|yes beside да|д
        assert all(re.fullmatch("[а-яё]+", answer) for answer in yes | no)
    assert all(answer == answer.lower().strip() and answer for answer in yes | no)


# ---------------------------------------------------------------------------- English


def test_english_a_and_an_before_numbers() -> None:
    """ "The weapon last slew a 8": every message, with each number it may show, takes
    "an" before 8, 11 and 18 (and the 80s) and "a" before the others."""
    wrong = []
    for key, message in catalog("en").items():
        names = set(re.findall(r"\{(\w+)\}", str(message)))
        for number in range(1, 100):
            params = {name: str(number) for name in names if name != "n"}
            text = translate(
                "en", key, number if "n" in names or isinstance(message, dict) else None, **params
            )
            for found in re.finditer(r"(?<![\w'])([Aa]n?) (\d+)\b", text):
                article, value = found.group(1).lower(), found.group(2)
                vowel = value in ("8", "11", "18") or value.startswith("8")
                if (article == "an") != vowel:
                    wrong.append(f"{key}: {found.group(0)!r}")
    assert sorted(set(wrong)) == []


# ---------------------------------------------------------------------------- the code

SOURCES = Path(__file__).parent.parent / "src" / "scoundrel"
#: Where the interfaces put a colon after a translated text themselves (``f"{w('x')}: "``,
#: ``${t("x")}: ``, ``+ ": "``): a French colon needs a non-breaking space before it,
#: so a label and its value are joined by the catalog's ``app.labelled``.
GLUED_COLON = re.compile(r"\)\}: |\+ [\"']: [\"']|[\"']: [\"'] \+")


def test_interfaces_join_a_label_and_its_value_in_the_catalog() -> None:
    files = [SOURCES / "cli" / "plain.py", SOURCES / "cli" / "words.py"]
    files += sorted((SOURCES / "cli" / "tui").glob("*.py"))
    files += sorted((SOURCES / "web" / "static" / "js").glob("*.js"))
    wrong = [
        f"{path.name}:{number}: {line.strip()}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if GLUED_COLON.search(line)
    ]
    assert wrong == []
    assert translate("fr", "app.labelled", label="Salle", value="7♦") == "Salle\u00a0: 7♦"
