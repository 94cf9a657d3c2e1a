"""Layout passes of the rulebook PDF: one pass for a book with contents (their page numbers are filled in after it), from fresh flowables."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pypdf
import pytest

from cardgen.artefacts import BuildOptions
from cardgen.build import build_game
from cardgen.publish import build_lock
from cardgen.rulebook import build as rulebook_build
from cardgen.rulebook.build import make_rulebook, typeset_rulebook
from cardgen.rulebook.pdf import TypesetPdf
from cardgen.rulebook.pictures import card_pictures

from .conftest import ROOT, load_clean_loaded, pdf_text, squash

CERATOPSIANS = ROOT / "specs" / "ceratopsians"
KERAMIKOS = ROOT / "specs" / "keramikos"  # long enough to print its contents page (CONTENTS_MIN_PAGES)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_book_is_laid_out_once_and_its_contents_print_the_pages_the_headings_fell_on(paper: str) -> None:
    """The contents' page numbers are forms defined after the layout: one pass, and each number is the heading's page."""
    loaded = load_clean_loaded(KERAMIKOS)
    assert loaded is not None and loaded.spec is not None
    spec = loaded.spec
    pictures = card_pictures(spec, loaded, "en")
    typeset = typeset_rulebook(spec, make_rulebook(spec, "en", KERAMIKOS, pictures.keys()), paper, pictures)
    assert typeset.passes == 1 and len(typeset.toc) > 5
    assert max(page for _, _, page, _ in typeset.toc) > 3  # the headings do spread over pages
    reader = pypdf.PdfReader(io.BytesIO(typeset.data))
    contents = reader.pages[1].extract_text()
    assert "Contents" in contents
    printed = [int(number) for number in re.findall(r"(?:\.\s*){3,}(\d+)", contents)]
    assert printed == [page for _, _, page, _ in typeset.toc]
    # and each heading really is on the page printed for it (its outline destination says where)
    for level, text, page, _key in typeset.toc:
        assert text in squash(reader.pages[page - 1].extract_text()), (text, page)
    assert typeset_rulebook(spec, make_rulebook(spec, "en", CERATOPSIANS, pictures.keys()), paper, pictures).data == typeset.data


def test_a_hyphenated_word_keeps_its_hyphen_wherever_the_line_breaks() -> None:
    # Found when the layout reused platypus paragraphs between passes: on Letter the clarification
    # naming the Green-Blue skull broke at its hyphen in the first pass, and the second pass printed "GreenBlue".
    loaded = load_clean_loaded(CERATOPSIANS)
    assert loaded is not None and loaded.spec is not None
    spec = loaded.spec
    pictures = card_pictures(spec, loaded, "en")
    rulebook = make_rulebook(spec, "en", CERATOPSIANS, pictures.keys())
    assert "Green-Blue" in rulebook.markdown
    for paper in ("a4", "letter"):
        text = squash(pdf_text(typeset_rulebook(spec, rulebook, paper, pictures).data))
        assert "GreenBlue" not in text, paper
        assert text.count("Green-Blue") + text.count("Green- Blue") == rulebook.markdown.count("Green-Blue"), paper
    # Ceratopsians in Portuguese, where the Letter layout breaks the pronoun of "olhá-lo" onto the next line
    loaded = load_clean_loaded(CERATOPSIANS)
    assert loaded is not None and loaded.spec is not None
    spec = loaded.spec
    pictures = card_pictures(spec, loaded, "pt_BR")
    rulebook = make_rulebook(spec, "pt_BR", CERATOPSIANS, pictures.keys())
    assert "olhá-lo" in rulebook.markdown
    for paper in ("a4", "letter"):
        text = squash(pdf_text(typeset_rulebook(spec, rulebook, paper, pictures).data))
        assert "olhálo" not in text and text.count("olhá-lo") + text.count("olhá- lo") == rulebook.markdown.count("olhá-lo"), paper


def test_a_rebuild_typesets_the_edited_rulebook_again_with_the_same_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = tmp_path / "spec" / "ceratopsians"
    shutil.copytree(CERATOPSIANS, spec)
    out = tmp_path / "out"
    passes: list[int] = []
    real = rulebook_build.typeset_rulebook

    def counted(*args: object, **kwargs: object) -> TypesetPdf:
        result = real(*args, **kwargs)  # type: ignore[arg-type]
        passes.append(result.passes)
        return result

    monkeypatch.setattr(rulebook_build, "typeset_rulebook", counted)
    options = BuildOptions(papers=("letter",), langs=("en",))
    with build_lock(out):
        assert not build_game(spec, out, options).failed
    assert passes in ([1], [2])  # a cold build: laid out once with the contents and, for a short book, once without
    cold = passes[0]
    with build_lock(out):
        assert not build_game(spec, out, options).failed
    assert passes == [cold]  # nothing changed: the PDF is reused
    game = spec / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert "Ceratopsians" in text
    game.write_text(text.replace("Ceratopsians", "Ceratopsians II", 1), encoding="utf-8")
    with build_lock(out):
        assert not build_game(spec, out, options).failed
    assert passes == [cold, cold]  # the title changed: typeset again, as before
    fresh = tmp_path / "fresh"
    with build_lock(fresh):
        assert not build_game(spec, fresh, BuildOptions(papers=("letter",), langs=("en",), cache=False)).failed
    name = "ceratopsians-rules-en-letter.pdf"
    assert (out / "ceratopsians" / name).read_bytes() == (fresh / "ceratopsians" / name).read_bytes()
