"""Mausoleum Guardians card widgets: the monument diagram of construction cards and the type emblems.

Registered on import; the render layer imports this module through
:func:`cardgen.render.widgets.load_game_widgets`.
"""

from __future__ import annotations

import math
import pathlib

from pydantic import Field

from cardgen.render.colour import ink_on, mix
from cardgen.render.glyphs import draw_glyph
from cardgen.render.layouts import register_layouts
from cardgen.render.scene import Box, Circle, Line, Polygon, Primitive, Rect
from cardgen.render.widgets import DEFAULT_INK, WidgetContext, register_widget
from cardgen.render.widget_params import Colour, GlyphName, WidgetParams

STONE = "#e9dfc8"


def _tier_shapes(kind: str, b: Box, fill: str, ink: str) -> list[Primitive]:
    """One storey of the mausoleum drawn in box b."""
    w = 0.25
    if kind == "base":
        return [Rect(b.x, b.y + b.h * 0.1, b.w, b.h * 0.9, fill=fill, stroke=ink, stroke_width=w),
                Line(b.x, b.y + b.h * 0.45, b.right, b.y + b.h * 0.45, stroke=ink, stroke_width=w * 0.6),
                Line(b.x, b.y + b.h * 0.75, b.right, b.y + b.h * 0.75, stroke=ink, stroke_width=w * 0.6)]
    if kind == "columns":
        out: list[Primitive] = [Rect(b.x + b.w * 0.04, b.y, b.w * 0.92, b.h * 0.12, fill=fill, stroke=ink, stroke_width=w),
                                Rect(b.x + b.w * 0.04, b.bottom - b.h * 0.1, b.w * 0.92, b.h * 0.1, fill=fill, stroke=ink, stroke_width=w)]
        n = 7
        for i in range(n):
            cx = b.x + b.w * (0.1 + 0.8 * i / (n - 1))
            out.append(Rect(cx - b.w * 0.028, b.y + b.h * 0.12, b.w * 0.056, b.h * 0.78, fill=fill, stroke=ink, stroke_width=w * 0.8))
        return out
    if kind == "pyramid":
        steps = 5
        out = []
        for i in range(steps):
            inset = b.w * 0.07 * i
            h = b.h / steps
            out.append(Rect(b.x + b.w * 0.06 + inset, b.bottom - (i + 1) * h, b.w * 0.88 - 2 * inset, h, fill=fill, stroke=ink, stroke_width=w * 0.8))
        return out
    # statues: a quadriga-like group on a plinth
    out = [Rect(b.x + b.w * 0.3, b.bottom - b.h * 0.25, b.w * 0.4, b.h * 0.25, fill=fill, stroke=ink, stroke_width=w)]
    for k, dx in enumerate((-0.12, 0.0, 0.12)):
        cx = b.x + b.w * (0.5 + dx)
        out.append(Polygon(((cx - b.w * 0.04, b.bottom - b.h * 0.25), (cx + b.w * 0.04, b.bottom - b.h * 0.25), (cx + b.w * 0.025, b.y + b.h * 0.3), (cx - b.w * 0.025, b.y + b.h * 0.3)), fill=fill, stroke=ink, stroke_width=w * 0.8))
        out.append(Circle(cx, b.y + b.h * (0.18 + 0.02 * k), b.w * 0.035, fill=fill, stroke=ink, stroke_width=w * 0.8))
    return out


class MonumentParams(WidgetParams):
    tiers: list[str] | None = Field(default=None, description="The card ids of the four storeys, bottom to top (default: base, columns, pyramid, statues).")
    colour: Colour = Field(default="type", description="The card's own storey's colour.")


def monument(ctx: WidgetContext) -> list[Primitive]:
    """The mausoleum as four storeys (params tiers: card ids from bottom to top), the card's own storey in colour."""
    tiers = ctx.param("tiers") or ["base", "columns", "pyramid", "statues"]
    card_id = ctx.card.id if ctx.card else ""
    b = ctx.box
    heights = [0.22, 0.34, 0.26, 0.18]
    accent = ctx.colour(ctx.param("colour", "type"), "#8c6d3f")
    out: list[Primitive] = []
    y = b.bottom
    for i, tier in enumerate(tiers[:4]):
        h = b.h * heights[i]
        y -= h
        width = b.w * (1.0 if i == 0 else 0.86 if i == 1 else 0.9 if i == 2 else 0.5)
        box = Box(b.x + (b.w - width) / 2, y, width, h)
        own = str(tier) == card_id
        fill = accent if own else mix(STONE, ctx.background, 0.3)
        ink = DEFAULT_INK if own else mix(DEFAULT_INK, ctx.background, 0.55)
        out += _tier_shapes(str(tier), box, fill, ink)
    return out


class EmblemParams(WidgetParams):
    colour: Colour = Field(default="type", description="The medallion's colour.")
    glyphs: dict[str, GlyphName] | None = Field(default=None, description="The glyph drawn for each effect id.")


def emblem(ctx: WidgetContext) -> list[Primitive]:
    """A medallion in the card type's colour holding the glyph of the card's effect (param ``glyphs``:
    effect id -> glyph name, see :mod:`cardgen.render.glyphs`); without one, the type's sign: laurel
    (character), lightning (event), shield (action)."""
    b = ctx.box
    r = min(b.w, b.h) / 2
    cx, cy = b.x + b.w / 2, b.y + b.h / 2
    fill = ctx.colour(ctx.param("colour", "type"), "#555555")
    ink = ink_on(fill)
    out: list[Primitive] = [Circle(cx, cy, r, fill=fill, stroke=DEFAULT_INK, stroke_width=0.5), Circle(cx, cy, r * 0.86, stroke=ink, stroke_width=0.3)]
    kind = ctx.card.type if ctx.card else None
    glyphs = ctx.param("glyphs") or {}
    effect = ctx.card.effect if ctx.card is not None else None
    if isinstance(glyphs, dict) and effect in glyphs:
        out += draw_glyph(str(glyphs[effect]), cx, cy, r * 0.72, ink, fill)
    elif kind == "character":
        for side in (-1, 1):
            for k in range(6):
                a = math.radians(200 - k * 22) if side < 0 else math.radians(-20 + k * 22)
                lx, ly = cx + math.cos(a) * r * 0.55 * side * side, cy - math.sin(a) * r * 0.55
                out.append(Polygon(((lx, ly - r * 0.1), (lx + r * 0.07, ly), (lx, ly + r * 0.1), (lx - r * 0.07, ly)), fill=ink))
        out.append(Circle(cx, cy - r * 0.05, r * 0.2, fill=ink))
        out.append(Polygon(((cx - r * 0.3, cy + r * 0.45), (cx + r * 0.3, cy + r * 0.45), (cx + r * 0.2, cy + r * 0.15), (cx - r * 0.2, cy + r * 0.15)), fill=ink))
    elif kind == "event":
        out.append(Polygon(((cx + r * 0.15, cy - r * 0.6), (cx - r * 0.3, cy + r * 0.08), (cx - r * 0.02, cy + r * 0.08), (cx - r * 0.18, cy + r * 0.6), (cx + r * 0.32, cy - r * 0.12), (cx + r * 0.03, cy - r * 0.12)), fill=ink))
    else:
        out.append(Polygon(((cx - r * 0.4, cy - r * 0.45), (cx + r * 0.4, cy - r * 0.45), (cx + r * 0.4, cy + r * 0.05), (cx, cy + r * 0.55), (cx - r * 0.4, cy + r * 0.05)), fill=ink))
        out.append(Polygon(((cx - r * 0.25, cy - r * 0.32), (cx + r * 0.25, cy - r * 0.32), (cx + r * 0.25, cy + r * 0.02), (cx, cy + r * 0.36), (cx - r * 0.25, cy + r * 0.02)), fill=fill))
    return out


register_widget("mausoleum_monument", monument, MonumentParams)
register_widget("mausoleum_emblem", emblem, EmblemParams)

register_layouts("mausoleum-guardians", pathlib.Path(__file__).resolve().parent / "layouts")
