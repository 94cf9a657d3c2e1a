"""Print sheets (imposition): cards laid out on paper with crop marks and duplex backs.

A :class:`SheetTemplate` (loaded from ``templates/sheets/*.yaml``) describes the
paper, margins, gutter, crop marks, footer, the printer's duplex flip and an
offset that corrects a measured duplex misregistration. :func:`impose` places
:class:`PrintItem` faces on pages, each with its full bleed (3 mm on the shipped
sizes), draws crop marks outside the bleed at every trim line, clips each card
to its bleed rectangle, and gives every sheet a back page when any card in the
document has a back (a sheet with nothing behind it gets a blank back), so the
whole file prints in one double-sided run. It returns the page scenes plus the
exact trim/bleed rectangle of every card on every page (mm, page coordinates,
y down).

Packing: cards of one size (trim and bleed) share sheets whichever deck they
come from, in the order they first appear. Each size is laid out upright or
turned a quarter (``card_rotation: auto`` picks whichever fits more per sheet).

Duplex: the back page is the front page as seen through the paper. On a
portrait sheet flipped on its long edge the column order reverses; on its
short edge the row order reverses (the other way round for landscape sheets).
The grid is centred on the page along that axis, so a reversed slot lies
exactly behind its front slot. A card turned a quarter has its back turned the
way that keeps both sides upright on the cut card.

A face whose content lands on the sheets more than once (copies, a deck's
common back) is placed as a group with shared content keyed by the face's
scene digest, so the PDF defines it once and places it by reference.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cardgen.findings import InputError, display_path
from cardgen.limits import MAX_PAPER_MM
from cardgen.render.fonts import DEFAULT_FONT, descent, string_width
from cardgen.render.pdf_backend import write_pdf
from cardgen.render.scene import (
    Box,
    Group,
    Line,
    Primitive,
    Scene,
    SharedContent,
    Text,
    Transform,
    scene_digest,
    shared_face,
)
from cardgen.spec.parse_cache import active_parse_cache
from cardgen.spec.yaml_load import load_yaml
from cardgen.resources import TEMPLATES

TEMPLATES_DIR: Path = TEMPLATES / "sheets"
"""Default folder of the bundled sheet templates (a4.yaml, letter.yaml)."""

_EPS = 1e-6
Side = Literal["front", "back"]
DuplexFlip = Literal["long_edge", "short_edge"]
Rotation = Literal["auto", "upright", "sideways"]


# --------------------------------------------------------------------------- template
_MARGIN_MM = 200.0
"""The widest margin, gutter or footer band a sheet template may ask for, in mm."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class PaperSize(_Strict):
    """Paper size in mm."""

    width_mm: float = Field(gt=0, le=MAX_PAPER_MM, description=f"Paper width, at most {MAX_PAPER_MM:g} mm.")
    height_mm: float = Field(gt=0, le=MAX_PAPER_MM, description=f"Paper height, at most {MAX_PAPER_MM:g} mm.")


class Margins(_Strict):
    """Unprintable border in mm."""

    top: float = Field(ge=0, le=_MARGIN_MM)
    right: float = Field(ge=0, le=_MARGIN_MM)
    bottom: float = Field(ge=0, le=_MARGIN_MM)
    left: float = Field(ge=0, le=_MARGIN_MM)


class CropMarkStyle(_Strict):
    """Crop mark geometry in mm."""

    length_mm: float = Field(gt=0, le=50)
    offset_mm: float = Field(ge=0, le=50)
    weight_mm: float = Field(gt=0, le=5)
    color: str = Field(default="#000000", pattern=r"^#[0-9a-fA-F]{6}$")

    @property
    def reach_mm(self) -> float:
        """How far marks extend beyond the bleed edge."""
        return self.offset_mm + self.length_mm


class Offset(_Strict):
    """A shift in mm (x to the right, y down, as seen on the page it moves)."""

    x: float = Field(default=0.0, ge=-10, le=10)
    y: float = Field(default=0.0, ge=-10, le=10)


class FooterStyle(_Strict):
    """Footer band at the bottom of every page."""

    height_mm: float = Field(ge=0, le=_MARGIN_MM)
    size_pt: float = Field(ge=6, le=72)


class SheetTemplate(_Strict):
    """A print sheet layout, like a sprue: paper, margins, gutter, marks, footer, duplex."""

    name: str
    paper: PaperSize
    margins_mm: Margins
    gutter_mm: float = Field(ge=0, le=_MARGIN_MM)
    crop_marks: CropMarkStyle
    footer: FooterStyle
    duplex_flip: DuplexFlip = "long_edge"
    back_offset_mm: Offset = Field(
        default_factory=Offset,
        description="Moves everything on back pages by this much, to cancel a misregistration read off the "
        "duplex test sheet (set x and y to the readings of its scales).",
    )
    card_rotation: Rotation = Field(
        default="auto",
        description="upright, sideways (a quarter turn), or auto: per card size, whichever fits more per sheet.",
    )
    sheet_bleed_mm: float | None = Field(
        default=None,
        ge=0,
        le=10,
        description="How much of each card's bleed is printed on sheets (capped by the card's own bleed); "
        "None prints the full bleed. Crop marks stay at the exact trim.",
    )

    def printed_bleed(self, card_bleed: float) -> float:
        """The bleed printed around a card on this sheet."""
        return card_bleed if self.sheet_bleed_mm is None else min(card_bleed, self.sheet_bleed_mm)

    @property
    def is_landscape(self) -> bool:
        """True when the paper is wider than tall."""
        return self.paper.width_mm > self.paper.height_mm

    @property
    def mirror_columns(self) -> bool:
        """True when backs reverse the column order (else they reverse rows)."""
        long_edge = self.duplex_flip == "long_edge"
        return long_edge != self.is_landscape


def load_sheet_template(path: Path | str) -> SheetTemplate:
    """Load and validate a sheet template YAML file (InputError, with its place, when it is not readable YAML)."""
    path = Path(path)
    shown = display_path(path)
    data, smap = load_yaml(path, shown, cache=active_parse_cache())
    try:
        return SheetTemplate.model_validate(data)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        loc = tuple(p for p in first["loc"] if isinstance(p, (str, int)))
        place = smap.place(loc)
        where = ".".join(str(p) for p in loc) or "template"
        raise InputError(f"the sheet template is not valid: {where}: {first['msg']}", shown, place.line, place.column) from error


def builtin_sheet_template(name: str, templates_dir: Path | None = None) -> SheetTemplate:
    """Load ``<name>.yaml`` from ``templates/sheets`` (or ``templates_dir``)."""
    return load_sheet_template((templates_dir or TEMPLATES_DIR) / f"{name}.yaml")


# --------------------------------------------------------------------------- inputs and outputs
@dataclass(frozen=True)
class PrintItem:
    """A card to print: front face, optional back (or second face), trim size, bleed, copies.

    Face scenes must measure (trim_w + 2*bleed) x (trim_h + 2*bleed) mm.
    """

    front: Scene
    trim_w: float
    trim_h: float
    bleed: float = 0.0
    back: Scene | None = None
    copies: int = 1
    label: str = ""
    front_digest: str | None = None
    """``scene_digest(front)`` when the caller already has it (names the face's shared content); else computed."""
    back_digest: str | None = None
    """``scene_digest(back)``, likewise."""

    def __post_init__(self) -> None:
        if self.copies < 0:
            raise ValueError("copies must be >= 0")
        for face in (self.front, self.back):
            if face is None:
                continue
            if abs(face.width_mm - (self.trim_w + 2 * self.bleed)) > 0.01 or abs(
                face.height_mm - (self.trim_h + 2 * self.bleed)
            ) > 0.01:
                raise ValueError(
                    f"face of {self.label or 'item'} is {face.width_mm}x{face.height_mm} mm, "
                    f"expected trim+2*bleed = {self.trim_w + 2 * self.bleed}x{self.trim_h + 2 * self.bleed}"
                )


@dataclass(frozen=True)
class FooterInfo:
    """Text for the footer line of every sheet (``sheet_words`` localise 'sheet n of m', 'front', 'back';
    ``blank_word`` what a blank back page says)."""

    title: str
    version: str = ""
    licence: str = ""
    sheet_words: tuple[str, str, str] = ("sheet {n} of {m}", "front", "back")
    blank_word: str = "left blank so the file prints double-sided in one run"


@dataclass(frozen=True, slots=True)
class CardPlacement:
    """Where one card face landed: page, slot, and exact trim/bleed rectangles (mm)."""

    page_index: int
    """0-based page in the output document."""
    sheet_number: int
    """1-based physical sheet (a front page and its back page share it)."""
    side: Side
    item_index: int
    copy_index: int
    row: int
    col: int
    trim: Box
    bleed: Box
    turn: int = 0
    """0, or +90 / -90: the card lies sideways, turned that many degrees clockwise."""

    def moved(self, pages: int) -> CardPlacement:
        """The same placement ``pages`` pages later in the document (``dataclasses.replace`` of ``page_index``,
        without its generic walk over the fields: the sheets' guide moves every placement of a deck)."""
        return CardPlacement(
            self.page_index + pages, self.sheet_number, self.side, self.item_index, self.copy_index, self.row, self.col, self.trim, self.bleed, self.turn
        )


@dataclass(frozen=True)
class Grid:
    """Card slots of one page: columns x rows of (trim + 2*bleed) cells with gutters.

    ``trim_w`` x ``trim_h`` is the card's own size; a ``sideways`` grid holds the
    cards turned a quarter, so its cells are ``trim_h`` wide and ``trim_w`` tall.
    """

    cols: int
    rows: int
    trim_w: float
    trim_h: float
    bleed: float
    gutter: float
    origin_x: float
    origin_y: float
    sideways: bool = False

    @property
    def capacity(self) -> int:
        """Cards per page."""
        return self.cols * self.rows

    @property
    def cell_w(self) -> float:
        """Width of a card including bleed, as it lies on the page."""
        return (self.trim_h if self.sideways else self.trim_w) + 2 * self.bleed

    @property
    def cell_h(self) -> float:
        """Height of a card including bleed, as it lies on the page."""
        return (self.trim_w if self.sideways else self.trim_h) + 2 * self.bleed

    def bleed_box(self, row: int, col: int) -> Box:
        """Bleed rectangle of a slot, page coordinates."""
        return Box(
            self.origin_x + col * (self.cell_w + self.gutter),
            self.origin_y + row * (self.cell_h + self.gutter),
            self.cell_w,
            self.cell_h,
        )

    def trim_box(self, row: int, col: int) -> Box:
        """Trim rectangle of a slot, page coordinates."""
        return self.bleed_box(row, col).inset(self.bleed)

    def slot(self, index: int) -> tuple[int, int]:
        """(row, col) of the index-th slot, filled row by row."""
        return divmod(index, self.cols)


@dataclass(frozen=True)
class ImposedSheets:
    """Result of :func:`impose`: page scenes, card geometry and crop marks per page."""

    pages: tuple[Scene, ...]
    placements: tuple[CardPlacement, ...]
    crop_marks: tuple[tuple[Line, ...], ...]
    grids: tuple[Grid | None, ...]

    def placements_on(self, page_index: int) -> tuple[CardPlacement, ...]:
        """Card placements of one page."""
        return tuple(p for p in self.placements if p.page_index == page_index)

    def to_pdf(self, title: str = "") -> bytes:
        """Render all pages through the PDF backend."""
        return write_pdf(self.pages, title=title)


# --------------------------------------------------------------------------- geometry
def plan_grid(template: SheetTemplate, trim_w: float, trim_h: float, bleed: float) -> Grid:
    """How many cards fit, upright or turned a quarter (``card_rotation``), and where.

    ``auto`` takes whichever way holds more cards (upright on a tie). The grid
    is centred on the page along the flip axis. Raises ValueError when not even
    one card fits.
    """
    ways = {"upright": (False,), "sideways": (True,), "auto": (False, True)}[template.card_rotation]
    best: Grid | None = None
    for sideways in ways:
        grid = _plan(template, trim_w, trim_h, bleed, sideways)
        if grid is not None and (best is None or grid.capacity > best.capacity):
            best = grid
    if best is None:
        avail_w, avail_h = _card_area(template)
        raise ValueError(
            f"a {trim_w}x{trim_h} mm card with {bleed} mm bleed does not fit on {template.name} "
            f"(printable area for cards {avail_w:.1f}x{avail_h:.1f} mm)"
        )
    return best


def _card_area_box(template: SheetTemplate) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of the area cards may fill: inside the margins, crop mark reach and footer."""
    paper, m = template.paper, template.margins_mm
    reach = template.crop_marks.reach_mm
    inset_x = max(m.left, m.right) + reach
    bottom_reserved = m.bottom + template.footer.height_mm
    if template.mirror_columns:
        top, bottom = m.top + reach, paper.height_mm - bottom_reserved - reach
    else:
        inset_y = max(m.top, bottom_reserved) + reach
        top, bottom = inset_y, paper.height_mm - inset_y
    return inset_x, top, paper.width_mm - inset_x, bottom


def _card_area(template: SheetTemplate) -> tuple[float, float]:
    left, top, right, bottom = _card_area_box(template)
    return right - left, bottom - top


def _plan(template: SheetTemplate, trim_w: float, trim_h: float, bleed: float, sideways: bool) -> Grid | None:
    left, top, right, bottom = _card_area_box(template)
    avail_w, avail_h = right - left, bottom - top
    gutter = template.gutter_mm
    cell_w, cell_h = (trim_h, trim_w) if sideways else (trim_w, trim_h)
    cell_w, cell_h = cell_w + 2 * bleed, cell_h + 2 * bleed
    cols = max(0, math.floor((avail_w + gutter) / (cell_w + gutter) + _EPS))
    rows = max(0, math.floor((avail_h + gutter) / (cell_h + gutter) + _EPS))
    if cols == 0 or rows == 0:
        return None
    grid_w = cols * cell_w + (cols - 1) * gutter
    grid_h = rows * cell_h + (rows - 1) * gutter
    return Grid(
        cols=cols,
        rows=rows,
        trim_w=trim_w,
        trim_h=trim_h,
        bleed=bleed,
        gutter=gutter,
        origin_x=left + (avail_w - grid_w) / 2,
        origin_y=top + (avail_h - grid_h) / 2,
        sideways=sideways,
    )


def back_slot(grid: Grid, row: int, col: int, template: SheetTemplate) -> tuple[int, int]:
    """Slot on the back page that lies behind the front slot (row, col)."""
    if template.mirror_columns:
        return row, grid.cols - 1 - col
    return grid.rows - 1 - row, col


def _free_length(
    along: float, perpendicular: float, direction: int, vertical: bool, obstacles: Sequence[Box], tolerance: float
) -> float:
    """Free distance from ``along`` in ``direction`` before hitting an obstacle box."""
    free = math.inf
    for box in obstacles:
        lo_p, hi_p = (box.x, box.right) if vertical else (box.y, box.bottom)
        if not (lo_p - tolerance < perpendicular < hi_p + tolerance):
            continue
        lo, hi = (box.y, box.bottom) if vertical else (box.x, box.right)
        if direction > 0:
            if hi <= along + _EPS:
                continue
            free = min(free, max(0.0, lo - along))
        else:
            if lo >= along - _EPS:
                continue
            free = min(free, max(0.0, along - hi))
    return free


def crop_marks(cards: Sequence[tuple[Box, Box]], style: CropMarkStyle, min_length: float = 0.5) -> tuple[Line, ...]:
    """Crop marks for cards given as (trim, bleed) boxes.

    Each trim edge gets a mark at both of its ends, starting ``offset`` outside
    the bleed and running outward along the trim line. A mark is shortened so it
    never enters any card's bleed rectangle and dropped if that leaves less than
    ``min_length``. Duplicates (shared cut lines) are removed.
    """
    bleeds = [bleed for _, bleed in cards]
    tolerance = style.weight_mm / 2
    seen: set[tuple[float, float, float, float]] = set()
    marks: list[Line] = []

    def add(x1: float, y1: float, x2: float, y2: float) -> None:
        key = (round(x1, 4), round(y1, 4), round(x2, 4), round(y2, 4))
        if key not in seen:
            seen.add(key)
            marks.append(Line(x1, y1, x2, y2, stroke=style.color, stroke_width=style.weight_mm))

    def mark(start: float, fixed: float, direction: int, vertical: bool) -> None:
        free = _free_length(start, fixed, direction, vertical, bleeds, tolerance)
        length = min(style.length_mm, free - style.offset_mm - style.weight_mm)
        if length < min_length - _EPS:
            return
        a = start + direction * style.offset_mm
        b = a + direction * length
        lo, hi = min(a, b), max(a, b)
        if vertical:
            add(fixed, lo, fixed, hi)
        else:
            add(lo, fixed, hi, fixed)

    for trim, bleed in cards:
        for x in (trim.x, trim.right):
            mark(bleed.y, x, -1, True)
            mark(bleed.bottom, x, +1, True)
        for y in (trim.y, trim.bottom):
            mark(bleed.x, y, -1, False)
            mark(bleed.right, y, +1, False)
    return tuple(marks)


def footer_run(template: SheetTemplate, text: str) -> Text:
    """Footer run centred in the footer band, shrunk (not below 6 pt) to fit the width."""
    paper, m = template.paper, template.margins_mm
    size = template.footer.size_pt
    width = paper.width_mm - m.left - m.right
    while size > 6.0 and string_width(text, DEFAULT_FONT, size) > width:
        size = max(6.0, size - 0.25)
    baseline = paper.height_mm - m.bottom - descent(DEFAULT_FONT, size)
    x = m.left + width / 2
    return Text(x, baseline, text, DEFAULT_FONT, size, "#000000", "middle")


def footer_text(footer: FooterInfo, sheet: int, sheets: int, side: Side | None, blank: bool = False) -> str:
    """``title · version · sheet n of m (front) · licence``; a blank back says so."""
    fmt, front_word, back_word = footer.sheet_words
    where = fmt.replace("{n}", str(sheet)).replace("{m}", str(sheets))
    if side:
        where += f" ({front_word if side == 'front' else back_word})"
    if blank:
        where += f" · {footer.blank_word}"
    return " · ".join(part for part in (footer.title, footer.version, where, footer.licence) if part)


def _card_group(face: Scene, bleed_box: Box, trimmed: float = 0.0, shared: SharedContent | None = None, turn: int = 0) -> Group:
    """The face placed so its printed bleed fills ``bleed_box``; ``trimmed`` mm of its own bleed are cut away.

    ``turn`` is 0, or +90 / -90 degrees (clockwise on the page) for a card laid
    sideways. ``shared`` marks the face's content as reusable (a face printed
    more than once), so a PDF defines it once and places it by reference.
    """
    w, h = face.width_mm, face.height_mm
    if turn == 90:  # (x, y) -> (-y, x): the face's top edge lies along the right of the box
        translate = (bleed_box.x + h - trimmed, bleed_box.y - trimmed)
    elif turn == -90:  # (x, y) -> (y, -x): the face's top edge lies along the left of the box
        translate = (bleed_box.x - trimmed, bleed_box.y + w - trimmed)
    else:
        translate = (bleed_box.x - trimmed, bleed_box.y - trimmed)
    return Group(
        children=face.children,
        transform=Transform(translate=translate, rotate=float(turn)),
        clip=Box(trimmed, trimmed, w - 2 * trimmed, h - 2 * trimmed),
        shared=shared,
    )


def _shared_faces(pages_spec: Sequence[tuple["Grid", Sequence["_Slot"]]], duplex: bool) -> dict[int, SharedContent]:
    """Shared content for every face whose content is placed more than once, by ``id`` of the face scene.

    The key is the face's scene digest (taken from the item when given), so
    equal faces share one key and two different faces never do, whichever
    document they end up in.
    """
    digests: dict[int, str] = {}
    faces: dict[int, Scene] = {}
    placed: dict[str, int] = {}
    for _, slots in pages_spec:
        has_back = duplex and any(slot.item.back is not None for slot in slots)
        for slot in slots:
            item = slot.item
            sides: list[tuple[Scene | None, str | None]] = [(item.front, item.front_digest)]
            if has_back:
                sides.append((item.back, item.back_digest))
            for face, digest in sides:
                if face is None:
                    continue
                known = digests.get(id(face))
                if known is None:
                    known = digests[id(face)] = digest or scene_digest(face)
                    faces[id(face)] = face
                placed[known] = placed.get(known, 0) + 1
    return {ident: shared_face(faces[ident], digest) for ident, digest in digests.items() if placed[digest] > 1}


# --------------------------------------------------------------------------- imposition
@dataclass(frozen=True)
class _Slot:
    item_index: int
    copy_index: int
    item: PrintItem


def _runs_of_same_size(items: Sequence[PrintItem]) -> list[list[_Slot]]:
    """Every copy of every item, gathered by size (trim and bleed) in the order sizes first appear."""
    runs: dict[tuple[float, float, float], list[_Slot]] = {}
    for index, item in enumerate(items):
        key = (round(item.trim_w, 4), round(item.trim_h, 4), round(item.bleed, 4))
        for copy in range(item.copies):
            runs.setdefault(key, []).append(_Slot(index, copy, item))
    return list(runs.values())


def back_turn(grid: Grid, template: SheetTemplate) -> int:
    """How a sideways card's back is turned so both sides stand upright on the cut card.

    The front is turned +90 degrees. Seen from the back, a sheet flipped so its
    columns reverse mirrors left and right, so the back turns the other way;
    when its rows reverse the back turns the same way.
    """
    if not grid.sideways:
        return 0
    return -90 if template.mirror_columns else 90


def impose(items: Sequence[PrintItem], template: SheetTemplate, footer: FooterInfo) -> ImposedSheets:
    """Lay out all copies of all items on sheets (front pages, each followed by its back page).

    Cards of one size share sheets and keep their order within the size. When
    any card in the document has a back, every sheet gets a back page (blank,
    but for its footer, when nothing on the sheet has a back) so the whole
    document prints double-sided in one run; a card without a back leaves its
    back slot empty. Back pages are moved by the template's ``back_offset_mm``.
    Each card shows the template's printed bleed (its full bleed by default);
    its trim and crop marks stay exact.
    """
    duplex = any(item.back is not None and item.copies > 0 for item in items)
    pages_spec: list[tuple[Grid, list[_Slot]]] = []
    for run in _runs_of_same_size(items):
        first = run[0].item
        grid = plan_grid(template, first.trim_w, first.trim_h, template.printed_bleed(first.bleed))
        for start in range(0, len(run), grid.capacity):
            pages_spec.append((grid, run[start : start + grid.capacity]))

    total = len(pages_spec)
    shared = _shared_faces(pages_spec, duplex)
    pages: list[Scene] = []
    placements: list[CardPlacement] = []
    marks_per_page: list[tuple[Line, ...]] = []
    grids: list[Grid | None] = []
    paper = template.paper
    offset = template.back_offset_mm
    marks_for: dict[tuple[tuple[Box, Box], ...], tuple[Line, ...]] = {}
    """Crop marks by the cards' boxes: every full sheet of one grid has the same marks, worked out once."""
    slot_boxes: dict[tuple[object, ...], tuple[Box, Box]] = {}
    """A slot's trim and bleed boxes on a page, by grid, slot and side's offset: the same on every sheet of a grid."""
    placed: dict[tuple[object, ...], Group] = {}
    """A face placed in a slot (a deck's back on the back of every sheet), drawn by one group wherever it repeats."""

    for sheet_index, (grid, slots) in enumerate(pages_spec):
        sheet = sheet_index + 1
        sides: list[Side] = ["front", "back"] if duplex else ["front"]
        for side in sides:
            page_index = len(pages)
            children: list[Primitive] = []
            boxes: list[tuple[Box, Box]] = []
            turn = 90 if grid.sideways else 0
            dx = dy = 0.0
            if side == "back":
                turn, dx, dy = back_turn(grid, template), offset.x, offset.y
            for slot_index, slot in enumerate(slots):
                row, col = grid.slot(slot_index)
                if side == "back":
                    row, col = back_slot(grid, row, col, template)
                box_key = (grid, row, col, repr(dx), repr(dy))  # (repr: 0.0 and -0.0 are equal keys, not equal sums)
                found = slot_boxes.get(box_key)
                if found is None:
                    found = slot_boxes[box_key] = (grid.trim_box(row, col).translated(dx, dy), grid.bleed_box(row, col).translated(dx, dy))
                trim, bleed = found
                face = slot.item.front if side == "front" else slot.item.back
                if face is None:
                    continue
                trimmed = slot.item.bleed - grid.bleed
                group_key = (id(face), box_key, repr(trimmed), turn)  # (the faces are held by ``items`` throughout)
                group = placed.get(group_key)
                if group is None:
                    group = placed[group_key] = _card_group(face, bleed, trimmed, shared.get(id(face)), turn)
                children.append(group)
                boxes.append((trim, bleed))
                placements.append(
                    CardPlacement(page_index, sheet, side, slot.item_index, slot.copy_index, row, col, trim, bleed, turn)
                )
            marks = marks_for.get(tuple(boxes))
            if marks is None:
                marks = marks_for[tuple(boxes)] = crop_marks(boxes, template.crop_marks)
            children.extend(marks)
            blank = side == "back" and not boxes
            children.append(footer_run(template, footer_text(footer, sheet, total, side if duplex else None, blank)))
            pages.append(Scene(paper.width_mm, paper.height_mm, tuple(children)))
            marks_per_page.append(marks)
            grids.append(grid)

    return ImposedSheets(tuple(pages), tuple(placements), tuple(marks_per_page), tuple(grids))
