"""Ceramus card widgets: the bonus emblem of a Ceramas card and the tile count of a Shape card.

Registered on import; the render layer imports this module through
:func:`cardgen.render.widgets.load_game_widgets`.
"""

from __future__ import annotations

import pathlib

from pydantic import Field

from cardgen.render.colour import ink_on
from cardgen.render.layouts import register_layouts
from cardgen.render.scene import Box, Line, Polygon, Primitive, Rect
from cardgen.render.widgets import DEFAULT_INK, WidgetContext, register_widget
from cardgen.render.widget_params import AlignParam, Colour, FontParam, MinSizeParam, Mm, Pt, TextColourParam, WidgetParams

_TILE = "#ffffff"


def _tile(x: float, y: float, s: float, fill: str = _TILE) -> list[Primitive]:
    return [
        Rect(x, y, s, s, fill=fill, stroke=DEFAULT_INK, stroke_width=s * 0.07, radius=s * 0.08),
        Polygon(((x + s / 2, y + s * 0.22), (x + s * 0.78, y + s / 2), (x + s / 2, y + s * 0.78), (x + s * 0.22, y + s / 2)), fill=DEFAULT_INK),
    ]


def _arrow(x0: float, y: float, x1: float, s: float, ink: str) -> list[Primitive]:
    head = s * 0.18
    return [
        Line(x0, y, x1 - head * 0.8, y, stroke=ink, stroke_width=s * 0.07),
        Polygon(((x1, y), (x1 - head, y - head * 0.7), (x1 - head, y + head * 0.7)), fill=ink),
    ]


def _plus(cx: float, cy: float, r: float, ink: str) -> list[Primitive]:
    w = r * 0.35
    return [Rect(cx - r, cy - w / 2, 2 * r, w, fill=ink), Rect(cx - w / 2, cy - r, w, 2 * r, fill=ink)]


def _cross(cx: float, cy: float, r: float, ink: str) -> list[Primitive]:
    return [
        Line(cx - r, cy - r, cx + r, cy + r, stroke=ink, stroke_width=r * 0.4),
        Line(cx - r, cy + r, cx + r, cy - r, stroke=ink, stroke_width=r * 0.4),
    ]


class BonusParams(WidgetParams):
    colour: Colour | None = Field(default=None, description="The emblem's ink (default: black or white, whichever reads on the background).")


def bonus_emblem(ctx: WidgetContext) -> list[Primitive]:
    """A pictogram of the card's bonus (by its effect id), in a square centred in the box."""
    effect = ctx.card.effect if ctx.card else None
    b = ctx.box
    s = min(b.w, b.h)
    x, y = b.x + (b.w - s) / 2, b.y + (b.h - s) / 2
    ink = ctx.colour(ctx.param("colour"), ink_on(ctx.background))
    t = s * 0.42
    out: list[Primitive] = []
    if effect == "add_tile":
        out += _tile(x + s * 0.05, y + (s - t) / 2, t)
        out += _plus(x + s * 0.75, y + s / 2, s * 0.17, ink)
    elif effect == "remove_tile":
        out += _tile(x + s * 0.05, y + (s - t) / 2, t)
        out += _cross(x + s * 0.75, y + s / 2, s * 0.15, "#b3261e")
    elif effect in ("move_one", "move_two"):
        count = 2 if effect == "move_two" else 1
        tt = t * (0.75 if count == 2 else 1.0)
        for i in range(count):
            ty = y + (s - tt * count - s * 0.06 * (count - 1)) / 2 + i * (tt + s * 0.06)
            out += _tile(x + s * 0.02, ty, tt)
            out += _arrow(x + s * 0.02 + tt + s * 0.06, ty + tt / 2, x + s * 0.98, s, ink)
    elif effect == "mirror_shape":
        out += [Rect(x + s * 0.05, y + s * 0.3, s * 0.2, s * 0.2, fill=_TILE, stroke=DEFAULT_INK, stroke_width=s * 0.04),
                Rect(x + s * 0.25, y + s * 0.3, s * 0.2, s * 0.2, fill=_TILE, stroke=DEFAULT_INK, stroke_width=s * 0.04),
                Rect(x + s * 0.05, y + s * 0.5, s * 0.2, s * 0.2, fill=_TILE, stroke=DEFAULT_INK, stroke_width=s * 0.04)]
        out.append(Line(x + s * 0.5, y + s * 0.15, x + s * 0.5, y + s * 0.85, stroke=ink, stroke_width=s * 0.04))
        out += [Rect(x + s * 0.75, y + s * 0.3, s * 0.2, s * 0.2, fill="#e6e6e6", stroke=DEFAULT_INK, stroke_width=s * 0.04),
                Rect(x + s * 0.55, y + s * 0.3, s * 0.2, s * 0.2, fill="#e6e6e6", stroke=DEFAULT_INK, stroke_width=s * 0.04),
                Rect(x + s * 0.75, y + s * 0.5, s * 0.2, s * 0.2, fill="#e6e6e6", stroke=DEFAULT_INK, stroke_width=s * 0.04)]
    return out


class TilesUsedParams(FontParam, TextColourParam, AlignParam, MinSizeParam):
    field: str = Field(default="cells", description="The polyomino field whose cells are counted.")
    label: str = Field(default="tiles_used", description="The ``strings`` key of the words after the count.")
    icon_size: Mm | None = Field(default=None, description="The tile icon's size in mm (default: the box's height).")
    size: Pt = Field(default=9.0, description="Text size in points.")


def tiles_used(ctx: WidgetContext) -> list[Primitive]:
    """How many tiles the Shape uses (its squares minus the Original it starts on): tile icons and a label."""
    cells = ctx.data.get(str(ctx.param("field", "cells")))
    if not isinstance(cells, list) or not cells:
        return []
    count = len(cells) - 1
    b = ctx.box
    s = min(b.h, ctx.fparam("icon_size", b.h))
    word = ctx.string(str(ctx.param("label", "tiles_used")), "tiles used")
    label = f"{word[:1].upper()}{word[1:]}: {count}"
    gap = s * 0.2
    icons_w = count * s + (count - 1) * gap
    out: list[Primitive] = []
    for i in range(count):
        out += _tile(b.x + i * (s + gap), b.y + (b.h - s) / 2, s)
    text_box = Box(b.x + icons_w + s * 0.6, b.y, b.w - icons_w - s * 0.6, b.h)
    out += ctx.text(label, text_box, what="tiles_used", size=ctx.fparam("size", 9.0), valign="middle", single_line=True)
    return out


register_widget("ceramus_bonus", bonus_emblem, BonusParams)
register_widget("ceramus_tiles_used", tiles_used, TilesUsedParams)

register_layouts("ceramus", pathlib.Path(__file__).resolve().parent / "layouts")
