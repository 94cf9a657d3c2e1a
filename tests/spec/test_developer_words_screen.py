"""The words-for-players check (CG149) screens each text with one pattern of every phrase before naming the
first phrase of the list it holds: the screen must pass every text a phrase stands in, and the phrase named
must be the one the search phrase by phrase names."""

from __future__ import annotations

import re

import pytest

from cardgen.validate.prose import DEVELOPER_WORDS, _developer_screen

TEXTS = [
    "Shuffle the deck.",
    "This spec says so.",
    "the engine and the spec",
    "cardgen-made",
    "Seeds grow; a seed does not.",
    "the enginehouse",
    "especificação de regras e o motor",
    "O MOTOR DE REGRAS",
    "rules module: specification",
    "",
    "spec",
    "the specs",
]


def _first_one_by_one(phrases: tuple[str, ...], lowered: str) -> str | None:
    return next((p for p in phrases if re.search(rf"\b{re.escape(p)}\b", lowered)), None)


@pytest.mark.parametrize("language", sorted(DEVELOPER_WORDS))
def test_the_screen_passes_exactly_the_texts_a_phrase_stands_in(language: str) -> None:
    phrases = DEVELOPER_WORDS[language]
    screen = _developer_screen(phrases)
    assert screen is not None
    extra = [f"{a} {b}" for a in phrases for b in phrases] + [f"x{p}x" for p in phrases] + [f"({p})" for p in phrases]
    for text in TEXTS + extra:
        lowered = text.lower()
        assert (screen.search(lowered) is not None) == (_first_one_by_one(phrases, lowered) is not None), text


def test_no_phrases_no_screen() -> None:
    assert _developer_screen(()) is None
