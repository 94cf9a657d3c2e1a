"""Generic rendering layer: scenes of primitives in mm, SVG/PDF backends, fonts,
text layout with inline icons, and print-sheet imposition.

This package knows nothing about any particular game.

The names below are importable from the package, but each is loaded only when
first asked for (PEP 562): importing one module of the layer (say the scene
or the faces) must not import both backends and the sheet code.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS: dict[str, tuple[str, ...]] = {
    "backend": ("Backend", "draw_scene", "render_document"),
    "fonts": ("DEFAULT_FONT", "font_key", "missing_glyphs", "string_width"),
    "icons": ("IconRegistry",),
    "pdf_backend": ("PdfBackend", "write_pdf"),
    "svg_backend": ("SvgBackend", "write_svg"),
    "scene": (
        "Box", "Circle", "ClosePath", "CubicTo", "Group", "Image", "Line", "LineTo", "MoveTo",
        "Path", "Polygon", "QuadTo", "Rect", "Scene", "Text", "Transform", "card_scene",
    ),
    "sheets": (
        "FooterInfo", "ImposedSheets", "PrintItem", "SheetTemplate", "builtin_sheet_template",
        "impose", "load_sheet_template",
    ),
    "sheet_guide": ("duplex_test_sheet", "with_guide"),
    "text": ("Overflow", "TextBlock", "layout_text", "shrink_to_fit"),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = [name for names in _EXPORTS.values() for name in names]


def __getattr__(name: str) -> Any:
    """Load an exported name's module on first use."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from cardgen.render.backend import Backend, draw_scene, render_document
    from cardgen.render.fonts import DEFAULT_FONT, font_key, missing_glyphs, string_width
    from cardgen.render.icons import IconRegistry
    from cardgen.render.pdf_backend import PdfBackend, write_pdf
    from cardgen.render.scene import (
        Box, Circle, ClosePath, CubicTo, Group, Image, Line, LineTo, MoveTo, Path, Polygon, QuadTo, Rect, Scene, Text, Transform, card_scene,
    )
    from cardgen.render.sheet_guide import duplex_test_sheet, with_guide
    from cardgen.render.sheets import (
        FooterInfo, ImposedSheets, PrintItem, SheetTemplate, builtin_sheet_template, impose, load_sheet_template,
    )
    from cardgen.render.svg_backend import SvgBackend, write_svg
    from cardgen.render.text import Overflow, TextBlock, layout_text, shrink_to_fit
