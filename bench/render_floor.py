"""Floor benchmark: bare reportlab drawing a card-sheet-like page, no cardgen scene.

Draws N A4 pages, each with a 3x3 grid of 63x88 mm cards (background rect,
rounded frame, title, six lines of body text in the bundled DejaVu Sans TTF)
plus crop marks and a footer, and prints the elapsed time. cardgen's own sheet
rendering is later compared against this floor.

    python bench/render_floor.py --pages 50 [--out /tmp/floor.pdf]
"""

from __future__ import annotations

import argparse
import io
import time
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

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
