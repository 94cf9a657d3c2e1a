"""A short rulebook does not spend a page on its contents (CONTENTS_MIN_PAGES); a long one prints them."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path
from typing import Any

import pypdf
import pytest

from cardgen.rulebook import pdf as rulebook_pdf_module
from cardgen.rulebook.build import Rulebook, make_rulebook, typeset_rulebook
from cardgen.rulebook.document import Block, Para, Run, Toc

from .conftest import LANTERN, load_clean, squash

ROOT = Path(__file__).resolve().parents[2]


def _pages(data: bytes) -> list[str]:
    return [squash(page.extract_text() or "") for page in pypdf.PdfReader(io.BytesIO(data)).pages]


def test_a_short_book_has_no_contents_page_and_a_long_one_has() -> None:
    spec = load_clean(LANTERN)
    assert spec is not None
    rulebook = make_rulebook(spec, "en", LANTERN)
    assert any(isinstance(block, Toc) for block in rulebook.document.blocks)  # the template asks for contents
    short = typeset_rulebook(spec, rulebook, "a4")
    pages = _pages(short.data)
    assert len(pages) < rulebook_pdf_module.CONTENTS_MIN_PAGES and short.toc == () and short.passes == 1  # laid out once
    assert not any("Contents" in page for page in pages)
    assert "Overview" in pages[1] and "Page 2" in pages[1]  # the rules begin straight after the title page
    long_book = _long(rulebook)  # the same book made long: forty more paragraphs at the end
    typeset = typeset_rulebook(spec, long_book, "a4")
    pages = _pages(typeset.data)
    assert len(pages) - 1 >= rulebook_pdf_module.CONTENTS_MIN_PAGES and typeset.passes == 1
    assert "Contents" in pages[1] and "Overview" in pages[1] and typeset.toc
    assert "Contents" not in pages[2] and "Overview" in pages[2] and "Page 3" in pages[2]


def test_the_threshold_is_the_page_count_without_the_contents(monkeypatch: pytest.MonkeyPatch) -> None:
    """At exactly CONTENTS_MIN_PAGES pages (without contents) the book prints them; one page fewer, it does not."""
    spec = load_clean(LANTERN)
    assert spec is not None
    rulebook = make_rulebook(spec, "pt_BR", LANTERN)
    short = typeset_rulebook(spec, rulebook, "letter")
    assert short.toc == ()  # short under the real threshold: these are its pages without contents
    without = len(_pages(short.data))
    monkeypatch.setattr(rulebook_pdf_module, "CONTENTS_MIN_PAGES", without)
    at = typeset_rulebook(spec, rulebook, "letter")
    assert len(_pages(at.data)) == without + 1 and "Sumário" in _pages(at.data)[1]
    monkeypatch.setattr(rulebook_pdf_module, "CONTENTS_MIN_PAGES", without + 1)
    under = typeset_rulebook(spec, rulebook, "letter")
    assert len(_pages(under.data)) == without and under.toc == ()


def _long(rulebook: Rulebook) -> Rulebook:
    filler: list[Block] = [Para((Run("A long paragraph that only makes the book longer, over and over again. " * 12),)) for _ in range(40)]
    return dataclasses.replace(rulebook, document=dataclasses.replace(rulebook.document, blocks=rulebook.document.blocks + filler))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_first_guess_changes_the_passes_never_the_pdf(monkeypatch: pytest.MonkeyPatch, paper: str) -> None:
    """A book guessed short is laid out without contents first (stopping at its 7th page if it is long after all),
    one guessed long with them: a right guess takes one layout pass, a wrong one two, and the bytes are the same."""
    spec = load_clean(LANTERN)
    assert spec is not None
    short = make_rulebook(spec, "en", LANTERN)
    for book, long in ((short, False), (_long(short), True)):
        made = {}
        for guess in (True, False):
            monkeypatch.setattr(rulebook_pdf_module, "_likely_short", lambda *args, guess=guess: guess)
            made[guess] = typeset_rulebook(spec, book, paper)
        assert made[True].data == made[False].data and made[True].toc == made[False].toc and bool(made[True].toc) == long
        assert (made[True].passes, made[False].passes) == ((2, 1) if long else (1, 2))
    monkeypatch.undo()
    assert rulebook_pdf_module._likely_short(short.document, rulebook_pdf_module.make_styles("en"), {}, rulebook_pdf_module.PAPERS[paper])
    assert not rulebook_pdf_module._likely_short(_long(short).document, rulebook_pdf_module.make_styles("en"), {}, rulebook_pdf_module.PAPERS[paper])


def test_every_shipped_book_and_the_bench_job_s_is_laid_out_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The page estimate's first guess is right for every book cardgen ships and for the bench job's (whose estimate,
    5.94 pages, sits just under the short-book line while its book fills seven): each takes one layout pass."""
    from cardgen.artefacts import BuildOptions
    from cardgen.build import build_game

    passes: list[tuple[str, str, int]] = []
    typeset = rulebook_pdf_module.typeset_pdf

    def counting(doc: Any, *args: Any, **kwargs: Any) -> Any:
        done = typeset(doc, *args, **kwargs)
        passes.append((current[0], doc.lang, done.passes))
        return done

    monkeypatch.setattr(rulebook_pdf_module, "typeset_pdf", counting)
    current = [""]
    folders = sorted(p for p in (ROOT / "specs").iterdir() if (p / "game.yaml").is_file()) + [ROOT / "bench" / "job"]
    for folder in folders:
        current[0] = folder.name
        build = build_game(folder, tmp_path / folder.name, BuildOptions(papers=("a4",), only=("rulebooks",), cache=False))
        assert not build.failed, folder
    assert {name for name, _, _ in passes} == {folder.name for folder in folders}
    assert [entry for entry in passes if entry[2] != 1] == []
