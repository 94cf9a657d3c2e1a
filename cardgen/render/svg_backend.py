"""SVG backend (svgwrite): one scene -> one SVG document, sized in mm.

The viewBox is in millimetres, so one user unit is 1 mm; font sizes are
converted from pt to mm. Output is deterministic: numbers are formatted with a
fixed precision, clip-path ids come from a per-document counter, no timestamps.
"""

from __future__ import annotations

import base64
import mimetypes
from pathlib import Path as FsPath
from typing import Any

import svgwrite
from svgwrite.container import Group as SvgGroup

from cardgen.render.backend import render_document
from cardgen.render.fonts import font_face, sanitize_text
from cardgen.render.scene import (
    Circle,
    ClosePath,
    Color,
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
)
from cardgen.render.units import fmt_number as _n
from cardgen.render.units import pt_to_mm


def _paint(fill: Color, stroke: Color, stroke_width: float) -> dict[str, str]:
    attrs = {"fill": fill if fill is not None else "none"}
    if stroke is not None and stroke_width > 0:
        attrs["stroke"] = stroke
        attrs["stroke-width"] = _n(stroke_width)
    return attrs


def _transform_attr(t: Transform) -> str:
    parts: list[str] = []
    if t.translate != (0.0, 0.0):
        parts.append(f"translate({_n(t.translate[0])} {_n(t.translate[1])})")
    if t.rotate != 0.0:
        parts.append(f"rotate({_n(t.rotate)})")
    if t.scale != (1.0, 1.0):
        parts.append(f"scale({_n(t.scale[0])} {_n(t.scale[1])})")
    return " ".join(parts)


def path_data(path: Path) -> str:
    """The SVG ``d`` attribute for a path."""
    out: list[str] = []
    for cmd in path.commands:
        match cmd:
            case MoveTo(x, y):
                out.append(f"M{_n(x)} {_n(y)}")
            case LineTo(x, y):
                out.append(f"L{_n(x)} {_n(y)}")
            case CubicTo(x1, y1, x2, y2, x, y):
                out.append(f"C{_n(x1)} {_n(y1)} {_n(x2)} {_n(y2)} {_n(x)} {_n(y)}")
            case QuadTo(x1, y1, x, y):
                out.append(f"Q{_n(x1)} {_n(y1)} {_n(x)} {_n(y)}")
            case ClosePath():
                out.append("Z")
    return " ".join(out)


def _image_href(path: str) -> str:
    mime = mimetypes.guess_type(path)[0] or "application/octet-stream"
    data = base64.b64encode(FsPath(path).read_bytes()).decode("ascii")
    return f"data:{mime};base64,{data}"


class SvgBackend:
    """Renders exactly one scene to SVG text. Images are embedded as data URIs."""

    def __init__(self) -> None:
        self._drawing: svgwrite.Drawing | None = None
        self._stack: list[Any] = []
        self._clip_counter = 0
        self._pages = 0

    # -- document / page -------------------------------------------------
    def begin_document(self) -> None:
        """Reset state for a new document."""
        self._drawing = None
        self._stack = []
        self._clip_counter = 0
        self._pages = 0

    def begin_page(self, scene: Scene) -> None:
        """Create the SVG root sized in mm with a mm viewBox."""
        if self._pages:
            raise ValueError("an SVG document holds exactly one scene")
        self._pages += 1
        w, h = _n(scene.width_mm), _n(scene.height_mm)
        drawing = svgwrite.Drawing(size=(f"{w}mm", f"{h}mm"), profile="full", debug=False)
        drawing.attribs["viewBox"] = f"0 0 {w} {h}"
        drawing.attribs["style"] = "font-kerning:none"
        self._drawing = drawing
        self._stack = [drawing]

    def end_page(self) -> None:
        """Nothing to flush for SVG."""

    def finish(self) -> str:
        """Return the SVG document as text."""
        if self._drawing is None:
            raise ValueError("no scene was drawn")
        return '<?xml version="1.0" encoding="utf-8"?>\n' + self._drawing.tostring() + "\n"

    # -- helpers ---------------------------------------------------------
    @property
    def _dwg(self) -> svgwrite.Drawing:
        if self._drawing is None:
            raise ValueError("begin_page was not called")
        return self._drawing

    def _add(self, element: Any) -> None:
        self._stack[-1].add(element)

    # -- groups ----------------------------------------------------------
    def push_group(self, group: Group) -> None:
        """Open a <g> with the group's transform and clip-path."""
        g: SvgGroup = self._dwg.g()
        if group.transform is not None and not group.transform.is_identity:
            g.attribs["transform"] = _transform_attr(group.transform)
        if group.clip is not None:
            self._clip_counter += 1
            clip_id = f"clip{self._clip_counter}"
            clip_path = self._dwg.clipPath(id=clip_id)
            clip = group.clip
            clip_path.add(
                self._dwg.rect(insert=(_n(clip.x), _n(clip.y)), size=(_n(clip.w), _n(clip.h)))
            )
            self._dwg.defs.add(clip_path)
            g.attribs["clip-path"] = f"url(#{clip_id})"
        self._add(g)
        self._stack.append(g)

    def pop_group(self) -> None:
        """Close the innermost <g>."""
        if len(self._stack) <= 1:
            raise ValueError("pop_group without push_group")
        self._stack.pop()

    # -- primitives ------------------------------------------------------
    def draw_rect(self, rect: Rect) -> None:
        """<rect>, with rx/ry for rounded corners."""
        element = self._dwg.rect(
            insert=(_n(rect.x), _n(rect.y)),
            size=(_n(rect.w), _n(rect.h)),
            **_paint(rect.fill, rect.stroke, rect.stroke_width),
        )
        if rect.radius > 0:
            element.attribs["rx"] = element.attribs["ry"] = _n(rect.radius)
        self._add(element)

    def draw_line(self, line: Line) -> None:
        """<line>."""
        self._add(
            self._dwg.line(
                start=(_n(line.x1), _n(line.y1)),
                end=(_n(line.x2), _n(line.y2)),
                **_paint(None, line.stroke, line.stroke_width),
            )
        )

    def draw_polygon(self, polygon: Polygon) -> None:
        """<polygon>."""
        element = self._dwg.polygon(**_paint(polygon.fill, polygon.stroke, polygon.stroke_width))
        element.attribs["points"] = " ".join(f"{_n(x)},{_n(y)}" for x, y in polygon.points)
        self._add(element)

    def draw_path(self, path: Path) -> None:
        """<path>."""
        element = self._dwg.path(d=path_data(path), **_paint(path.fill, path.stroke, path.stroke_width))
        if path.fill_rule != "nonzero":
            element.attribs["fill-rule"] = path.fill_rule
        self._add(element)

    def draw_circle(self, circle: Circle) -> None:
        """<circle>."""
        self._add(
            self._dwg.circle(
                center=(_n(circle.cx), _n(circle.cy)),
                r=_n(circle.r),
                **_paint(circle.fill, circle.stroke, circle.stroke_width),
            )
        )

    def draw_text(self, text: Text) -> None:
        """<text> with the face's CSS family; control characters are stripped."""
        face = font_face(text.font)
        attrs: dict[str, str] = {
            "font-family": face.family,
            "font-size": _n(pt_to_mm(text.size_pt)),
            "fill": text.fill,
        }
        if face.bold:
            attrs["font-weight"] = "bold"
        if face.oblique:
            attrs["font-style"] = "oblique"
        if text.anchor != "start":
            attrs["text-anchor"] = text.anchor
        element = self._dwg.text(sanitize_text(text.text), insert=(_n(text.x), _n(text.y)), **attrs)
        element.attribs["xml:space"] = "preserve"
        self._add(element)

    def draw_image(self, image: Image) -> None:
        """<image> embedding the file as a data URI (self-contained, deterministic)."""
        element = self._dwg.image(
            href=_image_href(image.path),
            insert=(_n(image.x), _n(image.y)),
            size=(_n(image.w), _n(image.h)),
        )
        element.attribs["preserveAspectRatio"] = "none"
        self._add(element)


def write_svg(scene: Scene) -> str:
    """Render one scene (e.g. a card face including its bleed) to SVG text."""
    return render_document([scene], SvgBackend())
