"""Pictograms for card effects: simple, bold vector glyphs a player can tell apart across the table.

Each glyph draws into the circle of radius ``r`` centred on (cx, cy), in ``ink``
on a ground of colour ``ground`` (used for cut-outs). Layouts map a deck's
effect ids to glyph names (``glyphs: {reroll: cycle, ...}``), so no game's
meaning lives here: only shapes. :data:`GLYPHS` lists them by name.
"""

from __future__ import annotations

import math
from typing import Callable

from cardgen.render.scene import Circle, ClosePath, CubicTo, Line, LineTo, MoveTo, Path, Polygon, Primitive, Rect

Glyph = Callable[[float, float, float, str, str], list[Primitive]]
Pt = tuple[float, float]


def _pts(cx: float, cy: float, r: float, unit: list[Pt]) -> tuple[Pt, ...]:
    """Unit points (-1..1, y down) scaled into the glyph's circle."""
    return tuple((cx + x * r, cy + y * r) for x, y in unit)


def _arc_arrow(cx: float, cy: float, r: float, start: float, end: float, ink: str, width: float) -> list[Primitive]:
    """An arc from ``start`` to ``end`` degrees (clockwise, y down) with an arrowhead at its end."""
    steps = 16
    points = [(cx + r * math.cos(math.radians(start + (end - start) * k / steps)), cy + r * math.sin(math.radians(start + (end - start) * k / steps))) for k in range(steps + 1)]
    out: list[Primitive] = [Line(points[k][0], points[k][1], points[k + 1][0], points[k + 1][1], stroke=ink, stroke_width=width) for k in range(steps)]
    a = math.radians(end)
    tangent = (-math.sin(a), math.cos(a)) if end > start else (math.sin(a), -math.cos(a))
    tip = (points[-1][0] + tangent[0] * width * 1.6, points[-1][1] + tangent[1] * width * 1.6)
    normal = (math.cos(a), math.sin(a))
    base1 = (points[-1][0] + normal[0] * width * 1.4, points[-1][1] + normal[1] * width * 1.4)
    base2 = (points[-1][0] - normal[0] * width * 1.4, points[-1][1] - normal[1] * width * 1.4)
    out.append(Polygon((tip, base1, base2), fill=ink))
    return out


def cycle(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """Two arrows chasing round a circle: do it again."""
    w = r * 0.16
    return _arc_arrow(cx, cy, r * 0.6, 200, 340, ink, w) + _arc_arrow(cx, cy, r * 0.6, 20, 160, ink, w)


def swap(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """Two opposed arrows: exchange."""
    top = Polygon(_pts(cx, cy, r, [(-0.7, -0.38), (0.25, -0.38), (0.25, -0.62), (0.72, -0.25), (0.25, 0.12), (0.25, -0.12), (-0.7, -0.12)]), fill=ink)
    bottom = Polygon(_pts(cx, cy, r, [(0.7, 0.12), (-0.25, 0.12), (-0.25, -0.12), (-0.72, 0.25), (-0.25, 0.62), (-0.25, 0.38), (0.7, 0.38)]), fill=ink)
    return [top, bottom]


def grab(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """A card pulled away by a hooked arrow: take one from another player."""
    card = Rect(cx - r * 0.62, cy - r * 0.55, r * 0.6, r * 0.85, fill=ground, stroke=ink, stroke_width=r * 0.1, radius=r * 0.08)
    arrow = Polygon(_pts(cx, cy, r, [(-0.25, 0.05), (0.3, 0.05), (0.3, -0.2), (0.72, 0.18), (0.3, 0.56), (0.3, 0.31), (-0.25, 0.31)]), fill=ink)
    return [card, arrow]


def bin_(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """A waste bin: the discard pile."""
    body = Polygon(_pts(cx, cy, r, [(-0.45, -0.35), (0.45, -0.35), (0.35, 0.68), (-0.35, 0.68)]), fill=ink)
    lid = Rect(cx - r * 0.58, cy - r * 0.55, r * 1.16, r * 0.14, fill=ink)
    knob = Rect(cx - r * 0.15, cy - r * 0.7, r * 0.3, r * 0.14, fill=ink)
    slots = [Line(cx + x * r, cy - r * 0.2, cx + x * r * 0.85, cy + r * 0.55, stroke=ground, stroke_width=r * 0.08) for x in (-0.2, 0.0, 0.2)]
    return [body, lid, knob, *slots]


def shovel(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """A spade: dig into the deck."""
    handle = Line(cx + r * 0.55, cy - r * 0.6, cx - r * 0.05, cy + r * 0.05, stroke=ink, stroke_width=r * 0.13)
    grip = Line(cx + r * 0.42, cy - r * 0.72, cx + r * 0.68, cy - r * 0.46, stroke=ink, stroke_width=r * 0.16)
    blade = Polygon(_pts(cx, cy, r, [(-0.12, -0.08), (0.1, 0.12), (-0.12, 0.58), (-0.62, 0.62), (-0.58, 0.12)]), fill=ink)
    return [handle, grip, blade]


def check(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """A tick: complete."""
    return [Polygon(_pts(cx, cy, r, [(-0.62, 0.0), (-0.38, -0.22), (-0.15, 0.05), (0.42, -0.55), (0.66, -0.33), (-0.15, 0.5)]), fill=ink)]


def sort(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """Three bars of falling length with an up arrow: reorder a stack."""
    bars = [Rect(cx - r * 0.62, cy + (-0.5 + 0.4 * k) * r, r * (0.85 - 0.22 * k), r * 0.22, fill=ink) for k in range(3)]
    arrow = Polygon(_pts(cx, cy, r, [(0.5, 0.62), (0.5, -0.2), (0.3, -0.2), (0.6, -0.62), (0.9, -0.2), (0.7, -0.2), (0.7, 0.62)]), fill=ink)
    return [*bars, arrow]


def plus_marker(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """A marker disc with a plus: one more mark."""
    disc = Circle(cx - r * 0.18, cy + r * 0.12, r * 0.45, fill=ink)
    plus_v = Rect(cx + r * 0.42, cy - r * 0.72, r * 0.16, r * 0.6, fill=ink)
    plus_h = Rect(cx + r * 0.2, cy - r * 0.5, r * 0.6, r * 0.16, fill=ink)
    return [disc, plus_v, plus_h]


def bomb(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """A round bomb with a lit fuse: spoil another player's turn."""
    body = Circle(cx - r * 0.1, cy + r * 0.15, r * 0.5, fill=ink)
    neck = Rect(cx + r * 0.12, cy - r * 0.42, r * 0.26, r * 0.2, fill=ink)
    fuse = Path((MoveTo(cx + r * 0.25, cy - r * 0.42), CubicTo(cx + r * 0.3, cy - r * 0.7, cx + r * 0.55, cy - r * 0.55, cx + r * 0.6, cy - r * 0.75)), stroke=ink, stroke_width=r * 0.08)
    spark = Polygon(_pts(cx, cy, r, [(0.6, -0.95), (0.67, -0.82), (0.8, -0.8), (0.7, -0.72), (0.73, -0.58), (0.6, -0.66), (0.47, -0.58), (0.5, -0.72), (0.4, -0.8), (0.53, -0.82)]), fill=ink)
    shine = Circle(cx - r * 0.28, cy - r * 0.02, r * 0.1, fill=ground)
    return [body, neck, fuse, spark, shine]


def fan(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """Three cards in a fan: draw cards."""
    out: list[Primitive] = []
    for k, angle in enumerate((-20.0, 0.0, 20.0)):
        a = math.radians(angle)
        w, h = 0.5, 0.78
        corners = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
        pts = [(x * math.cos(a) - y * math.sin(a) + math.sin(a) * 0.3 + (k - 1) * 0.12, x * math.sin(a) + y * math.cos(a) + 0.1) for x, y in corners]
        out.append(Polygon(_pts(cx, cy, r, pts), fill=ground, stroke=ink, stroke_width=r * 0.09))
    return out


def double(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """Two overlapping crowns: one set counts twice."""
    out: list[Primitive] = []
    for dx, dy in ((-0.2, -0.2), (0.2, 0.2)):
        crown = [(-0.45 + dx, 0.25 + dy), (-0.45 + dx, -0.25 + dy), (-0.22 + dx, 0.0 + dy), (0.0 + dx, -0.35 + dy), (0.22 + dx, 0.0 + dy), (0.45 + dx, -0.25 + dy), (0.45 + dx, 0.25 + dy)]
        out.append(Polygon(_pts(cx, cy, r, crown), fill=ink, stroke=ground, stroke_width=r * 0.06))
    return out


def _shield_points(cx: float, cy: float, r: float, scale: float = 1.0) -> tuple[Pt, ...]:
    return _pts(cx, cy, r * scale, [(-0.55, -0.62), (0.55, -0.62), (0.55, 0.0), (0.0, 0.68), (-0.55, 0.0)])


def shield(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """A plain shield: stop the next attack."""
    return [Polygon(_shield_points(cx, cy, r), fill=ink), Polygon(_shield_points(cx, cy + r * 0.02, r, 0.62), fill=ground), Polygon(_shield_points(cx, cy + r * 0.03, r, 0.4), fill=ink)]


def shield_column(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """A shield bearing a column: guard what you built."""
    out: list[Primitive] = [Polygon(_shield_points(cx, cy, r), fill=ink)]
    out.append(Rect(cx - r * 0.28, cy - r * 0.45, r * 0.56, r * 0.1, fill=ground))
    out.append(Rect(cx - r * 0.14, cy - r * 0.35, r * 0.28, r * 0.55, fill=ground))
    out.append(Rect(cx - r * 0.28, cy + r * 0.2, r * 0.56, r * 0.1, fill=ground))
    return out


def shield_card(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """A shield bearing a card: guard your hand."""
    return [Polygon(_shield_points(cx, cy, r), fill=ink), Rect(cx - r * 0.2, cy - r * 0.42, r * 0.4, r * 0.58, fill=ground, radius=r * 0.06)]


def crack(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """Broken ground: an earthquake."""
    ground_band = Rect(cx - r * 0.72, cy + r * 0.05, r * 1.44, r * 0.5, fill=ink)
    split = Polygon(_pts(cx, cy, r, [(-0.05, 0.05), (0.12, 0.05), (0.0, 0.2), (0.14, 0.32), (0.02, 0.55), (-0.12, 0.55), (-0.02, 0.34), (-0.16, 0.2)]), fill=ground)
    bolt = Polygon(_pts(cx, cy, r, [(0.1, -0.75), (-0.25, -0.25), (-0.02, -0.25), (-0.15, -0.02), (0.28, -0.4), (0.05, -0.4)]), fill=ink)
    return [ground_band, split, bolt]


def swords(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """Crossed swords: an invasion."""
    out: list[Primitive] = []
    for side in (-1, 1):
        out.append(Line(cx - side * r * 0.55, cy - r * 0.6, cx + side * r * 0.35, cy + r * 0.35, stroke=ink, stroke_width=r * 0.14))
        out.append(Line(cx + side * r * 0.15, cy + r * 0.48, cx + side * r * 0.5, cy + r * 0.15, stroke=ink, stroke_width=r * 0.12))
        out.append(Circle(cx + side * r * 0.48, cy + r * 0.5, r * 0.1, fill=ink))
    return out


def magnifier(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """A magnifying glass: a discovery."""
    return [
        Circle(cx - r * 0.12, cy - r * 0.12, r * 0.4, stroke=ink, stroke_width=r * 0.15),
        Line(cx + r * 0.17, cy + r * 0.17, cx + r * 0.6, cy + r * 0.6, stroke=ink, stroke_width=r * 0.2),
    ]


def mask(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """A thief's mask: theft."""
    band = Path((MoveTo(cx - r * 0.75, cy - r * 0.2), CubicTo(cx - r * 0.3, cy - r * 0.45, cx + r * 0.3, cy - r * 0.45, cx + r * 0.75, cy - r * 0.2),
                 LineTo(cx + r * 0.7, cy + r * 0.2), CubicTo(cx + r * 0.3, cy + r * 0.35, cx + r * 0.1, cy + r * 0.15, cx, cy + r * 0.05),
                 CubicTo(cx - r * 0.1, cy + r * 0.15, cx - r * 0.3, cy + r * 0.35, cx - r * 0.7, cy + r * 0.2), ClosePath()), fill=ink)
    eyes = [Circle(cx + side * r * 0.33, cy - r * 0.08, r * 0.13, fill=ground) for side in (-1, 1)]
    return [band, *eyes]


def pillars(cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """A small temple front: build a part of the monument."""
    out: list[Primitive] = [Polygon(_pts(cx, cy, r, [(-0.7, -0.3), (0.0, -0.7), (0.7, -0.3)]), fill=ink), Rect(cx - r * 0.7, cy + r * 0.45, r * 1.4, r * 0.15, fill=ink)]
    out += [Rect(cx + x * r - r * 0.07, cy - r * 0.25, r * 0.14, r * 0.7, fill=ink) for x in (-0.45, -0.15, 0.15, 0.45)]
    return out


GLYPHS: dict[str, Glyph] = {
    "cycle": cycle, "swap": swap, "grab": grab, "bin": bin_, "shovel": shovel, "check": check, "sort": sort,
    "plus_marker": plus_marker, "bomb": bomb, "fan": fan, "double": double, "shield": shield,
    "shield_column": shield_column, "shield_card": shield_card, "crack": crack, "swords": swords,
    "magnifier": magnifier, "mask": mask, "pillars": pillars,
}
"""Every glyph by the name a layout uses."""


def draw_glyph(name: str, cx: float, cy: float, r: float, ink: str, ground: str) -> list[Primitive]:
    """The named glyph (empty when the name is unknown; the layout check reports it)."""
    glyph = GLYPHS.get(name)
    return glyph(cx, cy, r, ink, ground) if glyph is not None else []
