"""Floor of the whole job: a bare reportlab script printing the bench job's cards 3x3 on A4.

What it does, from the same files ``cardgen build bench/job`` reads, timed as a
whole process (interpreter start and imports included):

* reads ``game.yaml`` (PyYAML with LibYAML, as cardgen), ``layouts/cards.yaml``
  and the card sheet(s) named by each deck (``cards.csv``...);
* parses the card types' ``#rrggbb`` colours;
* wraps each card's body text into its layout box with reportlab's
  ``simpleSplit`` (greedy, at the layout's size and a 1.2 line height), and
  centres the title;
* lays the cards out 3x3 on A4 with the same geometry as cardgen's A4 sheet
  (63 x 88 mm trim, 1.5 mm printed bleed, 4/5 mm margins, a footer band), with
  crop marks at every trim corner and a footer line per page;
* after each front page, a back page with the deck back (fill, frame, title)
  mirrored for a long-edge duplex flip;
* writes one compressed PDF with DejaVu Sans (regular and bold) embedded as
  subset TrueType fonts, as cardgen does.

What it does not do (cardgen does, so a ratio against this floor includes it):
no validation of the spec (no schema, no cross-checks, no text-fit or palette
checks), no shrinking of text that does not fit, no hyphenation, no icons, no
glyph fallback, no byte-for-byte determinism or atomic publishing, no layout
sidecar or duplex test sheet, no Letter paper, and none of the other artefacts
(SVG faces, the one-card-per-page bleed PDF, rulebooks, the gallery). Each
repeated back is drawn in full on every slot (no Form XObjects).

    python bench/job_floor.py SPEC_FOLDER OUT.pdf [--import-stack print|all]

With ``--import-stack``, the script first imports the other libraries cardgen
itself loads for that build (``print``: typer, pydantic's models, Babel's number
formats; ``all``: those and Jinja2, Babel's catalogs and lists, reportlab's
page layout), then does the same job from a one-command typer app that parses
the same kinds of option: the least any command-line program on cardgen's
required stack pays for this job, which bench/run.py reports beside the bare
floor. (typer 0.2x builds a pydantic validator for each option it parses.)
"""

from __future__ import annotations

import csv
import importlib
import sys
from pathlib import Path
from typing import Optional

import yaml
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

FONT_DIR = Path(__file__).resolve().parents[1] / "cardgen" / "data" / "fonts"
MM = 72.0 / 25.4
PAGE_W, PAGE_H = 210.0, 297.0
TRIM_W, TRIM_H, BLEED = 63.0, 88.0, 1.5
MARGIN_TOP, MARGIN_LEFT, FOOTER_H = 5.0, 4.0, 5.0
MARK_LEN, MARK_OFFSET = 1.5, 0.5
COLS, ROWS = 3, 3
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def rgb(colour: str) -> tuple[float, float, float]:
    """``#rrggbb`` as 0..1 floats."""
    n = int(colour[1:], 16)
    return (n >> 16) / 255.0, ((n >> 8) & 0xFF) / 255.0, (n & 0xFF) / 255.0


def read_cards(folder: Path) -> tuple[dict, dict, list[tuple[dict, dict]]]:
    """(spec, layout, [(deck, card row)]) from the spec folder."""
    spec = yaml.load((folder / "game.yaml").read_text(encoding="utf-8"), Loader=Loader)
    layout = yaml.load((folder / "layouts" / "cards.yaml").read_text(encoding="utf-8"), Loader=Loader)
    cards = []
    for deck in spec["decks"]:
        with (folder / deck["cards_file"]).open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle):
                for _ in range(int(row.get("copies") or 1)):
                    cards.append((deck, row))
    return spec, layout, cards


def slot_origin(index: int, mirrored: bool) -> tuple[float, float]:
    """Top-left corner (mm, y down) of a slot's trim on the page."""
    col, row = index % COLS, index // COLS
    if mirrored:
        col = COLS - 1 - col
    cell_w, cell_h = TRIM_W + 2 * BLEED, TRIM_H + 2 * BLEED
    grid_w = COLS * cell_w
    x0 = (PAGE_W - grid_w) / 2
    y0 = MARGIN_TOP + MARK_OFFSET + MARK_LEN
    return x0 + col * cell_w + BLEED, y0 + row * cell_h + BLEED


def crop_marks(c: Canvas, slots: int, mirrored: bool) -> None:
    """Short lines outside each trim corner, at the exact trim."""
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.1 * MM)
    lines = []
    for index in range(slots):
        x, y = slot_origin(index, mirrored)
        for cx in (x, x + TRIM_W):
            for cy in (y, y + TRIM_H):
                outward_y = -1 if cy == y else 1
                outward_x = -1 if cx == x else 1
                start = BLEED + MARK_OFFSET
                lines.append((cx * MM, (PAGE_H - cy - outward_y * start) * MM, cx * MM, (PAGE_H - cy - outward_y * (start + MARK_LEN)) * MM))
                lines.append(((cx + outward_x * start) * MM, (PAGE_H - cy) * MM, (cx + outward_x * (start + MARK_LEN)) * MM, (PAGE_H - cy) * MM))
    c.lines(lines)


def footer(c: Canvas, text: str) -> None:
    """The footer line, centred in its band."""
    c.setFillColorRGB(0.2, 0.2, 0.2)
    c.setFont("DejaVuSans", 6.5)
    c.drawCentredString(PAGE_W / 2 * MM, (5.0 + FOOTER_H / 2 - 1.0) * MM, text)


def frame(c: Canvas, x: float, y: float, spec: dict, colour: tuple[float, float, float]) -> None:
    """The rounded frame inset in the trim (``spec`` is the layout's frame entry)."""
    inset, width, radius = spec["inset_mm"], spec["width_mm"], spec["radius_mm"]
    c.setStrokeColorRGB(*colour)
    c.setLineWidth(width * MM)
    c.roundRect((x + inset) * MM, (PAGE_H - y - TRIM_H + inset) * MM, (TRIM_W - 2 * inset) * MM, (TRIM_H - 2 * inset) * MM, radius * MM, stroke=1, fill=0)


def front(c: Canvas, x: float, y: float, layout: dict, colour: tuple[float, float, float], title: str, body: str) -> None:
    """One card front: white bleed and trim, coloured frame, centred title, wrapped body text."""
    c.setFillColorRGB(1, 1, 1)
    c.rect((x - BLEED) * MM, (PAGE_H - y - TRIM_H - BLEED) * MM, (TRIM_W + 2 * BLEED) * MM, (TRIM_H + 2 * BLEED) * MM, stroke=0, fill=1)
    frame(c, x, y, layout["front"]["frame"], colour)
    title_el, text_el = layout["front"]["elements"]
    bx, by, bw, bh = title_el["box"]
    size = title_el["params"]["size"]
    c.setFillColorRGB(*rgb(title_el["params"]["colour"]))
    c.setFont("DejaVuSans-Bold", size)
    c.drawCentredString((x + bx + bw / 2) * MM, (PAGE_H - y - by - bh / 2) * MM - size * 0.35, title)
    bx, by, bw, bh = text_el["box"]
    size = text_el["params"]["size"]
    leading = size * 1.2
    lines = simpleSplit(body, "DejaVuSans", size, bw * MM)
    text = c.beginText((x + bx) * MM, (PAGE_H - y - by) * MM - size)
    text.setFont("DejaVuSans", size, leading)
    text.setFillColorRGB(*rgb(text_el["params"]["colour"]))
    for line in lines[: int(bh * MM // leading)]:
        text.textLine(line)
    c.drawText(text)


def back(c: Canvas, x: float, y: float, layout: dict, title: str) -> None:
    """One card back: filled bleed, frame, the back's title."""
    spec = layout["back"]
    c.setFillColorRGB(*rgb(spec["background"]))
    c.rect((x - BLEED) * MM, (PAGE_H - y - TRIM_H - BLEED) * MM, (TRIM_W + 2 * BLEED) * MM, (TRIM_H + 2 * BLEED) * MM, stroke=0, fill=1)
    frame(c, x, y, spec["frame"], rgb(spec["frame"]["colour"]))
    element = spec["elements"][0]
    bx, by, bw, bh = element["box"]
    size = element["params"]["size"]
    c.setFillColorRGB(*rgb(element["params"]["colour"]))
    c.setFont("DejaVuSans-Bold", size)
    c.drawCentredString((x + bx + bw / 2) * MM, (PAGE_H - y - by - bh / 2) * MM - size * 0.35, title)


def print_sheets(folder: Path, out: Path) -> int:
    """Write the print sheets of the spec in ``folder`` to ``out``; returns the page count."""
    for name in ("DejaVuSans", "DejaVuSans-Bold"):
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / f"{name}.ttf")))
    spec, layout, cards = read_cards(folder)
    colours = {deck["id"]: {t["id"]: rgb(t["colour"]) for t in deck["card_types"]} for deck in spec["decks"]}
    game = spec["title"]["en"]
    per_page = COLS * ROWS
    sheets = (len(cards) + per_page - 1) // per_page
    c = Canvas(str(out), pagesize=(PAGE_W * MM, PAGE_H * MM), pageCompression=1, invariant=1, initialFontName="DejaVuSans")
    for sheet in range(sheets):
        chunk = cards[sheet * per_page : (sheet + 1) * per_page]
        for index, (deck, row) in enumerate(chunk):
            x, y = slot_origin(index, mirrored=False)
            front(c, x, y, layout, colours[deck["id"]][row["type"]], row["name.en"], row["text.en"])
        crop_marks(c, len(chunk), mirrored=False)
        footer(c, f"{game} · {spec['version']} · sheet {sheet + 1} of {sheets} (front) · {spec['licence']['attribution']['en']}")
        c.showPage()
        for index, (deck, _row) in enumerate(chunk):
            x, y = slot_origin(index, mirrored=True)
            back(c, x, y, layout, deck["back"]["en"])
        crop_marks(c, len(chunk), mirrored=True)
        footer(c, f"{game} · {spec['version']} · sheet {sheet + 1} of {sheets} (back) · {spec['licence']['attribution']['en']}")
        c.showPage()
    c.save()
    return 2 * sheets


STACKS = {
    "print": ("typer", "pydantic.main", "babel.numbers"),
    "all": ("typer", "pydantic.main", "babel.numbers", "babel.support", "babel.lists", "jinja2", "reportlab.platypus"),
}
"""The third-party modules (beyond PyYAML and reportlab's canvas, which the floor uses) a cold ``cardgen build``
of the bench job loads: with ``--only print``, and with every artefact. ``pydantic.main`` is where pydantic's
models live (``import pydantic`` alone defers it)."""


def through_typer(folder: Path, out: Path) -> None:
    """Do the job from a one-command typer app, as a command-line tool built on typer does: typer parses the
    arguments (with the kinds of option ``cardgen build`` declares) and calls the command."""
    import typer

    app = typer.Typer(add_completion=False)

    @app.command()
    def build(
        spec: Path,
        out_file: Path = typer.Option(..., "--out"),
        paper: str = typer.Option("a4", "--paper"),
        only: Optional[str] = typer.Option(None, "--only"),
        jobs: Optional[int] = typer.Option(None, "--jobs", min=1),
        quiet: bool = typer.Option(False, "--quiet"),
    ) -> None:
        print_sheets(spec, out_file)

    app([str(folder), "--out", str(out), "--paper", "a4", "--quiet"], standalone_mode=False)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    stack: tuple[str, ...] = ()
    if len(arguments) == 4 and arguments[2] == "--import-stack" and arguments[3] in STACKS:
        stack = STACKS[arguments[3]]
        arguments = arguments[:2]
    if len(arguments) != 2:
        sys.exit("usage: python bench/job_floor.py SPEC_FOLDER OUT.pdf [--import-stack print|all]")
    for module in stack:
        importlib.import_module(module)
    if stack:
        through_typer(Path(arguments[0]), Path(arguments[1]))
    else:
        print_sheets(Path(arguments[0]), Path(arguments[1]))
