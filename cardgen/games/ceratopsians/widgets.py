"""Ceratopsians card widgets: the skull part and its coloured edge markers.

Each face shows one part of a skull. Markers sit on the card's edges, one spot
per colour in palette order (left to right, top to bottom); a filled marker
is a solid disc with the colour's letter, a hollow one an outlined ring with
the letter, so they read without colour. Registered on import; the render
layer imports this module through :func:`cardgen.render.widgets.load_game_widgets`.
"""

from __future__ import annotations

import pathlib

from pydantic import Field

from cardgen.render.colour import ink_on, mix
from cardgen.render.layouts import register_layouts
from cardgen.render.scene import Box, Circle, ClosePath, CubicTo, LineTo, MoveTo, Path, Polygon, Primitive, Text
from cardgen.render.units import pt_to_mm
from cardgen.render.widgets import DEFAULT_INK, TITLE_FONT, WidgetContext, register_widget, symbol_size
from cardgen.render.widget_params import Colour, MinSizeParam, Mm, Pt, Scale, WidgetParams

BONE = "#e8dcc0"
BONE_INK = "#5a4a36"
EDGES = ("top", "right", "bottom", "left")


def _marker(cx: float, cy: float, r: float, colour: str, symbol: str, filled: bool) -> list[Primitive]:
    size_pt = symbol_size(symbol, TITLE_FONT, r * 1.15 / pt_to_mm(1.0))
    baseline = cy + r * 0.4
    if filled:
        return [Circle(cx, cy, r, fill=colour, stroke=DEFAULT_INK, stroke_width=r * 0.12), Text(cx, baseline, symbol, TITLE_FONT, size_pt, ink_on(colour), "middle")]
    return [
        Circle(cx, cy, r, fill="#ffffff", stroke=colour, stroke_width=r * 0.34),
        Circle(cx, cy, r * 1.17, stroke=DEFAULT_INK, stroke_width=r * 0.06),
        Text(cx, baseline, symbol, TITLE_FONT, size_pt, DEFAULT_INK, "middle"),
    ]


class MarkersParams(WidgetParams):
    palette: str = Field(default="colours", description="The palette whose entries are marked round the edge.")
    inset: Mm = Field(default=5.0, description="The markers' distance from the box's corners in mm.")
    radius: Mm = Field(default=3.2, description="A marker's radius in mm.")
    span: Scale = Field(default=0.62, description="How much of each edge the markers spread over.")


def markers(ctx: WidgetContext) -> list[Primitive]:
    """Filled and hollow markers along the four edges of the element's box, read from the face's edge fields.

    ``inset`` is the distance from the box's edge to a marker's centre; with the
    box on the safe zone and ``inset`` at least 1.2 x ``radius`` every ring stays inside it.
    """
    palette_id = str(ctx.param("palette", "colours"))
    palette = ctx.res.palettes.get(palette_id)
    if palette is None:
        return []
    order = [e.id for e in palette.entries]
    t = ctx.box
    inset = ctx.fparam("inset", 5.0)
    r = ctx.fparam("radius", 3.2)
    span = ctx.fparam("span", 0.62)
    out: list[Primitive] = []
    for edge in EDGES:
        for filled, name in ((True, edge), (False, f"{edge}_hollow")):
            values = ctx.data.get(name)
            if not isinstance(values, list):
                continue
            for value in values:
                if value not in order:
                    continue
                k = order.index(value)
                f = (1 - span) / 2 + span * (k + 0.5) / len(order)
                if edge == "top":
                    cx, cy = t.x + t.w * f, t.y + inset
                elif edge == "bottom":
                    cx, cy = t.x + t.w * f, t.bottom - inset
                elif edge == "left":
                    cx, cy = t.x + inset, t.y + t.h * f
                else:
                    cx, cy = t.right - inset, t.y + t.h * f
                entry = ctx.res.entries[palette_id][value]
                out += _marker(cx, cy, r, entry.colour, entry.symbol, filled)
    return out


def _skull_outline(part: str, b: Box) -> list[Primitive]:
    """A stylised fossil piece for each of the six skull parts."""
    x, y, w, h = b.x, b.y, b.w, b.h

    def P(fx: float, fy: float) -> tuple[float, float]:
        return (x + fx * w, y + fy * h)

    def mirror(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(x + w - (px - x), py) for px, py in points]

    if part in ("left-frill", "right-frill"):
        pts = [P(0.95, 0.95), P(0.2, 0.95), P(0.05, 0.6), P(0.12, 0.3), P(0.3, 0.1), P(0.55, 0.05), P(0.95, 0.05)]
        spikes = [P(0.05, 0.6), P(-0.02, 0.45), P(0.12, 0.3), P(0.12, 0.12), P(0.3, 0.1), P(0.42, -0.02), P(0.55, 0.05)]
        if part == "right-frill":
            pts, spikes = mirror(pts), mirror(spikes)
        hole = (x + w * (0.55 if part == "left-frill" else 0.45), y + h * 0.5)
        return [Polygon(tuple(spikes), BONE, BONE_INK, 0.5), Polygon(tuple(pts), BONE, BONE_INK, 0.5), Circle(hole[0], hole[1], w * 0.14, fill=mix(BONE, BONE_INK, 0.5), stroke=BONE_INK, stroke_width=0.4)]
    if part == "center-frill":
        pts = [P(0.05, 0.95), P(0.05, 0.2), P(0.2, 0.05), P(0.35, 0.18), P(0.5, 0.02), P(0.65, 0.18), P(0.8, 0.05), P(0.95, 0.2), P(0.95, 0.95)]
        return [Polygon(tuple(pts), BONE, BONE_INK, 0.5), Circle(x + w * 0.3, y + h * 0.5, w * 0.11, fill=mix(BONE, BONE_INK, 0.5)), Circle(x + w * 0.7, y + h * 0.5, w * 0.11, fill=mix(BONE, BONE_INK, 0.5))]
    if part in ("left-cheek", "right-cheek"):
        pts = [P(0.95, 0.05), P(0.95, 0.6), P(0.6, 0.95), P(0.25, 0.75), P(0.05, 0.35), P(0.3, 0.05)]
        horn = [P(0.55, 0.3), P(0.25, -0.05), P(0.7, 0.2)]
        eye = (0.7, 0.35)
        if part == "right-cheek":
            pts, horn = mirror(pts), mirror(horn)
            eye = (0.3, 0.35)
        return [Polygon(tuple(pts), BONE, BONE_INK, 0.5), Polygon(tuple(horn), fill=mix(BONE, "#ffffff", 0.3), stroke=BONE_INK, stroke_width=0.5), Circle(x + w * eye[0], y + h * eye[1], w * 0.09, fill=BONE_INK)]
    # mouth: the beak and nose horn
    beak = Path((MoveTo(*P(0.1, 0.05)), LineTo(*P(0.9, 0.05)), CubicTo(*P(0.9, 0.5), *P(0.7, 0.8), *P(0.5, 0.97)), CubicTo(*P(0.3, 0.8), *P(0.1, 0.5), *P(0.1, 0.05)), ClosePath()), BONE, BONE_INK, 0.5)
    nose = Polygon((P(0.4, 0.3), P(0.5, 0.0), P(0.6, 0.3)), fill=mix(BONE, "#ffffff", 0.3), stroke=BONE_INK, stroke_width=0.5)
    return [beak, nose, Circle(x + w * 0.4, y + h * 0.45, w * 0.05, fill=BONE_INK), Circle(x + w * 0.6, y + h * 0.45, w * 0.05, fill=BONE_INK)]


class SkullParams(MinSizeParam):
    field: str = Field(default="part", description="The palette field naming the skull part.")
    size: Pt = Field(default=8.0, description="The part's name size in points.")
    colour: Colour | None = Field(default=None, description="The name's colour (default: bone ink).")


def skull_part(ctx: WidgetContext) -> list[Primitive]:
    """The face's skull part (``part`` field) as a fossil drawing, with the part's short symbol beneath."""
    part = ctx.data.get(str(ctx.param("field", "part")))
    if not isinstance(part, str):
        return []
    b = ctx.box
    label_h = b.h * 0.2
    side = min(b.w, b.h - label_h)
    art = Box(b.x + (b.w - side) / 2, b.y, side, side)
    out = _skull_outline(part, art)
    entry = ctx.entry_of_field(str(ctx.param("field", "part")))
    if entry is not None:
        out += ctx.text(ctx.local(entry.name), Box(b.x, b.bottom - label_h, b.w, label_h), what="part", size=ctx.fparam("size", 8.0), font=TITLE_FONT, colour=ctx.colour(ctx.param("colour"), BONE_INK), align="center", valign="middle", single_line=True)
    return out


class SkullColoursParams(WidgetParams):
    field: str = Field(default="colours", description="The palette_list field of the card's colours.")
    palette: str = Field(default="colours", description="The palette those colours come from.")


def skull_colours(ctx: WidgetContext) -> list[Primitive]:
    """The skull's two colours as a pair of small diamonds with letters (which skull this part belongs to)."""
    values = ctx.data.get(str(ctx.param("field", "colours")))
    entry_map = ctx.res.entries.get(str(ctx.param("palette", "colours")), {})
    if not isinstance(values, list):
        return []
    b = ctx.box
    s = min(b.h, b.w / (len(values) * 1.3))
    x = b.x + (b.w - s * 1.3 * len(values) + s * 0.3) / 2
    out: list[Primitive] = []
    for value in values:
        entry = entry_map.get(str(value))
        if entry is None:
            continue
        cx, cy = x + s / 2, b.y + b.h / 2
        out.append(Polygon(((cx, cy - s / 2), (cx + s / 2, cy), (cx, cy + s / 2), (cx - s / 2, cy)), fill=entry.colour, stroke=DEFAULT_INK, stroke_width=0.3))
        out.append(Text(cx, cy + s * 0.17, entry.symbol, TITLE_FONT, symbol_size(entry.symbol, TITLE_FONT, s * 0.45 / pt_to_mm(1.0)), ink_on(entry.colour), "middle"))
        x += s * 1.3
    return out


register_widget("ceratopsians_markers", markers, MarkersParams)
register_widget("ceratopsians_skull", skull_part, SkullParams)
register_widget("ceratopsians_colours", skull_colours, SkullColoursParams)

register_layouts("ceratopsians", pathlib.Path(__file__).resolve().parent / "layouts")
