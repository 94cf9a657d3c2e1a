"""SVG backend: one scene -> one SVG document, sized in mm.

The viewBox is in millimetres, so one user unit is 1 mm; font sizes are
converted from pt to mm. Output is deterministic: numbers are formatted with a
fixed precision, clip-path ids come from a per-document counter, no timestamps.
"""

from __future__ import annotations

import base64
import mimetypes
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
from cardgen.render.units import fmt_number
from cardgen.render.units import pt_to_mm


_NUMBERS: dict[float, str] = {}


def _n(value: float) -> str:
    """:func:`~cardgen.render.units.fmt_number` with 4 decimals, memoised (equal values format equally)."""
    text = _NUMBERS.get(value)
    if text is None:
        if len(_NUMBERS) > 200_000:
            _NUMBERS.clear()
        text = _NUMBERS[value] = fmt_number(value)
    return text


def _stroke(stroke: Color, stroke_width: float) -> str:
    """The stroke attributes (sorted position: after fill and geometry starting with letters < 's')."""
    if stroke is not None and stroke_width > 0:
        return f' stroke="{stroke}" stroke-width="{_n(stroke_width)}"'
    return ""


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


def _escape_text(text: str) -> str:
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return text


_SVG_NAMESPACES = (
    'xmlns="http://www.w3.org/2000/svg" xmlns:ev="http://www.w3.org/2001/xml-events" '
    'xmlns:xlink="http://www.w3.org/1999/xlink"'
)


class SvgBackend:
    """Renders exactly one scene to SVG text. Images are embedded as data URIs.

    The document is built as strings (elements with attributes sorted by name,
    as svgwrite's serialiser writes them), which keeps the output of the
    svgwrite-based writer byte for byte while costing a fraction of the time.
    """

    def __init__(self) -> None:
        self._root: tuple[str, str] | None = None
        self._defs: list[str] = []
        self._stack: list[tuple[str, list[str]]] = []
        self._clip_counter = 0
        self._pages = 0

    # -- document / page -------------------------------------------------
    def begin_document(self) -> None:
        """Reset state for a new document."""
        self._root = None
        self._defs = []
        self._stack = []
        self._clip_counter = 0
        self._pages = 0

    def begin_page(self, scene: Scene) -> None:
        """Open the SVG root sized in mm with a mm viewBox."""
        if self._pages:
            raise ValueError("an SVG document holds exactly one scene")
        self._pages += 1
        w, h = _n(scene.width_mm), _n(scene.height_mm)
        self._root = (w, h)
        self._stack = [("svg", [])]

    def end_page(self) -> None:
        """Nothing to flush for SVG."""

    def finish(self) -> str:
        """Return the SVG document as text."""
        if self._root is None:
            raise ValueError("no scene was drawn")
        if len(self._stack) != 1:
            raise ValueError("unbalanced push_group/pop_group")
        w, h = self._root
        head = (
            f'<svg baseProfile="full" height="{h}mm" style="font-kerning:none" version="1.1" '
            f'viewBox="0 0 {w} {h}" width="{w}mm" {_SVG_NAMESPACES}>'
        )
        defs = "<defs>" + "".join(self._defs) + "</defs>" if self._defs else "<defs />"
        body = "".join(self._stack[0][1])
        return '<?xml version="1.0" encoding="utf-8"?>\n' + head + defs + body + "</svg>\n"

    # -- helpers ---------------------------------------------------------
    def _add(self, element: str) -> None:
        if not self._stack:
            raise ValueError("begin_page was not called")
        self._stack[-1][1].append(element)

    # -- groups ----------------------------------------------------------
    def push_group(self, group: Group) -> None:
        """Open a <g> with the group's transform and clip-path."""
        if not self._stack:
            raise ValueError("begin_page was not called")
        attrs = ""
        if group.clip is not None:
            self._clip_counter += 1
            clip_id = f"clip{self._clip_counter}"
            clip = group.clip
            self._defs.append(
                f'<clipPath id="{clip_id}"><rect height="{_n(clip.h)}" width="{_n(clip.w)}" x="{_n(clip.x)}" y="{_n(clip.y)}" /></clipPath>'
            )
            attrs = f' clip-path="url(#{clip_id})"'
        if group.transform is not None and not group.transform.is_identity:
            transform = _transform_attr(group.transform)
            if transform:
                attrs += f' transform="{transform}"'
        self._stack.append((attrs, []))

    def pop_group(self) -> None:
        """Close the innermost <g>."""
        if len(self._stack) <= 1:
            raise ValueError("pop_group without push_group")
        attrs, children = self._stack.pop()
        self._stack[-1][1].append(f"<g{attrs}>" + "".join(children) + "</g>" if children else f"<g{attrs} />")

    # -- primitives ------------------------------------------------------
    # Attributes are written in name order, as svgwrite's serialiser sorts them.
    def draw_rect(self, rect: Rect) -> None:
        """<rect>, with rx/ry for rounded corners."""
        fill = rect.fill if rect.fill is not None else "none"
        corner = f' rx="{_n(rect.radius)}" ry="{_n(rect.radius)}"' if rect.radius > 0 else ""
        self._add(
            f'<rect fill="{fill}" height="{_n(rect.h)}"{corner}{_stroke(rect.stroke, rect.stroke_width)}'
            f' width="{_n(rect.w)}" x="{_n(rect.x)}" y="{_n(rect.y)}" />'
        )

    def draw_line(self, line: Line) -> None:
        """<line>."""
        self._add(
            f'<line fill="none"{_stroke(line.stroke, line.stroke_width)}'
            f' x1="{_n(line.x1)}" x2="{_n(line.x2)}" y1="{_n(line.y1)}" y2="{_n(line.y2)}" />'
        )

    def draw_polygon(self, polygon: Polygon) -> None:
        """<polygon>."""
        fill = polygon.fill if polygon.fill is not None else "none"
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in polygon.points)
        points_attr = f' points="{points}"' if points else ""
        self._add(f'<polygon fill="{fill}"{points_attr}{_stroke(polygon.stroke, polygon.stroke_width)} />')

    def draw_path(self, path: Path) -> None:
        """<path>."""
        fill = path.fill if path.fill is not None else "none"
        d = path_data(path)
        d_attr = f' d="{d}"' if d else ""
        rule = f' fill-rule="{path.fill_rule}"' if path.fill_rule != "nonzero" else ""
        self._add(f'<path{d_attr} fill="{fill}"{rule}{_stroke(path.stroke, path.stroke_width)} />')

    def draw_circle(self, circle: Circle) -> None:
        """<circle>."""
        fill = circle.fill if circle.fill is not None else "none"
        self._add(
            f'<circle cx="{_n(circle.cx)}" cy="{_n(circle.cy)}" fill="{fill}" r="{_n(circle.r)}"'
            f'{_stroke(circle.stroke, circle.stroke_width)} />'
        )

    def draw_text(self, text: Text) -> None:
        """<text> with the face's CSS family; control characters are stripped."""
        face = font_face(text.font)
        style = (' font-style="oblique"' if face.oblique else "") + (' font-weight="bold"' if face.bold else "")
        anchor = f' text-anchor="{text.anchor}"' if text.anchor != "start" else ""
        head = (
            f'<text fill="{text.fill}" font-family="{face.family}" font-size="{_n(pt_to_mm(text.size_pt))}"'
            f'{style}{anchor} x="{_n(text.x)}" xml:space="preserve" y="{_n(text.y)}"'
        )
        content = sanitize_text(text.text)
        self._add(f"{head}>{_escape_text(content)}</text>" if content else f"{head} />")

    def draw_image(self, image: Image) -> None:
        """<image> embedding the file as a data URI (self-contained, deterministic)."""
        self._add(
            f'<image height="{_n(image.h)}" preserveAspectRatio="none" width="{_n(image.w)}" x="{_n(image.x)}"'
            f' xlink:href="{_image_href(image.path)}" y="{_n(image.y)}" />'
        )


def write_svg(scene: Scene) -> str:
    """Render one scene (e.g. a card face including its bleed) to SVG text."""
    backend = SvgBackend()
    backend.begin_document()
    draw_scene(scene, backend)
    return backend.finish()
