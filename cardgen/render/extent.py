"""Where primitives put ink, and how small their text is: what the print-safety checks measure.

:func:`ink_box` bounds everything a list of primitives draws (stroke widths,
text advance widths with ascent and descent, group transforms and clips
included), in the coordinates of the list. :func:`text_sizes` yields every
text run with its size in points as printed (a group's scale shrinks it).
Curves are bounded by their control points, which enclose them, so a box may
be a little generous but never too small.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

from cardgen.render.fonts import ascent, descent, string_width
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
    Primitive,
    QuadTo,
    Rect,
    Text,
    Transform,
)

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Bounds:
    """An axis-aligned box as (left, top, right, bottom) in mm."""

    left: float
    top: float
    right: float
    bottom: float

    def union(self, other: "Bounds | None") -> "Bounds":
        """The smallest bounds holding both."""
        if other is None:
            return self
        return Bounds(min(self.left, other.left), min(self.top, other.top), max(self.right, other.right), max(self.bottom, other.bottom))

    def clip(self, box: Box) -> "Bounds | None":
        """The part inside ``box`` (None when nothing is)."""
        left, top = max(self.left, box.x), max(self.top, box.y)
        right, bottom = min(self.right, box.right), min(self.bottom, box.bottom)
        if right < left or bottom < top:
            return None
        return Bounds(left, top, right, bottom)

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """The four corners."""
        return ((self.left, self.top), (self.right, self.top), (self.right, self.bottom), (self.left, self.bottom))

    @staticmethod
    def of_points(points: Iterable[Point], pad: float = 0.0) -> "Bounds | None":
        """Bounds of points, widened by ``pad`` on every side."""
        xs, ys = [], []
        for x, y in points:
            xs.append(x)
            ys.append(y)
        if not xs:
            return None
        return Bounds(min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)


def _apply(transform: Transform, point: Point) -> Point:
    """A group transform applied to a point: scale, then rotate, then translate."""
    x, y = point[0] * transform.scale[0], point[1] * transform.scale[1]
    if transform.rotate:
        a = math.radians(transform.rotate)
        x, y = x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)
    return x + transform.translate[0], y + transform.translate[1]


def _path_points(path: Path) -> Iterator[Point]:
    for command in path.commands:
        if isinstance(command, (MoveTo, LineTo)):
            yield command.x, command.y
        elif isinstance(command, CubicTo):
            yield from ((command.x1, command.y1), (command.x2, command.y2), (command.x, command.y))
        elif isinstance(command, QuadTo):
            yield from ((command.x1, command.y1), (command.x, command.y))
        elif isinstance(command, ClosePath):
            continue


def _text_extent(text: Text) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of a text run's ink: its advance, ascent and descent."""
    key = (text.text, text.font, text.size_pt)
    metrics = _RUN_METRICS.get(key)
    if metrics is None:
        if len(_RUN_METRICS) >= _RUN_METRICS_LIMIT:
            _RUN_METRICS.clear()
        metrics = _RUN_METRICS[key] = (string_width(*key), ascent(text.font, text.size_pt), descent(text.font, text.size_pt))
    width, above, below = metrics
    anchor = text.anchor
    if anchor == "start":
        left = text.x
    elif anchor == "middle":
        left = text.x - width / 2
    elif anchor == "end":
        left = text.x - width
    else:
        raise KeyError(anchor)
    return left, text.y - above, left + width, text.y + below


def _text_bounds(text: Text) -> Bounds:
    return Bounds(*_text_extent(text))


_RUN_METRICS: dict[tuple[str, str, float], tuple[float, float, float]] = {}
"""A run's advance width, ascent and descent (mm) by text, font and size: each face's text is bounded twice (its ink
and its text's ink), and a deck repeats its lines."""
_RUN_METRICS_LIMIT = 8192


def _one(primitive: Primitive) -> Bounds | None:
    if isinstance(primitive, Rect):
        pad = primitive.stroke_width / 2 if primitive.stroke else 0.0
        return Bounds(primitive.x - pad, primitive.y - pad, primitive.x + primitive.w + pad, primitive.y + primitive.h + pad)
    if isinstance(primitive, Circle):
        reach = primitive.r + (primitive.stroke_width / 2 if primitive.stroke else 0.0)
        return Bounds(primitive.cx - reach, primitive.cy - reach, primitive.cx + reach, primitive.cy + reach)
    if isinstance(primitive, Line):
        return Bounds.of_points(((primitive.x1, primitive.y1), (primitive.x2, primitive.y2)), primitive.stroke_width / 2)
    if isinstance(primitive, Polygon):
        return Bounds.of_points(primitive.points, primitive.stroke_width / 2 if primitive.stroke else 0.0)
    if isinstance(primitive, Path):
        return Bounds.of_points(_path_points(primitive), primitive.stroke_width / 2 if primitive.stroke else 0.0)
    if isinstance(primitive, Text):
        return _text_bounds(primitive)
    if isinstance(primitive, Image):
        return Bounds(primitive.x, primitive.y, primitive.x + primitive.w, primitive.y + primitive.h)
    if isinstance(primitive, Group):
        inner = ink_box(primitive.children)
        if inner is not None and primitive.clip is not None:
            inner = inner.clip(primitive.clip)
        if inner is None:
            return None
        if primitive.transform is None or primitive.transform.is_identity:
            return inner
        transform = primitive.transform
        return Bounds.of_points(_apply(transform, corner) for corner in inner.corners())
    raise TypeError(f"unknown primitive {type(primitive).__name__}")


def ink_box(primitives: Sequence[Primitive]) -> Bounds | None:
    """Bounds of everything ``primitives`` draw (None when they draw nothing).

    The union is folded as numbers (each new box's side first, as :meth:`Bounds.union` takes them, so a signed
    zero or a NaN comes out as it would there), making one :class:`Bounds` at the end rather than one per run.
    """
    found = False
    left = top = right = bottom = 0.0
    for primitive in primitives:
        if type(primitive) is Text:
            one_left, one_top, one_right, one_bottom = _text_extent(primitive)
        else:
            one = _one(primitive)
            if one is None:
                continue
            one_left, one_top, one_right, one_bottom = one.left, one.top, one.right, one.bottom
        if found:
            left, top, right, bottom = min(one_left, left), min(one_top, top), max(one_right, right), max(one_bottom, bottom)
        else:
            left, top, right, bottom = one_left, one_top, one_right, one_bottom
            found = True
    return Bounds(left, top, right, bottom) if found else None


def text_sizes(primitives: Sequence[Primitive], scale: float = 1.0) -> Iterator[tuple[Text, float]]:
    """Every text run and its printed size in points (group scales applied; the smaller axis counts)."""
    for primitive in primitives:
        if isinstance(primitive, Text):
            yield primitive, primitive.size_pt * scale
        elif isinstance(primitive, Group):
            factor = scale
            if primitive.transform is not None:
                factor *= min(abs(primitive.transform.scale[0]), abs(primitive.transform.scale[1]))
            yield from text_sizes(primitive.children, factor)


def text_ink(primitives: Sequence[Primitive]) -> Bounds | None:
    """Bounds of the text runs alone (letters and numbers carry meaning even inside art)."""
    out: Bounds | None = None
    for primitive in primitives:
        if isinstance(primitive, Text):
            out = _text_bounds(primitive).union(out)
        elif isinstance(primitive, Group):
            inner = text_ink(primitive.children)
            if inner is None:
                continue
            if primitive.clip is not None:
                inner = inner.clip(primitive.clip)
                if inner is None:
                    continue
            if primitive.transform is not None and not primitive.transform.is_identity:
                inner = Bounds.of_points(_apply(primitive.transform, corner) for corner in inner.corners())
            out = inner.union(out) if inner is not None else out
    return out
