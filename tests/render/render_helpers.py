"""Helpers for the render layer tests: generic card faces and PDF inspection."""

from __future__ import annotations

import io
import re
from typing import Any, Sequence

from pypdf import PdfReader

from cardgen.render.icons import IconRegistry
from cardgen.render.scene import Box, Circle, Polygon, Primitive, Rect, Scene, Text, card_scene
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


def _forms(resources: Any) -> dict[str, Any]:
    """Form XObjects named in a resource dictionary (images are left out)."""
    if resources is None:
        return {}
    xobjects = resources.get_object().get("/XObject")
    if xobjects is None:
        return {}
    found = {}
    for name, ref in xobjects.get_object().items():
        xobject = ref.get_object()
        if xobject.get("/Subtype") == "/Form":
            found[str(name)] = xobject
    return found


def _walk_forms(resources: Any, seen: set[int], out: list[Any]) -> None:
    """Every form reachable from ``resources`` (forms placed inside forms too), each once."""
    for form in _forms(resources).values():
        if id(form) in seen:
            continue
        seen.add(id(form))
        out.append(form)
        _walk_forms(form.get("/Resources"), seen, out)


def all_forms(reader: PdfReader, page: int) -> list[Any]:
    """Every Form XObject a page places, directly or through other forms."""
    out: list[Any] = []
    _walk_forms(reader.pages[page].get("/Resources"), set(), out)
    return out


def page_forms(data: bytes, page: int = 0) -> dict[str, Any]:
    """The Form XObjects in one page's resources, by resource name (e.g. ``/FormXob.C0``)."""
    return _forms(read_pdf(data).pages[page].get("/Resources"))


def placements(content: bytes) -> dict[str, int]:
    """How many times each XObject is placed (``/Name Do``) in a content stream."""
    counts: dict[str, int] = {}
    for name in re.findall(rb"(/[^\s/\[\]()<>{}%]+)\s+Do\b", content):
        counts[name.decode()] = counts.get(name.decode(), 0) + 1
    return counts


def _fonts_in(resources: Any, found: list[tuple[str, Any]]) -> None:
    if resources is None:
        return
    fonts = resources.get_object().get("/Font")
    if fonts is None:
        return
    for ref in fonts.get_object().values():
        font = ref.get_object()
        descriptor = font.get("/FontDescriptor")
        if font.get("/Subtype") == "/Type0":
            descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
        found.append((str(font["/BaseFont"]), descriptor.get_object() if descriptor else {}))


def pdf_fonts(reader: PdfReader) -> list[tuple[str, Any]]:
    """(BaseFont, font descriptor) of every font used on every page, including inside the forms a page places."""
    found: list[tuple[str, Any]] = []
    for index, page in enumerate(reader.pages):
        _fonts_in(page.get("/Resources"), found)
        for form in all_forms(reader, index):
            _fonts_in(form.get("/Resources"), found)
    return found


def read_pdf(data: bytes) -> PdfReader:
    """Parse PDF bytes with pypdf."""
    return PdfReader(io.BytesIO(data))


def page_content(data: bytes, page: int = 0) -> bytes:
    """Decoded content of one page of a PDF: its content stream, then the content of
    every form it places (directly or through other forms), each once."""
    reader = read_pdf(data)
    contents = reader.pages[page].get_contents()
    assert contents is not None
    return b"\n".join([contents.get_data(), *(form.get_data() for form in all_forms(reader, page))])


def demo_icons() -> IconRegistry:
    """A few generic shapes (circle, square, triangle, diamond) for tests and samples."""

    def circle(s: float) -> Sequence[Primitive]:
        return (Circle(s / 2, s / 2, s * 0.4, fill="#000000"),)

    def square(s: float) -> Sequence[Primitive]:
        return (Rect(s * 0.1, s * 0.1, s * 0.8, s * 0.8, fill="#000000"),)

    def triangle(s: float) -> Sequence[Primitive]:
        return (Polygon(((s / 2, s * 0.1), (s * 0.9, s * 0.9), (s * 0.1, s * 0.9)), fill="#000000"),)

    def diamond(s: float) -> Sequence[Primitive]:
        return (
            Polygon(((s / 2, s * 0.05), (s * 0.95, s / 2), (s / 2, s * 0.95), (s * 0.05, s / 2)), fill="#000000"),
        )

    return IconRegistry({"circle": circle, "square": square, "triangle": triangle, "diamond": diamond})
