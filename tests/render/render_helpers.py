"""Helpers for the render layer tests: generic card faces and PDF inspection."""

from __future__ import annotations

import io
from typing import Any

from pypdf import PdfReader

from cardgen.render.icons import IconRegistry, demo_icons
from cardgen.render.scene import Box, Rect, Scene, Text, card_scene
from cardgen.render.text import layout_text

TRIM_W, TRIM_H, BLEED = 63.0, 88.0, 3.0

BASE14 = {
    "Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique",
    "Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique",
    "Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic",
    "Symbol", "ZapfDingbats",
}


def make_face(label: str, color: str = "#ffeecc", icons: IconRegistry | None = None, bleed: float = BLEED) -> Scene:
    """A generic card face: background, frame, title and a wrapped rules text with icons."""
    icons = icons or demo_icons()
    body = layout_text(
        f"{label}: gain 2{{circle}} then {{square}} twice.", Box(bleed + 4, bleed + 50, TRIM_W - 8, 30),
        size_pt=8, icons=icons,
    )
    return card_scene(
        TRIM_W, TRIM_H, bleed,
        [
            Rect(0, 0, TRIM_W + 2 * bleed, TRIM_H + 2 * bleed, fill=color),
            Rect(bleed + 2, bleed + 2, TRIM_W - 4, TRIM_H - 4, stroke="#000000", stroke_width=0.3, radius=2),
            Text(bleed + TRIM_W / 2, bleed + 12, label, "DejaVuSans-Bold", 12, "#000000", "middle"),
            *body.items,
        ],
    )


def pdf_fonts(reader: PdfReader) -> list[tuple[str, Any]]:
    """(BaseFont, font descriptor) of every font used on every page."""
    found = []
    for page in reader.pages:
        resources = page.get("/Resources")
        if resources is None:
            continue
        fonts = resources.get_object().get("/Font")
        if fonts is None:
            continue
        for ref in fonts.get_object().values():
            font = ref.get_object()
            descriptor = font.get("/FontDescriptor")
            if font.get("/Subtype") == "/Type0":
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            found.append((str(font["/BaseFont"]), descriptor.get_object() if descriptor else {}))
    return found


def read_pdf(data: bytes) -> PdfReader:
    """Parse PDF bytes with pypdf."""
    return PdfReader(io.BytesIO(data))


def page_content(data: bytes, page: int = 0) -> bytes:
    """Decoded content stream of one page of a PDF."""
    contents = read_pdf(data).pages[page].get_contents()
    assert contents is not None
    return contents.get_data()
