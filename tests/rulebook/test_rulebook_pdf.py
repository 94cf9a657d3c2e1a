"""The PDF rulebooks: localised headings, counts, fonts, paper, footer, determinism, pictures."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pypdf
import pytest

from cardgen.render.scene import Rect, Text, card_scene
from cardgen.rulebook.build import make_rulebook, rulebook_pdf
from cardgen.rulebook.context import deck_total
from cardgen.rulebook.pdf import CONTENTS_MIN_PAGES
from cardgen.spec.models import in_locale
from cardgen.rulebook.pictures import card_pictures, set_card_picture_provider

from .conftest import LANTERN, SPEC_FOLDERS, SPEC_IDS, built, load_clean, load_clean_loaded, pdf_text, squash

CONTENTS = {"en": "Contents", "pt_BR": "Sumário"}
HEADINGS = {
    "en": ["Overview", "Goal of the Game", "Components", "Setup", "End of the Game", "Credits and Licence", "About This Edition"],
    "pt_BR": ["Visão geral", "Objetivo do jogo", "Componentes", "Preparação", "Fim da partida", "Créditos e licença", "Sobre esta edição"],
}
ENGLISH_ONLY = HEADINGS["en"] + ["Contents", "Playing a Turn", "Special Cards", "Scoring", "Tiebreakers", "Solo Rules", "Clarifications", "Number of players", "Quantity", "Details"]
BASE14 = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats")


def fonts_of(data: bytes) -> dict[str, bool]:
    """Every font the PDF's pages use, and whether its file is embedded."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    found: dict[str, bool] = {}
    for page in reader.pages:
        resources: Any = page["/Resources"]
        for ref in resources.get("/Font", {}).values():
            font = ref.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            found[str(font["/BaseFont"])] = any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
    return found


@pytest.mark.parametrize("folder", SPEC_FOLDERS, ids=SPEC_IDS)
@pytest.mark.parametrize("locale", ["en", "pt_BR"])
def test_pdf_has_localised_headings_and_counts(folder: Path, locale: str) -> None:
    result = built(folder, locale)
    if locale not in result.spec.locales:
        pytest.skip("locale not declared")
    for heading in HEADINGS[locale]:
        assert heading in result.lines, f"{heading!r} missing from the {locale} PDF"
    pages = len(pypdf.PdfReader(io.BytesIO(result.pdf)).pages)
    if CONTENTS[locale] in result.lines:  # a contents page only in a book long enough without it
        assert pages - 1 >= CONTENTS_MIN_PAGES
    else:
        assert pages < CONTENTS_MIN_PAGES
    text = squash(result.text)
    word = {"en": "cards", "pt_BR": "cartas"}[locale]
    for deck in result.spec.decks:
        total = deck_total(deck)
        if total > 1:
            assert f"{total} {word}" in text
    assert in_locale(result.spec.licence.name, locale) in text


@pytest.mark.parametrize("folder", SPEC_FOLDERS, ids=SPEC_IDS)
def test_portuguese_pdf_has_no_english_headings_left(folder: Path) -> None:
    english = set(built(folder, "en").lines)
    portuguese = set(built(folder, "pt_BR").lines)
    assert {"Components", "Setup"} <= english  # the check below can fail
    leftovers = [heading for heading in ENGLISH_ONLY if heading in portuguese]
    assert leftovers == []


@pytest.mark.parametrize("folder", SPEC_FOLDERS, ids=SPEC_IDS)
@pytest.mark.parametrize("locale", ["en", "pt_BR"])
def test_every_font_is_embedded_dejavu(folder: Path, locale: str) -> None:
    fonts = fonts_of(built(folder, locale).pdf)
    assert fonts, "no fonts found"
    assert all(fonts.values()), fonts
    assert all("DejaVu" in name for name in fonts), fonts
    assert not any(base in name for name in fonts for base in BASE14)


def test_builds_are_byte_identical() -> None:
    spec = load_clean(LANTERN)
    assert spec is not None
    for locale in ("en", "pt_BR"):
        first = make_rulebook(spec, locale, LANTERN)
        second = make_rulebook(spec, locale, LANTERN)
        assert first.markdown == second.markdown
        for paper in ("a4", "letter"):
            assert rulebook_pdf(spec, first, paper) == rulebook_pdf(spec, second, paper)


def test_paper_sizes_and_letter_fonts() -> None:
    spec = load_clean(LANTERN)
    assert spec is not None
    rulebook = make_rulebook(spec, "pt_BR", LANTERN)
    sizes = {}
    for paper in ("a4", "letter"):
        data = rulebook_pdf(spec, rulebook, paper)
        page = pypdf.PdfReader(io.BytesIO(data)).pages[0]
        sizes[paper] = (round(float(page.mediabox.width)), round(float(page.mediabox.height)))
        assert all(fonts_of(data).values())
    assert sizes == {"a4": (595, 842), "letter": (612, 792)}


def test_title_page_toc_footer_and_outline() -> None:
    result = built(LANTERN, "pt_BR")
    reader = pypdf.PdfReader(io.BytesIO(result.pdf))
    title_page = reader.pages[0].extract_text()
    assert "Mercado das Lanternas" in title_page
    assert "Um jogo de Ana Teste e Bo Exemplo" in title_page
    assert "De 2 a 4 jogadores · De 20 a 30 minutos · A partir de 8 anos" in title_page
    assert "Página" not in title_page  # no footer on the title page
    second = reader.pages[1].extract_text()  # a short book: no contents page, the rules begin
    assert "Sumário" not in second and "Visão geral" in second and "Página 2" in second
    third = reader.pages[2].extract_text()
    assert "Página 3" in third
    assert "Mercado das Lanternas, de Ana Teste e Bo Exemplo, CC BY 4.0." in third
    titles = [item.title for item in reader.outline if not isinstance(item, list)]
    assert titles[:3] == ["Visão geral", "Componentes", "Preparação"]
    assert reader.metadata is not None and reader.metadata.title == "Mercado das Lanternas"


def test_portuguese_body_text_is_hyphenated_in_the_pdf() -> None:
    lines = built(LANTERN, "pt_BR").lines
    broken = [line for line in lines if line.endswith("-") and len(line) > 20]
    assert broken, "expected at least one hyphenated line in the Portuguese rulebook"
    english = [line for line in built(LANTERN, "en").lines if line.endswith("-") and len(line) > 20]
    assert english == []


def test_card_pictures_hook_draws_a_scene() -> None:
    spec = load_clean(LANTERN)
    assert spec is not None
    scene = card_scene(63, 88, 3, [Rect(0, 0, 69, 94, fill="#c9a227"), Text(10, 20, "SILKSAMPLE", size_pt=14)])
    set_card_picture_provider(lambda s: {"market": scene})
    try:
        pictures = card_pictures(spec)
        rulebook = make_rulebook(spec, "en", LANTERN, pictures.keys())
        data = rulebook_pdf(spec, rulebook, "a4", pictures)
    finally:
        set_card_picture_provider(None)
    assert "SILKSAMPLE" in pdf_text(data)
    assert all(fonts_of(data).values())
    assert "SILKSAMPLE" not in built(LANTERN, "en").text


def test_rendered_card_faces_appear_in_the_components_section() -> None:
    loaded = load_clean_loaded(LANTERN)
    assert loaded is not None and loaded.spec is not None
    assert set(card_pictures(loaded.spec, loaded, "pt_BR")) == {"market"}
    assert card_pictures(loaded.spec) == {}  # nothing to lay faces out from
    with_pictures = built(LANTERN, "pt_BR")
    without = rulebook_pdf(loaded.spec, with_pictures.rulebook, "a4")
    assert "Seda" in with_pictures.text  # the first market card's name, drawn on its face
    assert "Seda" not in pdf_text(without)


def test_table_headers_are_never_hyphenated_while_portuguese_body_text_is() -> None:
    from cardgen.rulebook.pdf import make_styles

    styles = make_styles("pt_BR")
    assert styles.body.hyphenationLang and styles.cell.hyphenationLang
    assert not styles.cell_head.hyphenationLang
