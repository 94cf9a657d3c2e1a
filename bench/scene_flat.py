"""Walk real cardgen scenes ONCE into flat tuples of drawing operations, for the floors.

The floors (``render_floor.py`` for PDF, ``svg_floor.py`` for SVG) must draw
exactly the primitives cardgen draws, but with no cardgen code on the timed
path. This module is the untimed bridge: it reads the scene dataclasses and
emits plain tuples (strings, floats, tuples of floats), with colours already
parsed and text already sanitised. Coordinates stay in mm, y down, as in the
scenes.

Operations (first item is the opcode)::

    ("page", width_mm, height_mm, trim_box_or_None, bleed_box_or_None)   boxes as (x, y, w, h)
    ("push", translate_or_None, rotate, scale_or_None, clip_or_None)
    ("pop",)
    ("rect", x, y, w, h, radius, fill, stroke, stroke_width)             fill/stroke: hex or None
    ("line", x1, y1, x2, y2, stroke, stroke_width)
    ("poly", points, fill, stroke, stroke_width)
    ("path", commands, fill, stroke, stroke_width, evenodd)             commands: ("M", x, y) ("L", x, y) ("C", ...) ("Q", ...) ("Z",)
    ("circle", cx, cy, r, fill, stroke, stroke_width)
    ("text", x, y, font, size_pt, fill, anchor, text)
    ("image", path, x, y, w, h)
"""

from __future__ import annotations

from typing import Any, Iterable

from cardgen.render.fonts import sanitize_text
from cardgen.render.scene import (
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
)

Op = tuple[Any, ...]


def _box(box: Any) -> tuple[float, float, float, float] | None:
    return None if box is None else (box.x, box.y, box.w, box.h)


def _walk(primitive: Any, out: list[Op]) -> None:
    if isinstance(primitive, Group):
        t = primitive.transform
        translate = rotate = scale = None
        if t is not None and not t.is_identity:
            translate = t.translate if t.translate != (0.0, 0.0) else None
            rotate = t.rotate or None
            scale = t.scale if t.scale != (1.0, 1.0) else None
        out.append(("push", translate, rotate, scale, _box(primitive.clip)))
        for child in primitive.children:
            _walk(child, out)
        out.append(("pop",))
    elif isinstance(primitive, Rect):
        out.append(("rect", primitive.x, primitive.y, primitive.w, primitive.h, primitive.radius, primitive.fill, primitive.stroke, primitive.stroke_width))
    elif isinstance(primitive, Line):
        out.append(("line", primitive.x1, primitive.y1, primitive.x2, primitive.y2, primitive.stroke, primitive.stroke_width))
    elif isinstance(primitive, Polygon):
        out.append(("poly", primitive.points, primitive.fill, primitive.stroke, primitive.stroke_width))
    elif isinstance(primitive, Path):
        commands: list[tuple[Any, ...]] = []
        for c in primitive.commands:
            if isinstance(c, MoveTo):
                commands.append(("M", c.x, c.y))
            elif isinstance(c, LineTo):
                commands.append(("L", c.x, c.y))
            elif isinstance(c, CubicTo):
                commands.append(("C", c.x1, c.y1, c.x2, c.y2, c.x, c.y))
            elif isinstance(c, QuadTo):
                commands.append(("Q", c.x1, c.y1, c.x, c.y))
            elif isinstance(c, ClosePath):
                commands.append(("Z",))
        out.append(("path", tuple(commands), primitive.fill, primitive.stroke, primitive.stroke_width, primitive.fill_rule == "evenodd"))
    elif isinstance(primitive, Circle):
        out.append(("circle", primitive.cx, primitive.cy, primitive.r, primitive.fill, primitive.stroke, primitive.stroke_width))
    elif isinstance(primitive, Text):
        out.append(("text", primitive.x, primitive.y, primitive.font, primitive.size_pt, primitive.fill, primitive.anchor, sanitize_text(primitive.text)))
    elif isinstance(primitive, Image):
        out.append(("image", primitive.path, primitive.x, primitive.y, primitive.w, primitive.h))
    else:
        raise TypeError(f"not a scene primitive: {primitive!r}")


def flatten(scenes: Iterable[Scene]) -> list[list[Op]]:
    """One list of operations per scene (page), starting with its ``page`` op."""
    pages: list[list[Op]] = []
    for scene in scenes:
        ops: list[Op] = [("page", scene.width_mm, scene.height_mm, _box(scene.trim_box), _box(scene.bleed_box))]
        for child in scene.children:
            _walk(child, ops)
        pages.append(ops)
    return pages


def count_ops(pages: list[list[Op]]) -> int:
    """How many drawing operations (not counting page and group markers)."""
    return sum(1 for ops in pages for op in ops if op[0] not in ("page", "push", "pop"))
