"""Draw a labelled :class:`~cardgen.render.figures.TableView` as a scene in mm: the table seen from above.

The shared zones (piles, rows, grids) come first, flowed left to right; then
one panel per seat with its hand, pieces and collection. A face-down pile or
hand is a small stack of card backs with its count on top; a face-up card is
an outlined card with its name; pieces are a disc in their colour with their
symbol and count. Every zone carries its title (already in the figure's
language), so the picture reads without the text around it. Nothing here
knows a game.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Sequence

from cardgen.render.colour import ink_on
from cardgen.render.figures import Mark, TableView, Zone, cell_label
from cardgen.render.fonts import string_width
from cardgen.render.scene import Circle, Group, Line, Primitive, Rect, Scene, Text, Transform
from cardgen.render.units import pt_to_mm

WIDTH_MM = 170.0
"""The drawing's width: a rulebook's text width on A4 (it is scaled to the page's)."""
CARD_W, CARD_H = 18.0, 25.0
GAP = 3.0
PAD = 3.0
BODY = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
TEXT_PT = 6.0
"""Card names and counts: the project's minimum type size."""
TITLE_PT = 7.0
SEAT_PT = 8.0
INK = "#1f1f1f"
BACK = "#9b8a74"
TABLE = "#f4efe6"
PANEL = "#ffffff"
RULE = "#b9a58f"
TITLE_LINES = 3
"""A zone's title is widened until it takes at most this many lines (it is never cut)."""
MAX_SHOWN = 6
"""Card backs drawn for a face-down pile or hand (the count says how many there are)."""


@dataclass
class _Block:
    """A zone laid out at the origin: its size and primitives."""

    w: float
    h: float
    items: list[Primitive]


def _line_height(size_pt: float) -> float:
    return pt_to_mm(size_pt) * 1.25


def wrap(text: str, width: float, font: str, size_pt: float, max_lines: int) -> list[str]:
    """``text`` broken into lines at most ``width`` mm wide (at spaces, or after a hyphen inside a word), at most
    ``max_lines`` of them (the last ends in … when cut)."""
    lines: list[str] = []
    current, glued = "", False
    for match in re.finditer(r"([^\s-]+-)(?=[^\s-])|\S+", text):  # a hyphenated word may break after its hyphen
        word = match.group(0)
        trial = (current + word if glued else f"{current} {word}") if current else word
        if string_width(trial, font, size_pt) <= width or not current:
            current = trial
        else:
            lines.append(current)
            current = word
        glued = match.group(1) is not None
    if current:
        lines.append(current)
    cut = len(lines) > max_lines
    lines = lines[:max_lines]
    for index, line in enumerate(lines):
        last = index == len(lines) - 1
        if string_width(line, font, size_pt) > width or (last and cut):
            while line and string_width(line + "…", font, size_pt) > width:
                line = line[:-1]
            lines[index] = line.rstrip() + "…"
    return lines


def _text_lines(lines: Sequence[str], x: float, y: float, font: str, size_pt: float, ink: str, anchor: str = "start") -> list[Primitive]:
    step = _line_height(size_pt)
    return [Text(x, y + pt_to_mm(size_pt) + i * step, line, font, size_pt, ink, anchor) for i, line in enumerate(lines)]  # type: ignore[arg-type]


def _card(x: float, y: float, mark: Mark) -> list[Primitive]:
    """A face-up card (its name, its fill); a stack shows its depth as edges behind it; depth 0 is an empty place."""
    if mark.depth <= 0:
        return [Rect(x, y, CARD_W, CARD_H, stroke=RULE, stroke_width=0.3, radius=1.2)]
    fill = mark.fill or "#ffffff"
    ink = ink_on(fill, INK)
    out: list[Primitive] = []
    for behind in range(min(mark.depth, MAX_SHOWN) - 1, 0, -1):
        out.append(Rect(x + behind * 0.8, y - behind * 0.8, CARD_W, CARD_H, fill="#ffffff", stroke=INK, stroke_width=0.3, radius=1.2))
    out.append(Rect(x, y, CARD_W, CARD_H, fill=fill, stroke=INK, stroke_width=0.3, radius=1.2))
    if mark.depth > 1:
        out.append(Text(x + CARD_W - 1.0, y + CARD_H - 1.2, f"×{mark.depth}", BOLD, TEXT_PT, ink, "end"))
    lines = wrap(mark.text, CARD_W - 2.0, BODY, TEXT_PT, 5)
    top = y + (CARD_H - len(lines) * _line_height(TEXT_PT)) / 2 - 0.4
    out.extend(_text_lines(lines, x + CARD_W / 2, top, BODY, TEXT_PT, ink, "middle"))
    return out


def _backs(x: float, y: float, count: int, fill: str = BACK) -> list[Primitive]:
    """A stack: up to :data:`MAX_SHOWN` offset cards (backs, or ``fill`` for a face-up pile), the count on the top one."""
    shown = max(1, min(count, MAX_SHOWN))
    fill = fill if count else "#ffffff"
    out: list[Primitive] = []
    for i in range(shown):
        dx = i * 1.2
        out.append(Rect(x + dx, y, CARD_W, CARD_H, fill=fill, stroke=INK, stroke_width=0.3, radius=1.2))
    top_x = x + (shown - 1) * 1.2
    out.append(Text(top_x + CARD_W / 2, y + CARD_H / 2 + pt_to_mm(12) * 0.35, str(count), BOLD, 12.0, ink_on(fill, INK), "middle"))
    return out


CELL = 7.0
"""The side of one cell of a board of ``cells``."""


@dataclass(frozen=True)
class Board:
    """A zone of ``cells`` drawn at the origin: its size, primitives, and where its cells lie (for overlays)."""

    w: float
    h: float
    items: tuple[Primitive, ...]
    x0: float
    y0: float
    size: float
    columns: int

    def outline(self, cells: Sequence[tuple[int, int]], colour: str, width: float = 0.9) -> list[Primitive]:
        """The outer edge of a region of (column, row) cells, drawn just inside it, so neighbouring regions stay apart."""
        region = set(cells)
        inset = width / 2 + 0.25
        out: list[Primitive] = []
        for col, row in sorted(region):
            x, y = self.x0 + col * self.size, self.y0 + row * self.size
            x1, y1 = x + self.size, y + self.size
            left, right = (col - 1, row) not in region, (col + 1, row) not in region
            top, bottom = (col, row - 1) not in region, (col, row + 1) not in region
            ax, bx = x + (inset if left else 0.0), x1 - (inset if right else 0.0)
            ay, by = y + (inset if top else 0.0), y1 - (inset if bottom else 0.0)
            if top:
                out.append(Line(ax, ay, bx, ay, colour, width))
            if bottom:
                out.append(Line(ax, by, bx, by, colour, width))
            if left:
                out.append(Line(ax, ay, ax, by, colour, width))
            if right:
                out.append(Line(bx, ay, bx, by, colour, width))
        return out


def board(zone: Zone, max_width: float) -> Board:
    """A zone of ``cells`` as a :class:`Board` (see :func:`_cells`)."""
    w, h, items = _cells(zone, max_width)
    columns = max(1, zone.columns or len(zone.marks))
    return Board(w, h, tuple(items), BOARD_AXIS, BOARD_AXIS, min(CELL, (max_width - BOARD_AXIS) / columns), columns)


BOARD_AXIS = 4.0
"""Room for a board's column letters and row numbers."""


def _cells(zone: Zone, max_width: float) -> tuple[float, float, list[Primitive]]:
    """A board: one square per mark in its colour and symbol, a seat's piece on it as a numbered disc, the
    columns lettered and the rows numbered (:func:`cell_label`), a heavier line every ``block`` cells."""
    columns = max(1, zone.columns or len(zone.marks))
    axis = BOARD_AXIS
    size = min(CELL, (max_width - axis) / columns)
    rows = -(-len(zone.marks) // columns)
    items: list[Primitive] = []
    for col in range(columns):
        items.append(Text(axis + col * size + size / 2, 2.6, cell_label(col, 0)[:-1], BODY, TEXT_PT, INK, "middle"))
    for row in range(rows):
        items.append(Text(axis - 1.0, axis + row * size + size / 2 + pt_to_mm(TEXT_PT) * 0.35, str(row + 1), BODY, TEXT_PT, INK, "end"))
    for index, mark in enumerate(zone.marks):
        row, col = divmod(index, columns)
        fill = mark.fill or "#ffffff"
        x, y = axis + col * size, axis + row * size
        items.append(Rect(x, y, size, size, fill=fill, stroke=INK, stroke_width=0.15))
        if mark.owner >= 0:
            items.append(Rect(x + 0.6, y + 0.6, size - 1.2, size - 1.2, stroke=INK, stroke_width=0.5, radius=0.8))
        if mark.text:
            font_pt = TEXT_PT if len(mark.text) > 1 else 8.0
            shift = 0.8 if mark.owner >= 0 else 0.0  # room for the owner's disc in the corner
            cx, cy = x + size / 2 - shift, y + size / 2 + pt_to_mm(font_pt) * 0.35 - shift
            items.append(Text(cx, cy, mark.text, BOLD, font_pt, ink_on(fill, INK), "middle"))
        if mark.owner >= 0:
            r = 1.5
            items.append(Circle(x + size - r - 0.3, y + size - r - 0.3, r, fill="#ffffff", stroke=INK, stroke_width=0.2))
            items.append(Text(x + size - r - 0.3, y + size - r - 0.3 + pt_to_mm(TEXT_PT) * 0.35, str(mark.owner + 1), BOLD, TEXT_PT, INK, "middle"))
    if zone.block > 0:
        for col in range(0, columns + 1, zone.block):
            items.append(Rect(axis + col * size - 0.3, axis, 0.6, rows * size, fill=INK))
        for row in range(0, rows + 1, zone.block):
            items.append(Rect(axis, axis + row * size - 0.3, columns * size, 0.6, fill=INK))
    return axis + columns * size, axis + rows * size, items


def _cards_grid(marks: Sequence[Mark], columns: int, max_width: float) -> tuple[float, float, list[Primitive]]:
    per_row = max(1, int((max_width + GAP / 2) // (CARD_W + GAP / 2)))
    columns = min(columns or len(marks) or 1, per_row)
    items: list[Primitive] = []
    for index, mark in enumerate(marks):
        row, col = divmod(index, columns)
        items.extend(_card(col * (CARD_W + GAP / 2), row * (CARD_H + GAP / 2), mark))
    rows = -(-len(marks) // columns) if marks else 0
    w = columns * CARD_W + (columns - 1) * GAP / 2 if marks else 0.0
    h = rows * CARD_H + (rows - 1) * GAP / 2 if marks else 0.0
    return w, h, items


def _pieces(zones: Sequence[Zone]) -> tuple[float, float, list[Primitive]]:
    """Pieces, one disc per zone (its colour and symbol) with its count, in lines of about the square root of
    their number (four kinds make two lines of two)."""
    r = 4.0
    items: list[Primitive] = []
    per_line = max(1, math.ceil(math.sqrt(len(zones))))
    x, y, widest = 0.0, 0.0, 0.0
    for index, zone in enumerate(zones):
        if index and index % per_line == 0:
            x, y = 0.0, y + 2 * r + 1.5
        fill = next((m.fill for m in zone.marks if m.fill), None) or "#ffffff"
        symbol = next((m.text for m in zone.marks if m.text), "")
        items.append(Circle(x + r, y + r, r, fill=fill, stroke=INK, stroke_width=0.3))
        if symbol:
            size = TEXT_PT if len(symbol) > 1 else 8.0
            items.append(Text(x + r, y + r + pt_to_mm(size) * 0.35, symbol, BOLD, size, ink_on(fill, INK), "middle"))
        count = f"× {zone.count}"
        items.append(Text(x + 2 * r + 1.2, y + r + pt_to_mm(10) * 0.35, count, BOLD, 10.0, INK))
        x += 2 * r + 1.2 + string_width(count, BOLD, 10.0) + GAP
        widest = max(widest, x - GAP)
    return widest, y + 2 * r, items


def zone_block(zone: Zone, max_width: float, group: Sequence[Zone] = ()) -> _Block:
    """One zone laid out at the origin: its title, then its cards or pieces (``group``: zones of pieces drawn
    as one block under the first one's heading)."""
    title = zone.title
    if group:
        w, h, body = _pieces(group)
        title = zone.heading or zone.title
    elif zone.kind in ("pile", "hand", "discard"):
        fill = (next((m.fill for m in zone.marks if m.fill), None) or "#ffffff") if zone.kind == "discard" else BACK
        w, h, body = CARD_W + (max(1, min(zone.count, MAX_SHOWN)) - 1) * 1.2, CARD_H, _backs(0.0, 0.0, zone.count, fill)
    elif zone.kind == "cells":
        w, h, body = _cells(zone, max_width)
    elif zone.kind == "pieces":
        w, h, body = _pieces([zone])
    else:
        w, h, body = _cards_grid(zone.marks, zone.columns, max_width)
    title_width = min(max_width, max(w, 28.0))
    lines = wrap(title, title_width, BOLD, TITLE_PT, TITLE_LINES + 99)
    while len(lines) > TITLE_LINES and title_width < max_width:  # a title is never cut: it carries the count
        title_width = min(max_width, title_width + 6.0)
        lines = wrap(title, title_width, BOLD, TITLE_PT, TITLE_LINES + 99)
    title_h = len(lines) * _line_height(TITLE_PT) + 1.0
    items = _text_lines(lines, 0.0, 0.0, BOLD, TITLE_PT, INK)
    items.append(Group(tuple(body), Transform(translate=(0.0, title_h))))
    width = max([w] + [string_width(line, BOLD, TITLE_PT) for line in lines])
    return _Block(width, title_h + h, items)


def _flow(blocks: Sequence[_Block], x0: float, y0: float, width: float) -> tuple[float, list[Primitive]]:
    """Place blocks left to right, wrapping at ``width``; returns the height used and the placed primitives."""
    x, y, line_h = x0, y0, 0.0
    out: list[Primitive] = []
    for block in blocks:
        if x > x0 and x + block.w > x0 + width:
            x, y, line_h = x0, y + line_h + GAP * 1.5, 0.0
        out.append(Group(tuple(block.items), Transform(translate=(x, y))))
        x += block.w + GAP * 2
        line_h = max(line_h, block.h)
    return (y + line_h - y0) if blocks else 0.0, out


def _blocks(zones: Sequence[Zone], max_width: float) -> list[_Block]:
    """The zones' blocks; neighbouring zones of pieces from one source (one per colour, say) make one block."""
    out: list[_Block] = []
    index = 0
    while index < len(zones):
        zone = zones[index]
        end = index + 1
        if zone.kind == "pieces" and zone.heading:
            while end < len(zones) and zones[end].kind == "pieces" and zones[end].source == zone.source:
                end += 1
        out.append(zone_block(zone, max_width, zones[index:end] if end - index > 1 else ()))
        index = end
    return out


def _flow_width(blocks: Sequence[_Block], width: float) -> float:
    """The width :func:`_flow` takes for ``blocks`` in ``width`` (its widest line)."""
    x, widest = 0.0, 0.0
    for block in blocks:
        if x > 0 and x + block.w > width:
            x = 0.0
        x += block.w + GAP * 2
        widest = max(widest, x - GAP * 2)
    return widest


def draw_table(view: TableView, seat_titles: Sequence[str], width_mm: float = WIDTH_MM) -> Scene:
    """The labelled ``view`` as a scene at most ``width_mm`` wide (as wide as it needs; its height follows).

    ``seat_titles[i]`` heads seat i's panel. Seat panels stand side by side, as many to a row as makes the
    picture shortest (a panel's zones wrap inside it).
    """
    inner = width_mm - 2 * PAD
    shared = _blocks(view.shared(), inner - 2 * PAD)
    titles = [seat_titles[seat] if seat < len(seat_titles) else str(seat + 1) for seat in range(view.seats)]
    best: tuple[float, float, list[Primitive]] | None = None
    for per_row in range(1, max(1, view.seats) + 1):
        panel_limit = (inner - (per_row - 1) * GAP) / per_row
        seat_blocks = [_blocks(view.of_seat(seat), panel_limit - 2 * PAD) for seat in range(view.seats)]
        if per_row > 1 and any(block.w > panel_limit - 2 * PAD for blocks in seat_blocks for block in blocks):
            break
        laid = _layout(shared, seat_blocks, titles, per_row, panel_limit, inner)
        if best is None or laid[0] < best[0] - 1e-6:
            best = laid
    assert best is not None
    height, used, items = best
    return Scene(used + 2 * PAD, max(height, 10.0), tuple(items))


def _layout(
    shared: Sequence[_Block], seat_blocks: Sequence[Sequence[_Block]], titles: Sequence[str], per_row: int, panel_limit: float, inner: float
) -> tuple[float, float, list[Primitive]]:
    """The shared area, then the seat panels ``per_row`` to a row: the height, the width used and the primitives."""
    needed = max([_flow_width(blocks, panel_limit - 2 * PAD) for blocks in seat_blocks] + [string_width(t, BOLD, SEAT_PT) for t in titles] + [0.0])
    panel_w = min(panel_limit, needed + 2 * PAD)
    if len(seat_blocks) > per_row:
        panel_w = panel_limit if per_row > 1 else panel_w
    columns = min(per_row, len(seat_blocks))
    used = max(_flow_width(shared, inner - 2 * PAD) + 2 * PAD if shared else 0.0, columns * panel_w + (columns - 1) * GAP)
    items: list[Primitive] = []
    y = PAD
    if shared:
        shared_h, placed = _flow(shared, 2 * PAD, 2 * PAD, used - 2 * PAD)
        items.append(Rect(PAD, y, used, shared_h + 2 * PAD, fill=TABLE, stroke=RULE, stroke_width=0.3, radius=2.0))
        items.extend(placed)
        y += shared_h + 2 * PAD + GAP
    row_h = 0.0
    for seat, blocks in enumerate(seat_blocks):
        column = seat % per_row
        if column == 0 and seat:
            y += row_h + GAP
            row_h = 0.0
        x = PAD + column * (panel_w + GAP)
        head = _line_height(SEAT_PT) + 1.5
        body_h, placed = _flow(blocks, x + PAD, y + PAD + head, panel_w - 2 * PAD)
        panel_h = head + body_h + 2 * PAD
        items.append(Rect(x, y, panel_w, panel_h, fill=PANEL, stroke=RULE, stroke_width=0.3, radius=2.0))
        items.extend(_text_lines([titles[seat]], x + PAD, y + PAD, BOLD, SEAT_PT, INK))
        items.extend(placed)
        row_h = max(row_h, panel_h)
    height = y + row_h + PAD if seat_blocks else y
    return height, used, items
