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
