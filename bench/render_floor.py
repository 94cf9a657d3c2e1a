"""Floor benchmark: bare reportlab drawing, no cardgen code on the timed path.

Two floors live here:

* :func:`draw_flat` draws pages given as flat operation tuples (made once, untimed,
  from the four games' real print-sheet scenes by ``bench/scene_flat.py``) with
  raw reportlab canvas calls, writing the same PDF operators as cardgen's PDF
  backend: each card face printed more than once is defined once as a Form
  XObject (before the page that first shows it) and placed with ``Do`` under
  its slot's transform and clip; fill/stroke colour and line width are set
  only when they change; text runs are placed with a text matrix. Colours are
  parsed once into a local dict. :func:`share_forms` (untimed) marks the
  shared faces in the flat pages. ``bench/run.py`` times cardgen's
  ``write_pdf`` on the same scenes against it; the ratio is the figure, and
  since both write the same bytes it measures only cardgen's own overhead.
  It ends each page with cardgen's page writer
  (:func:`cardgen.render.pdf_backend.show_page`: the page dictionary written
  directly, the content stream compressed by reportlab, both formatted as the
  page ends), the one piece of cardgen on its timed path, so that both write
  the same bytes and the ratio measures the drawing.
  The same pages without :func:`share_forms` draw every copy of every face in
  full (the floor as it was before cardgen shared faces), timed for information.
* :func:`render` draws N synthetic A4 pages (a 3x3 grid of 63x88 mm cards with a
  rounded frame, a title, six lines of DejaVu text, crop marks, a footer), a
  quick stand-alone sanity figure for reportlab's raw speed on this machine.

    python bench/render_floor.py --pages 50 [--out /tmp/floor.pdf]
"""

from __future__ import annotations

import argparse
import io
import time
from pathlib import Path
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from cardgen.render.pdf_backend import show_page

FONT_DIR = Path(__file__).resolve().parents[1] / "cardgen" / "data" / "fonts"
PAGE_W, PAGE_H = 210 * mm, 297 * mm
CARD_W, CARD_H = 63 * mm, 88 * mm
COLS, ROWS = 3, 3


def draw_page(c: Canvas, page: int) -> None:
    """One sheet: 9 cards, crop marks, footer."""
    x0 = (PAGE_W - COLS * CARD_W) / 2
    y0 = (PAGE_H - ROWS * CARD_H) / 2 + 3 * mm
    for row in range(ROWS):
        for col in range(COLS):
            x = x0 + col * CARD_W
            y = y0 + (ROWS - 1 - row) * CARD_H
            c.setFillColorRGB(1.0, 0.93, 0.8)
            c.rect(x, y, CARD_W, CARD_H, stroke=0, fill=1)
            c.setStrokeColorRGB(0, 0, 0)
            c.setLineWidth(0.3 * mm)
            c.roundRect(x + 2 * mm, y + 2 * mm, CARD_W - 4 * mm, CARD_H - 4 * mm, 2 * mm, stroke=1, fill=0)
            c.setFillColorRGB(0, 0, 0)
            c.setFont("DejaVuSans-Bold", 12)
            c.drawCentredString(x + CARD_W / 2, y + CARD_H - 12 * mm, f"Card {page}.{row}.{col}")
            c.setFont("DejaVuSans", 8)
            for line in range(6):
                c.drawString(x + 4 * mm, y + 35 * mm - line * 3.4 * mm, "Gain two coins, then draw a card and discard.")
    c.setLineWidth(0.1 * mm)
    for col in range(COLS + 1):
        x = x0 + col * CARD_W
        c.line(x, y0 - 4 * mm, x, y0 - 1 * mm)
        c.line(x, y0 + ROWS * CARD_H + 1 * mm, x, y0 + ROWS * CARD_H + 4 * mm)
    for row in range(ROWS + 1):
        y = y0 + row * CARD_H
        c.line(x0 - 4 * mm, y, x0 - 1 * mm, y)
        c.line(x0 + COLS * CARD_W + 1 * mm, y, x0 + COLS * CARD_W + 4 * mm, y)
    c.setFont("DejaVuSans", 6.5)
    c.drawCentredString(PAGE_W / 2, 6 * mm, f"Floor benchmark · sheet {page + 1}")


def render(pages: int) -> bytes:
    """Render the floor document and return its bytes."""
    for name, filename in (("DejaVuSans", "DejaVuSans.ttf"), ("DejaVuSans-Bold", "DejaVuSans-Bold.ttf")):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / filename)))
    c = Canvas(io.BytesIO(), pagesize=(PAGE_W, PAGE_H), invariant=1, initialFontName="DejaVuSans")
    for page in range(pages):
        draw_page(c, page)
        c.showPage()
    data: bytes = c.getpdfdata()
    return data


MM = 72.0 / 25.4
"""Points per millimetre."""
MM_PER_PT = 25.4 / 72.0
"""Millimetres per point."""
FONT_FILES = {
    "DejaVuSans": "DejaVuSans.ttf",
    "DejaVuSans-Bold": "DejaVuSans-Bold.ttf",
    "DejaVuSans-Oblique": "DejaVuSans-Oblique.ttf",
    "DejaVuSans-BoldOblique": "DejaVuSans-BoldOblique.ttf",
    "DejaVuSansCondensed": "DejaVuSansCondensed.ttf",
    "DejaVuSansCondensed-Bold": "DejaVuSansCondensed-Bold.ttf",
}


def register_fonts() -> None:
    """Register the bundled faces with reportlab under their file stems (idempotent)."""
    registered = set(pdfmetrics.getRegisteredFontNames())
    for name, filename in FONT_FILES.items():
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / filename)))


Op = tuple[Any, ...]


def pdf_rect(box: tuple[float, float, float, float], page_h: float) -> tuple[float, float, float, float]:
    """A y-down (x, y, w, h) mm box as a y-up PDF rectangle in points, rounded as cardgen rounds it."""
    x, y, w, h = box
    return (round(x * MM, 4), round((page_h - (y + h)) * MM, 4), round((x + w) * MM, 4), round((page_h - y) * MM, 4))


def share_forms(pages: list[list[Op]], shared: list[list[tuple[str, tuple[float, float, float, float]] | None]]) -> list[list[Op]]:
    """Untimed: turn the top-level groups cardgen marks as shared into form placements.

    ``shared[p][i]`` is ``(key, (x0, y0, x1, y1))`` when the i-th top-level child
    of page p is a group with shared content (key and bounds), else None. The
    first page showing a key gets a ``("form", name, bbox, ops)`` op right after
    its page op; every placement becomes ``push``, ``("do", name)``, ``pop``.
    Forms are named ``C0``, ``C1``, ... by first appearance, as cardgen names them.
    """
    names: dict[str, str] = {}
    out: list[list[Op]] = []
    for ops, flags in zip(pages, shared):
        forms: list[Op] = []
        body: list[Op] = []
        index, i = 0, 1
        while i < len(ops):
            op = ops[i]
            end = i + 1
            if op[0] == "push":
                depth = 1
                while depth:
                    depth += {"push": 1, "pop": -1}.get(ops[end][0], 0)
                    end += 1
            flag = flags[index] if index < len(flags) else None
            if flag is None or op[0] != "push":
                body.extend(ops[i:end])
            else:
                key, bbox = flag
                if key not in names:
                    names[key] = f"C{len(names)}"
                    forms.append(("form", names[key], bbox, list(ops[i + 1 : end - 1])))
                body += [op, ("do", names[key]), ("pop",)]
            index += 1
            i = end
        out.append([ops[0], *forms, *body])
    return out


def draw_flat(pages: list[list[Op]], title: str = "") -> bytes:
    """Draw pre-flattened pages (see bench/scene_flat.py and :func:`share_forms`) with raw canvas calls; return the PDF bytes."""
    register_fonts()
    c = Canvas(io.BytesIO(), invariant=1, initialFontName="DejaVuSans", initialFontSize=10, pageCompression=1)
    c.setCreator("cardgen")
    c.setProducer("cardgen (reportlab)")
    c.setTitle(title)
    c.setAuthor("")
    c.setSubject("")
    rgb: dict[str, tuple[float, float, float]] = {}
    unknown = object()
    state: list[Any] = [unknown, unknown, unknown]  # fill, stroke, width as last set
    saved: list[list[Any]] = []

    def colour(hex_colour: str) -> tuple[float, float, float]:
        value = rgb.get(hex_colour)
        if value is None:
            n = int(hex_colour[1:], 16)
            value = rgb[hex_colour] = ((n >> 16) / 255.0, ((n >> 8) & 255) / 255.0, (n & 255) / 255.0)
        return value

    def paint(fill: Any, stroke: Any, width: float) -> tuple[int, int]:
        do_fill = fill is not None
        do_stroke = stroke is not None and width > 0
        if do_fill and fill != state[0]:
            c.setFillColor(colour(fill))
            state[0] = fill
        if do_stroke:
            if stroke != state[1]:
                c.setStrokeColor(colour(stroke))
                state[1] = stroke
            if width != state[2]:
                c.setLineWidth(width)
                state[2] = width
        return int(do_stroke), int(do_fill)

    def draw(ops: list[Op]) -> None:
        for op in ops:
            kind = op[0]
            if kind == "push":
                c.saveState()
                saved.append(list(state))
                if op[1] is not None:
                    c.translate(*op[1])
                if op[2]:
                    c.rotate(op[2])
                if op[3] is not None:
                    c.scale(*op[3])
                if op[4] is not None:
                    p = c.beginPath()
                    p.rect(*op[4])
                    c.clipPath(p, stroke=0, fill=0)
            elif kind == "pop":
                c.restoreState()
                state[:] = saved.pop()
            elif kind == "do":
                c.doForm(op[1])
            elif kind == "text":
                _, x, y, font, size, fill, anchor, text = op
                if not text:
                    continue
                size = size * MM_PER_PT
                if anchor != "start":
                    width = stringWidth(text, font, size)
                    x -= width * 0.5 if anchor == "middle" else width
                if fill != state[0]:
                    c.setFillColor(colour(fill))
                    state[0] = fill
                t = c.beginText()
                t.setTextTransform(1, 0, 0, -1, x, y)
                t.setFont(font, size)
                t.textLine(text)
                c.drawText(t)
            elif kind == "line":
                _, x1, y1, x2, y2, stroke, width = op
                if paint(None, stroke, width)[0]:
                    c.line(x1, y1, x2, y2)
            elif kind == "image":
                _, path, x, y, iw, ih = op
                c.saveState()
                c.translate(x, y + ih)
                c.scale(1, -1)
                c.drawImage(path, 0, 0, iw, ih, mask="auto")
                c.restoreState()
            else:
                fill, stroke, width = op[-3:] if kind != "path" else op[2:5]
                do_stroke, do_fill = paint(fill, stroke, width)
                if not (do_fill or do_stroke):
                    continue
                if kind == "rect":
                    if op[5] > 0:
                        c.roundRect(op[1], op[2], op[3], op[4], op[5], stroke=do_stroke, fill=do_fill)
                    else:
                        c.rect(op[1], op[2], op[3], op[4], stroke=do_stroke, fill=do_fill)
                elif kind == "circle":
                    c.circle(op[1], op[2], op[3], stroke=do_stroke, fill=do_fill)
                elif kind == "poly":
                    if not op[1]:
                        continue
                    p = c.beginPath()
                    p.moveTo(*op[1][0])
                    for point in op[1][1:]:
                        p.lineTo(*point)
                    p.close()
                    c.drawPath(p, stroke=do_stroke, fill=do_fill, fillMode=1)  # non-zero
                elif kind == "path":
                    p = c.beginPath()
                    cx = cy = 0.0
                    for command in op[1]:
                        letter = command[0]
                        if letter == "M":
                            p.moveTo(command[1], command[2])
                            cx, cy = command[1], command[2]
                        elif letter == "L":
                            p.lineTo(command[1], command[2])
                            cx, cy = command[1], command[2]
                        elif letter == "C":
                            p.curveTo(*command[1:])
                            cx, cy = command[5], command[6]
                        elif letter == "Q":
                            qx, qy, x, y = command[1:]
                            p.curveTo(cx + 2 / 3 * (qx - cx), cy + 2 / 3 * (qy - cy), x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), x, y)
                            cx, cy = x, y
                        else:
                            p.close()
                    c.drawPath(p, stroke=do_stroke, fill=do_fill, fillMode=0 if op[5] else 1)  # 0 even-odd, 1 non-zero

    for ops in pages:
        _, w, h, trim, bleed = ops[0]
        start = 1
        while start < len(ops) and ops[start][0] == "form":
            _, name, box, content = ops[start]
            c.beginForm(name, *box)
            state[:] = [unknown, unknown, unknown]
            draw(content)
            c.endForm()
            start += 1
        c.setPageSize((w * MM, h * MM))
        c.setTrimBox(None if trim is None else pdf_rect(trim, h))
        c.setBleedBox(None if bleed is None else pdf_rect(bleed, h))
        c.saveState()
        c.transform(MM, 0, 0, -MM, 0, h * MM)
        state[:] = [unknown, unknown, unknown]
        draw(ops[start:])
        c.restoreState()
        show_page(c)
    data: bytes = c.getpdfdata()
    return data


def main() -> None:
    """Parse arguments, time the rendering, print the result."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--out", type=Path, default=None, help="optionally write the PDF here")
    args = parser.parse_args()
    start = time.perf_counter()
    data = render(args.pages)
    elapsed = time.perf_counter() - start
    if args.out:
        args.out.write_bytes(data)
    print(f"render_floor: {args.pages} pages, {len(data)} bytes, {elapsed:.3f} s ({elapsed / args.pages * 1000:.1f} ms/page)")


if __name__ == "__main__":
    main()
