"""The generic widgets every layout may name: panels, titles, text, fields, swatches, palettes, shapes, badges...

Each registers itself with :func:`cardgen.render.widget_kit.widget`; see that
module for the context a widget receives and the helpers they share.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from cardgen.render.colour import ink_on, mix, motif_ink, shade
from cardgen.render.extent import ink_box
from cardgen.render.glyphs import draw_glyph
from cardgen.render.motifs import draw_motif, has_motif
from cardgen.render.scene import Box, Circle, Line, Polygon, Primitive, Rect
from cardgen.render.units import pt_to_mm
from cardgen.render.widget_params import (
    PLATE_PATTERN,
    Align,
    Colour,
    FontName,
    FrameCells,
    GlyphName,
    LineParams,
    MinSizeParam,
    Mm,
    MotifName,
    MotifsParam,
    Pt,
    Ratio,
    Scale,
    TextParams,
    VAlign,
    WidgetParams,
)
from cardgen.render.widget_kit import (
    BODY_FONT,
    DEFAULT_INK,
    TITLE_FONT,
    WidgetContext,
    centred_symbol,
    centred_text,
    entry_index,
    field_label,
    field_text,
    fit_square_grid,
    get_widget,
    motif_for,
    register_widget,
    swatch,
    widget,
    widget_params,
)
from cardgen.spec.models import PaletteEntry
from cardgen.spec.source import PathKey

FieldName = str
"""A data field of the deck (a name; a field a card lacks draws nothing)."""


class PanelParams(WidgetParams):
    colour: Colour = Field(default="type", description="The fill.")
    tint: Ratio = Field(default=0.0, description="Mix the fill towards white by this much.")
    stroke: Colour | None = Field(default=None, description="An outline in this colour (default: none).")
    stroke_width: Mm = Field(default=0.3, description="The outline's width in mm.")
    radius: Mm = Field(default=0.0, description="Corner radius in mm.")

@widget("panel", PanelParams)
def panel(ctx: WidgetContext) -> list[Primitive]:
    """A filled rectangle: params colour (``type``, ``#rrggbb``...), radius, stroke, stroke_width, tint."""
    fill = ctx.colour(ctx.param("colour", "type"), "#dddddd")
    tint = ctx.fparam("tint", 0.0)
    if tint:
        fill = mix(fill, "#ffffff", tint)
    stroke = ctx.param("stroke")
    b = ctx.box
    return [
        Rect(
            b.x, b.y, b.w, b.h, fill=fill,
            stroke=ctx.colour(stroke) if stroke else None,
            stroke_width=ctx.fparam("stroke_width", 0.3) if stroke else 0.0,
            radius=ctx.fparam("radius", 0.0),
        )
    ]


class TitleParams(LineParams):
    size: Pt = Field(default=12.0, description="Text size in points (shrunk to fit one line).")
    font: FontName | None = Field(default=TITLE_FONT, description="The font.")
    align: Align | None = Field(default="center", description="Horizontal alignment.")
    valign: VAlign | None = Field(default="middle", description="Vertical alignment.")


@widget("title", TitleParams)
def title(ctx: WidgetContext) -> list[Primitive]:
    """The face's name on one line, shrunk to fit (two lines only when it must)."""
    path = ctx.source + ("name",) if ctx.card is not None else ctx.source
    return ctx.text(
        ctx.title, what="name", size=ctx.fparam("size", 12.0), font=str(ctx.param("font", TITLE_FONT)),
        align=ctx.param("align", "center"), valign=ctx.param("valign", "middle"), single_line=True, source=path,
    )


class TextWidgetParams(TextParams):
    size: Pt = Field(default=9.0, description="Text size in points (shrunk to fit the box).")
    font: FontName | None = Field(default=BODY_FONT, description="The font.")
    align: Align | None = Field(default="left", description="Horizontal alignment.")
    valign: VAlign | None = Field(default="top", description="Vertical alignment.")
    source: str = Field(default="text", pattern=r"^(text|description|back|game_title|tagline|type_description|literal|string:.+)$",
                        description="What to print: text, description, back, game_title, tagline, type_description, string:<key>, literal (the text of ``value``).")
    value: str = Field(default="", description="The text printed with ``source: literal`` (references resolved).")


@widget("text", TextWidgetParams)
def text_widget(ctx: WidgetContext) -> list[Primitive]:
    """The card's text (``source: text``), or: description, back, game_title, tagline, string:<key>, literal."""
    source = str(ctx.param("source", "text"))
    body, path = _text_source(ctx, source)
    if not body:
        return []
    return ctx.text(body, what=source, source=path)


def _text_source(ctx: WidgetContext, source: str) -> tuple[str, PathKey]:
    spec = ctx.spec
    if source == "text":
        return (ctx.local(ctx.card.text) if ctx.card and ctx.card.text else ""), ctx.source + ("text",)
    if source == "description":
        return (ctx.local(ctx.deck.description) if ctx.deck and ctx.deck.description else ""), ()
    if source == "back":
        return (ctx.local(ctx.deck.back) if ctx.deck and ctx.deck.back else ctx.local(spec.title)), ()
    if source == "game_title":
        return ctx.local(spec.title), ("title",)
    if source == "tagline":
        return (ctx.local(spec.tagline) if spec.tagline else ""), ("tagline",)
    if source == "type_description":
        for card_type in ctx.deck.card_types if ctx.deck else []:
            if ctx.card is not None and card_type.id == ctx.card.type and card_type.description:
                return ctx.local(card_type.description), ()
        return "", ()
    if source.startswith("string:"):
        return ctx.string(source[7:]), ("strings", source[7:])
    if source == "literal":
        return ctx.res.resolve(str(ctx.param("value", ""))), ()
    return "", ()


class FieldParams(TextParams):
    size: Pt = Field(default=9.0, description="Text size in points (shrunk to fit the box).")
    font: FontName | None = Field(default=BODY_FONT, description="The font.")
    align: Align | None = Field(default="left", description="Horizontal alignment.")
    valign: VAlign | None = Field(default="top", description="Vertical alignment.")
    field: FieldName = Field(default="", description="The data field printed (a face without it prints nothing).")
    format: str = Field(default="{value}", description="The line printed: ``{label}`` and ``{value}`` are replaced.")
    label: str | None = Field(default=None, description="A ``strings`` key for the label (default: the field's own label).")


@widget("field", FieldParams)
def field_widget(ctx: WidgetContext) -> list[Primitive]:
    """A data field as text: params field, format (``{label}``, ``{value}``), label (a strings key)."""
    name = str(ctx.param("field", ""))
    if name not in ctx.data:
        return []
    value = field_text(ctx, name)
    label_key = ctx.param("label")
    label = ctx.string(str(label_key), field_label(ctx, str(label_key))) if label_key else field_label(ctx, name)
    fmt = str(ctx.param("format", "{value}"))
    return ctx.text(fmt.replace("{label}", label).replace("{value}", value), what=name, source=ctx.source + ("data", name))


register_widget("localised_field", field_widget, FieldParams)


class SwatchParams(MotifsParam):
    field: FieldName | None = Field(default=None, description="A palette field whose entry is drawn (default: a component's own entry).")
    radius: Mm = Field(default=0.0, description="Corner radius in mm.")


@widget("swatch", SwatchParams)
def swatch_widget(ctx: WidgetContext) -> list[Primitive]:
    """One palette entry from a palette field (param field), or the component's own entry."""
    name = ctx.param("field")
    entry: PaletteEntry | None = None
    palette_id = ""
    if name:
        entry = ctx.entry_of_field(str(name))
        definition = ctx.field_defs.get(str(name))
        palette_id = definition.palette or "" if definition else ""
    elif ctx.piece and ctx.piece.entry:
        entry = ctx.piece.entry
    if entry is None:
        return []
    index = entry_index(ctx, palette_id, entry.id) if palette_id else (ctx.piece.entry_index if ctx.piece else 0)
    side = min(ctx.box.w, ctx.box.h)
    box = Box(ctx.box.x + (ctx.box.w - side) / 2, ctx.box.y + (ctx.box.h - side) / 2, side, side)
    return swatch(box, entry, index, motif_for(ctx, palette_id, entry), radius=ctx.fparam("radius", 0.0))


class PaletteGridParams(MotifsParam):
    field: FieldName = Field(default="", description="The palette_grid field drawn.")
    gap: Annotated[float, Field(ge=0.0, le=10.0, allow_inf_nan=False)] = Field(default=0.0, description="Gap between squares, as a fraction of a square.")
    symbol_scale: Scale = Field(default=0.4, description="The symbol's size as a fraction of a square.")
    stroke_width: Mm = Field(default=0.35, description="Each square's outline in mm.")
    border: bool = Field(default=True, description="Draw an outline round the grid.")
    border_width: Mm = Field(default=0.6, description="The grid outline's width in mm.")


@widget("palette_grid", PaletteGridParams)
def palette_grid(ctx: WidgetContext) -> list[Primitive]:
    """Rows of palette entries (a palette_grid field) as touching squares, each with motif and symbol."""
    name = str(ctx.param("field", ""))
    rows = ctx.data.get(name)
    definition = ctx.field_defs.get(name)
    if not isinstance(rows, list) or definition is None or definition.palette is None:
        return []
    grid = [row if isinstance(row, list) else [row] for row in rows]
    cols = max(len(r) for r in grid)
    gap = ctx.fparam("gap", 0.0)
    cell, x0, y0 = fit_square_grid(ctx.box, cols, len(grid), gap)
    entries = ctx.res.entries.get(definition.palette, {})
    out: list[Primitive] = []
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            entry = entries.get(value)
            if entry is None:
                continue
            x, y = x0 + c * cell * (1 + gap), y0 + r * cell * (1 + gap)
            out.extend(
                swatch(Box(x, y, cell, cell), entry, entry_index(ctx, definition.palette, value), motif_for(ctx, definition.palette, entry),
                       symbol_scale=ctx.fparam("symbol_scale", 0.4), stroke=ctx.fparam("stroke_width", 0.35))
            )
    if ctx.param("border", True):
        out.append(Rect(x0, y0, cell * cols + cell * gap * (cols - 1), cell * len(grid) + cell * gap * (len(grid) - 1), stroke=DEFAULT_INK, stroke_width=ctx.fparam("border_width", 0.6)))
    return out


class PaletteListParams(MotifsParam):
    field: FieldName = Field(default="", description="The palette_list field drawn.")
    gap: Annotated[float, Field(ge=0.0, le=10.0, allow_inf_nan=False)] = Field(default=0.2, description="Gap between swatches, as a fraction of a swatch.")


@widget("palette_list", PaletteListParams)
def palette_list(ctx: WidgetContext) -> list[Primitive]:
    """A palette_list field as a row of swatches."""
    name = str(ctx.param("field", ""))
    values = ctx.data.get(name)
    definition = ctx.field_defs.get(name)
    if not isinstance(values, list) or definition is None or definition.palette is None:
        return []
    cell, x0, y0 = fit_square_grid(ctx.box, len(values), 1, ctx.fparam("gap", 0.2))
    entries = ctx.res.entries.get(definition.palette, {})
    out: list[Primitive] = []
    for i, value in enumerate(values):
        entry = entries.get(str(value))
        if entry is not None:
            box = Box(x0 + i * cell * (1 + ctx.fparam("gap", 0.2)), y0, cell, cell)
            out.extend(swatch(box, entry, entry_index(ctx, definition.palette, entry.id), motif_for(ctx, definition.palette, entry), radius=cell * 0.15))
    return out


class PolyominoParams(WidgetParams):
    field: FieldName = Field(default="cells", description="The polyomino field drawn ([column, row] cells).")
    frame_cells: FrameCells = Field(default=0, description="Draw every shape on a grid this many cells wide, so all share one scale.")
    cell_max: Mm = Field(default=1000.0, description="The largest cell in mm.")
    fill: Colour | None = Field(default=None, description="The cells' fill (default: clay brown).")
    stroke: Colour | None = Field(default=None, description="The cells' outline (default: near black).")
    grid: bool = Field(default=True, description="Draw the faint guide grid.")
    bevel: bool = Field(default=True, description="Draw an inner bevel on each cell.")


@widget("polyomino", PolyominoParams)
def polyomino(ctx: WidgetContext) -> list[Primitive]:
    """A polyomino field ([column, row] cells) drawn as joined squares on a faint grid.

    params: field, fill, cell_max (mm), grid (faint guide grid, default true).
    """
    name = str(ctx.param("field", "cells"))
    cells = ctx.data.get(name)
    if not isinstance(cells, list) or not cells:
        return []
    pts = [(int(c[0]), int(c[1])) for c in cells if isinstance(c, list) and len(c) == 2]
    cols = max(x for x, _ in pts) + 1
    rows = max(y for _, y in pts) + 1
    frame_n = max(int(ctx.fparam("frame_cells", 0)), cols, rows)
    cell, x0, y0 = fit_square_grid(ctx.box, frame_n, frame_n)
    cell = min(cell, ctx.fparam("cell_max", 1000.0))
    x0 = ctx.box.x + (ctx.box.w - cell * cols) / 2
    y0 = ctx.box.y + (ctx.box.h - cell * rows) / 2
    fill = ctx.colour(ctx.param("fill"), "#8a5a2b")
    ink = ctx.colour(ctx.param("stroke"), DEFAULT_INK)
    out: list[Primitive] = []
    if ctx.param("grid", True):
        gx0 = ctx.box.x + (ctx.box.w - cell * frame_n) / 2
        gy0 = ctx.box.y + (ctx.box.h - cell * frame_n) / 2
        faint = mix(ctx.background, DEFAULT_INK, 0.18)
        for i in range(frame_n + 1):
            out.append(Line(gx0 + i * cell, gy0, gx0 + i * cell, gy0 + frame_n * cell, stroke=faint, stroke_width=0.15))
            out.append(Line(gx0, gy0 + i * cell, gx0 + frame_n * cell, gy0 + i * cell, stroke=faint, stroke_width=0.15))
        x0 = gx0 + ((frame_n - cols) // 2) * cell
        y0 = gy0 + ((frame_n - rows) // 2) * cell
    inset = cell * 0.04
    for x, y in pts:
        out.append(Rect(x0 + x * cell + inset, y0 + y * cell + inset, cell - 2 * inset, cell - 2 * inset, fill=fill, stroke=ink, stroke_width=max(0.3, cell * 0.03), radius=cell * 0.08))
        if ctx.param("bevel", True):
            out.append(Rect(x0 + x * cell + cell * 0.18, y0 + y * cell + cell * 0.18, cell * 0.64, cell * 0.64, stroke=shade(fill, -0.35), stroke_width=max(0.2, cell * 0.025), radius=cell * 0.05))
    return out


PATTERN_FILLS: tuple[tuple[str, str], ...] = (
    ("#f2f2f2", "dots"),
    ("#bdbdbd", "stripes"),
    ("#7a7a7a", "checks"),
    ("#3d3d3d", "rings"),
    ("#d9d9d9", "waves"),
    ("#9a9a9a", "lattice"),
)
"""Distinct greys + hatches for pattern letters A, B, C..."""


class PatternParams(WidgetParams):
    field: FieldName = Field(default="pattern", description="The pattern field drawn (rows of letters, '.' for any).")
    frame_cells: FrameCells = Field(default=0, description="Draw every pattern on a grid this many cells wide, so all share one scale.")
    cell_max: Mm = Field(default=1000.0, description="The largest cell in mm.")


@widget("pattern", PatternParams)
def pattern(ctx: WidgetContext) -> list[Primitive]:
    """A pattern field (rows of letters, '.' = any) as a grid: each letter a distinct grey and hatch, with the letter."""
    name = str(ctx.param("field", "pattern"))
    rows = ctx.data.get(name)
    if not isinstance(rows, list) or not rows:
        return []
    lines = [str(r) for r in rows]
    cols = max(len(r) for r in lines)
    frame_n = max(int(ctx.fparam("frame_cells", 0)), cols, len(lines))
    cell, _, _ = fit_square_grid(ctx.box, frame_n, frame_n)
    cell = min(cell, ctx.fparam("cell_max", 1000.0))
    x0 = ctx.box.x + (ctx.box.w - cell * cols) / 2
    y0 = ctx.box.y + (ctx.box.h - cell * len(lines)) / 2
    letters = sorted({ch for line in lines for ch in line if ch != "."})
    out: list[Primitive] = []
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            box = Box(x0 + c * cell, y0 + r * cell, cell, cell)
            if ch == ".":
                out.append(Rect(box.x + cell * 0.06, box.y + cell * 0.06, cell * 0.88, cell * 0.88, stroke=mix(ctx.background, DEFAULT_INK, 0.35), stroke_width=0.25, radius=cell * 0.06))
                continue
            grey, motif = PATTERN_FILLS[letters.index(ch) % len(PATTERN_FILLS)]
            out.append(Rect(box.x, box.y, box.w, box.h, fill=grey))
            out.append(draw_motif(motif, box.inset(cell * 0.04), motif_ink(grey)))
            disc = cell * 0.24
            cx, cy = box.x + cell / 2, box.y + cell / 2
            out.append(Circle(cx, cy, disc, fill="#ffffff", stroke=DEFAULT_INK, stroke_width=0.2))
            out.extend(centred_text(ch, cx, cy, TITLE_FONT, cell * 0.3 / pt_to_mm(1.0), DEFAULT_INK))
            out.append(Rect(box.x, box.y, box.w, box.h, stroke=DEFAULT_INK, stroke_width=0.4))
    return out


class BadgeParams(MinSizeParam):
    field: FieldName | None = Field(default=None, description="The data field printed in the badge.")
    value: str | int | None = Field(default=None, description="A fixed value printed when no ``field`` is given.")
    fill: Colour = Field(default="type", description="The badge's colour.")
    shape: Literal["circle", "shield", "square"] = Field(default="circle", description="The badge's shape.")
    label: str | None = Field(default=None, description="A caption under the value: a ``strings`` key, or the text itself.")
    size: Pt = Field(default=14.0, description="The value's size in points.")
    label_size: Pt = Field(default=6.0, description="The caption's size in points.")
    stroke: Colour | None = Field(default=None, description="The circle's outline (default: white).")
    stroke_width: Mm = Field(default=0.5, description="The circle's outline width in mm.")


@widget("badge", BadgeParams)
def badge(ctx: WidgetContext) -> list[Primitive]:
    """A number in a disc or shield (e.g. points in the top-right corner): params field or value, fill, shape, label."""
    name = ctx.param("field")
    value = field_text(ctx, str(name)) if name else str(ctx.param("value") if ctx.param("value") is not None else "")
    if not value:
        return []
    b = ctx.box
    fill = ctx.colour(ctx.param("fill", "type"), "#444444")
    ink = ink_on(fill)
    out: list[Primitive] = []
    shape = ctx.param("shape", "circle")
    if shape == "circle":
        r = min(b.w, b.h) / 2
        out.append(Circle(b.x + b.w / 2, b.y + b.h / 2, r, fill=fill, stroke=ctx.colour(ctx.param("stroke"), "#ffffff"), stroke_width=ctx.fparam("stroke_width", 0.5)))
    elif shape == "shield":
        out.append(Polygon(((b.x, b.y), (b.right, b.y), (b.right, b.y + b.h * 0.7), (b.x + b.w / 2, b.bottom), (b.x, b.y + b.h * 0.7)), fill=fill, stroke="#ffffff", stroke_width=0.4))
    else:
        out.append(Rect(b.x, b.y, b.w, b.h, fill=fill, radius=min(b.w, b.h) * 0.2, stroke="#ffffff", stroke_width=0.4))
    label = ctx.param("label")
    inner = b.inset(min(b.w, b.h) * 0.12)
    if label:
        caption = ctx.string(str(label), str(label))
        top = Box(inner.x, inner.y + inner.h * 0.05, inner.w, inner.h * 0.62)
        out += ctx.text(value, top, what=str(name or "value"), size=ctx.fparam("size", 14.0), font=TITLE_FONT, colour=ink, align="center", valign="middle", single_line=True, source=ctx.source + ("data", str(name)) if name else ())
        bottom = Box(inner.x - inner.w * 0.1, inner.y + inner.h * 0.62, inner.w * 1.2, inner.h * 0.3)
        out += ctx.text(caption, bottom, what="label", size=ctx.fparam("label_size", 6.0), font=BODY_FONT, colour=ink, align="center", valign="top", single_line=True, min_size=ctx.min_text_pt)
    else:
        out += ctx.text(value, inner, what=str(name or "value"), size=ctx.fparam("size", 14.0), font=TITLE_FONT, colour=ink, align="center", valign="middle", single_line=True, source=ctx.source + ("data", str(name)) if name else ())
    return out


class IconRowParams(WidgetParams):
    icons: list[str] | None = Field(default=None, description="The icons drawn, by name.")
    icon: str | None = Field(default=None, description="One icon repeated as many times as ``count_field`` says.")
    count_field: FieldName | None = Field(default=None, description="The data field holding the count of ``icon``.")
    gap: Annotated[float, Field(ge=0.0, le=10.0, allow_inf_nan=False)] = Field(default=0.15, description="Gap between icons, as a fraction of an icon.")
    size: Mm | None = Field(default=None, description="An icon's size in mm (default: the box's height).")
    align: Align = Field(default="center", description="Where the row sits in the box.")


@widget("icon_row", IconRowParams)
def icon_row(ctx: WidgetContext) -> list[Primitive]:
    """A row of icons: params icons (list of names) or icon + count_field (repeat); size (mm) and gap."""
    names: list[str] = []
    icons_param = ctx.param("icons")
    if isinstance(icons_param, list):
        names = [str(n) for n in icons_param]
    elif ctx.param("icon") and ctx.param("count_field"):
        count = ctx.data.get(str(ctx.param("count_field")))
        if isinstance(count, int):
            names = [str(ctx.param("icon"))] * count
    names = [n for n in names if n in ctx.res.icons]
    if not names:
        return []
    b = ctx.box
    gap = ctx.fparam("gap", 0.15)
    size = min(b.h, ctx.fparam("size", b.h), b.w / (len(names) + gap * (len(names) - 1)))
    total = size * len(names) + size * gap * (len(names) - 1)
    align = ctx.param("align", "center")
    x = b.x if align == "left" else b.right - total if align == "right" else b.x + (b.w - total) / 2
    y = b.y + (b.h - size) / 2
    return [ctx.res.icons.place(n, x + i * size * (1 + gap), y, size) for i, n in enumerate(names)]


class TypeBandParams(MinSizeParam):
    size: Pt = Field(default=7.0, description="The type name's size in points.")
    font: FontName = Field(default=TITLE_FONT, description="The font.")
    align: Align = Field(default="center", description="Horizontal alignment.")
    padding: Mm = Field(default=1.5, description="Room left and right of the name, in mm.")
    uppercase: bool = Field(default=True, description="Print the name in capitals.")


@widget("type_band", TypeBandParams)
def type_band(ctx: WidgetContext) -> list[Primitive]:
    """A band in the card type's colour with the type's name; params size, align, bleed_left/right."""
    if ctx.card is None or ctx.deck is None or ctx.card.type is None:
        return []
    card_type = next((t for t in ctx.deck.card_types if t.id == ctx.card.type), None)
    if card_type is None:
        return []
    fill = card_type.colour or "#555555"
    b = ctx.box
    out: list[Primitive] = [Rect(b.x, b.y, b.w, b.h, fill=fill)]
    pad = ctx.fparam("padding", 1.5)
    label = ctx.local(card_type.name)
    if ctx.param("uppercase", True):
        label = label.upper()
    out += ctx.text(label, Box(b.x + pad, b.y, b.w - 2 * pad, b.h), what="type", size=ctx.fparam("size", 7.0), font=str(ctx.param("font", TITLE_FONT)), colour=ink_on(fill), align=ctx.param("align", "center"), valign="middle", single_line=True, source=ctx.source + ("type",))
    return out


class CreditLineParams(TextParams):
    size: Pt | None = Field(default=None, description="Text size in points (default: the layout's min_text_pt).")
    font: FontName | None = Field(default="DejaVuSansCondensed", description="The font.")
    align: Align | None = Field(default="center", description="Horizontal alignment.")
    valign: VAlign | None = Field(default="bottom", description="Vertical alignment.")
    line_height: Annotated[float, Field(ge=0.5, le=5.0, allow_inf_nan=False)] | None = Field(default=1.15, description="Line spacing as a multiple of the size.")
    version: bool = Field(default=False, description="Add the spec's version after the credit.")


@widget("credit_line", CreditLineParams)
def credit_line(ctx: WidgetContext) -> list[Primitive]:
    """The licence's credit line in the face's locale: small print, but never below the layout's minimum size
    (condensed type, wrapped onto as many lines as its box holds)."""
    text = ctx.local(ctx.spec.licence.attribution)
    if ctx.param("version", False):
        text = f"{text} · {ctx.spec.version}"
    return ctx.text(text, what="credit", size=ctx.fparam("size", ctx.min_text_pt), font=str(ctx.param("font", "DejaVuSansCondensed")), line_height=ctx.fparam("line_height", 1.15), align=ctx.param("align", "center"), valign=ctx.param("valign", "bottom"), min_size=ctx.fparam("min_size", ctx.min_text_pt), colour=ctx.colour(ctx.param("colour"), mix(ink_on(ctx.background), ctx.background, 0.25)), source=("licence", "attribution"))


class PlateParams(WidgetParams):
    plate: str = Field(default="background", pattern=PLATE_PATTERN,
                       description="What the text sits on: ``background`` (the face's), ``none``, or a colour.")
    plate_padding: Mm = Field(default=1.6, description="The plate's margin round the text in mm; the text is fitted inside the box less this margin at its left and right, so the plate stays within the box's width.")


def _plated_box(ctx: WidgetContext) -> Box:
    """Where a text on a plate is laid out: the element's box less the plate's padding at its left and right, so the
    plate drawn round a text shrunk to the box's width stays inside the box (it grew past the box, and with a box set
    at the safe zone outside it, CG209). The height is left whole: a one-line title's box is sized for the line, and
    taking the padding off it too would refuse titles that fit; the whole box when there is no plate or the padding
    leaves no width."""
    if str(ctx.param("plate", "background")) == "none":
        return ctx.box
    pad = ctx.fparam("plate_padding", 1.6)
    box = ctx.box
    return Box(box.x + pad, box.y, box.w - 2 * pad, box.h) if box.w > 2 * pad else box


def _on_plate(ctx: WidgetContext, text: list[Primitive]) -> list[Primitive]:
    """Text on a plate, so it never sits on the ornament behind it.

    Param ``plate``: a colour, ``none`` (the layout puts its own panel behind
    the text), or by default the face's background; ``plate_padding`` in mm.
    """
    colour = str(ctx.param("plate", "background"))
    if colour == "none" or not text:
        return text
    bounds = ink_box(text)
    if bounds is None:
        return text
    pad = ctx.fparam("plate_padding", 1.6)
    fill = ctx.background if colour == "background" else ctx.colour(colour, ctx.background)
    plate = Rect(bounds.left - pad, bounds.top - pad, bounds.right - bounds.left + 2 * pad, bounds.bottom - bounds.top + 2 * pad, fill=fill, radius=pad)
    return [plate, *text]


class EffectGlyphParams(WidgetParams):
    glyphs: dict[str, GlyphName] | None = Field(default=None, description="The glyph drawn for each effect id (cards without one draw nothing).")
    colour: Colour = Field(default="type", description="The medallion's colour.")


@widget("effect_glyph", EffectGlyphParams)
def effect_glyph(ctx: WidgetContext) -> list[Primitive]:
    """The card's effect as a pictogram in a medallion: params ``glyphs`` (effect id -> glyph name, see
    :mod:`cardgen.render.glyphs`) and ``colour`` (the medallion, default the card type's colour)."""
    glyphs = ctx.param("glyphs") or {}
    effect = ctx.card.effect if ctx.card is not None else None
    if not isinstance(glyphs, dict) or effect not in glyphs:
        return []
    b = ctx.box
    r = min(b.w, b.h) / 2
    cx, cy = b.x + b.w / 2, b.y + b.h / 2
    fill = ctx.colour(ctx.param("colour", "type"), "#555555")
    ink = ink_on(fill)
    return [
        Circle(cx, cy, r, fill=fill, stroke=DEFAULT_INK, stroke_width=0.4),
        Circle(cx, cy, r * 0.86, stroke=ink, stroke_width=0.25),
        *draw_glyph(str(glyphs[effect]), cx, cy, r * 0.72, ink, fill),
    ]


class GameTitleParams(LineParams, PlateParams):
    size: Pt = Field(default=18.0, description="Text size in points (shrunk to fit one line).")
    font: FontName | None = Field(default=TITLE_FONT, description="The font.")
    align: Align | None = Field(default="center", description="Horizontal alignment.")
    valign: VAlign | None = Field(default="middle", description="Vertical alignment.")


@widget("game_title", GameTitleParams)
def game_title(ctx: WidgetContext) -> list[Primitive]:
    """The game's title (backs), on a plate (param ``plate``)."""
    text = ctx.text(ctx.local(ctx.spec.title), _plated_box(ctx), what="game_title", size=ctx.fparam("size", 18.0), font=str(ctx.param("font", TITLE_FONT)), align=ctx.param("align", "center"), valign=ctx.param("valign", "middle"), single_line=True, source=("title",))
    return _on_plate(ctx, text)


class BackTitleParams(GameTitleParams):
    size: Pt = Field(default=16.0, description="Text size in points (shrunk to fit one line).")


@widget("back_title", BackTitleParams)
def back_title(ctx: WidgetContext) -> list[Primitive]:
    """The deck's back title (``back:``), or the deck name, on a plate (param ``plate``).

    On a face that also prints ``game_title``, a ``back:`` that only repeats
    the game's title gives way to the deck's name, so a back never reads the
    title twice.
    """
    deck = ctx.deck
    text = ctx.local(deck.back) if deck and deck.back else ctx.local(deck.name) if deck else ""
    repeats = text.strip().casefold() == ctx.local(ctx.spec.title).strip().casefold()
    if deck is not None and repeats and "game_title" in ctx.face_widgets:
        text = ctx.local(deck.name)
    drawn = ctx.text(text, _plated_box(ctx), what="back", size=ctx.fparam("size", 16.0), font=str(ctx.param("font", TITLE_FONT)), align=ctx.param("align", "center"), valign=ctx.param("valign", "middle"), single_line=True)
    return _on_plate(ctx, drawn)


class OrnamentParams(WidgetParams):
    motif: MotifName = Field(default="lattice", description="The motif filling the box.")
    colour: Colour = Field(default="type", description="The ground under the motif.")
    ink: Colour | None = Field(default=None, description="The motif's ink (default: a shade that reads on the ground).")
    border: bool = Field(default=True, description="Draw an outline round the box.")
    border_width: Mm = Field(default=0.5, description="The outline's width in mm.")
    radius: Mm = Field(default=0.0, description="Corner radius in mm.")


@widget("ornament", OrnamentParams)
def ornament(ctx: WidgetContext) -> list[Primitive]:
    """A decorative motif filling the box (params motif, colour, border)."""
    name = str(ctx.param("motif", "lattice"))
    if not has_motif(name):
        return []
    fill = ctx.colour(ctx.param("colour", "type"), "#777777")
    out: list[Primitive] = [Rect(ctx.box.x, ctx.box.y, ctx.box.w, ctx.box.h, fill=fill, radius=ctx.fparam("radius", 0.0))]
    out.append(draw_motif(name, ctx.box, ctx.colour(ctx.param("ink"), motif_ink(fill))))
    if ctx.param("border", True):
        out.append(Rect(ctx.box.x, ctx.box.y, ctx.box.w, ctx.box.h, stroke=ink_on(fill), stroke_width=ctx.fparam("border_width", 0.5), radius=ctx.fparam("radius", 0.0)))
    return out


class FieldsParams(TextParams, MotifsParam):
    size: Pt = Field(default=8.0, description="The text lines' size in points.")
    font: FontName | None = Field(default=BODY_FONT, description="The font.")
    align: Align | None = Field(default="left", description="Horizontal alignment.")
    valign: VAlign | None = Field(default="top", description="Vertical alignment.")
    frame_cells: FrameCells = Field(default=0, description="Passed to the polyomino and pattern fields drawn.")


@widget("fields", FieldsParams)
def fields(ctx: WidgetContext) -> list[Primitive]:
    """Every shown data field: visual fields drawn in the upper part, the others as ``Label: value`` lines."""
    visual = {"polyomino": "polyomino", "pattern": "pattern", "palette_grid": "palette_grid", "palette_list": "palette_list", "palette": "swatch"}
    drawn: list[str] = []
    lines: list[str] = []
    for name, definition in ctx.field_defs.items():
        if not definition.shown or name not in ctx.data:
            continue
        if definition.type in visual:
            drawn.append(name)
        else:
            lines.append(f"{field_label(ctx, name)}: {field_text(ctx, name)}")
    out: list[Primitive] = []
    b = ctx.box
    text_h = min(b.h * 0.45, len(lines) * pt_to_mm(ctx.fparam("size", 8.0)) * 1.3 + 1) if lines else 0.0
    pic_h = b.h - text_h - (1.0 if lines and drawn else 0.0)
    if drawn:
        each = (b.w - 1.5 * (len(drawn) - 1)) / len(drawn)
        for i, name in enumerate(drawn):
            sub = Box(b.x + i * (each + 1.5), b.y, each, pic_h)
            kind = visual[ctx.field_defs[name].type]
            fn, schema = get_widget(kind), widget_params(kind)
            assert fn is not None and schema is not None  # (a generic widget: registered with this module)
            passed = {key: value for key, value in ctx.params.items() if key in schema.model_fields}
            child = WidgetContext(**{**ctx.__dict__, "box": sub, "params": {**passed, "field": name}, "schema": schema})
            out.extend(fn(child))
    if lines:
        box = Box(b.x, b.bottom - text_h, b.w, text_h) if drawn else b
        out += ctx.text("\n".join(lines), box, what="fields", size=ctx.fparam("size", 8.0), source=ctx.source + ("data",))
    return out


class PieceParams(MotifsParam):
    symbol_scale: Scale = Field(default=0.5, description="The symbol's size as a fraction of the piece.")


@widget("piece", PieceParams)
def piece(ctx: WidgetContext) -> list[Primitive]:
    """A component's face: its palette entry (motif + symbol) or its owner's symbol, in a square or disc."""
    info = ctx.piece
    if info is None:
        return []
    b = ctx.box
    out: list[Primitive] = []
    if info.entry is not None:
        out.extend(swatch(b, info.entry, info.entry_index, motif_for(ctx, "", info.entry), symbol_scale=ctx.fparam("symbol_scale", 0.5), stroke=0.0, show_motif=True))
    elif info.seat is not None:
        fill = info.seat.colour
        cx, cy = b.x + b.w / 2, b.y + b.h / 2
        r = min(b.w, b.h) / 2
        out.append(Circle(cx, cy, r * 0.62, fill=ink_on(fill, "#1a1a1a", "#ffffff"), stroke=None))
        out.extend(centred_symbol(info.seat.symbol, cx, cy, TITLE_FONT, r * 0.9 / pt_to_mm(1.0), fill))
    return out


class SeatMarkParams(WidgetParams):
    scale: Scale = Field(default=0.42, description="The triangle's side as a fraction of the box's shorter side.")


@widget("seat_mark", SeatMarkParams)
def seat_mark(ctx: WidgetContext) -> list[Primitive]:
    """The owner's mark: a triangle in a corner of the element's box (corner = seat position: TL, TR, BR, BL)
    with the seat's symbol. A box on the trim runs the triangle out into the bleed; a box on the safe zone
    keeps all of it inside."""
    info = ctx.piece
    if info is None or info.seat is None:
        return []
    t = ctx.box
    size = min(t.w, t.h) * ctx.fparam("scale", 0.42)
    corner = info.seat_index % 4
    x = t.x if corner in (0, 3) else t.right
    y = t.y if corner in (0, 1) else t.bottom
    dx = 1 if corner in (0, 3) else -1
    dy = 1 if corner in (0, 1) else -1
    e = ctx.trim.x if t == ctx.trim else 0.0  # on the trim: the mark runs out into the bleed so a slightly off cut keeps it
    tri = Polygon(((x - dx * e, y - dy * e), (x + dx * size, y - dy * e), (x + dx * size, y), (x, y + dy * size), (x - dx * e, y + dy * size)), fill=DEFAULT_INK)
    inner = Polygon(((x + dx * size * 0.1, y + dy * size * 0.1), (x + dx * size * 0.78, y + dy * size * 0.1), (x + dx * size * 0.1, y + dy * size * 0.78)), fill=info.seat.colour)
    cx, cy = x + dx * size * 0.3, y + dy * size * 0.3
    label = centred_symbol(info.seat.symbol, cx, cy, TITLE_FONT, size * 0.36 / pt_to_mm(1.0), ink_on(info.seat.colour))
    return [tri, inner, *label]
