"""Bundled fonts (DejaVu Sans family), registration with reportlab, and metrics.

Every text run names a *face key* such as ``"DejaVuSans-Bold"``. The same key is
the font name registered with reportlab, and maps to a CSS family/weight/style
for SVG. Only these bundled TrueType faces are ever used, so every PDF embeds
its fonts (reportlab subsets TrueType fonts by default) and no base-14 font
(Helvetica, ...) is referenced.

Text measurement goes through reportlab's TrueType metrics; with reportlab's C
accelerator (the ``rl_accel`` package, which reportlab imports by itself when
installed) the width sums run in C. Each registered face remembers the widths
it gave (:class:`MeasuredFont`): every caller, reportlab's line breaking
included, measures a word through three Python calls before that sum, and a
deck or a rulebook measures the same words thousands of times.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from reportlab.lib.rl_accel import instanceStringWidthTTF
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from cardgen.render.units import pt_to_mm

FONT_DIR: Path = Path(__file__).resolve().parent.parent / "data" / "fonts"
"""Folder holding the bundled TTF files and their licence."""


class UnknownFontError(KeyError):
    """Raised for a face key that is not bundled."""


@dataclass(frozen=True)
class FontFace:
    """One bundled font face."""

    key: str
    """Stable name used in scenes and registered with reportlab."""
    family: str
    """CSS font-family name used in SVG output."""
    bold: bool
    oblique: bool
    filename: str

    @property
    def path(self) -> Path:
        """Absolute path of the TTF file."""
        return FONT_DIR / self.filename


_FACE_LIST: tuple[FontFace, ...] = (
    FontFace("DejaVuSans", "DejaVu Sans", False, False, "DejaVuSans.ttf"),
    FontFace("DejaVuSans-Bold", "DejaVu Sans", True, False, "DejaVuSans-Bold.ttf"),
    FontFace("DejaVuSans-Oblique", "DejaVu Sans", False, True, "DejaVuSans-Oblique.ttf"),
    FontFace("DejaVuSans-BoldOblique", "DejaVu Sans", True, True, "DejaVuSans-BoldOblique.ttf"),
    FontFace("DejaVuSansCondensed", "DejaVu Sans Condensed", False, False, "DejaVuSansCondensed.ttf"),
    FontFace(
        "DejaVuSansCondensed-Bold", "DejaVu Sans Condensed", True, False, "DejaVuSansCondensed-Bold.ttf"
    ),
)

FACES: dict[str, FontFace] = {face.key: face for face in _FACE_LIST}
"""All bundled faces by key."""

DEFAULT_FONT: str = "DejaVuSans"
"""Face key used when a caller does not choose one (and the PDF canvas's initial font)."""


def font_face(key: str) -> FontFace:
    """The bundled face for ``key``; raises :class:`UnknownFontError` otherwise."""
    try:
        return FACES[key]
    except KeyError:
        raise UnknownFontError(f"unknown font {key!r}; bundled: {sorted(FACES)}") from None


def font_key(family: str = "DejaVu Sans", bold: bool = False, oblique: bool = False) -> str:
    """Face key for a family + weight + style, e.g. ``font_key(bold=True) == 'DejaVuSans-Bold'``."""
    for face in _FACE_LIST:
        if face.family == family and face.bold == bold and face.oblique == oblique:
            return face.key
    raise UnknownFontError(f"no bundled face for {family!r} bold={bold} oblique={oblique}")


WIDTH_MEMO_LIMIT = 65_536
"""The most word widths one face remembers; the memo starts afresh beyond it (a deck's words are a few thousand)."""


class MeasuredFont(TTFont):
    """reportlab's TrueType font, remembering the width of each word at each size it measured.

    A width is a function of the text, the size and the face's metrics, which never change once the face is
    parsed, so a remembered width is the one reportlab's sum would give again, to the bit. Only words are
    remembered (text without a space: what line breaking measures, over and over), not whole lines or titles,
    which are measured once or twice each and would only fill the memo; and only at positive sizes (``0``
    and ``-0.0`` are equal keys whose products differ in sign).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._widths: dict[tuple[str, Any], float] = {}

    def stringWidth(self, text: Any, size: Any, encoding: str = "utf8") -> float:  # noqa: N802 (reportlab's name)
        """The advance width of ``text`` at ``size`` points, in points (reportlab's :meth:`TTFont.stringWidth`)."""
        if type(text) is not str or " " in text or not size > 0:
            width: float = instanceStringWidthTTF(self, text, size, encoding)
            return width
        key = (text, size)  # (the encoding only decodes bytes)
        known = self._widths.get(key)
        if known is None:
            if len(self._widths) >= WIDTH_MEMO_LIMIT:
                self._widths.clear()
            known = self._widths[key] = instanceStringWidthTTF(self, text, size, encoding)
        return known


@lru_cache(maxsize=None)
def _tt_font(key: str) -> TTFont:
    face = font_face(key)
    font = MeasuredFont(face.key, str(face.path))
    pdfmetrics.registerFont(font)
    return font


def ensure_registered(key: str) -> str:
    """Register one face with reportlab if needed and return its reportlab name.

    Faces are parsed and registered one by one as they are first used (text
    measured or drawn): parsing a TrueType file costs about 12 ms, and most
    documents use three or four of the six bundled faces.
    """
    return _tt_font(key).fontName


def string_width(text: str, font: str, size_pt: float) -> float:
    """Advance width of ``text`` in mm, using the TTF's horizontal metrics (no kerning)."""
    return pt_to_mm(_tt_font(font).stringWidth(text, size_pt))


def ascent(font: str, size_pt: float) -> float:
    """Distance from baseline to the font's ascender line, in mm."""
    return pt_to_mm(_tt_font(font).face.ascent * size_pt / 1000.0)


def descent(font: str, size_pt: float) -> float:
    """Distance from baseline down to the descender line, in mm (positive)."""
    return pt_to_mm(-_tt_font(font).face.descent * size_pt / 1000.0)


_IGNORED_FOR_GLYPHS = frozenset("\n\t")


def missing_glyphs(text: str, font: str) -> set[str]:
    """Characters of ``text`` the font has no glyph for (newline/tab are ignored)."""
    cmap = _tt_font(font).face.charToGlyph
    return {ch for ch in text if ch not in _IGNORED_FOR_GLYPHS and ord(ch) not in cmap}


def sanitize_text(text: str) -> str:
    """Drop characters that cannot appear in a drawn run or in XML 1.0.

    Removes control characters (category Cc, including tab and newline, which
    layout handles before drawing), surrogates and the non-characters U+FFFE/U+FFFF.
    """
    if text.isprintable():  # none of those is printable: the common case has nothing to drop
        return text
    return "".join(
        ch
        for ch in text
        if unicodedata.category(ch) not in ("Cc", "Cs") and ch not in ("\ufffe", "\uffff")
    )
