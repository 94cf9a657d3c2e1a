"""What each widget takes from a layout's ``params``: declared models, checked against the layout files.

Every widget registers with a model (a subclass of :class:`WidgetParams`)
naming each parameter it reads, with its kind, range, default and meaning.
The face builder checks an element's ``params`` against its widget's model
(:func:`param_problems`): a name the widget does not take, or a value of the
wrong kind, is a finding at its line (CG214); a number outside its range is
CG207. :meth:`cardgen.render.widget_kit.WidgetContext.param` refuses to read
a name the model does not declare, so the models cannot fall behind the code.
docs/widgets.md is generated from the models (:func:`widgets_reference_markdown`).

The parameter kinds are named once here (:data:`Pt`, :data:`Colour`,
:data:`FontName`...); a number's range is part of its kind, so a parameter
that drives work (``frame_cells``) or text size is bounded where it is declared.
"""

from __future__ import annotations

import difflib
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from cardgen.limits import MAX_FRAME_CELLS, MAX_LAYOUT_NUMBER, MAX_TEXT_PT
from cardgen.render.fonts import FACES
from cardgen.render.glyphs import GLYPHS
from cardgen.render.motifs import has_motif, motif_names

COLOUR_PATTERN = r"^(#[0-9a-fA-F]{6}|type|auto|seat|entry|field:.+)$"
"""What :meth:`cardgen.render.widget_kit.WidgetContext.colour` reads."""
PLATE_PATTERN = r"^(#[0-9a-fA-F]{6}|type|auto|seat|entry|field:.+|background|none)$"
"""A colour, or ``background`` / ``none`` (the plate under a title)."""


def _known_font(name: str) -> str:
    if name not in FACES:
        raise ValueError(f"unknown font {name!r}; the fonts are {', '.join(sorted(FACES))}")
    return name


def _known_motif(name: str) -> str:
    if not has_motif(name):
        raise ValueError(f"unknown motif {name!r}; the motifs are {', '.join(motif_names())}")
    return name


def _known_glyph(name: str) -> str:
    if name not in GLYPHS:
        raise ValueError(f"unknown glyph {name!r}; the glyphs are {', '.join(sorted(GLYPHS))}")
    return name


Pt = Annotated[float, Field(ge=0.5, le=MAX_TEXT_PT, allow_inf_nan=False)]
"""A text size in points."""
Mm = Annotated[float, Field(ge=0, le=MAX_LAYOUT_NUMBER, allow_inf_nan=False)]
"""A length in mm, not negative."""
Ratio = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]
"""A fraction from 0 to 1."""
Scale = Annotated[float, Field(ge=0.0, le=10.0, allow_inf_nan=False)]
"""A factor of a box's size, from 0 to 10."""
FrameCells = Annotated[int, Field(ge=0, le=MAX_FRAME_CELLS)]
"""A number of grid cells (drives drawing work)."""
Colour = Annotated[str, Field(pattern=COLOUR_PATTERN)]
"""``#rrggbb``, ``type``, ``auto``, ``seat``, ``entry`` or ``field:<name>``."""
FontName = Annotated[str, AfterValidator(_known_font), Field(json_schema_extra={"x-kind": "font"})]
"""A bundled font (DejaVuSans, DejaVuSans-Bold...)."""
MotifName = Annotated[str, AfterValidator(_known_motif), Field(json_schema_extra={"x-kind": "motif"})]
"""A registered motif (dots, stripes, lattice...)."""
GlyphName = Annotated[str, AfterValidator(_known_glyph), Field(json_schema_extra={"x-kind": "glyph"})]
"""A registered effect glyph (cycle, swap, shield...)."""
Align = Literal["left", "center", "right"]
VAlign = Literal["top", "middle", "bottom"]


class WidgetParams(BaseModel):
    """A widget's parameters: closed to unknown names, strict about kinds (no text read as a number)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


class FontParam(WidgetParams):
    font: FontName | None = Field(default=None, description="The font (default: the widget's own).")


class TextColourParam(WidgetParams):
    colour: Colour | None = Field(default=None, description="The text colour (default: black or white, whichever reads on the background).")


class AlignParam(WidgetParams):
    align: Align | None = Field(default=None, description="Horizontal alignment of the text (default: the widget's own).")


class VAlignParam(WidgetParams):
    valign: VAlign | None = Field(default=None, description="Vertical alignment of the text (default: the widget's own).")


class MinSizeParam(WidgetParams):
    min_size: Pt | None = Field(default=None, description="The smallest size the text may shrink to, in points (default: the layout's min_text_pt, or the size if smaller).")


class LineParams(FontParam, TextColourParam, AlignParam, VAlignParam, MinSizeParam):
    """The parameters of a widget that sets one line of text with :meth:`WidgetContext.text`."""


class TextParams(LineParams):
    """The parameters of a widget that sets a block of text."""

    line_height: Annotated[float, Field(ge=0.5, le=5.0, allow_inf_nan=False)] | None = Field(
        default=None, description="Line spacing as a multiple of the size (default 1.2)."
    )
    justify: bool = Field(default=False, description="Justify the lines.")


class MotifsParam(WidgetParams):
    """The parameter of widgets that draw palette entries."""

    motifs: dict[str, MotifName] | None = Field(default=None, description="Motif to draw for each palette entry id (default: the entry's own).")


def param_problems(model: type[WidgetParams], params: dict[str, Any]) -> list[tuple[str, tuple[str | int, ...], str]]:
    """(code, path inside ``params``, message) for each parameter ``model`` does not accept.

    A name the widget does not take, or a value of the wrong kind, is CG214; a
    number out of its range (or not finite) is CG207, as for any other number
    in a layout file.
    """
    try:
        model.model_validate(params)
    except ValidationError as error:
        out: list[tuple[str, tuple[str | int, ...], str]] = []
        for item in error.errors(include_url=False):
            loc = tuple(item["loc"])
            name = str(loc[0]) if loc else ""
            if item["type"] == "extra_forbidden":
                taken = sorted(model.model_fields)
                close = difflib.get_close_matches(name, taken, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                out.append(("CG214", loc, f"the widget takes no parameter {name!r}{hint} (it takes: {', '.join(taken) or 'none'})"))
            elif item["type"] in _RANGE_ERRORS:
                out.append(("CG207", loc, f"parameter {'.'.join(str(p) for p in loc)!r} is {item['input']!r}: {item['msg']}"))
            else:
                out.append(("CG214", loc, f"parameter {'.'.join(str(p) for p in loc)!r} is {item['input']!r}: {item['msg']}"))
        return out
    return []


_RANGE_ERRORS = frozenset({"greater_than", "greater_than_equal", "less_than", "less_than_equal", "finite_number"})
"""Pydantic's error types for a number of the right kind outside its range."""


def parameter_rows(model: type[WidgetParams]) -> list[tuple[str, str, str, str]]:
    """(name, kind, default, meaning) for each parameter of ``model``, sorted by name."""
    rows = []
    for name, info in sorted(model.model_fields.items()):
        schema = model.model_json_schema()["properties"][name]
        rows.append((name, _kind(schema), _shown_default(info.default), info.description or ""))
    return rows


def _shown_default(value: Any) -> str:
    """A default as a layout file would write it (``true``, ``0.5``, ``center``); '' for none."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _kind(schema: dict[str, Any]) -> str:
    """A short reading of a parameter's JSON Schema: ``number 0.5..200``, ``'left' | 'center'``, ``map of motif``..."""
    if "anyOf" in schema:
        kinds = [_kind(s) for s in schema["anyOf"] if s.get("type") != "null"]
        return " or ".join(kinds)
    if "x-kind" in schema:
        return str(schema["x-kind"])
    if "enum" in schema:
        return ", ".join(str(v) for v in schema["enum"])
    if "const" in schema:
        return repr(schema["const"])
    kind = schema.get("type", "any")
    if kind in ("number", "integer"):
        low, high = schema.get("minimum", schema.get("exclusiveMinimum")), schema.get("maximum", schema.get("exclusiveMaximum"))
        word = "whole number" if kind == "integer" else "number"
        return f"{word} {low:g}..{high:g}" if low is not None and high is not None else word
    if kind == "string":
        if schema.get("pattern") == COLOUR_PATTERN:
            return "colour"
        if schema.get("pattern") == PLATE_PATTERN:
            return "colour, background or none"
        return "text"
    if kind == "boolean":
        return "true/false"
    if kind == "array":
        return f"list of {_kind(schema.get('items', {}))}"
    if kind == "object":
        return f"map of {_kind(schema.get('additionalProperties', {}))}"
    return str(kind)
