"""Credits in every language: a translated rulebook gives its own credit sentences; only titles and
licence names (a spec's plain strings) stay as the source has them. Every shipped game, both rulebooks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardgen.rulebook.build import make_rulebook
from cardgen.spec.models import Spec

from .conftest import ROOT, load_clean

SHIPPED = sorted(path.parent for path in (ROOT / "specs").glob("*/game.yaml"))
CREDITS_HEADING = {"en": "## Credits and Licence", "pt_BR": "## Créditos e licença"}
ENGLISH_WORDS = {
    "the", "and", "of", "by", "rules", "rulebook", "version", "licence", "license", "source", "none", "stated",
    "all", "rights", "reserved", "unknown", "edition", "editions", "page", "text", "designer", "followed", "partial",
    "names", "no", "this", "spec", "seed", "english", "brazilian", "portuguese",
}
"""English words that have no business in Portuguese credits (none is also a Portuguese word)."""


def _credits(spec: Spec, folder: Path, locale: str) -> str:
    markdown = make_rulebook(spec, locale, folder).markdown
    return markdown[markdown.index(CREDITS_HEADING[locale]) :]


def _english_words(text: str) -> set[str]:
    """The words of ``text`` from :data:`ENGLISH_WORDS`, links, quoted titles and licence names left out."""
    text = re.sub(r"<[^>]*>|\([^)]*://[^)]*\)|\"[^\"]*\"|“[^”]*”", " ", text)
    text = re.sub(r"\b(?:CC|Creative Commons)(?: [A-Z0-9][A-Z0-9.-]*)+", " ", text)
    return {word.lower() for word in re.findall(r"[A-Za-zÀ-ÿ]+", text)} & ENGLISH_WORDS


def _kept_as_they_are(spec: Spec) -> list[str]:
    """The credit values a spec keeps in one language: names, and titles and licence names (plain strings)."""
    titles = [value for value in (spec.credits.source, spec.licence.name) if isinstance(value, str)]
    for title in titles:  # a title or a licence name, not a sentence that escaped translation
        assert not _english_words(title), (title, _english_words(title))
    kept = list(spec.credits.designers) + [spec.credits.publisher or ""] + titles
    return [value for value in kept if value]


@pytest.mark.parametrize("folder", SHIPPED, ids=[folder.name for folder in SHIPPED])
def test_portuguese_credits_are_in_portuguese(folder: Path) -> None:
    spec = load_clean(folder)
    assert spec is not None and "pt_BR" in spec.locales
    english, portuguese = _credits(spec, folder, "en"), _credits(spec, folder, "pt_BR")
    for value in (spec.credits.source, spec.licence.name, spec.licence.attribution, spec.licence.note, spec.credits.adaptation):
        if isinstance(value, dict):  # said in words: each language its own sentence
            assert value["pt_BR"].split()[0] in portuguese and value["en"] != value["pt_BR"]
            assert " ".join(value["en"].split()) not in portuguese
    left = portuguese
    for kept in _kept_as_they_are(spec):
        assert kept in english and kept in portuguese  # a title or a licence name is printed as it is
        left = left.replace(kept, " ")
    assert _english_words(left) == set(), sorted(_english_words(left))


def test_a_source_that_names_no_designer_says_so_in_each_language() -> None:
    folder = ROOT / "specs" / "mausoleum-guardians"
    spec = load_clean(folder)
    assert spec is not None and spec.credits.designers == []
    english, portuguese = make_rulebook(spec, "en", folder).markdown, make_rulebook(spec, "pt_BR", folder).markdown
    assert "The source does not name the game’s designer." in english and "A game by" not in english
    assert "A fonte não informa quem criou o jogo." in portuguese and "Um jogo de" not in portuguese
