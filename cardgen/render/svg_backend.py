"""SVG backend: one scene -> one SVG document, sized in mm, written as text.

The viewBox is in millimetres, so one user unit is 1 mm; font sizes are
converted from pt to mm. Output is deterministic: numbers are formatted with a
fixed precision, clip-path ids come from a per-document counter, no timestamps.

Each element is written as text as soon as it is drawn, its attributes already
formatted (memoised numbers, paint and font attribute sets) and in sorted
order, escaped as the standard library's ElementTree escapes them. The bytes
are those ``ElementTree.tostring()`` wrote for the same elements when this
backend built a tree (and those the svgwrite library wrote before that: the
root's ``baseProfile``, ``version`` and namespace attributes, an empty
``<defs />`` first, sorted attributes, empty values left out, an element
without content closed as ``<tag ... />``). Building the tree and walking it to
serialise it took as long as drawing the face; the tests compare this writer's
bytes with ElementTree's and svgwrite's. The clip paths a face defines go into
the ``<defs>`` at the top, so they are kept apart and joined in at the end. The
backend stays behind this module's small interface (:class:`SvgBackend`,
:func:`write_svg`).
"""

from __future__ import annotations

import base64
import mimetypes
import re
from pathlib import Path as FsPath

from cardgen.render.backend import draw_scene
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
from cardgen.render.units import fmt_number, pt_to_mm

_CACHE_LIMIT = 200_000
_NUMBERS: dict[float, str] = {}


def _n(value: float) -> str:
    """:func:`~cardgen.render.units.fmt_number` with 4 decimals, memoised (equal values format equally)."""
    text = _NUMBERS.get(value)
    if text is None:
        if len(_NUMBERS) > _CACHE_LIMIT:
            _NUMBERS.clear()
        text = _NUMBERS[value] = fmt_number(value)
    return text


_PAINTS: dict[tuple[Color, Color, float], dict[str, str]] = {}


def _paint(fill: Color, stroke: Color, stroke_width: float) -> dict[str, str]:
    """The fill and stroke attributes (memoised; callers copy them into an element, never change them)."""
    key = (fill, stroke, stroke_width)
    attrs = _PAINTS.get(key)
    if attrs is None:
        attrs = {"fill": fill if fill is not None else "none"}
        if stroke is not None and stroke_width > 0:
            attrs["stroke"] = stroke
            attrs["stroke-width"] = _n(stroke_width)
        if len(_PAINTS) > _CACHE_LIMIT:
            _PAINTS.clear()
        _PAINTS[key] = attrs
    return attrs


_TEXT_STYLES: dict[tuple[str, float, str, str], dict[str, str]] = {}


def _text_style(font: str, size_pt: float, fill: str, anchor: str) -> dict[str, str]:
    """Font, size, fill and anchor attributes of a text run (memoised)."""
    key = (font, size_pt, fill, anchor)
    attrs = _TEXT_STYLES.get(key)
    if attrs is None:
        face = font_face(font)
        attrs = {"font-family": face.family, "font-size": _n(pt_to_mm(size_pt)), "fill": fill, "xml:space": "preserve"}
        if face.bold:
            attrs["font-weight"] = "bold"
        if face.oblique:
            attrs["font-style"] = "oblique"
        if anchor != "start":
            attrs["text-anchor"] = anchor
        if len(_TEXT_STYLES) > _CACHE_LIMIT:
            _TEXT_STYLES.clear()
        _TEXT_STYLES[key] = attrs
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
    n = _n
    for cmd in path.commands:
        kind = type(cmd)
        if kind is LineTo or kind is MoveTo:
            out.append(f"{'L' if kind is LineTo else 'M'}{n(cmd.x)} {n(cmd.y)}")  # type: ignore[union-attr]
        elif kind is CubicTo:
            out.append(f"C{n(cmd.x1)} {n(cmd.y1)} {n(cmd.x2)} {n(cmd.y2)} {n(cmd.x)} {n(cmd.y)}")  # type: ignore[union-attr]
        elif kind is QuadTo:
            out.append(f"Q{n(cmd.x1)} {n(cmd.y1)} {n(cmd.x)} {n(cmd.y)}")  # type: ignore[union-attr]
        elif kind is ClosePath:
            out.append("Z")
        else:
            match cmd:  # subclasses of the command types
                case MoveTo(x, y):
                    out.append(f"M{n(x)} {n(y)}")
                case LineTo(x, y):
                    out.append(f"L{n(x)} {n(y)}")
                case CubicTo(x1, y1, x2, y2, x, y):
                    out.append(f"C{n(x1)} {n(y1)} {n(x2)} {n(y2)} {n(x)} {n(y)}")
                case QuadTo(x1, y1, x, y):
                    out.append(f"Q{n(x1)} {n(y1)} {n(x)} {n(y)}")
                case ClosePath():
                    out.append("Z")
    return " ".join(out)


def _image_href(path: str) -> str:
    mime = mimetypes.guess_type(path)[0] or "application/octet-stream"
    data = base64.b64encode(FsPath(path).read_bytes()).decode("ascii")
    return f"data:{mime};base64,{data}"


SVG_ROOT_ATTRIBUTES = {
    "baseProfile": "full",
    "version": "1.1",
    "xmlns": "http://www.w3.org/2000/svg",
    "xmlns:ev": "http://www.w3.org/2001/xml-events",
    "xmlns:xlink": "http://www.w3.org/1999/xlink",
}
"""The root element's fixed attributes (SVG 1.1 full profile, the SVG, XLink and XML Events namespaces)."""


_ATTRIBUTE_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\r": "&#13;", "\n": "&#10;", "\t": "&#09;"})
"""How ElementTree escapes an attribute value (``xml.etree.ElementTree._escape_attrib``), in one pass."""
_TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
"""How ElementTree escapes character data (``_escape_cdata``)."""


_NEEDS_ESCAPE = re.compile(r'[&<>"\r\n\t]').search
"""Whether an attribute value holds a character :data:`_ATTRIBUTE_ESCAPES` replaces (most are numbers and colours)."""


def _open_tag(tag: str, attrs: dict[str, str]) -> str:
    """``<tag a="1" b="2"`` (not closed): the attributes sorted, empty values left out, values escaped."""
    parts = [f"<{tag}"]
    for key in sorted(attrs):
        value = attrs[key]
        if value:
            parts.append(f' {key}="{value.translate(_ATTRIBUTE_ESCAPES) if _NEEDS_ESCAPE(value) else value}"')
    return "".join(parts)


class SvgBackend:
    """Renders exactly one scene to SVG text. Images are embedded as data URIs."""

    def __init__(self) -> None:
        self._out: list[str] = []
        self._defs: list[str] = []
        self._open: list[int] = []
        """Where each open ``<g>`` tag stands in the output (the root's at 0)."""
        self._clip_counter = 0
        self._pages = 0

    # -- document / page -------------------------------------------------
    def begin_document(self) -> None:
        """Reset state for a new document."""
        self._out = []
        self._defs = []
        self._open = []
        self._clip_counter = 0
        self._pages = 0

    def begin_page(self, scene: Scene) -> None:
        """Open the SVG root sized in mm with a mm viewBox; its ``<defs>`` come first, written at the end."""
        if self._pages:
            raise ValueError("an SVG document holds exactly one scene")
        self._pages += 1
        w, h = _n(scene.width_mm), _n(scene.height_mm)
        root = {**SVG_ROOT_ATTRIBUTES, "width": f"{w}mm", "height": f"{h}mm", "viewBox": f"0 0 {w} {h}", "style": "font-kerning:none"}
        self._out = [_open_tag("svg", root) + ">", ""]  # (the second item is where the <defs> go)
        self._open = [0]

    def end_page(self) -> None:
        """Nothing to flush for SVG."""

    def finish(self) -> str:
        """Return the SVG document as text."""
        if not self._out:
            raise ValueError("no scene was drawn")
        if len(self._open) != 1:
            raise ValueError("unbalanced push_group/pop_group")
        self._out[1] = "<defs>" + "".join(self._defs) + "</defs>" if self._defs else "<defs />"
        return '<?xml version="1.0" encoding="utf-8"?>\n' + "".join(self._out) + "</svg>\n"

    # -- helpers ---------------------------------------------------------
    def _add(self, tag: str, attrs: dict[str, str], text: str = "") -> None:
        """Write an element without children (``text`` is its character data)."""
        if not self._out:
            raise ValueError("begin_page was not called")
        start = _open_tag(tag, attrs)
        if text and ("&" in text or "<" in text or ">" in text):
            text = text.translate(_TEXT_ESCAPES)
        self._out.append(f"{start}>{text}</{tag}>" if text else start + " />")

    # -- groups ----------------------------------------------------------
    def push_group(self, group: Group) -> None:
        """Open a <g> with the group's transform and clip-path."""
        if not self._out:
            raise ValueError("begin_page was not called")
        attrs: dict[str, str] = {}
        if group.transform is not None and not group.transform.is_identity:
            attrs["transform"] = _transform_attr(group.transform)
        if group.clip is not None:
            self._clip_counter += 1
            clip_id = f"clip{self._clip_counter}"
            clip = group.clip
            box = _open_tag("rect", {"x": _n(clip.x), "y": _n(clip.y), "width": _n(clip.w), "height": _n(clip.h)})
            self._defs.append(f'<clipPath id="{clip_id}">{box} /></clipPath>')
            attrs["clip-path"] = f"url(#{clip_id})"
        self._open.append(len(self._out))
        self._out.append(_open_tag("g", attrs))

    def pop_group(self) -> None:
        """Close the innermost <g> (``<g ... />`` when nothing was drawn in it)."""
        if len(self._open) <= 1:
            raise ValueError("pop_group without push_group")
        start = self._open.pop()
        if start == len(self._out) - 1:
            self._out[start] += " />"
        else:
            self._out[start] += ">"
            self._out.append("</g>")

    # -- primitives ------------------------------------------------------
    def draw_rect(self, rect: Rect) -> None:
        """<rect>, with rx/ry for rounded corners."""
        attrs = dict(_paint(rect.fill, rect.stroke, rect.stroke_width))
        attrs["x"], attrs["y"], attrs["width"], attrs["height"] = _n(rect.x), _n(rect.y), _n(rect.w), _n(rect.h)
        if rect.radius > 0:
            attrs["rx"] = attrs["ry"] = _n(rect.radius)
        self._add("rect", attrs)

    def draw_line(self, line: Line) -> None:
        """<line>."""
        attrs = dict(_paint(None, line.stroke, line.stroke_width))
        attrs["x1"], attrs["y1"], attrs["x2"], attrs["y2"] = _n(line.x1), _n(line.y1), _n(line.x2), _n(line.y2)
        self._add("line", attrs)

    def draw_polygon(self, polygon: Polygon) -> None:
        """<polygon>, its points written ``x,y x,y ...``."""
        attrs = dict(_paint(polygon.fill, polygon.stroke, polygon.stroke_width))
        attrs["points"] = " ".join(f"{_n(x)},{_n(y)}" for x, y in polygon.points)
        self._add("polygon", attrs)

    def draw_path(self, path: Path) -> None:
        """<path> with its ``d`` attribute."""
        attrs = dict(_paint(path.fill, path.stroke, path.stroke_width))
        attrs["d"] = path_data(path)
        if path.fill_rule != "nonzero":
            attrs["fill-rule"] = path.fill_rule
        self._add("path", attrs)

    def draw_circle(self, circle: Circle) -> None:
        """<circle>."""
        attrs = dict(_paint(circle.fill, circle.stroke, circle.stroke_width))
        attrs["cx"], attrs["cy"], attrs["r"] = _n(circle.cx), _n(circle.cy), _n(circle.r)
        self._add("circle", attrs)

    def draw_text(self, text: Text) -> None:
        """<text> with the face's CSS family; control characters are stripped."""
        attrs = dict(_text_style(text.font, text.size_pt, text.fill, text.anchor))
        attrs["x"], attrs["y"] = _n(text.x), _n(text.y)
        self._add("text", attrs, sanitize_text(text.text))

    def draw_image(self, image: Image) -> None:
        """<image> embedding the file as a data URI (self-contained, deterministic)."""
        attrs = {"xlink:href": _image_href(image.path), "preserveAspectRatio": "none"}
        attrs["x"], attrs["y"], attrs["width"], attrs["height"] = _n(image.x), _n(image.y), _n(image.w), _n(image.h)
        self._add("image", attrs)


def write_svg(scene: Scene) -> str:
    """Render one scene (e.g. a card face including its bleed) to SVG text."""
    backend = SvgBackend()
    backend.begin_document()
    draw_scene(scene, backend)
    return backend.finish()
