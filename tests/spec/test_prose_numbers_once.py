"""The prose-number check reads each text's numbers once (issue 17), and a recheck in the same process reads only
the texts an edit changed: what is read and what is redone, never how long it takes."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.spec.load import load_spec
from cardgen.validate import prose
from cardgen.validate.static import all_texts

ROOT = Path(__file__).resolve().parents[2]


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    asked: list[tuple[str, str]] = []
    real = prose.numbers_in

    def counting(text: str, locale: str) -> list[tuple[int, int, int]]:
        asked.append((text, locale))
        return real(text, locale)

    monkeypatch.setattr(prose, "numbers_in", counting)
    prose._numbers_checked.cache_clear()
    return asked


def test_each_text_is_read_once_and_a_recheck_reads_only_what_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = load_spec(ROOT / "specs" / "keramikos")
    assert loaded.spec is not None
    asked = _counting(monkeypatch)
    first = [f.render() for f in prose.prose_numbers(loaded)]
    assert asked and len(asked) == len(set(asked)), "no text is read twice"
    texts = {(value, locale) for _, text in all_texts(loaded.spec) for locale, value in text.items() if value.strip()}
    assert set(asked) <= texts
    asked.clear()
    assert [f.render() for f in prose.prose_numbers(loaded)] == first
    assert asked == [], "an unchanged spec is not read again"

    card = loaded.spec.decks[0].cards[0]
    card.name["en"] = card.name["en"] + " 7"
    again = [f.render() for f in prose.prose_numbers(loaded)]
    assert asked == [(card.name["en"], "en")], "only the edited text is read"
    new = [finding for finding in again if finding not in first]
    assert len(new) == 1 and "CG146" in new[0] and "[7]" in new[0], new
    prose._numbers_checked.cache_clear()
    assert [f.render() for f in prose.prose_numbers(loaded)] == again, "what is kept is what a fresh read finds"
