"""Text layout: wrapping, alignment, overflow, missing glyphs, inline icons."""

from __future__ import annotations

import pytest
from render_helpers import page_content, pdf_fonts, read_pdf

from cardgen.render.fonts import missing_glyphs, string_width
from render_helpers import demo_icons
from cardgen.render.pdf_backend import write_pdf
from cardgen.render.scene import Box, Group, Scene, Text
from cardgen.render.text import IconPiece, TextPiece, layout_text, parse_markup, shrink_to_fit
from cardgen.render.units import pt_to_mm

BOX = Box(5, 5, 50, 30)


def _texts(items: tuple[object, ...]) -> list[Text]:
    return [i for i in items if isinstance(i, Text)]


def test_short_text_fits_on_one_line_at_box_left() -> None:
    block = layout_text("Draw a card.", BOX, size_pt=10)
    assert block.overflow.ok and block.line_count == 1
    (run,) = _texts(block.items)
    assert run.x == pytest.approx(5) and run.text == "Draw a card."
    assert run.y > BOX.y


def test_wrapped_lines_stay_within_width() -> None:
    block = layout_text("word " * 40, BOX, size_pt=8)
    assert block.line_count > 1
    for run in _texts(block.items):
        assert run.x + string_width(run.text, run.font, run.size_pt) <= BOX.right + 1e-6


@pytest.mark.parametrize("align", ["center", "right"])
def test_alignment(align: str) -> None:
    block = layout_text("Hi", BOX, size_pt=10, align=align)  # type: ignore[arg-type]
    (run,) = _texts(block.items)
    width = string_width("Hi", "DejaVuSans", 10)
    expected = BOX.x + (BOX.w - width) / 2 if align == "center" else BOX.right - width
    assert run.x == pytest.approx(expected)


def test_justify_stretches_all_but_last_line() -> None:
    block = layout_text("alpha beta gamma delta epsilon zeta eta theta iota kappa", BOX, size_pt=9, justify=True)
    runs = _texts(block.items)
    first_line_y = runs[0].y
    first_line = [r for r in runs if r.y == first_line_y]
    last = first_line[-1]
    assert last.x + string_width(last.text, last.font, 9) == pytest.approx(BOX.right, abs=1e-6)


def test_too_long_text_reports_overflow() -> None:
    block = layout_text("lorem ipsum dolor " * 60, Box(0, 0, 40, 20), size_pt=9)
    assert not block.overflow.fits
    assert block.overflow.lines_over > 0
    assert block.overflow.mm_over > 0
    assert block.height_mm == pytest.approx(20 + block.overflow.mm_over, abs=1e-4)


def test_overwide_word_is_broken_and_reported() -> None:
    block = layout_text("x" * 80, Box(0, 0, 20, 50), size_pt=9)
    assert block.overflow.overwide_words == ("x" * 80,)
    assert block.line_count > 1


def test_shrink_to_fit_reduces_size() -> None:
    block = shrink_to_fit("lorem ipsum dolor " * 8, Box(0, 0, 40, 20), size_pt=12, min_size_pt=5)
    assert block.overflow.fits
    assert _texts(block.items)[0].size_pt < 12


@pytest.mark.parametrize("char", ["\u4e2d", "\U0001f9ff"])
def test_missing_glyphs_are_reported(char: str) -> None:
    assert missing_glyphs(f"abc{char}", "DejaVuSans") == {char}
    block = layout_text(f"Hello {char}", BOX)
    assert block.overflow.missing_glyphs == frozenset({char})
    assert not block.overflow.ok


def test_markup_braces_and_icons() -> None:
    assert parse_markup("{{a}} {circle}!") == [TextPiece("{a} "), IconPiece("circle"), TextPiece("!")]
    block = layout_text("cost {{3}}", BOX)
    assert _texts(block.items)[0].text == "cost {3}"


def test_unknown_icon_is_reported_and_kept_as_text() -> None:
    block = layout_text("gain {gem}", BOX, icons=demo_icons())
    assert block.overflow.unknown_icons == frozenset({"gem"})
    assert "{gem}" in _texts(block.items)[0].text


def test_icon_is_an_em_square_in_the_line() -> None:
    size = 10.0
    block = layout_text("a{circle}b", BOX, size_pt=size, icons=demo_icons())
    a, icon, b = block.items
    assert isinstance(icon, Group) and isinstance(a, Text) and isinstance(b, Text)
    em = pt_to_mm(size)
    assert icon.transform is not None
    ix, iy = icon.transform.translate
    assert ix == pytest.approx(a.x + string_width("a", "DejaVuSans", size))
    assert b.x == pytest.approx(ix + em)
    assert iy < a.y < iy + em  # the square spans the baseline's em box


def test_icons_are_primitives_in_pdf() -> None:
    block = layout_text("{square}", BOX, size_pt=10, icons=demo_icons())
    assert not _texts(block.items)
    data = write_pdf([Scene(60, 40, block.items)])
    content = page_content(data)
    assert b" re f" in content  # the square icon is a filled rectangle
    assert pdf_fonts(read_pdf(data)) == []  # no text was needed
