"""Bundled fonts: files and licence present, metrics sane, keys stable."""

from __future__ import annotations

import pytest

from cardgen.render.fonts import FACES, FONT_DIR, UnknownFontError, font_key, string_width, sanitize_text


def test_font_files_and_licence_are_bundled() -> None:
    for face in FACES.values():
        assert face.path.is_file(), face.path
    licence = (FONT_DIR / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    assert "Bitstream" in licence and "public domain" in licence


def test_font_keys() -> None:
    assert font_key() == "DejaVuSans"
    assert font_key(bold=True) == "DejaVuSans-Bold"
    assert font_key("DejaVu Sans Condensed", bold=True) == "DejaVuSansCondensed-Bold"
    with pytest.raises(UnknownFontError):
        font_key("Comic Sans")
    with pytest.raises(UnknownFontError):
        string_width("x", "Helvetica", 10)


def test_string_width_scales_and_bold_is_wider() -> None:
    regular = string_width("Hello", "DejaVuSans", 10)
    assert 5 < regular < 15
    assert string_width("Hello", "DejaVuSans", 20) == pytest.approx(2 * regular)
    assert string_width("Hello", "DejaVuSans-Bold", 10) > regular
    assert string_width("Hello", "DejaVuSansCondensed", 10) < regular


def test_sanitize_text_drops_controls() -> None:
    assert sanitize_text("a\x00b\x07c\nd\u0085e\ufffe") == "abcde"


def test_a_remembered_width_is_the_one_reportlab_sums() -> None:
    """Faces remember word widths (issue 17): asked again, by reportlab's line breaking or by cardgen, a word gives the
    bit-for-bit width of reportlab's own sum, at int and float sizes alike; a text with a space is not kept."""
    import math

    from reportlab.lib.rl_accel import instanceStringWidthTTF
    from reportlab.pdfbase.pdfmetrics import getFont, stringWidth

    from cardgen.render.fonts import MeasuredFont, ensure_registered

    name = ensure_registered("DejaVuSans-Bold")
    font = getFont(name)
    assert isinstance(font, MeasuredFont)
    for text in ("word", "Añil", "façade,", "—", "", "two words"):
        for size in (10, 10.0, 8.8, 0.0, -0.0, -3.5):
            expected = instanceStringWidthTTF(font, text, size, "utf8")
            for _ in range(2):
                got = stringWidth(text, name, size)
                assert got == expected and math.copysign(1.0, got) == math.copysign(1.0, expected), (text, size)
    assert ("word", 10) in font._widths and not any(" " in key[0] for key in font._widths)
    assert not any(key[1] <= 0 for key in font._widths)
