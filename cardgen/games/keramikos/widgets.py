"""Keramikos card widgets: dig-site dice totals, pottery levels and vessel pictures.

Registered on import; the render layer imports this module through
:func:`cardgen.render.widgets.load_game_widgets`.
"""

from __future__ import annotations

import pathlib
from itertools import product
from typing import Annotated, Literal

from pydantic import Field

from cardgen.limits import MAX_FRAME_CELLS
from cardgen.render.colour import ink_on, shade
from cardgen.render.glyphs import draw_glyph
from cardgen.render.layouts import register_layouts
from cardgen.render.scene import Box, Circle, ClosePath, CubicTo, Group, Line, LineTo, MoveTo, Path, Polygon, Primitive, Rect, Text, Transform
from cardgen.render.units import pt_to_mm
from cardgen.render.widgets import DEFAULT_INK, TITLE_FONT, WidgetContext, register_widget
from cardgen.render.widget_params import AlignParam, Colour, FontParam, GlyphName, MinSizeParam, Pt, TextColourParam, WidgetParams

CLAY = "#c8743c"
GLAZE = "#1e1a17"


def _d4(x: float, y: float, s: float, value: int, fill: str = "#ffffff") -> list[Primitive]:
    """A four-sided die seen from above: a triangle with its number."""
    tri = Polygon(((x + s / 2, y + s * 0.06), (x + s * 0.97, y + s * 0.92), (x + s * 0.03, y + s * 0.92)), fill=fill, stroke=DEFAULT_INK, stroke_width=s * 0.06)
    size_pt = s * 0.5 / pt_to_mm(1.0)
    return [tri, Text(x + s / 2, y + s * 0.8, str(value), TITLE_FONT, size_pt, DEFAULT_INK, "middle")]


_MAX_DRAWN_ROLLS = 1000
"""The most rolls (sides ** count) the dice widget enumerates to draw them; beyond it only the totals are printed."""


def _dice_spec(ctx: WidgetContext) -> tuple[int, int]:
    dice = ctx.spec.dice[0] if ctx.spec.dice else None
    return (dice.count, dice.sides) if dice else (2, 6)


class DiceTotalsParams(FontParam, TextColourParam, MinSizeParam):
    field: str = Field(default="totals", description="The field of dice totals that send a marker here.")
    fill: Colour | None = Field(default=None, description="The disc behind the totals (default: glaze black).")
    size: Pt = Field(default=40.0, description="The totals' size in points.")
    chance_size: Pt = Field(default=8.0, description="The size of the chance line (ways/rolls) in points.")


def dice_totals(ctx: WidgetContext) -> list[Primitive]:
    """The totals that send a marker here: a big number, then every unordered roll that makes it."""
    totals = ctx.data.get(str(ctx.param("field", "totals")))
    if not isinstance(totals, list) or not totals:
        return []
    count, sides = _dice_spec(ctx)
    b = ctx.box
    out: list[Primitive] = []
    big_h = b.h * 0.52
    label = " / ".join(str(t) for t in totals)
    disc_r = big_h / 2
    cx = b.x + b.w / 2
    out.append(Circle(cx, b.y + disc_r, disc_r, fill=ctx.colour(ctx.param("fill"), GLAZE), stroke=CLAY, stroke_width=1.0))
    out += ctx.text(label, Box(cx - disc_r * 0.8, b.y + disc_r * 0.35, disc_r * 1.6, disc_r * 1.3), what="totals", size=ctx.fparam("size", 40.0), font=TITLE_FONT, colour="#ffffff", align="center", valign="middle", single_line=True, source=ctx.source + ("data", "totals"))
    if count > 3 or sides**count > _MAX_DRAWN_ROLLS:  # only the total: the rolls would not fit, and enumerating them is sides ** count steps
        return out
    rolls = sorted({tuple(sorted(r)) for r in product(range(1, sides + 1), repeat=count) if sum(r) in totals})
    ways = sum(1 for r in product(range(1, sides + 1), repeat=count) if sum(r) in totals)
    if rolls:
        s = min((b.h - big_h) * 0.42, b.w / (len(rolls) * (count + 0.6)))
        row_w = len(rolls) * count * s + (len(rolls) - 1) * s * 0.6
        x = b.x + (b.w - row_w) / 2
        y = b.y + big_h + (b.h - big_h) * 0.12
        for roll in rolls:
            for value in roll:
                out += _d4(x, y, s, value) if sides == 4 else [Rect(x, y, s, s, fill="#ffffff", stroke=DEFAULT_INK, stroke_width=s * 0.06, radius=s * 0.15), Text(x + s / 2, y + s * 0.7, str(value), TITLE_FONT, s * 0.55 / pt_to_mm(1.0), DEFAULT_INK, "middle")]
                x += s
            x += s * 0.6
        chance = f"{ways}/{sides ** count}"
        out += ctx.text(chance, Box(b.x, y + s * 1.1, b.w, b.bottom - y - s * 1.1), what="chance", size=ctx.fparam("chance_size", 8.0), align="center", valign="middle", single_line=True)
    return out


def _vessel_path(kind: str, box: Box) -> tuple[list[Primitive], float, float]:
    """A vessel silhouette in the box; returns the shapes and the y-range of its decorated band."""
    x, y, w, h = box.x, box.y, box.w, box.h
    cx = x + w / 2

    def X(f: float) -> float:
        return cx + f * w / 2

    def Y(f: float) -> float:
        return y + f * h

    if kind == "cup":  # a wide, shallow drinking cup on a foot (kylix, skyphos)
        body = Path((MoveTo(X(-0.95), Y(0.3)), LineTo(X(0.95), Y(0.3)), CubicTo(X(0.9), Y(0.62), X(0.45), Y(0.7), X(0.12), Y(0.72)),
                     LineTo(X(0.12), Y(0.85)), LineTo(X(0.4), Y(0.92)), LineTo(X(-0.4), Y(0.92)), LineTo(X(-0.12), Y(0.85)), LineTo(X(-0.12), Y(0.72)),
                     CubicTo(X(-0.45), Y(0.7), X(-0.9), Y(0.62), X(-0.95), Y(0.3)), ClosePath()), fill=CLAY, stroke=GLAZE, stroke_width=0.5)
        handles = [Path((MoveTo(X(-0.9), Y(0.38)), CubicTo(X(-1.1), Y(0.32), X(-1.1), Y(0.5), X(-0.82), Y(0.48))), stroke=GLAZE, stroke_width=0.9),
                   Path((MoveTo(X(0.9), Y(0.38)), CubicTo(X(1.1), Y(0.32), X(1.1), Y(0.5), X(0.82), Y(0.48))), stroke=GLAZE, stroke_width=0.9)]
        return [body, *handles], Y(0.36), Y(0.5)
    if kind == "jug":  # a slim jug with one handle (lekythos, oinochoe)
        body = Path((MoveTo(X(-0.12), Y(0.08)), LineTo(X(0.12), Y(0.08)), LineTo(X(0.1), Y(0.22)), CubicTo(X(0.55), Y(0.25), X(0.5), Y(0.7), X(0.28), Y(0.86)),
                     LineTo(X(0.3), Y(0.94)), LineTo(X(-0.3), Y(0.94)), LineTo(X(-0.28), Y(0.86)), CubicTo(X(-0.5), Y(0.7), X(-0.55), Y(0.25), X(-0.1), Y(0.22)), ClosePath()),
                    fill=CLAY, stroke=GLAZE, stroke_width=0.5)
        handle = Path((MoveTo(X(0.08), Y(0.14)), CubicTo(X(0.55), Y(0.1), X(0.6), Y(0.3), X(0.4), Y(0.36))), stroke=GLAZE, stroke_width=1.0)
        return [body, handle], Y(0.42), Y(0.62)
    if kind == "bowl":  # a deep mixing bowl (krater, dinos)
        body = Path((MoveTo(X(-0.8), Y(0.15)), LineTo(X(0.8), Y(0.15)), LineTo(X(0.7), Y(0.25)), CubicTo(X(0.75), Y(0.6), X(0.45), Y(0.72), X(0.2), Y(0.76)),
                     LineTo(X(0.35), Y(0.92)), LineTo(X(-0.35), Y(0.92)), LineTo(X(-0.2), Y(0.76)), CubicTo(X(-0.45), Y(0.72), X(-0.75), Y(0.6), X(-0.7), Y(0.25)), ClosePath()),
                    fill=CLAY, stroke=GLAZE, stroke_width=0.5)
        handles = [Path((MoveTo(X(-0.7), Y(0.3)), CubicTo(X(-0.95), Y(0.3), X(-0.95), Y(0.5), X(-0.68), Y(0.48))), stroke=GLAZE, stroke_width=1.0),
                   Path((MoveTo(X(0.7), Y(0.3)), CubicTo(X(0.95), Y(0.3), X(0.95), Y(0.5), X(0.68), Y(0.48))), stroke=GLAZE, stroke_width=1.0)]
        return [body, *handles], Y(0.3), Y(0.55)
    # a tall two-handled storage jar (amphora, hydria, pelike, stamnos)
    body = Path((MoveTo(X(-0.18), Y(0.05)), LineTo(X(0.18), Y(0.05)), LineTo(X(0.16), Y(0.2)), CubicTo(X(0.75), Y(0.28), X(0.6), Y(0.7), X(0.18), Y(0.85)),
                 LineTo(X(0.25), Y(0.95)), LineTo(X(-0.25), Y(0.95)), LineTo(X(-0.18), Y(0.85)), CubicTo(X(-0.6), Y(0.7), X(-0.75), Y(0.28), X(-0.16), Y(0.2)), ClosePath()),
                fill=CLAY, stroke=GLAZE, stroke_width=0.5)
    handles = [Path((MoveTo(X(-0.15), Y(0.12)), CubicTo(X(-0.6), Y(0.1), X(-0.6), Y(0.3), X(-0.42), Y(0.32))), stroke=GLAZE, stroke_width=1.0),
               Path((MoveTo(X(0.15), Y(0.12)), CubicTo(X(0.6), Y(0.1), X(0.6), Y(0.3), X(0.42), Y(0.32))), stroke=GLAZE, stroke_width=1.0)]
    return [body, *handles], Y(0.38), Y(0.6)


class VesselParams(WidgetParams):
    shapes: dict[str, Literal["cup", "jug", "bowl", "jar"]] | None = Field(default=None, description="The silhouette for each set id (default: jar).")


def vessel(ctx: WidgetContext) -> list[Primitive]:
    """A black-figure style vessel: the silhouette named for the card's set in ``params.shapes`` (cup, jug, bowl, jar)."""
    shapes = ctx.param("shapes") or {}
    set_id = str(ctx.data.get("set", ctx.card.id if ctx.card else ""))
    kind = str(shapes.get(set_id, "jar")) if isinstance(shapes, dict) else "jar"
    side = min(ctx.box.w, ctx.box.h)
    if not side > 0:  # no area to draw in (and a meander step of zero would never end)
        return []
    box = Box(ctx.box.x + (ctx.box.w - side) / 2, ctx.box.y + (ctx.box.h - side) / 2, side, side)
    shapes_out, top, bottom = _vessel_path(kind, box)
    band: list[Primitive] = [Rect(box.x, top, box.w, bottom - top, fill=GLAZE)]
    step = (bottom - top) * 0.8
    x = box.x
    while x < box.right:  # a meander (Greek key) strip
        m = step * 0.8
        yb = top + (bottom - top) * 0.1
        band.append(Path((MoveTo(x, yb + m), LineTo(x, yb), LineTo(x + m, yb), LineTo(x + m, yb + m * 0.7), LineTo(x + m * 0.35, yb + m * 0.7), LineTo(x + m * 0.35, yb + m * 0.35)), stroke=CLAY, stroke_width=step * 0.1))
        x += step
    body = shapes_out[0]
    clipped = Group(children=(Group(children=tuple(band)),), clip=Box(box.x, top, box.w, bottom - top))
    # the band only shows inside the body: draw body, then band clipped to the band rows, then outline again
    outline = Path(body.commands, stroke=GLAZE, stroke_width=0.6) if isinstance(body, Path) else body
    return [*shapes_out, _clip_to_body(clipped, body), outline]


def _clip_to_body(band: Group, body: Primitive) -> Primitive:
    """Approximate clipping of the band to the vessel body by drawing it under a mask of background colour.

    The scene language clips only to rectangles, so the band is narrowed to the body's width at mid-height.
    """
    if not isinstance(body, Path):
        return band
    xs = [c.x for c in body.commands if isinstance(c, (MoveTo, LineTo, CubicTo))]
    if band.clip is None:
        return band
    left, right = min(xs), max(xs)
    inner = Box(left + (right - left) * 0.12, band.clip.y, (right - left) * 0.76, band.clip.h)
    return Group(children=band.children, clip=inner)


class LevelParams(MinSizeParam):
    field: str = Field(default="level", description="The field holding the card's level.")
    max: Annotated[int, Field(ge=1, le=MAX_FRAME_CELLS)] = Field(default=4, description="The highest level drawn.")
    size: Pt = Field(default=7.0, description="The caption's size in points.")
    colour: Colour | None = Field(default=None, description="The caption's colour (default: black or white, whichever reads on the background).")


def level(ctx: WidgetContext) -> list[Primitive]:
    """The pottery level as stacked strata (filled up to the level) with ``Level N``."""
    value = ctx.data.get(str(ctx.param("field", "level")))
    if not isinstance(value, int):
        return []
    top = min(max(1, int(ctx.fparam("max", 4))), MAX_FRAME_CELLS)  # the layout's range (cardgen.render.layouts), kept here too
    b = ctx.box
    label_h = b.h * 0.32
    layer_h = (b.h - label_h) / top
    out: list[Primitive] = []
    for i in range(top):
        depth = i + 1
        y = b.y + i * layer_h
        filled = depth <= value
        fill = shade("#d9b98c", 0.12 * i) if filled else "#ffffff"
        out.append(Rect(b.x, y, b.w, layer_h * 0.86, fill=fill, stroke=GLAZE, stroke_width=0.25, radius=layer_h * 0.2))
        if depth == value:
            out.append(Circle(b.x + b.w / 2, y + layer_h * 0.43, layer_h * 0.3, fill=GLAZE))
    caption = f"{ctx.string('level', 'Level')} {value}"
    out += ctx.text(caption, Box(b.x - 2, b.bottom - label_h, b.w + 4, label_h), what="level", size=ctx.fparam("size", 7.0), font=TITLE_FONT, colour=ctx.colour(ctx.param("colour"), ink_on(ctx.background)), align="center", valign="middle", single_line=True, source=ctx.source + ("data", "level"))
    return out


class SetLineParams(TextColourParam, AlignParam, MinSizeParam):
    size: Pt = Field(default=8.0, description="Text size in points.")


def set_line(ctx: WidgetContext) -> list[Primitive]:
    """``Set of N`` with N small vessel marks."""
    size = ctx.data.get("set_size")
    if not isinstance(size, int):
        return []
    b = ctx.box
    text = f"{ctx.string('set_of', 'Set of')} {size}"
    out = ctx.text(text, Box(b.x, b.y, b.w * 0.55, b.h), what="set_size", size=ctx.fparam("size", 8.0), font=TITLE_FONT, valign="middle", single_line=True, source=ctx.source + ("data", "set_size"))
    marks = size if 0 < size <= MAX_FRAME_CELLS else 0  # one mark per card of the set; a huge set gets the words only
    s = min(b.h * 0.8, (b.w * 0.45) / max(marks, 1))
    x = b.right - marks * s
    for i in range(marks):
        cx, y = x + i * s + s / 2, b.y + (b.h - s) / 2
        out.append(Path((MoveTo(cx - s * 0.12, y + s * 0.05), LineTo(cx + s * 0.12, y + s * 0.05), CubicTo(cx + s * 0.5, y + s * 0.3, cx + s * 0.4, y + s * 0.8, cx + s * 0.15, y + s * 0.95),
                         LineTo(cx - s * 0.15, y + s * 0.95), CubicTo(cx - s * 0.4, y + s * 0.8, cx - s * 0.5, y + s * 0.3, cx - s * 0.12, y + s * 0.05), ClosePath()), fill=CLAY, stroke=GLAZE, stroke_width=0.2))
    return out


class SpecialParams(WidgetParams):
    colour: Colour = Field(default="type", description="The medallion's colour.")
    glyphs: dict[str, GlyphName] | None = Field(default=None, description="The glyph drawn for each effect id.")


def special_emblem(ctx: WidgetContext) -> list[Primitive]:
    """A medallion for special cards holding the glyph of the card's effect (param ``glyphs``: effect id ->
    glyph name, see :mod:`cardgen.render.glyphs`), or a trowel when the layout maps none."""
    b = ctx.box
    r = min(b.w, b.h) / 2
    cx, cy = b.x + b.w / 2, b.y + b.h / 2
    ink = ctx.colour(ctx.param("colour", "type"), "#5b2c6f")
    glyphs = ctx.param("glyphs") or {}
    effect = ctx.card.effect if ctx.card is not None else None
    if isinstance(glyphs, dict) and effect in glyphs:
        return [
            Circle(cx, cy, r, fill=ink, stroke="#ffffff", stroke_width=0.6),
            Circle(cx, cy, r * 0.82, stroke="#ffffff", stroke_width=0.3),
            *draw_glyph(str(glyphs[effect]), cx, cy, r * 0.72, "#ffffff", ink),
        ]
    trowel = Polygon(((cx - r * 0.1, cy - r * 0.65), (cx + r * 0.35, cy - r * 0.05), (cx - r * 0.05, cy + r * 0.15)), fill="#ffffff", stroke=GLAZE, stroke_width=0.4)
    handle = Line(cx - r * 0.02, cy + r * 0.08, cx - r * 0.45, cy + r * 0.6, stroke=GLAZE, stroke_width=r * 0.14)
    return [
        Circle(cx, cy, r, fill=ink, stroke="#ffffff", stroke_width=0.6),
        Circle(cx, cy, r * 0.82, stroke="#ffffff", stroke_width=0.3),
        Group(children=(trowel, handle), transform=Transform(translate=(0.0, 0.0))),
    ]


register_widget("keramikos_dice_totals", dice_totals, DiceTotalsParams)
register_widget("keramikos_vessel", vessel, VesselParams)
register_widget("keramikos_level", level, LevelParams)
register_widget("keramikos_set", set_line, SetLineParams)
register_widget("keramikos_special", special_emblem, SpecialParams)

register_layouts("keramikos", pathlib.Path(__file__).resolve().parent / "layouts")
