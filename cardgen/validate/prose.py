"""Numbers in prose: counts are named, never copied, and every locale says the same numbers.

Rules prose, card text and setup notes go stale when a count is typed in as a
number and the data changes. Two checks keep them honest:

* **CG146, locale parity.** The same text carries the same references and the
  same numbers in every locale: a Portuguese text with another number, or with a
  reference the English lacks, disagrees with it. Numbers are digits and number
  words (``sixteen``, ``dezesseis``; spelled by num2words for each locale), from
  three up: ``one``/``um``/``uma`` and ``two``/``dois``/``duas`` double as
  articles and as "both" in too many sentences to be compared.
* **CG147, a count typed into prose.** A number from three up, written next to
  the name of something the game counts (cards, a deck, a component, a palette
  entry, points, players), states a count that lives elsewhere in the spec: name
  it with a reference (``{deck.ID}``, ``{numbers.NAME}``...) so it follows the
  data. Titles, names and the licence are not rules prose and are not checked.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import lru_cache
from typing import Iterator

from cardgen.cache import user_store
from cardgen.findings import Finding, Severity
from cardgen.spec.load import LoadedSpec
from cardgen.spec.models import Spec
from cardgen.spec.parse_cache import open_entry, seal_entry
from cardgen.spec.references import REFERENCE
from cardgen.spec.source import PathKey
from cardgen.validate.registry import check, register_codes
from cardgen.validate.static import all_texts

register_codes(
    {
        "CG146": "A text carries different numbers or references in different locales.",
        "CG147": "A count is typed into rules prose next to what it counts; name it with a reference so it follows the data.",
        "CG148": "A translation does not use the glossary's term for a term its source text uses.",
        "CG149": "Rules prose speaks to developers, not players (the spec, the engine, a seed): say it as the rules of the game.",
    }
)

SMALLEST_COMPARED = 3
"""Numbers below this are not compared or flagged (they double as articles and as 'both')."""
LARGEST_WORD = 100
"""Number words are recognised up to this value."""
NEAR_WORDS = 2
"""How many words may stand between a number and the noun it counts ('sixteen tile markers')."""

GENERIC_NOUNS: dict[str, tuple[str, ...]] = {
    "en": ("card", "cards", "tile", "tiles", "marker", "markers", "piece", "pieces", "point", "points", "player", "players", "die", "dice", "token", "tokens", "round", "rounds", "turn", "turns"),
    "pt": ("carta", "cartas", "azulejo", "azulejos", "marcador", "marcadores", "peça", "peças", "ponto", "pontos", "jogador", "jogadores", "dado", "dados", "ficha", "fichas", "rodada", "rodadas", "turno", "turnos"),
}
"""Words for what games count, by language, besides the names the spec itself defines."""

NOT_PROSE = {"title", "name", "licence", "credits", "tagline", "strings", "back"}
"""Path parts whose texts are names and labels, not rules prose (card and section titles, credits)."""


NUMBER_WORDS_ENTRY = "number-words-1"
"""The kind (and format version) of a locale's spelled-out numbers kept in this user's store."""
NUMBER_WORDS_STORE = "number-words"
"""The kind of :func:`cardgen.cache.user_store` that keeps them (num2words takes longer to import than to ask)."""


def spelled_numbers(locale: str) -> dict[str, int]:
    """num2words' words for the numbers from :data:`SMALLEST_COMPARED` to :data:`LARGEST_WORD` in ``locale``
    (and its language), lower-cased, with their values; none when num2words does not know the language.

    They depend only on the locale, num2words' version and this code, so they are kept in this user's store
    (:func:`cardgen.cache.user_store`; the key covers all three) and num2words is imported only to make them.
    """
    store = user_store(NUMBER_WORDS_STORE)
    key = store.key(NUMBER_WORDS_ENTRY, locale, SMALLEST_COMPARED, LARGEST_WORD) if store is not None else ""
    if store is not None:
        payload = open_entry(NUMBER_WORDS_ENTRY, store.get(key))
        try:
            kept = json.loads(payload) if payload is not None else None
        except ValueError:
            kept = None
        if isinstance(kept, dict) and all(isinstance(w, str) and type(v) is int for w, v in kept.items()):
            return kept
    words: dict[str, int] = {}
    try:
        from num2words import num2words

        for value in range(SMALLEST_COMPARED, LARGEST_WORD + 1):
            for form in {num2words(value, lang=locale), num2words(value, lang=locale.split("_")[0])}:
                words[form.lower()] = value
    except (ImportError, NotImplementedError, OverflowError):
        pass
    if store is not None:
        store.put(key, seal_entry(NUMBER_WORDS_ENTRY, json.dumps(words, ensure_ascii=False, sort_keys=True).encode("utf-8")))
    return words


@lru_cache(maxsize=8)
def number_words(locale: str) -> tuple[re.Pattern[str], dict[str, int]]:
    """A pattern matching digits and the number words of ``locale`` (longest first), and each word's value."""
    words = dict(spelled_numbers(locale))
    if locale.startswith("pt"):
        words.setdefault("quatorze", 14)  # both spellings are standard in Brazil
        words.setdefault("catorze", 14)
        for form, value in list(words.items()):  # feminine forms: vinte e duas cartas, trinta e uma peças
            feminine = re.sub(r"\bdois\b", "duas", re.sub(r"\bum\b", "uma", form))
            words.setdefault(feminine, value)
    for form, value in list(words.items()):  # a number named as a noun: crazy eights, a pair of sixes
        if " " not in form and "-" not in form:
            words.setdefault(form + ("es" if form.endswith(("s", "x", "z")) else "s"), value)
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    pattern = re.compile(r"(?<![\w.])(\d+)(?![\w.]\d)" + (rf"|\b({alternatives})\b" if alternatives else ""), re.IGNORECASE)
    return pattern, words


_ASCII_WORD = re.compile(r"[a-z]+")
_FOLDS_TO_ASCII = "\u0130\u0131\u017f\u212a"
"""Characters outside ASCII that a case-insensitive pattern matches to ASCII letters (dotted and dotless i, long s, the Kelvin sign)."""


@lru_cache(maxsize=8)
def _first_words(locale: str) -> frozenset[str] | None:
    """The lower-case first word of every ASCII number word of ``locale``; None when a plain-ASCII text cannot be screened by it.

    A number word matches a text only where the text's own word is that number
    word's first word (the pattern needs a word boundary before it, and its
    first word ends at the end of the number word or at a space or hyphen, which
    the text must repeat). A number word with a character outside ASCII never
    matches plain ASCII text, unless it holds one of :data:`_FOLDS_TO_ASCII`.
    """
    _, words = number_words(locale)
    firsts = set()
    for word in words:
        if any(ch in _FOLDS_TO_ASCII for ch in word):
            return None
        if word.isascii():
            first = _ASCII_WORD.match(word)
            if first is None or first.end() < len(word) and word[first.end()] not in " -":
                return None
            firsts.add(first.group(0))
    return frozenset(firsts)


def could_hold_numbers(text: str, locale: str) -> bool:
    """False when ``text`` surely holds no number :func:`numbers_in` finds: plain ASCII, no digit, no word a number word starts with.

    A cheap screen (a set lookup per word) before the number pattern, whose
    alternation of every number word is tried at every position of a text.
    """
    if not text.isascii() or any(ch.isdigit() for ch in text):
        return True
    firsts = _first_words(locale)
    return firsts is None or any(word in firsts for word in _ASCII_WORD.findall(text.lower()))


def numbers_in(text: str, locale: str) -> list[tuple[int, int, int]]:
    """(value, start, end) of every number from three up in ``text``, references removed."""
    if not could_hold_numbers(text, locale):
        return []
    pattern, words = number_words(locale)
    plain = REFERENCE.sub(lambda m: " " * len(m.group(0)), text)
    out = []
    for match in pattern.finditer(plain):
        digits, word = match.group(1), match.group(2) if match.lastindex and match.lastindex >= 2 else None
        value = int(digits) if digits else words.get((word or "").lower(), 0)
        if value >= SMALLEST_COMPARED:
            out.append((value, match.start(), match.end()))
    return out


@lru_cache(maxsize=1 << 16)
def _numbers_checked(text: str, locale: str) -> tuple[tuple[int, int, int], ...]:
    """:func:`numbers_in`, kept for the process: the prose check asks twice for most texts (the locales'
    parity, then counts typed into prose), and a rebuild in a warm process (``cardgen watch``) asks again
    for every text the edit did not touch. A pure function of its arguments and this module's code."""
    return tuple(numbers_in(text, locale))


def _example_sections(spec: Spec) -> set[PathKey]:
    """The paths of the rules sections marked as worked examples."""
    out: set[PathKey] = set()
    for part in ("setup", "turn", "scoring", "tiebreakers", "extra"):
        for index, section in enumerate(getattr(spec.rules_text, part)):
            if section.example:
                out.add(("rules_text", part, index))
    return out


def _is_prose(path: PathKey) -> bool:
    return not any(part in NOT_PROSE for part in path if isinstance(part, str))


def _nouns(spec: Spec, locale: str) -> set[str]:
    """Lower-case words naming what the game counts in ``locale``."""
    names: list[str] = []
    for deck in spec.decks:
        names.append(deck.name.get(locale, ""))
        names += [t.name.get(locale, "") for t in deck.card_types]
    names += [c.name.get(locale, "") for c in spec.components]
    names += [d.name.get(locale, "") for d in spec.dice]
    for palette in spec.palettes:
        names.append(palette.name.get(locale, ""))
        names += [e.name.get(locale, "") for e in palette.entries]
    words = {w for name in names for w in re.findall(r"[^\W\d_]+", name.lower()) if len(w) > 2}
    words |= set(GENERIC_NOUNS.get(locale.split("_")[0], ()))
    return words


@check("prose-numbers", "static")
def prose_numbers(loaded: LoadedSpec) -> Iterator[Finding]:
    """Every locale of a text carries the same numbers and references; no count is typed next to what it counts."""
    assert loaded.spec is not None
    spec = loaded.spec
    nouns = {locale: _nouns(spec, locale) for locale in spec.locales}
    examples = _example_sections(spec)
    for path, text in all_texts(spec):
        given = {locale: value for locale, value in text.items() if locale in spec.locales and value.strip()}
        if len(given) > 1:
            yield from _parity(loaded, path, given)
        if _is_prose(path) and path[:3] not in examples:
            for locale, value in given.items():
                yield from _typed_counts(loaded, path, locale, value, nouns[locale])


def _parity(loaded: LoadedSpec, path: PathKey, given: dict[str, str]) -> Iterator[Finding]:
    first, *others = list(given)
    refs = {locale: Counter(m.group(0) for m in REFERENCE.finditer(value)) for locale, value in given.items()}
    nums = {locale: Counter(v for v, _, _ in _numbers_checked(value, locale)) for locale, value in given.items()}
    for locale in others:
        if refs[locale] != refs[first]:
            diff = sorted((refs[first] - refs[locale]) + (refs[locale] - refs[first]))
            yield loaded.place_finding(
                "CG146", Severity.ERROR, path + (locale,),
                f"the {locale} text and the {first} text name different references ({', '.join(diff)})",
                "give every locale the same references",
            )
        elif nums[locale] != nums[first]:
            only_first = sorted((nums[first] - nums[locale]).elements())
            only_here = sorted((nums[locale] - nums[first]).elements())
            yield loaded.place_finding(
                "CG146", Severity.ERROR, path + (locale,),
                f"the {locale} text says {only_here or 'no number'} where the {first} text says {only_first or 'no number'}",
                "make the translations state the same numbers (or name them with references)",
            )


def _typed_counts(loaded: LoadedSpec, path: PathKey, locale: str, value: str, nouns: set[str]) -> Iterator[Finding]:
    found = _numbers_checked(value, locale)
    if not found:
        return
    plain = REFERENCE.sub(lambda m: " " * len(m.group(0)), value)
    for number, _start, end in found:
        following = re.findall(r"[^\W\d_]+", plain[end : end + 60].lower())[: NEAR_WORDS + 1]
        noun = next((w for w in following if w in nouns), None)
        if noun is not None:
            yield loaded.place_finding(
                "CG147", Severity.ERROR, path + (locale,),
                f"the count {number} is typed into the text before {noun!r}; when the data changes it will not",
                "name it with a reference such as {deck.ID}, {component.ID.per_player}, {setup.deal.DECK} or {numbers.NAME}",
            )


def _words(text: str) -> list[str]:
    """Lower-case words with a plural -s or -es dropped, so 'Shape cards' and 'Shape card' compare equal."""
    out = []
    for word in re.findall(r"[^\W\d_]+", text.lower()):
        if len(word) > 3 and word.endswith("es") and not word.endswith("ses"):
            word = word[:-2]
        elif len(word) > 3 and word.endswith("s"):
            word = word[:-1]
        out.append(word)
    return out


def _contains(words: list[str], term: list[str]) -> bool:
    n = len(term)
    return n > 0 and any(words[i : i + n] == term for i in range(len(words) - n + 1))


@check("glossary", "static")
def glossary(loaded: LoadedSpec) -> Iterator[Finding]:
    """Every translation of a text that uses a glossary term uses the glossary's translation of it."""
    assert loaded.spec is not None
    spec = loaded.spec
    if not spec.glossary or len(spec.locales) < 2:
        return
    source, *others = spec.locales
    terms = [{locale: _words(entry.get(locale, "")) for locale in spec.locales} for entry in spec.glossary]
    for path, text in all_texts(spec):
        if path and path[0] == "glossary":
            continue
        source_words = _words(REFERENCE.sub(" ", text.get(source, "")))
        for index, term in enumerate(terms):
            if not _contains(source_words, term[source]):
                continue
            for locale in others:
                if locale in text and not _contains(_words(REFERENCE.sub(" ", text[locale])), term[locale]):
                    entry = spec.glossary[index]
                    yield loaded.place_finding(
                        "CG148", Severity.ERROR, path + (locale,),
                        f"the {source} text says {entry.get(source)!r}, which the glossary translates as {entry.get(locale)!r}, but the {locale} text does not use it",
                        f"use {entry.get(locale)!r} (glossary[{index}]), or change the glossary",
                    )


DEVELOPER_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("this spec", "the spec", "specification", "the engine", "rules engine", "rules module", "cardgen", "seed"),
    "pt": ("esta especificação", "a especificação", "especificação", "o motor", "motor de regras", "cardgen", "semente"),
}
"""Phrases about the tool rather than the game, by language (matched as whole words, case-insensitively)."""


@lru_cache(maxsize=None)
def _developer_screen(phrases: tuple[str, ...]) -> re.Pattern[str] | None:
    """One pattern matching where any of ``phrases`` stands as whole words (None: no phrases); the first phrase of
    the list found is still told by searching them one by one, which only a text this matches needs."""
    if not phrases:
        return None
    return re.compile("|".join(rf"\b{re.escape(p)}\b" for p in phrases))


@check("words-for-players", "static")
def words_for_players(loaded: LoadedSpec) -> Iterator[Finding]:
    """Rules prose, card text and clarifications speak to players: no spec, engine or seed."""
    assert loaded.spec is not None
    spec = loaded.spec
    for path, text in all_texts(spec):
        if not _is_prose(path) or (path and path[0] in {"glossary", "credits", "licence"}):
            continue
        for locale, value in text.items():
            phrases = DEVELOPER_WORDS.get(locale.split("_")[0], ())
            lowered = value.lower()
            screen = _developer_screen(phrases)
            if screen is None or not screen.search(lowered):
                continue  # no phrase at all: one search instead of one per phrase
            found = next((p for p in phrases if re.search(rf"\b{re.escape(p)}\b", lowered)), None)
            if found is not None:
                yield loaded.place_finding(
                    "CG149", Severity.ERROR, path + (locale,),
                    f"the text says {found!r}: players read the rulebook, not the tool that made it",
                    "state it as a rule of the game (\"this edition\", \"the rules\")",
                )
