"""Drawn motifs: small patterns that tell palette entries apart without colour.

A motif fills a box with a pattern in one ink colour. Palette entries name a
motif in the spec (``motif:``) or a layout maps entry ids to motif names; an
entry with neither gets the generic motif of its position in the palette, so
every palette is printable for colour-blind players and on grey printers.
Games may register more motifs from their ``widgets`` module.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

from cardgen.render.scene import Box, Circle, ClosePath, CubicTo, Group, Line, LineTo, MoveTo, Path, Polygon, Primitive, Rect

MotifFn = Callable[[Box, str], Sequence[Primitive]]
"""Draws a motif into the box with the given ink colour."""

_MOTIFS: dict[str, MotifFn] = {}


def register_motif(name: str, fn: MotifFn) -> None:
    """Add (or replace) a motif."""
    _MOTIFS[name] = fn


def motif_names() -> list[str]:
    """Every registered motif, sorted."""
    return sorted(_MOTIFS)


def has_motif(name: str) -> bool:
    """Whether a motif of this name exists."""
    return name in _MOTIFS


def draw_motif(name: str, box: Box, ink: str) -> Group:
    """The motif clipped to its box (nothing in a box without area)."""
    if not all(math.isfinite(v) for v in (box.x, box.y, box.w, box.h)) or box.w <= 0 or box.h <= 0:
        return Group(children=(), clip=box)
    return Group(children=tuple(_MOTIFS[name](box, ink)), clip=box)


_MAX_MOTIF_STEPS = 400
"""The most repeats a stripe, chevron or wave motif draws along its box: a very thin box gets a coarser pattern, never an endless one."""


def _unit(box: Box) -> float:
    return min(box.w, box.h)


def _repeat_step(box: Box, step: float) -> float:
    """``step``, or longer when the box is so thin that it would repeat more than _MAX_MOTIF_STEPS times."""
    return max(step, (box.w + box.h) / _MAX_MOTIF_STEPS)


def _dots(box: Box, ink: str) -> list[Primitive]:
    step = _unit(box) / 4
    out: list[Primitive] = []
    for i in range(5):
        for j in range(5):
            out.append(Circle(box.x + (i + 0.5) * step, box.y + (j + 0.5) * step, step * 0.18, fill=ink))
    return out


def _stripes(box: Box, ink: str) -> list[Primitive]:
    step = _repeat_step(box, _unit(box) / 5)
    w = step * 0.32
    out: list[Primitive] = []
    span = box.w + box.h
    k = -box.h
    while k < span:
        out.append(Line(box.x + k, box.bottom, box.x + k + box.h, box.y, stroke=ink, stroke_width=w))
        k += step
    return out


def _rings(box: Box, ink: str) -> list[Primitive]:
    cx, cy = box.x + box.w / 2, box.y + box.h / 2
    u = _unit(box)
    return [Circle(cx, cy, u * f, stroke=ink, stroke_width=u * 0.05) for f in (0.12, 0.26, 0.40)]


def _chevrons(box: Box, ink: str) -> list[Primitive]:
    u = _unit(box)
    step = _repeat_step(box, u / 3.5)
    out: list[Primitive] = []
    y = box.y + step * 0.6
    while y < box.bottom + step:
        points: list[tuple[float, float]] = []
        x = box.x - step
        up = True
        while x <= box.right + step:
            points.append((x, y - (step * 0.35 if up else -step * 0.0)))
            x += step / 2
            up = not up
        cmds: list[MoveTo | LineTo | CubicTo | ClosePath] = [MoveTo(*points[0])]
        cmds.extend(LineTo(px, py) for px, py in points[1:])
        out.append(Path(tuple(cmds), stroke=ink, stroke_width=u * 0.045))
        y += step
    return out


def _lattice(box: Box, ink: str) -> list[Primitive]:
    u = _unit(box)
    step = u / 3
    out: list[Primitive] = []
    cx0, cy0 = box.x + box.w / 2, box.y + box.h / 2
    for i in range(-3, 4):
        for j in range(-3, 4):
            cx, cy = cx0 + i * step, cy0 + j * step
            r = step * 0.3
            out.append(Polygon(((cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)), fill=ink))
    return out


def _star8(box: Box, ink: str) -> list[Primitive]:
    cx, cy = box.x + box.w / 2, box.y + box.h / 2
    u = _unit(box)
    outer, inner = u * 0.42, u * 0.22
    pts = []
    for k in range(16):
        r = outer if k % 2 == 0 else inner
        a = math.pi * k / 8 - math.pi / 2
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return [Polygon(tuple(pts), stroke=ink, stroke_width=u * 0.05), Circle(cx, cy, u * 0.08, fill=ink)]


def _waves(box: Box, ink: str) -> list[Primitive]:
    u = _unit(box)
    step = _repeat_step(box, u / 3.2)
    amp = step * 0.3
    out: list[Primitive] = []
    y = box.y + step / 2
    while y < box.bottom + step:
        x = box.x - step
        cmds: list[MoveTo | LineTo | CubicTo | ClosePath] = [MoveTo(x, y)]
        while x < box.right + step:
            cmds.append(CubicTo(x + step * 0.25, y - amp * 2, x + step * 0.25, y - amp * 2, x + step * 0.5, y))
            cmds.append(CubicTo(x + step * 0.75, y + amp * 2, x + step * 0.75, y + amp * 2, x + step, y))
            x += step
        out.append(Path(tuple(cmds), stroke=ink, stroke_width=u * 0.045))
        y += step
    return out


def _checks(box: Box, ink: str) -> list[Primitive]:
    n = 4
    sw, sh = box.w / n, box.h / n
    return [
        Rect(box.x + i * sw, box.y + j * sh, sw, sh, fill=ink) for i in range(n) for j in range(n) if (i + j) % 2 == 0
    ]


def _cross(box: Box, ink: str) -> list[Primitive]:
    cx, cy = box.x + box.w / 2, box.y + box.h / 2
    u = _unit(box)
    a, b = u * 0.38, u * 0.12
    return [
        Polygon(
            (
                (cx - b, cy - a), (cx + b, cy - a), (cx + b, cy - b), (cx + a, cy - b), (cx + a, cy + b),
                (cx + b, cy + b), (cx + b, cy + a), (cx - b, cy + a), (cx - b, cy + b), (cx - a, cy + b),
                (cx - a, cy - b), (cx - b, cy - b),
            ),
            fill=ink,
        )
    ]


def _fleur(box: Box, ink: str) -> list[Primitive]:
    """A four-petal quatrefoil, in the spirit of Gothic tracery."""
    cx, cy = box.x + box.w / 2, box.y + box.h / 2
    u = _unit(box)
    r = u * 0.16
    out: list[Primitive] = [Circle(cx + dx * r, cy + dy * r, r, stroke=ink, stroke_width=u * 0.05) for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))]
    out.append(Circle(cx, cy, u * 0.05, fill=ink))
    out.append(Rect(box.x + u * 0.06, box.y + u * 0.06, box.w - u * 0.12, box.h - u * 0.12, stroke=ink, stroke_width=u * 0.03))
    return out


def _whiplash(box: Box, ink: str) -> list[Primitive]:
    """Long curling stems, after Art Nouveau ornament."""
    u = _unit(box)
    x0, y0 = box.x, box.y
    out: list[Primitive] = []
    for k in (0.25, 0.6):
        out.append(
            Path(
                (
                    MoveTo(x0 + u * 0.05, y0 + u * (k + 0.3)),
                    CubicTo(x0 + u * 0.35, y0 + u * (k - 0.35), x0 + u * 0.65, y0 + u * (k + 0.45), x0 + u * 0.95, y0 + u * (k - 0.1)),
                ),
                stroke=ink,
                stroke_width=u * 0.05,
            )
        )
    out.append(Circle(x0 + u * 0.78, y0 + u * 0.3, u * 0.09, stroke=ink, stroke_width=u * 0.04))
    out.append(Circle(x0 + u * 0.25, y0 + u * 0.75, u * 0.06, fill=ink))
    return out


def _azulejo(box: Box, ink: str) -> list[Primitive]:
    """A blue-and-white tile rosette: corner quarter-circles and a centre flower."""
    u = _unit(box)
    cx, cy = box.x + box.w / 2, box.y + box.h / 2
    w = u * 0.045
    out: list[Primitive] = [Circle(x, y, u * 0.22, stroke=ink, stroke_width=w) for x in (box.x, box.right) for y in (box.y, box.bottom)]
    for k in range(4):
        a = math.pi / 2 * k
        out.append(Circle(cx + math.cos(a) * u * 0.15, cy + math.sin(a) * u * 0.15, u * 0.08, fill=ink))
    out.append(Circle(cx, cy, u * 0.06, fill=ink))
    return out


def _triangles(box: Box, ink: str) -> list[Primitive]:
    u = _unit(box)
    step = u / 3
    out: list[Primitive] = []
    for i in range(4):
        for j in range(4):
            x, y = box.x + i * step, box.y + j * step
            out.append(Polygon(((x + step * 0.15, y + step * 0.8), (x + step * 0.5, y + step * 0.2), (x + step * 0.85, y + step * 0.8)), fill=ink))
    return out


for _name, _fn in {
    "dots": _dots,
    "stripes": _stripes,
    "rings": _rings,
    "chevrons": _chevrons,
    "lattice": _lattice,
    "star8": _star8,
    "waves": _waves,
    "checks": _checks,
    "cross": _cross,
    "fleur": _fleur,
    "whiplash": _whiplash,
    "azulejo": _azulejo,
    "triangles": _triangles,
}.items():
    register_motif(_name, _fn)

GENERIC_ORDER: tuple[str, ...] = (
    "dots", "stripes", "rings", "chevrons", "lattice", "waves", "checks", "cross", "triangles", "star8",
)
"""Motifs handed out by position to palette entries that name none."""
