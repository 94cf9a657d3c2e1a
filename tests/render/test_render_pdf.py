"""PDF backend: page sizes, embedded fonts, print boxes, determinism."""

from __future__ import annotations

import re

import pytest
from render_helpers import BASE14, BLEED, TRIM_H, TRIM_W, make_face, page_content, pdf_fonts, read_pdf

from cardgen.render.pdf_backend import write_pdf
from cardgen.render.scene import Group, Line, Scene, Text, Transform
from cardgen.render.sheets import FooterInfo, PrintItem, builtin_sheet_template, impose
from cardgen.render.units import PT_PER_MM


def _mm(value: float) -> float:
    return float(value) / PT_PER_MM


@pytest.mark.parametrize("name, width, height", [("a4", 210.0, 297.0), ("letter", 215.9, 279.4)])
def test_sheet_page_size_is_exact(name: str, width: float, height: float) -> None:
    items = [PrintItem(make_face("A"), TRIM_W, TRIM_H, BLEED)]
    pdf = impose(items, builtin_sheet_template(name), FooterInfo("T")).to_pdf()
    page = read_pdf(pdf).pages[0]
    assert _mm(page.mediabox.width) == pytest.approx(width, abs=0.01)
    assert _mm(page.mediabox.height) == pytest.approx(height, abs=0.01)


def test_every_font_is_embedded_truetype_and_never_base14() -> None:
    scene = Scene(
        100, 100,
        (
            Text(10, 10, "Regular", "DejaVuSans"),
            Text(10, 20, "Bold", "DejaVuSans-Bold"),
            Text(10, 30, "Oblique", "DejaVuSans-Oblique"),
            Text(10, 40, "Condensed", "DejaVuSansCondensed"),
            Text(10, 50, "Condensed bold", "DejaVuSansCondensed-Bold"),
        ),
    )
    reader = read_pdf(write_pdf([scene, Scene(50, 50, (Line(0, 0, 10, 10),))]))
    fonts = pdf_fonts(reader)
    assert len({name for name, _ in fonts}) == 5
    for name, descriptor in fonts:
        assert name.lstrip("/").split("+")[-1] not in BASE14
        assert "/FontFile2" in descriptor, name
    raw = write_pdf([scene])
    assert b"Helvetica" not in raw and b"Times" not in raw and b"Courier" not in raw


def test_page_without_text_references_no_font() -> None:
    raw = write_pdf([Scene(20, 20, (Line(0, 0, 10, 10),))])
    assert b"Helvetica" not in raw
    assert all("/FontFile2" in d for _, d in pdf_fonts(read_pdf(raw)))


def test_card_export_has_trim_and_bleed_boxes(face: Scene) -> None:
    page = read_pdf(write_pdf([face, face])).pages[1]
    trim, bleed = page.trimbox, page.bleedbox
    assert _mm(trim.width) == pytest.approx(TRIM_W, abs=0.1)
    assert _mm(trim.height) == pytest.approx(TRIM_H, abs=0.1)
    assert _mm(trim.left) == pytest.approx(BLEED, abs=0.01)
    assert _mm(trim.bottom) == pytest.approx(BLEED, abs=0.01)
    assert _mm(bleed.width) == pytest.approx(TRIM_W + 2 * BLEED, abs=0.01)
    assert _mm(page.mediabox.height) == pytest.approx(TRIM_H + 2 * BLEED, abs=0.01)


def test_same_input_gives_identical_bytes() -> None:
    items = [PrintItem(make_face(f"C{i}"), TRIM_W, TRIM_H, BLEED, back=make_face("B"), copies=3) for i in range(3)]
    template = builtin_sheet_template("a4")
    first = impose(items, template, FooterInfo("T", "1.0", "CC0")).to_pdf("t")
    second = impose(items, template, FooterInfo("T", "1.0", "CC0")).to_pdf("t")
    assert first == second


def test_y_axis_points_down_and_transforms_apply() -> None:
    """A line drawn at y=10 mm from the top ends up 10 mm below the top edge in PDF space."""
    scene = Scene(50, 100, (Group((Line(0, 0, 5, 0),), Transform(translate=(2, 10))),))
    content = page_content(write_pdf([scene]))
    match = re.search(rb"(2\.83\d*) 0 0 (-2\.83\d*) 0 ([\d.]+) cm", content)
    assert match is not None
    scale, flip, offset = (float(v) for v in match.groups())
    assert scale == pytest.approx(PT_PER_MM, rel=1e-5)
    assert flip == pytest.approx(-PT_PER_MM, rel=1e-5)
    assert _mm(offset) == pytest.approx(100, abs=0.01)
    assert b"1 0 0 1 2 10 cm" in content
