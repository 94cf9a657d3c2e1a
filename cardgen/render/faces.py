"""Every distinct printed face of a game, laid out from its layout files.

:func:`card_faces` returns, for each deck, the front of every card (both faces
of a double-sided card) and one back per single-sided deck, then the faces of
the components (one per palette entry and owner). Each :class:`Face` carries
its scene (trim + bleed, see :func:`~cardgen.render.scene.card_scene`), its
copy count, the key of the face printed on its reverse, and the text reports
the render checks read. Results are cached by a hash of the spec, the layout
files and the locale, so ``validate`` and ``build`` lay out each face once.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Mapping, Sequence

from cardgen.render.colour import mix
from cardgen.render.extent import Bounds, ink_box, text_ink, text_sizes
from cardgen.render.layouts import (
    Element,
    FaceLayout,
    ResolvedLayout,
    default_component_layout,
    bundled_layouts,
    spec_package,
    default_deck_layout,
    is_bundled,
    resolve_layout,
)
from cardgen.render.scene import Box, Group, Primitive, Rect, Scene, Text, card_scene
from cardgen.render.widget_params import param_problems
from cardgen.render.widgets import PieceInfo, Resources, TextReport, WidgetContext, get_widget, local, widget_params
from cardgen.spec.load import LoadedSpec, size_of
from cardgen.spec.models import Card, CardSize, Component, Deck, FieldDef, Palette, PaletteEntry, Spec
from cardgen.spec.source import PathKey

FaceKind = Literal["front", "back", "component"]


@dataclass(frozen=True, slots=True)
class ElementInk:
    """What one layout element drew on one face: where its ink and its text lie, and its smallest type."""

    path: tuple[str | int, ...]
    """``(side, "elements", index)`` in the layout file."""
    where: str
    """``front.elements[3] (credit_line)``."""
    widget: str
    art: bool
    ink: Bounds | None
    """Everything the element drew, face coordinates (mm, the bleed's top-left corner at 0, 0)."""
    text: Bounds | None
    """Its text runs alone."""
    smallest_pt: float | None
    """The smallest text size it printed, in points (None: no text)."""
    look: str = ""
    """A digest of what it drew apart from text: equal looks mean only the words tell two faces apart."""


@dataclass(frozen=True, slots=True)
class Face:
    """One distinct printed face."""

    key: str
    """File stem: ``<deck>-<card>``, ``<deck>-<card>-face2``, ``<deck>-back``, ``<component>-<entry>-<seat>``."""
    kind: FaceKind
    group: str
    """The deck or component id."""
    card: str | None
    face_index: int
    """0, or 1 for the second face of a double-sided card."""
    scene: Scene
    copies: int
    """How many are printed (a back: the number of cards in its deck)."""
    size: CardSize
    reverse: str | None
    """Key of the face printed on the other side (None: blank)."""
    reports: tuple[TextReport, ...]
    source: PathKey
    """Where the card (or deck, component) is written in the spec."""
    label: str
    """A readable name for findings: ``shapes/s03``, ``bones/bone1 (face 2)``, ``mural back``."""
    elements: tuple[ElementInk, ...] = ()
    """What each layout element drew, for the print-safety checks."""


@dataclass(frozen=True)
class LayoutProblem:
    """A layout file that could not be used, or an element naming an unknown widget."""

    file: str
    code: str
    path: tuple[str | int, ...]
    message: str
    line: int = 0
    column: int = 0


@dataclass
class FaceSet:
    """All faces of a game in one locale, and the layouts used."""

    faces: list[Face]
    layouts: dict[str, ResolvedLayout] = field(default_factory=dict)
    problems: list[LayoutProblem] = field(default_factory=list)
    refused: set[tuple[int, int]] = field(default_factory=set)
    """(``id`` of the face layout, element index) of elements whose ``params`` their widget does not accept: not drawn."""

    def by_key(self) -> dict[str, Face]:
        """Faces by key."""
        return {f.key: f for f in self.faces}


_CACHE: dict[str, FaceSet] = {}


def card_faces(loaded: LoadedSpec, locale: str | None = None) -> list[Face]:
    """Every distinct face of the game, with text in ``locale`` (default: the spec's first locale)."""
    return face_set(loaded, locale).faces


def face_set(loaded: LoadedSpec, locale: str | None = None) -> FaceSet:
    """Like :func:`card_faces`, with the layouts and any layout problems (cached)."""
    spec = loaded.spec
    if spec is None:
        raise ValueError("the spec did not load; faces need a valid spec")
    locale = locale or spec.locales[0]
    layouts = _layouts(loaded, spec)
    digest = hashlib.sha256()
    digest.update(spec.model_dump_json().encode())
    digest.update(locale.encode())
    for name in sorted(layouts):
        digest.update(name.encode() + layouts[name].file.encode() + layouts[name].layout.model_dump_json().encode())
    key = digest.hexdigest()
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    result = _build(spec, locale, layouts)
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[key] = result
    return result


def _layouts(loaded: LoadedSpec, spec: Spec) -> dict[str, ResolvedLayout]:
    out: dict[str, ResolvedLayout] = {}
    bundled = bundled_layouts(spec_package(spec))
    for deck in spec.decks:
        out[deck.id] = resolve_layout(loaded.folder, bundled, deck.id, deck.layout, default_deck_layout(deck, size_of(deck.size)))
    for component in spec.components:
        out[component.id] = resolve_layout(loaded.folder, bundled, component.id, None, default_component_layout(component, size_of(component.size)))
    return out


def _build(spec: Spec, locale: str, layouts: dict[str, ResolvedLayout]) -> FaceSet:
    res = Resources.build(spec, locale)
    result = FaceSet([], layouts)
    for name, resolved in layouts.items():
        for code, path, message in resolved.problems:
            place = resolved.source.place(path) if resolved.source else None
            result.problems.append(LayoutProblem(resolved.file or name, code, path, message, place.line if place else 0, place.column if place else 0))
        _check_params(name, resolved, result)
    for d_index, deck in enumerate(spec.decks):
        resolved = layouts[deck.id]
        size = size_of(deck.size)
        for c_index, card in enumerate(deck.cards):
            base: PathKey = ("decks", d_index, "cards", c_index)
            if deck.double_sided and card.faces:
                keys = [f"{deck.id}-{card.id}", f"{deck.id}-{card.id}-face2"]
                for f_index, card_face in enumerate(card.faces[:2]):
                    data = {**card.data, **card_face.data}
                    title = local(card_face.name or card.name, locale, spec.locales[0])
                    scene, reports, inks = _draw(spec, res, resolved, result, resolved.layout.front, "front", size, deck, card, f_index, data, title, base + ("faces", f_index), None)
                    label = f"{deck.id}/{card.id} (face {f_index + 1})"
                    result.faces.append(Face(keys[f_index], "front", deck.id, card.id, f_index, scene, card.copies, size, keys[1 - f_index], reports, base, label, inks))
            else:
                title = local(card.name, locale, spec.locales[0])
                scene, reports, inks = _draw(spec, res, resolved, result, resolved.layout.front, "front", size, deck, card, 0, card.data, title, base, None)
                reverse = None if deck.double_sided else f"{deck.id}-back"
                result.faces.append(Face(f"{deck.id}-{card.id}", "front", deck.id, card.id, 0, scene, card.copies, size, reverse, reports, base, f"{deck.id}/{card.id}", inks))
        if not deck.double_sided:
            back_layout = resolved.layout.back or default_deck_layout(deck, size).back
            assert back_layout is not None
            scene, reports, inks = _draw(spec, res, resolved, result, back_layout, "back", size, deck, None, 0, {}, local(deck.back or deck.name, locale), ("decks", d_index), None)
            copies = sum(card.copies for card in deck.cards)
            result.faces.append(Face(f"{deck.id}-back", "back", deck.id, None, 0, scene, copies, size, None, reports, ("decks", d_index), f"{deck.id} back", inks))
    for k_index, component in enumerate(spec.components):
        resolved = layouts[component.id]
        size = size_of(component.size)
        for key, piece in _pieces(spec, list(res.palettes.values()), component):
            title = local(component.name, locale, spec.locales[0])
            scene, reports, inks = _draw(spec, res, resolved, result, resolved.layout.front, "front", size, None, None, 0, {}, title, ("components", k_index), piece)
            result.faces.append(Face(key, "component", component.id, None, 0, scene, component.count, size, None, reports, ("components", k_index), key, inks))
    return result


def _check_params(name: str, resolved: ResolvedLayout, result: FaceSet) -> None:
    """A finding for every element parameter its widget's model refuses (CG214, or CG207 for a number out of
    range); such an element is not drawn, so no widget works from a value it did not declare."""
    for side, face_layout in (("front", resolved.layout.front), ("back", resolved.layout.back)):
        for index, element in enumerate(face_layout.elements if face_layout is not None else ()):
            schema = widget_params(element.widget)
            if schema is None:  # an unknown widget: CG208 when a face draws it
                continue
            where = f"{side}.elements[{index}] ({element.name or element.widget})"
            for code, loc, message in param_problems(schema, element.params):
                path = (side, "elements", index, "params", *loc)
                place = resolved.source.place(path) if resolved.source else None
                result.problems.append(LayoutProblem(resolved.file or f"(default layout of {name})", code, path, f"{where}: {message}", place.line if place else 0, place.column if place else 0))
                result.refused.add((id(face_layout), index))


def _pieces(spec: Spec, palettes: list[Palette], component: Component) -> list[tuple[str, PieceInfo]]:
    """(key, piece) for every distinct piece face: per palette entry, per owning seat (``palettes``: as printed)."""
    entries: list[tuple[int, PaletteEntry | None]] = [(0, None)]
    if component.palette:
        palette = next((p for p in palettes if p.id == component.palette), None)
        if palette is not None:
            entries = list(enumerate(palette.entries))
    seats: list[tuple[int, PaletteEntry | None]] = [(0, None)]
    if component.per_player:
        seat_palette = next((p for p in palettes if p.id == spec.seats), None)
        if seat_palette is not None:
            seats = list(enumerate(seat_palette.entries[: spec.players.max]))
        else:
            seats = [(i, None) for i in range(spec.players.max)]
    out: list[tuple[str, PieceInfo]] = []
    for s_index, seat in seats:
        for e_index, entry in entries:
            parts = [component.id]
            if entry is not None:
                parts.append(entry.id)
            if component.per_player:
                parts.append(seat.id if seat is not None else f"p{s_index + 1}")
            out.append(("-".join(parts), PieceInfo(entry, e_index, seat, s_index, component.shape)))
    return out


def _applies(element: Element, card: Card | None, data: Mapping[str, Any]) -> bool:
    if element.types is not None and (card is None or card.type not in element.types):
        return False
    if element.when_field is not None and element.when_field not in data:
        return False
    if element.unless_field is not None and element.unless_field in data:
        return False
    return True


def _background(layout: FaceLayout, deck: Deck | None, card: Card | None, piece: PieceInfo | None) -> str | None:
    value = layout.background
    if value is None:
        return None
    colour: str | None = value
    if value == "type":
        colour = None
        if deck is not None and card is not None:
            colour = next((t.colour for t in deck.card_types if t.id == card.type and t.colour), None)
        colour = colour or "#dddddd"
    elif value == "entry":
        colour = piece.entry.colour if piece and piece.entry else (piece.seat.colour if piece and piece.seat else "#dddddd")
    elif value == "seat":
        colour = piece.seat.colour if piece and piece.seat else "#dddddd"
    assert colour is not None
    if layout.background_tint:
        colour = mix(colour, "#ffffff", layout.background_tint)
    return colour.lower()


def _draw(
    spec: Spec,
    res: Resources,
    resolved: ResolvedLayout,
    result: FaceSet,
    layout: FaceLayout,
    side: str,
    size: CardSize,
    deck: Deck | None,
    card: Card | None,
    face_index: int,
    data: Mapping[str, Any],
    title: str,
    source: PathKey,
    piece: PieceInfo | None,
) -> tuple[Scene, tuple[TextReport, ...], tuple[ElementInk, ...]]:
    """Draw one face from its layout: background to the bleed edge, elements, frame."""
    bleed = size.bleed
    width, height = size.width + 2 * bleed, size.height + 2 * bleed
    trim = Box(bleed, bleed, size.width, size.height)
    safe = trim.inset(size.safe)
    children: list[Primitive] = []
    background = _background(layout, deck, card, piece)
    if background is not None:
        children.append(Rect(0.0, 0.0, width, height, fill=background))
    reports: list[TextReport] = []
    inks: list[ElementInk] = []
    field_defs: Mapping[str, FieldDef] = deck.fields if deck is not None else {}
    face_widgets = _widget_set(tuple(element.widget for element in layout.elements if _applies(element, card, data)))
    for index, element in enumerate(layout.elements):
        if not _applies(element, card, data):
            continue
        if (id(layout), index) in result.refused:
            continue
        fn = get_widget(element.widget)
        where, ink_path = _element_place(side, index, element.name or element.widget)
        if fn is None:
            path = (side, "elements", index, "widget")
            place = resolved.source.place(path) if resolved.source else None
            problem = LayoutProblem(resolved.file or "(default layout)", "CG208", path, f"unknown widget {element.widget!r} in {where}", place.line if place else 0, place.column if place else 0)
            if problem not in result.problems:
                result.problems.append(problem)
            continue
        x, y, w, h = element.box
        ctx = WidgetContext(
            box=Box(x + bleed, y + bleed, w, h), trim=trim, safe=safe, spec=spec, res=res, deck=deck, card=card,
            face_index=face_index, locale=res.locale, params=element.params, data=data, title=title, element=where,
            source=source, reports=reports, min_text_pt=resolved.layout.min_text_pt, piece=piece,
            background=background or "#ffffff", field_defs=field_defs, face_widgets=face_widgets, schema=widget_params(element.widget),
        )
        try:
            primitives = fn(ctx)
        except Exception as error:  # a designer's layout file gave the widget parameters it cannot draw (size 0, valign: sideways)
            if not _designers_file(resolved):
                raise  # cardgen's own layouts failing is a bug
            path = (side, "elements", index, "params")
            place = resolved.source.place(path) if resolved.source else None
            message = f"{where}: the widget cannot draw with these parameters ({type(error).__name__}: {error})"
            problem = LayoutProblem(resolved.file, "CG207", path, message, place.line if place else 0, place.column if place else 0)
            if problem not in result.problems:
                result.problems.append(problem)
            continue
        if primitives:
            children.append(Group(children=tuple(primitives)))
            sizes = [size for _, size in text_sizes(primitives)]
            ink = ink_box(primitives)
            texts_only = all(type(primitive) is Text for primitive in primitives)  # (then the text's ink is all the ink)
            inks.append(ElementInk(ink_path, where, element.widget, element.art, ink, ink if texts_only else text_ink(primitives), min(sizes) if sizes else None, _look(primitives)))
    if layout.frame is not None:
        frame = layout.frame
        colour = frame.colour
        if colour in ("type", "seat", "entry"):
            colour = _background(FaceLayout(background=colour), deck, card, piece) or "#1a1a1a"
        box = trim.inset(frame.inset_mm)
        children.append(Rect(box.x, box.y, box.w, box.h, stroke=colour, stroke_width=frame.width_mm, radius=frame.radius_mm))
    return card_scene(size.width, size.height, bleed, children), tuple(reports), tuple(inks)


@lru_cache(maxsize=1024)
def _element_place(side: str, index: int, name: str) -> tuple[str, tuple[str | int, ...]]:
    """An element's readable place (``front.elements[3] (text)``) and its path, one pair shared by every face."""
    return f"{side}.elements[{index}] ({name})", (side, "elements", index)


@lru_cache(maxsize=1024)
def _widget_set(widgets: tuple[str, ...]) -> frozenset[str]:
    """The set of a face's widgets, one shared by every face drawing the same elements."""
    return frozenset(widgets)


def _without_text(primitives: Sequence[Primitive]) -> tuple[Primitive, ...]:
    """The primitives with every text run left out (groups keep their other children)."""
    out: list[Primitive] = []
    for primitive in primitives:
        if isinstance(primitive, Text):
            continue
        if isinstance(primitive, Group):
            primitive = Group(_without_text(primitive.children), primitive.transform, primitive.clip)
        out.append(primitive)
    return tuple(out)


def _look(primitives: Sequence[Primitive]) -> str:
    """A digest of the drawing apart from its text."""
    return _digest16(repr(_without_text(primitives)))


@lru_cache(maxsize=1024)
def _digest16(text: str) -> str:
    """The first 16 hex digits of ``text``'s sha256 (one string shared by the faces whose drawings look alike)."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _designers_file(resolved: ResolvedLayout) -> bool:
    """Whether the layout was read from a file of the spec's own (not cardgen's bundled layouts or generic default)."""
    return bool(resolved.file) and not is_bundled(Path(resolved.file))


def print_order(faces: list[Face]) -> list[tuple[Face, Face | None]]:
    """(front, reverse) pairs to print: every card front with its back (or second face), then components."""
    by_key = {f.key: f for f in faces}
    pairs: list[tuple[Face, Face | None]] = []
    for face in faces:
        if face.kind == "back" or (face.kind == "front" and face.face_index == 1):
            continue
        pairs.append((face, by_key.get(face.reverse) if face.reverse else None))
    return pairs
