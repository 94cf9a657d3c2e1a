"""Widgets: the named drawing routines a layout places into boxes on a card face.

A widget is ``fn(context) -> list[Primitive]``, registered with the model of
the parameters it takes (:mod:`cardgen.render.widget_params`); the
:class:`WidgetContext` gives the box (mm, face coordinates), the spec, deck,
card and face, the locale, the palettes, and the element's ``params`` from the
layout file, checked against that model before the widget draws. Text
goes through :meth:`WidgetContext.text`, which shrinks it to fit and records a
:class:`TextReport` so the render checks can name any text that still does
not fit.

This module is the kit: the registry, the context a widget receives, and the
drawing helpers widgets share. The generic widgets are in
:mod:`cardgen.render.standard_widgets`; :mod:`cardgen.render.widgets` imports
both and is what the rest of cardgen (and each game's widgets) imports. Game
packages add their own widgets in ``cardgen/games/<pkg>/widgets.py``;
:func:`load_game_widgets` imports every such module without naming any game,
the first time a layout names a widget the generic ones do not have (a spec
using only generic widgets imports no game).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from cardgen.limits import MAX_FIT_LAYOUTS, MAX_LAYOUT_NUMBER
from cardgen.render.colour import ink_on, motif_ink
from cardgen.render.fonts import FACES, string_width
from cardgen.render.icons import IconRegistry
from cardgen.render.motifs import GENERIC_ORDER, draw_motif, has_motif
from cardgen.render.scene import Box, Circle, Group, Primitive, Rect, Text
from cardgen.render.stdicons import standard_icons
from cardgen.render.text import Align, Overflow, TextBlock, VAlign, fit_steps, layout_text, one_run_right, shrink_to_fit
from cardgen.render.units import pt_to_mm
from cardgen.render.widget_params import WidgetParams
from cardgen.spec.models import Card, Deck, FieldDef, Palette, PaletteEntry, Spec
from cardgen.spec.references import REFERENCE, resolve_reference
from cardgen.spec.source import PathKey

WidgetFn = Callable[["WidgetContext"], list[Primitive]]

_WIDGETS: dict[str, WidgetFn] = {}
_PARAMS: dict[str, type[WidgetParams]] = {}
_loaded_games = False

DEFAULT_INK = "#1a1a1a"
TITLE_FONT = "DejaVuSans-Bold"
BODY_FONT = "DejaVuSans"


def register_widget(name: str, fn: WidgetFn, params: type[WidgetParams]) -> None:
    """Add (or replace) a widget under ``name``, with the model of the parameters it reads."""
    _WIDGETS[name] = fn
    _PARAMS[name] = params


def widget(name: str, params: type[WidgetParams]) -> Callable[[WidgetFn], WidgetFn]:
    """Decorator form of :func:`register_widget`."""

    def wrap(fn: WidgetFn) -> WidgetFn:
        register_widget(name, fn, params)
        return fn

    return wrap


def widget_params(name: str) -> type[WidgetParams] | None:
    """The parameter model of the widget registered under ``name`` (None: no such widget)."""
    return _PARAMS.get(name) if get_widget(name) is not None else None


class UndeclaredParameter(LookupError):
    """A widget read a parameter its model does not declare, or with another default (a bug in the widget, never in a layout)."""


def get_widget(name: str) -> WidgetFn | None:
    """The widget registered under ``name``, or None.

    The generic widgets are found without importing any game package; only a
    name they do not have loads the game widgets (a game's widget names carry
    its prefix, ``keramikos_vessel``, so none shadows a generic one).
    """
    found = _WIDGETS.get(name)
    if found is None and not _loaded_games:
        load_game_widgets()
        found = _WIDGETS.get(name)
    return found


def widget_names() -> list[str]:
    """Every registered widget name, sorted."""
    load_game_widgets()
    return sorted(_WIDGETS)


def load_game_widgets() -> None:
    """Import ``cardgen.games.<pkg>.widgets`` for every game package that has one (once)."""
    global _loaded_games
    if _loaded_games:
        return
    _loaded_games = True
    from cardgen.games import import_game_parts

    import_game_parts("widgets")


# --------------------------------------------------------------------------- per-spec resources
_DECLARED: dict[tuple[type, str], tuple[bool, Any]] = {}
"""Whether a widget's parameter model declares a name, and its declared default, by model and name: read for every
parameter of every element of every face, and fixed once the model class exists."""


@dataclass(slots=True)
class TextReport:
    """One laid-out text: where it came from and whether it fits."""

    element: str
    """The layout element, e.g. ``front.elements[3] (text)``."""
    what: str
    """What the text is: ``name``, ``text``, a field name, ``credit``..."""
    text: str
    size_pt: float
    requested_pt: float
    overflow: Overflow
    source: PathKey = ()
    """Where the text is written in the spec (empty when it comes from the layout)."""


@dataclass
class Resources:
    """Lookups precomputed once per spec and locale."""

    spec: Spec
    locale: str
    palettes: dict[str, Palette]
    entries: dict[str, dict[str, PaletteEntry]]
    effect_names: dict[str, str]
    icons: IconRegistry

    @classmethod
    def build(cls, spec: Spec, locale: str) -> "Resources":
        """Palettes (their symbols in ``locale``), effect names and icons (standard + one per palette entry)."""
        palettes = {p.id: p for p in localised_palettes(spec, locale)}
        entries = {p.id: {e.id: e for e in p.entries} for p in palettes.values()}
        effect_names: dict[str, str] = {}
        for deck in spec.decks:
            for card in deck.cards:
                if card.effect and card.effect not in effect_names:
                    effect_names[card.effect] = local(card.name, locale, spec.locales[0])
        icons = standard_icons()
        for palette in palettes.values():
            for index, entry in enumerate(palette.entries):
                icons.register(f"{palette.id}.{entry.id}", _entry_icon(entry, index))
        return cls(spec, locale, palettes, entries, effect_names, icons)

    def resolve(self, text: str) -> str:
        """Replace every reference (``{numbers.NAME}``, ``{deck.ID}``... see :mod:`cardgen.spec.references`)
        with its number and ``{effect:ID}`` with that card's name; an unresolvable one stays as written."""

        def sub(match: re.Match[str]) -> str:
            kind, name, effect = match.groups()
            if effect is not None:
                found = self.effect_names.get(effect)
                return found.replace("{", "{{").replace("}", "}}") if found is not None else match.group(0)
            value = resolve_reference(self.spec, kind, name).value
            return str(value) if value is not None else match.group(0)

        return REFERENCE.sub(sub, text)


def localised_palettes(spec: Spec, locale: str) -> list[Palette]:
    """The spec's palettes with every entry's ``symbol`` as printed in ``locale`` (so widgets need not ask)."""
    out = []
    for palette in spec.palettes:
        if any(locale in entry.symbols for entry in palette.entries):
            entries = [entry.model_copy(update={"symbol": entry.symbol_in(locale)}) for entry in palette.entries]
            palette = palette.model_copy(update={"entries": entries})
        out.append(palette)
    return out


def local(text: Mapping[str, str] | None, locale: str, fallback: str = "en") -> str:
    """The text in ``locale`` (or the fallback locale, or any), '' for None."""
    if not text:
        return ""
    return text.get(locale) or text.get(fallback) or next(iter(text.values()), "")


def _entry_icon(entry: PaletteEntry, index: int) -> Callable[[float], Sequence[Primitive]]:
    def draw(s: float) -> Sequence[Primitive]:
        return swatch(Box(s * 0.06, s * 0.06, s * 0.88, s * 0.88), entry, index, motif=None, symbol_scale=0.7, stroke=0.06 * s)

    return draw


# --------------------------------------------------------------------------- context
@dataclass
class PieceInfo:
    """For component faces: the palette entry printed and the owning seat (if any)."""

    entry: PaletteEntry | None
    entry_index: int
    seat: PaletteEntry | None
    seat_index: int
    shape: str


@dataclass
class WidgetContext:
    """Everything a widget may read; widgets draw into ``box`` (mm, face coordinates, y down)."""

    box: Box
    trim: Box
    safe: Box
    spec: Spec
    res: Resources
    deck: Deck | None
    card: Card | None
    face_index: int
    locale: str
    params: Mapping[str, Any]
    data: Mapping[str, Any]
    title: str
    element: str
    source: PathKey
    reports: list[TextReport]
    min_text_pt: float = 6.0
    piece: PieceInfo | None = None
    background: str = "#ffffff"
    field_defs: Mapping[str, FieldDef] = field(default_factory=dict)
    face_widgets: frozenset[str] = frozenset()
    """The widgets of every element drawn on this face (so one can avoid repeating another)."""
    schema: type[WidgetParams] | None = None
    """The drawing widget's parameter model: :meth:`param` reads only the names it declares."""

    # -- params ------------------------------------------------------------
    def param(self, name: str, default: Any = None) -> Any:
        """A layout parameter, or the default; the widget's model must declare ``name``."""
        if self.schema is not None:
            known = _DECLARED.get((self.schema, name))
            if known is None:
                declared = self.schema.model_fields.get(name)
                known = _DECLARED[(self.schema, name)] = (declared is not None, declared.default if declared is not None else None)
            is_declared, declared_default = known
            if not is_declared:
                raise UndeclaredParameter(f"{self.element}: the widget reads parameter {name!r}, which {self.schema.__name__} does not declare")
            if declared_default is not None:
                if default is not None and default != declared_default:
                    raise UndeclaredParameter(f"{self.element}: the widget reads {name!r} with default {default!r}, but {self.schema.__name__} declares {declared_default!r}")
                default = declared_default
        return self.params.get(name, default)

    def fparam(self, name: str, default: float) -> float:
        """A numeric layout parameter."""
        value = self.param(name, default)
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            return default  # layouts are validated (cardgen.render.layouts); this keeps a widget safe without it
        return max(-MAX_LAYOUT_NUMBER, min(float(value), MAX_LAYOUT_NUMBER))

    def colour(self, value: Any, default: str = DEFAULT_INK) -> str:
        """Resolve a colour parameter.

        ``#rrggbb``; ``type`` (the card type's colour); ``seat`` / ``entry`` (a
        component's seat or palette colour); ``auto`` (black or white on the
        face background); ``field:<name>`` (the colour of the palette entry in
        that field).
        """
        if value is None:
            return default
        if isinstance(value, str):
            if re.fullmatch(r"#[0-9a-fA-F]{6}", value):
                return value.lower()
            if value == "type":
                return self.type_colour() or default
            if value == "auto":
                return ink_on(self.background)
            if value == "seat" and self.piece and self.piece.seat:
                return self.piece.seat.colour
            if value == "entry" and self.piece and self.piece.entry:
                return self.piece.entry.colour
            if value.startswith("field:"):
                entry = self.entry_of_field(value[6:])
                if entry is not None:
                    return entry.colour
        return default

    def type_colour(self) -> str | None:
        """The colour of the card's type, if it has one."""
        if self.deck is None or self.card is None or self.card.type is None:
            return None
        for card_type in self.deck.card_types:
            if card_type.id == self.card.type:
                return card_type.colour
        return None

    def entry_of_field(self, name: str) -> PaletteEntry | None:
        """The palette entry named by a palette field of this face."""
        definition = self.field_defs.get(name)
        value = self.data.get(name)
        if definition is None or definition.palette is None or not isinstance(value, str):
            return None
        return self.res.entries.get(definition.palette, {}).get(value)

    # -- text --------------------------------------------------------------
    def local(self, text: Mapping[str, str] | None) -> str:
        """A LocalText in the face's locale, placeholders resolved."""
        return self.res.resolve(local(text, self.locale, self.spec.locales[0]))

    def string(self, key: str, default: str = "") -> str:
        """A label from the spec's ``strings`` in the face's locale."""
        found = self.spec.strings.get(key)
        return self.local(found) if found else default

    def text(
        self,
        text: str,
        box: Box | None = None,
        *,
        what: str,
        size: float | None = None,
        font: str | None = None,
        colour: str | None = None,
        align: Align | None = None,
        valign: VAlign | None = None,
        min_size: float | None = None,
        line_height: float | None = None,
        single_line: bool = False,
        source: PathKey = (),
    ) -> list[Primitive]:
        """Lay out ``text`` in ``box`` (default: the element's box), shrinking it to fit; record a report."""
        box = box or self.box
        size = size if size is not None else self.fparam("size", 9.0)
        font = font or str(self.param("font", BODY_FONT))
        if font not in FACES:
            font = BODY_FONT
        ink = colour or self.colour(self.param("colour"), ink_on(self.background))
        align = align or self.param("align", "left")
        valign = valign or self.param("valign", "top")
        lower = min_size if min_size is not None else self.fparam("min_size", max(self.min_text_pt, min(size, self.min_text_pt)))
        if not text.strip():
            return []
        if single_line:
            block = _single_line(text, box, font, size, lower, ink, align, valign, self.res.icons)
        else:
            lh = line_height if line_height is not None else self.fparam("line_height", 1.2)
            block = shrink_to_fit(
                text, box, font, size, lower, line_height=lh, align=align, valign=valign,
                fill=ink, icons=self.res.icons, justify=bool(self.param("justify", False)),
            )
        used = size
        first = next((item for item in block.items if isinstance(item, Text)), None)
        if first is not None:
            used = first.size_pt
        self.reports.append(TextReport(self.element, what, text, used, size, block.overflow, source))
        return list(block.items)


def _single_line(
    text: str, box: Box, font: str, size: float, lower: float, ink: str, align: Align, valign: VAlign, icons: IconRegistry
) -> TextBlock:
    """Shrink a one-line text until it fits the width; wrap to two lines only as a last resort.

    The size goes down in steps of 0.25 pt from ``size`` to the first that
    fits (or to ``lower``). A line's width is proportional to its size (glyph
    advances and inline icons alike), so the first trial's width tells which
    step should fit: the search starts one step above it, which gives the same
    size as trying every step, with two or three layouts instead of one per step.
    """
    if not all(math.isfinite(v) and v > 0 for v in (size, lower, box.w)):  # nothing to search: one layout at a finite size
        size = fit_steps(size, lower)[-1]
        return shrink_to_fit(text, box, font, size, size, align=align, valign=valign, fill=ink, icons=icons, line_height=1.05)
    current = size
    wide = Box(box.x, box.y, 10_000.0, box.h)

    def width_at(points: float) -> float:
        right = one_run_right(text, box.x, font, points, wide.w)  # (plain text: its one run's width, not laid out)
        if right is not None:
            return right - box.x
        trial = layout_text(text, wide, font, points, align="left", valign=valign, fill=ink, icons=icons)
        return max((_item_right(i, pt_to_mm(points)) for i in trial.items), default=box.x) - box.x

    width = width_at(current)
    if width > box.w + 1e-6:
        skip = math.ceil((1.0 - box.w / width) * size / 0.25) - 1  # steps that surely do not fit yet
        while skip > 0 and current - 0.25 >= lower - 1e-6:
            current -= 0.25
            skip -= 1
        if current != size:
            width = width_at(current)
    tries = 0
    while not (width <= box.w + 1e-6 or current - 0.25 < lower - 1e-6) and tries < MAX_FIT_LAYOUTS:
        current -= 0.25
        width = width_at(current)
        tries += 1
    if tries == MAX_FIT_LAYOUTS and width > box.w + 1e-6:
        current = lower
    block = layout_text(text, box, font, current, align=align, valign=valign, fill=ink, icons=icons)
    if block.overflow.fits or block.line_count <= 1:
        return block
    return shrink_to_fit(text, box, font, current, lower, align=align, valign=valign, fill=ink, icons=icons, line_height=1.05)


def _item_right(item: Primitive, em: float) -> float:
    """Right edge of a laid-out run, or of an inline icon (one em wide)."""
    if isinstance(item, Text):
        return item.x + string_width(item.text, item.font, item.size_pt)
    if isinstance(item, Group) and item.transform is not None:
        return item.transform.translate[0] + em
    return 0.0


# --------------------------------------------------------------------------- drawing helpers
def swatch(
    box: Box,
    entry: PaletteEntry,
    index: int,
    motif: str | None,
    *,
    symbol_scale: float = 0.45,
    stroke: float = 0.3,
    radius: float = 0.0,
    show_symbol: bool = True,
    show_motif: bool = True,
) -> list[Primitive]:
    """A palette entry drawn so it reads without colour: fill + motif + symbol letter."""
    name = motif or entry.motif
    if name is None or not has_motif(name):
        name = GENERIC_ORDER[index % len(GENERIC_ORDER)]
    out: list[Primitive] = [Rect(box.x, box.y, box.w, box.h, fill=entry.colour, radius=radius)]
    if show_motif:
        out.append(draw_motif(name, box.inset(min(box.w, box.h) * 0.04), motif_ink(entry.colour)))
    if show_symbol:
        side = min(box.w, box.h)
        disc = side * symbol_scale * 0.62
        cx, cy = box.x + box.w / 2, box.y + box.h / 2
        out.append(Circle(cx, cy, disc, fill="#ffffff", stroke=DEFAULT_INK, stroke_width=max(0.12, side * 0.02)))
        size_pt = side * symbol_scale / pt_to_mm(1.0) * 0.8
        out.extend(centred_symbol(entry.symbol, cx, cy, TITLE_FONT, size_pt, DEFAULT_INK))
    if stroke > 0:
        out.append(Rect(box.x, box.y, box.w, box.h, stroke=DEFAULT_INK, stroke_width=stroke, radius=radius))
    return out


def centred_text(text: str, cx: float, cy: float, font: str, size_pt: float, ink: str) -> list[Primitive]:
    """One run centred on (cx, cy) by its cap height."""
    cap = pt_to_mm(size_pt) * 0.72
    return [Text(cx, cy + cap / 2, text, font, size_pt, ink, "middle")]


SYMBOL_ROOM = 1.3
"""A palette symbol may be this many times as wide as an "M" at its size before it is set smaller."""


def symbol_size(symbol: str, font: str, size_pt: float) -> float:
    """The size that fits ``symbol`` (one letter, or two or three in another card language) where one letter goes."""
    room = string_width("M", font, size_pt) * SYMBOL_ROOM
    width = string_width(symbol, font, size_pt)
    return size_pt if width <= room else size_pt * room / width


def centred_symbol(symbol: str, cx: float, cy: float, font: str, size_pt: float, ink: str) -> list[Primitive]:
    """A palette symbol centred on (cx, cy), set smaller when it is wider than one letter's room."""
    return centred_text(symbol, cx, cy, font, symbol_size(symbol, font, size_pt), ink)


def motif_for(ctx: WidgetContext, palette_id: str, entry: PaletteEntry) -> str | None:
    """The motif a layout maps to this entry (``params.motifs``), else the spec's."""
    mapping = ctx.param("motifs") or {}
    if isinstance(mapping, dict) and isinstance(mapping.get(entry.id), str):
        return str(mapping[entry.id])
    return entry.motif


def entry_index(ctx: WidgetContext, palette_id: str, entry_id: str) -> int:
    """Position of an entry in its palette."""
    palette = ctx.res.palettes.get(palette_id)
    if palette is None:
        return 0
    for index, entry in enumerate(palette.entries):
        if entry.id == entry_id:
            return index
    return 0


def fit_square_grid(box: Box, cols: int, rows: int, gap_ratio: float = 0.0) -> tuple[float, float, float]:
    """Cell size and top-left corner of a cols x rows grid of squares centred in the box."""
    cols, rows = max(cols, 1), max(rows, 1)
    cell = min(box.w / (cols + gap_ratio * (cols - 1)), box.h / (rows + gap_ratio * (rows - 1)))
    width = cell * cols + cell * gap_ratio * (cols - 1)
    height = cell * rows + cell * gap_ratio * (rows - 1)
    return cell, box.x + (box.w - width) / 2, box.y + (box.h - height) / 2


def field_label(ctx: WidgetContext, name: str) -> str:
    """A label for a field: the spec's string of that name, else the field name spelled out."""
    return ctx.string(name, name.replace("_", " ").replace("-", " ").capitalize())


def field_text(ctx: WidgetContext, name: str) -> str:
    """A data field's value as printable text in the face's locale."""
    value = ctx.data.get(name)
    definition = ctx.field_defs.get(name)
    if value is None:
        return ""
    if isinstance(value, dict):
        return ctx.local(value)
    if definition is not None and definition.palette is not None:
        entries = ctx.res.entries.get(definition.palette, {})
        values = value if isinstance(value, list) else [value]
        flat: list[str] = []
        for item in values:
            flat.extend(item if isinstance(item, list) else [item])
        return ", ".join(local(entries[v].name, ctx.locale) if v in entries else str(v) for v in flat)
    if definition is not None and definition.type == "id" and definition.ref_deck:
        for deck in ctx.spec.decks:
            if deck.id == definition.ref_deck:
                for card in deck.cards:
                    if card.id == value:
                        return ctx.local(card.name)
    if isinstance(value, bool):
        return "✓" if value else "–"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)
