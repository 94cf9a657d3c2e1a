"""The standard inline icons: ``{tile}``, ``{arrow}``, ``{star}``, suits, dice faces and a few shapes.

Every icon draws into a square of side ``s`` (mm) with its origin at the top-left.
Card text may use any of them as ``{name}``; specs get extra icons for their
palette entries (``{palette.entry}``) from :mod:`cardgen.render.widgets`.
"""

from __future__ import annotations

import math
from typing import Sequence

from cardgen.render.icons import IconDrawer, IconRegistry
from cardgen.render.scene import Circle, ClosePath, CubicTo, LineTo, MoveTo, Path, Polygon, Primitive, Rect

INK = "#1a1a1a"


def _tile(s: float) -> Sequence[Primitive]:
    return (
        Rect(s * 0.12, s * 0.12, s * 0.76, s * 0.76, fill="#ffffff", stroke=INK, stroke_width=s * 0.08, radius=s * 0.06),
        Polygon(((s * 0.5, s * 0.28), (s * 0.72, s * 0.5), (s * 0.5, s * 0.72), (s * 0.28, s * 0.5)), fill=INK),
    )


def _arrow(s: float) -> Sequence[Primitive]:
    return (
        Polygon(
            (
                (s * 0.1, s * 0.4), (s * 0.55, s * 0.4), (s * 0.55, s * 0.2), (s * 0.92, s * 0.5),
                (s * 0.55, s * 0.8), (s * 0.55, s * 0.6), (s * 0.1, s * 0.6),
            ),
            fill=INK,
        ),
    )


def _star(s: float) -> Sequence[Primitive]:
    pts = []
    for k in range(10):
        r = s * (0.45 if k % 2 == 0 else 0.19)
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((s / 2 + r * math.cos(a), s * 0.53 + r * math.sin(a)))
    return (Polygon(tuple(pts), fill=INK),)


def _heart(s: float) -> Sequence[Primitive]:
    return (
        Path(
            (
                MoveTo(s * 0.5, s * 0.88),
                CubicTo(s * 0.1, s * 0.6, s * 0.0, s * 0.3, s * 0.25, s * 0.18),
                CubicTo(s * 0.4, s * 0.12, s * 0.5, s * 0.25, s * 0.5, s * 0.32),
                CubicTo(s * 0.5, s * 0.25, s * 0.6, s * 0.12, s * 0.75, s * 0.18),
                CubicTo(s * 1.0, s * 0.3, s * 0.9, s * 0.6, s * 0.5, s * 0.88),
                ClosePath(),
            ),
            fill="#b3261e",
        ),
    )


def _diamond(s: float) -> Sequence[Primitive]:
    return (Polygon(((s * 0.5, s * 0.08), (s * 0.85, s * 0.5), (s * 0.5, s * 0.92), (s * 0.15, s * 0.5)), fill="#b3261e"),)


def _spade(s: float) -> Sequence[Primitive]:
    return (
        Path(
            (
                MoveTo(s * 0.5, s * 0.08),
                CubicTo(s * 0.9, s * 0.4, s * 1.0, s * 0.6, s * 0.75, s * 0.7),
                CubicTo(s * 0.62, s * 0.74, s * 0.55, s * 0.66, s * 0.53, s * 0.62),
                LineTo(s * 0.62, s * 0.92),
                LineTo(s * 0.38, s * 0.92),
                LineTo(s * 0.47, s * 0.62),
                CubicTo(s * 0.45, s * 0.66, s * 0.38, s * 0.74, s * 0.25, s * 0.7),
                CubicTo(s * 0.0, s * 0.6, s * 0.1, s * 0.4, s * 0.5, s * 0.08),
                ClosePath(),
            ),
            fill=INK,
        ),
    )


def _club(s: float) -> Sequence[Primitive]:
    r = s * 0.17
    return (
        Circle(s * 0.5, s * 0.28, r, fill=INK),
        Circle(s * 0.3, s * 0.55, r, fill=INK),
        Circle(s * 0.7, s * 0.55, r, fill=INK),
        Polygon(((s * 0.5, s * 0.45), (s * 0.62, s * 0.92), (s * 0.38, s * 0.92)), fill=INK),
    )


_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.3, 0.3), (0.7, 0.7)),
    3: ((0.3, 0.3), (0.5, 0.5), (0.7, 0.7)),
    4: ((0.3, 0.3), (0.7, 0.3), (0.3, 0.7), (0.7, 0.7)),
    5: ((0.3, 0.3), (0.7, 0.3), (0.5, 0.5), (0.3, 0.7), (0.7, 0.7)),
    6: ((0.3, 0.27), (0.7, 0.27), (0.3, 0.5), (0.7, 0.5), (0.3, 0.73), (0.7, 0.73)),
}


def die_face(value: int, s: float, x: float = 0.0, y: float = 0.0, fill: str = "#ffffff", ink: str = INK) -> list[Primitive]:
    """A die face showing ``value`` pips (1-6) in the square (x, y, s)."""
    out: list[Primitive] = [Rect(x + s * 0.08, y + s * 0.08, s * 0.84, s * 0.84, fill=fill, stroke=ink, stroke_width=s * 0.06, radius=s * 0.16)]
    for px, py in _PIPS.get(value, ()):
        out.append(Circle(x + s * px, y + s * py, s * 0.075, fill=ink))
    return out


def _die(value: int) -> IconDrawer:
    def draw(s: float) -> Sequence[Primitive]:
        return die_face(value, s)

    return draw


def _circle(s: float) -> Sequence[Primitive]:
    return (Circle(s / 2, s / 2, s * 0.38, fill=INK),)


def _square(s: float) -> Sequence[Primitive]:
    return (Rect(s * 0.14, s * 0.14, s * 0.72, s * 0.72, fill=INK),)


def _triangle(s: float) -> Sequence[Primitive]:
    return (Polygon(((s / 2, s * 0.12), (s * 0.9, s * 0.86), (s * 0.1, s * 0.86)), fill=INK),)


def _hollow(s: float) -> Sequence[Primitive]:
    return (Circle(s / 2, s / 2, s * 0.32, fill="#ffffff", stroke=INK, stroke_width=s * 0.1),)


def standard_icons() -> IconRegistry:
    """A fresh registry holding every standard icon."""
    registry = IconRegistry()
    for name, drawer in {
        "tile": _tile, "arrow": _arrow, "star": _star, "heart": _heart, "diamond": _diamond,
        "spade": _spade, "club": _club, "circle": _circle, "square": _square, "triangle": _triangle,
        "filled": _circle, "hollow": _hollow, "die": _die(5),
    }.items():
        registry.register(name, drawer)
    for value in range(1, 7):
        registry.register(f"d{value}", _die(value))
    return registry
