"""Generic rendering layer: scenes of primitives in mm, SVG/PDF backends, fonts,
text layout with inline icons, and print-sheet imposition.

This package knows nothing about any particular game.
"""

from cardgen.render.backend import Backend, draw_scene, render_document
from cardgen.render.fonts import DEFAULT_FONT, font_key, missing_glyphs, string_width
from cardgen.render.icons import IconRegistry
from cardgen.render.pdf_backend import PdfBackend, write_pdf
from cardgen.render.scene import (
    Box,
    Circle,
    ClosePath,
    CubicTo,
    Group,
    Image,
    Line,
    LineTo,
    MoveTo,
    Path,
    Polygon,
    QuadTo,
    Rect,
    Scene,
    Text,
    Transform,
    card_scene,
)
from cardgen.render.sheet_guide import duplex_test_sheet, with_guide
from cardgen.render.sheets import (
    FooterInfo,
    ImposedSheets,
    PrintItem,
    SheetTemplate,
    builtin_sheet_template,
    impose,
    load_sheet_template,
)
from cardgen.render.svg_backend import SvgBackend, write_svg
from cardgen.render.text import Overflow, TextBlock, layout_text, shrink_to_fit

__all__ = [
    "Backend", "draw_scene", "render_document",
    "DEFAULT_FONT", "font_key", "missing_glyphs", "string_width",
    "IconRegistry",
    "PdfBackend", "write_pdf", "SvgBackend", "write_svg",
    "Box", "Circle", "ClosePath", "CubicTo", "Group", "Image", "Line", "LineTo", "MoveTo",
    "Path", "Polygon", "QuadTo", "Rect", "Scene", "Text", "Transform", "card_scene",
    "FooterInfo", "ImposedSheets", "PrintItem", "SheetTemplate", "builtin_sheet_template",
    "duplex_test_sheet", "impose", "load_sheet_template", "with_guide",
    "Overflow", "TextBlock", "layout_text", "shrink_to_fit",
]
