"""Card face layouts as data: which widget goes where, in what colours and sizes.

A layout file ``layouts/<deck-id>.yaml`` inside the spec folder, or one bundled
with the rules module the spec names (``cardgen/games/<package>/layouts/``,
registered with :func:`register_layouts` beside the game's widgets), holds a
``front`` face layout and, for single-sided decks, a ``back``. Double-sided
decks draw both faces with ``front``, each with its own data. Components
(tiles, markers, tokens) use the same files, named by component id.

Boxes are ``[x, y, w, h]`` in mm relative to the card's trim (0, 0 is the
trim's top-left corner). Without a layout file a generic layout applies:
title, type band, the data fields, the text and the credit line, so a new
game renders without any layout work.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cardgen.findings import InputError
from cardgen.limits import MAX_ELEMENTS_PER_FACE, MAX_LAYOUT_MM
from cardgen.spec.load import SPEC_LAYOUTS, confined_path, leaves_folder
from cardgen.spec.models import CardSize, Component, Deck, Spec
from cardgen.spec.parse_cache import active_parse_cache
from cardgen.spec.source import Place, SourceMap
from cardgen.spec.yaml_load import load_yaml

_BUNDLED: dict[str, Path] = {}


def register_layouts(rules_id: str, folder: Path) -> None:
    """Make ``folder`` the bundled layouts of every spec whose rules are ``rules_id`` (a game package calls this)."""
    _BUNDLED[rules_id] = folder


def spec_package(spec: Spec) -> str | None:
    """The id a spec's game package registered its layouts and figures under: its rules module, the package of the
    first named mechanic its rules data lists, else its own id for rules data; None without rules. The engine's
    mechanic registry is consulted only when the rules data names a mechanic, so a spec without rules imports no engine."""
    rules = spec.rules_data
    if rules is None or not rules.mechanics:
        return spec.package_id
    from cardgen.engine.mechanics import game_package

    return game_package(spec)


def bundled_layouts(rules_id: str | None) -> Path | None:
    """The folder of layouts bundled with the rules module ``rules_id``, if it has one."""
    if rules_id is None:
        return None
    if rules_id not in _BUNDLED:  # game packages register layouts beside their widgets: that package's first
        from cardgen.games import load_game_package

        load_game_package(rules_id, "widgets")
    if rules_id not in _BUNDLED:
        from cardgen.render.widget_kit import load_game_widgets

        load_game_widgets()
    return _BUNDLED.get(rules_id)


def package_problem(spec: Spec) -> str | None:
    """Why the spec's ``package:`` cannot be used (beside a rules module, or no such package installed), or None."""
    if spec.package is None:
        return None
    if spec.rules_module is not None:
        return f"package {spec.package!r} is given beside rules module {spec.rules_module!r}, whose own package the spec takes"
    rules = spec.rules_data
    if rules is not None and rules.mechanics:  # a named mechanic's package draws the game (and solves it): it decides
        from cardgen.engine.mechanics import game_package

        decided = game_package(spec)
        if decided != spec.package:
            return f"package {spec.package!r} is given beside the named mechanics of package {decided!r} ({', '.join(rules.mechanics)}), whose package the spec takes"
    if bundled_layouts(spec.package) is not None:
        return None
    from cardgen.games import load_game_package
    from cardgen.render.figures import registered_figures

    load_game_package(spec.package, "figures")
    if registered_figures(spec.package) is not None:
        return None
    return f"no game package {spec.package!r} is installed (none registers layouts or figures under that id)"


def is_bundled(path: Path) -> bool:
    """Whether ``path`` is one of the layouts bundled with a game package (not a spec's own file)."""
    resolved = path.resolve()
    return any(resolved.is_relative_to(folder.resolve()) for folder in _BUNDLED.values())

_COLOUR_OR_KEYWORD = r"^(#[0-9a-fA-F]{6}|type|seat|entry)$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Frame(_Strict):
    """A rounded outline drawn inside the trim."""

    colour: str = Field(default="#1a1a1a", pattern=_COLOUR_OR_KEYWORD, description="Outline colour, or 'type' for the card type's colour.")
    width_mm: float = Field(default=0.5, gt=0, le=5, description="Line width in mm.")
    inset_mm: float = Field(default=2.0, ge=0, le=20, description="Distance from the trim edge in mm.")
    radius_mm: float = Field(default=2.0, ge=0, le=20, description="Corner radius in mm.")


LayoutMm = Annotated[float, Field(ge=-MAX_LAYOUT_MM, le=MAX_LAYOUT_MM, allow_inf_nan=False)]
"""A coordinate in a layout box: finite, within MAX_LAYOUT_MM of the trim's corner."""
LayoutSize = Annotated[float, Field(ge=0, le=MAX_LAYOUT_MM, allow_inf_nan=False)]
"""A width or height in a layout box: finite, from 0 to MAX_LAYOUT_MM."""

class Element(_Strict):
    """One widget placed in a box."""

    widget: str = Field(description="The widget's registered name (title, text, field, polyomino...).")
    box: tuple[LayoutMm, LayoutMm, LayoutSize, LayoutSize] = Field(
        description=f"[x, y, w, h] in mm from the trim's top-left corner: finite, x and y within \u00b1{MAX_LAYOUT_MM:g}, w and h from 0 to {MAX_LAYOUT_MM:g}."
    )
    params: dict[str, Any] = Field(
        default_factory=dict,
        description="The widget's parameters (field names, font, size in points, colour, align...): each widget declares the ones "
        "it takes, their kinds and ranges (docs/widgets.md); a name it does not take or a value of the wrong kind is CG214, "
        "a number out of its range CG207.",
    )
    types: list[str] | None = Field(default=None, description="Draw only on cards of these card types.")
    when_field: str | None = Field(default=None, description="Draw only on faces that have this data field.")
    unless_field: str | None = Field(default=None, description="Draw only on faces that lack this data field.")
    art: bool = Field(default=False, description="Art may leave the safe zone and run into the bleed (no safe-zone check).")
    name: str | None = Field(default=None, description="A label used in findings.")


class FaceLayout(_Strict):
    """The background, frame and elements of one face."""

    background: str | None = Field(default="#ffffff", pattern=_COLOUR_OR_KEYWORD, description="Fills the whole face including the bleed; 'type' uses the card type's colour; null for none.")
    background_tint: float = Field(default=0.0, ge=0, le=1, description="Mix the background towards white by this much (useful with 'type').")
    frame: Frame | None = Field(default=None, description="An outline inside the trim.")
    elements: list[Element] = Field(default_factory=list, max_length=MAX_ELEMENTS_PER_FACE)


class DeckLayout(_Strict):
    """A deck's (or component's) face layouts."""

    min_text_pt: float = Field(default=6.0, ge=0.5, le=30, description="Smallest printable text size; text set smaller is reported.")
    front: FaceLayout
    back: FaceLayout | None = Field(default=None, description="The back of single-sided decks.")


@dataclass(frozen=True)
class ResolvedLayout:
    """A layout and where it came from (a file, or the generic default)."""

    layout: DeckLayout
    file: str
    """The file it was read from; '' for the default."""
    source: SourceMap | None
    problems: tuple[tuple[str, tuple[str | int, ...], str], ...] = ()
    """(code, path inside the file, message) for a file that could not be used."""


def _layout_candidates(folder: Path, bundled: Path | None, name: str, explicit: str | None) -> list[Path]:
    """Where the layout may be, in order; every spec-folder candidate confined to the spec folder itself.

    (A ``layouts/`` folder that is a link leaving the spec folder gives no
    candidates: confinement is checked against the spec folder, not against
    ``layouts/``.)
    """
    candidates: list[Path | None] = []
    if explicit:
        file_name = explicit if explicit.endswith(".yaml") else f"{explicit}.yaml"
        candidates += [confined_path(folder, explicit), confined_path(folder, f"{SPEC_LAYOUTS}/{file_name}")]
        if bundled is not None:
            candidates.append(confined_path(bundled, file_name))
    candidates.append(confined_path(folder, f"{SPEC_LAYOUTS}/{name}.yaml"))
    if bundled is not None:
        candidates.append(confined_path(bundled, f"{name}.yaml"))
    return [path for path in candidates if path is not None]


def _escape_problem(folder: Path, name: str, explicit: str | None) -> tuple[str, str] | None:
    """(file shown, message) when the layout the spec names, or its own ``layouts/<name>.yaml``, leads outside the spec folder."""
    if explicit and (leaves_folder(folder, explicit) or any(leaves_folder(folder, f"{SPEC_LAYOUTS}/{n}") for n in (explicit, f"{explicit}.yaml"))):
        return "", f"layout {explicit!r} is outside the spec folder"
    own = f"{SPEC_LAYOUTS}/{name}.yaml"
    if leaves_folder(folder, own):
        return str(folder / own), f"{own} is a link to a file outside the spec folder"
    return None


_FILE_CACHE: dict[tuple[str, int, int, str, object], ResolvedLayout] = {}


def resolve_layout(folder: Path, bundled: Path | None, name: str, explicit: str | None, default: DeckLayout) -> ResolvedLayout:
    """The layout for deck/component ``name``: the spec's own file, the one bundled with its rules (``bundled``), or ``default``.

    A layout named (or found in the spec's ``layouts/``) that leads outside
    the spec folder is not read, and no other layout is used in its place: the
    result carries a CG010 problem. Files are read once per content version
    (path, size and modification time)
    and build: the active build cache is part of the memo's key, so each build
    of a long-running process (``cardgen watch``) looks the file's parse up in
    its own cache once, and that entry counts as used by the build (it is not
    pruned, and the next fresh process finds it). Memos of earlier builds are
    dropped when a new build first reads a layout.
    """
    refused = _escape_problem(folder, name, explicit)
    if refused is not None:
        return ResolvedLayout(default, refused[0], None, (("CG010", (), refused[1]),))
    build_cache = active_parse_cache()
    for path in _layout_candidates(folder, bundled, name, explicit):
        if not path.is_file():
            continue
        stat = path.stat()
        key = (str(path), stat.st_size, stat.st_mtime_ns, default.model_dump_json(), build_cache)
        cached = _FILE_CACHE.get(key)
        if cached is None:
            for stale in [k for k in _FILE_CACHE if k[4] is not build_cache]:
                del _FILE_CACHE[stale]
            cached = _load_layout(path, default)
            _FILE_CACHE[key] = cached
        return cached
    if explicit:
        return ResolvedLayout(default, "", None, (("CG207", (), f"layout {explicit!r} not found in the spec folder or among the layouts of its rules module"),))
    return ResolvedLayout(default, "", None)


def _load_layout(path: Path, default: DeckLayout) -> ResolvedLayout:
    """Read and validate one layout file; problems fall back to ``default``."""
    shown = _shown(path)
    try:
        data, smap = load_yaml(path, shown, cache=active_parse_cache())
    except InputError as error:  # the finding points where the reader stopped
        return ResolvedLayout(default, shown, SourceMap(shown, {(): Place(shown, error.line, error.column)}), (("CG207", (), error.message),))
    try:
        return ResolvedLayout(DeckLayout.model_validate(data), shown, smap)
    except ValidationError as error:
        problems = tuple(
            ("CG207", tuple(item["loc"]), f"{item['msg']} ({'.'.join(str(p) for p in item['loc'])})")
            for item in error.errors(include_url=False)
        )
        return ResolvedLayout(default, shown, smap, problems)


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, RuntimeError, OSError):  # outside the working folder; a symbolic link loop
        return str(path)


# --------------------------------------------------------------------------- generic defaults
def default_deck_layout(deck: Deck, size: CardSize) -> DeckLayout:
    """Title, type band, data fields, text and credit line, scaled to the card."""
    w, h, s = size.width, size.height, size.safe
    inner = w - 2 * s - 1.0
    x = s + 0.5
    title_h = max(6.0, h * 0.09)
    y = s + 0.5
    elements: list[Element] = [Element(widget="title", box=(x, y, inner, title_h), params={"size": 11 if w >= 55 else 9})]
    y += title_h + 0.5
    if deck.card_types:
        elements.append(Element(widget="type_band", box=(x, y, inner, 4.0)))
        y += 5.0
    credit_h = 7.6  # three lines of 6 pt condensed type
    bottom = h - s - credit_h - 0.5
    shown = [n for n, d in deck.fields.items() if d.shown]
    has_text = any(card.text for card in deck.cards)
    if shown and has_text:
        split = y + (bottom - y) * 0.58
        elements.append(Element(widget="fields", box=(x, y, inner, split - y - 1.0), params={"size": 8}))
        elements.append(Element(widget="text", box=(x, split, inner, bottom - split), params={"size": 8}))
    elif shown:
        elements.append(Element(widget="fields", box=(x, y, inner, bottom - y), params={"size": 8}))
    else:
        elements.append(Element(widget="text", box=(x, y + 1.0, inner, bottom - y - 1.0), params={"size": 9}))
    elements.append(Element(widget="credit_line", box=(x, h - s - credit_h, inner, credit_h), params={"size": 6}))
    front = FaceLayout(background="#fbf8f1", frame=Frame(colour="#3a3a3a", width_mm=0.4, inset_mm=max(1.0, s - 1.5), radius_mm=2.0), elements=elements)
    back = FaceLayout(
        background="#3a3a3a",
        frame=Frame(colour="#fbf8f1", width_mm=0.6, inset_mm=max(1.0, s - 1.0), radius_mm=2.5),
        elements=[
            Element(widget="ornament", box=(s + 2, s + 2, w - 2 * s - 4, h - 2 * s - 4), params={"motif": "lattice", "colour": "#3a3a3a", "ink": "#555555", "border": False}),
            Element(widget="back_title", box=(s, h / 2 - 8, w - 2 * s, 16), params={"size": 14 if w >= 55 else 10, "colour": "#fbf8f1"}),
        ],
    )
    return DeckLayout(front=front, back=None if deck.double_sided else back)


def default_component_layout(component: Component, size: CardSize) -> DeckLayout:
    """A component face: its palette entry (or owner colour) filling the piece, and the owner's corner mark."""
    w, h = size.width, size.height
    elements = [Element(widget="piece", box=(w * 0.18, h * 0.18, w * 0.64, h * 0.64), art=True)]
    if component.player_mark and component.shape == "square":
        s = size.safe
        elements.append(Element(widget="seat_mark", box=(s, s, w - 2 * s, h - 2 * s), params={"scale": 0.45}))
    background: Literal["entry", "seat"] = "entry" if component.palette else "seat"
    return DeckLayout(front=FaceLayout(background=background, frame=None, elements=elements))
