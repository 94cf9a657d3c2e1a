"""Print sheets read back as a printer would see them (pypdfium2 rasterisation, pypdf text):
the printed bleed, crop mark length and place, the guide's 50 mm scale bar, packing and
the duplex run, sideways cards whose backs stand upright, and the back offset."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest
from PIL import Image
from render_helpers import BLEED, TRIM_H, TRIM_W, make_face, read_pdf

from cardgen.render.scene import Rect, Scene, Text, card_scene
from cardgen.render.sheet_guide import duplex_test_sheet, with_guide
from cardgen.render.sheets import FooterInfo, PrintItem, SheetTemplate, builtin_sheet_template, impose

FOOTER = FooterInfo("Generic Game", "v1", "CC0")
DPI = 300
PX_PER_MM = DPI / 25.4


def _raster(pdf: bytes, page: int, dpi: int = DPI) -> Image.Image:
    document = pdfium.PdfDocument(pdf)
    return document[page].render(scale=dpi / 72).to_pil().convert("RGB")


def _pixels(image: Image.Image) -> list[tuple[int, int, int]]:
    """The RGB pixels of an image, row by row."""
    data = image.convert("RGB").tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]


def _runs(row: bytes) -> list[tuple[int, int]]:
    """(start, length) of every run of zero bytes in a thresholded row."""
    return [(m.start(), m.end() - m.start()) for m in re.finditer(rb"\x00+", row)]


def _dark(image: Image.Image, box: tuple[int, int, int, int], level: int = 100) -> Image.Image:
    """The box as a 0/255 image: 0 where the pixel is dark."""
    return image.crop(box).convert("L").point(lambda v: 0 if v < level else 255)


def _banded_face(bleed: float = BLEED) -> Scene:
    """A face whose bleed is pure red and whose trim is pure blue, with a yellow square at its top-left corner."""
    return card_scene(TRIM_W, TRIM_H, bleed, [
        Rect(0, 0, TRIM_W + 2 * bleed, TRIM_H + 2 * bleed, fill="#ff0000"),
        Rect(bleed, bleed, TRIM_W, TRIM_H, fill="#0000ff"),
        Rect(bleed, bleed, 8, 8, fill="#ffff00"),
    ])


def _red_band_mm(image: Image.Image, y_mm: float, x_from_mm: float, x_to_mm: float) -> list[float]:
    """Lengths (mm) of the red runs along one row of the page."""
    y = round(y_mm * PX_PER_MM)
    row = image.crop((round(x_from_mm * PX_PER_MM), y, round(x_to_mm * PX_PER_MM), y + 1))
    red = bytes(0 if (r > 200 and g < 60 and b < 60) else 255 for r, g, b in _pixels(row))
    return [length / PX_PER_MM for _, length in _runs(red)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_card_prints_three_mm_of_bleed_read_back_from_the_raster(paper: str) -> None:
    template = builtin_sheet_template(paper)
    sheets = impose([PrintItem(_banded_face(), TRIM_W, TRIM_H, BLEED, copies=2)], template, FOOTER)
    image = _raster(sheets.to_pdf(), 0)
    for placement in sheets.placements_on(0):
        middle = placement.trim.y + placement.trim.h / 2
        bands = _red_band_mm(image, middle, placement.bleed.x, placement.bleed.right)
        assert len(bands) == 2, bands
        for band in bands:  # left and right bleed of the card, read off the pixels
            assert band == pytest.approx(3.0, abs=0.15)


def test_a_narrower_printed_bleed_shows_in_the_raster() -> None:
    """The same measurement catches a template that prints less bleed (the mutation the check guards against)."""
    template = builtin_sheet_template("a4").model_copy(update={"sheet_bleed_mm": 1.5})
    sheets = impose([PrintItem(_banded_face(), TRIM_W, TRIM_H, BLEED)], template, FOOTER)
    placement = sheets.placements[0]
    bands = _red_band_mm(_raster(sheets.to_pdf(), 0), placement.trim.y + 20, placement.bleed.x, placement.bleed.right)
    assert [round(b, 1) for b in bands] == [pytest.approx(1.5, abs=0.15)] * 2


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_are_four_mm_long_and_inside_the_printable_area(paper: str) -> None:
    template = builtin_sheet_template(paper)
    sheets = impose([PrintItem(make_face("M"), TRIM_W, TRIM_H, BLEED, copies=8)], template, FOOTER)
    image = _raster(sheets.to_pdf(), 0)
    placements = sheets.placements_on(0)
    top = min(p.bleed.y for p in placements)
    # the band above the cards holds only the vertical marks: measure each one's length in pixels
    band = _dark(image, (0, 0, image.width, round(top * PX_PER_MM) - 1))
    columns = band.transpose(Image.Transpose.ROTATE_90)  # columns of the page become rows
    lengths = [length / PX_PER_MM for row in range(columns.height) for _, length in _runs(columns.crop((0, row, columns.width, row + 1)).tobytes())]
    assert lengths, "marks above the cards"
    assert max(lengths) == pytest.approx(template.crop_marks.length_mm, abs=0.2)
    # no ink at all in the unprintable margins
    m = template.margins_mm
    w, h = image.size
    for box in ((0, 0, w, round(m.top * PX_PER_MM)), (0, h - round(m.bottom * PX_PER_MM), w, h), (0, 0, round(m.left * PX_PER_MM), h), (w - round(m.right * PX_PER_MM), 0, w, h)):
        assert _dark(image, box, 200).getextrema() == (255, 255), box
    expected = {round(x, 3) for p in placements for x in (p.trim.x, p.trim.right)}
    found = {round(mark.x1, 3) for mark in sheets.crop_marks[0] if mark.x1 == mark.x2}
    assert expected <= found  # a vertical mark on every vertical trim line


def test_crop_mark_settings_come_from_the_template() -> None:
    base = builtin_sheet_template("a4")
    longer = base.model_copy(update={"crop_marks": base.crop_marks.model_copy(update={"length_mm": 3.0, "weight_mm": 0.3})})
    marks = impose([PrintItem(make_face("M"), TRIM_W, TRIM_H, BLEED)], longer, FOOTER).crop_marks[0]
    assert {round(abs(m.x2 - m.x1) + abs(m.y2 - m.y1), 6) for m in marks} == {3.0}
    assert {m.stroke_width for m in marks} == {0.3}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_guide_page_scale_bar_is_fifty_mm_and_its_text_says_how_to_print(paper: str) -> None:
    template = builtin_sheet_template(paper)
    items = [PrintItem(make_face("G"), TRIM_W, TRIM_H, BLEED, back=make_face("B", "#ccddff"), copies=3)]
    sheets = with_guide(impose(items, template, FOOTER), template, FOOTER, {0: BLEED}, "en", "game-duplex-test.pdf")
    pdf = sheets.to_pdf()
    image = _raster(pdf, 0, dpi=600)
    dark = image.convert("L").point(lambda v: 0 if v < 100 else 255)
    longest = max(length for y in range(0, dark.height // 3) for _, length in _runs(dark.crop((0, y, dark.width, y + 1)).tobytes()))
    assert longest / (600 / 25.4) == pytest.approx(50.0, abs=0.1)
    text = read_pdf(pdf).pages[0].extract_text()
    for words in ("100", "50", "double-sided", "long edge", "game-duplex-test.pdf", "back_offset_mm", f"templates/sheets/{paper}.yaml", "crop marks", "3 mm"):
        assert words.replace(" ", "") in text.replace(" ", "").replace("\xa0", ""), words
    assert len(sheets.pages) % 2 == 0 and sheets.placements[0].page_index >= 2


def test_decks_of_one_size_share_sheets_and_single_sided_sheets_get_blank_backs() -> None:
    template = builtin_sheet_template("a4")
    small = card_scene(25, 25, BLEED, [Rect(0, 0, 31, 31, fill="#00aa00")])
    items = [
        PrintItem(make_face("A"), TRIM_W, TRIM_H, BLEED, back=make_face("a", "#cccccc"), copies=7),
        PrintItem(small, 25, 25, BLEED, copies=3),
        PrintItem(make_face("B"), TRIM_W, TRIM_H, BLEED, back=make_face("b", "#dddddd"), copies=1),
    ]
    sheets = impose(items, template, FOOTER)
    fronts = [p for p in sheets.placements if p.side == "front"]
    assert {p.page_index for p in fronts if p.item_index in (0, 2)} == {0}  # 7 + 1 poker cards on one sheet
    assert {p.page_index for p in fronts if p.item_index == 1} == {2}
    assert len(sheets.pages) == 4  # the tiles' sheet has a (blank) back page too
    assert not sheets.placements_on(3)
    footer = sheets.pages[3].children[-1]
    assert "sheet 2 of 2 (back)" in getattr(footer, "text") and "left blank" in getattr(footer, "text")


def _yellow_centre(image: Image.Image) -> tuple[float, float]:
    """Centre (mm) of the yellow pixels of a page."""
    mask = Image.frombytes("L", image.size, bytes(255 if (r > 200 and g > 200 and b < 60) else 0 for r, g, b in _pixels(image)))
    box = mask.getbbox()
    assert box is not None
    scale = 72 / 25.4
    return ((box[0] + box[2]) / 2 / scale, (box[1] + box[3]) / 2 / scale)


@pytest.mark.parametrize("flip", ["long_edge", "short_edge"])
def test_sideways_cards_have_upright_backs(flip: str) -> None:
    """On the cut card, the back's top-left corner lies behind the front's top-right corner."""
    template = builtin_sheet_template("a4").model_copy(update={"duplex_flip": flip, "card_rotation": "sideways"})
    front = _banded_face()
    back = card_scene(TRIM_W, TRIM_H, BLEED, [
        Rect(0, 0, TRIM_W + 2 * BLEED, TRIM_H + 2 * BLEED, fill="#0000ff"),
        Rect(BLEED + TRIM_W - 8, BLEED, 8, 8, fill="#ffff00"),  # the back's top-right corner
    ])
    sheets = impose([PrintItem(front, TRIM_W, TRIM_H, BLEED, back=back)], template, FOOTER)
    pdf = sheets.to_pdf()
    fx, fy = _yellow_centre(_raster(pdf, 0, 72))
    bx, by = _yellow_centre(_raster(pdf, 1, 72))
    w, h = template.paper.width_mm, template.paper.height_mm
    seen_through = (w - bx, by) if flip == "long_edge" else (bx, h - by)
    assert seen_through == pytest.approx((fx, fy), abs=0.8)
    assert sheets.placements[0].turn == 90 and sheets.placements[1].turn == (-90 if flip == "long_edge" else 90)


def test_back_offset_moves_back_pages_and_the_duplex_test_back() -> None:
    template: SheetTemplate = builtin_sheet_template("a4")
    moved = template.model_copy(update={"back_offset_mm": template.back_offset_mm.model_copy(update={"x": 1.2, "y": -0.8})})
    items = [PrintItem(make_face("O"), TRIM_W, TRIM_H, BLEED, back=make_face("o", "#cccccc"), copies=2)]
    plain = [p for p in impose(items, template, FOOTER).placements if p.side == "back"]
    shifted = [p for p in impose(items, moved, FOOTER).placements if p.side == "back"]
    for a, b in zip(plain, shifted, strict=True):
        assert (b.trim.x - a.trim.x, b.trim.y - a.trim.y) == pytest.approx((1.2, -0.8))
    fronts_a = [p.trim for p in impose(items, template, FOOTER).placements if p.side == "front"]
    fronts_b = [p.trim for p in impose(items, moved, FOOTER).placements if p.side == "front"]
    assert fronts_a == fronts_b
    from cardgen.render.scene import Circle

    def centres(sheet_template: SheetTemplate, page: int) -> list[tuple[float, float]]:
        return [(c.cx, c.cy) for c in duplex_test_sheet(sheet_template, FOOTER).pages[page].children if isinstance(c, Circle)]

    for (ax, ay), (bx, by) in zip(centres(template, 1), centres(moved, 1), strict=True):
        assert (bx - ax, by - ay) == pytest.approx((1.2, -0.8))
    assert centres(template, 0) == centres(moved, 0)


def _printed_sizes(pdf: bytes) -> list[tuple[str, float, int]]:
    """(character, size in points as printed, page) of every visible character, read by pdfium."""
    import ctypes
    import math

    import pypdfium2.raw as pdfium_raw

    out = []
    document = pdfium.PdfDocument(pdf)
    for index in range(len(document)):
        textpage = document[index].get_textpage()
        for char in range(textpage.count_chars()):
            letter = chr(pdfium_raw.FPDFText_GetUnicode(textpage.raw, char))
            if not letter.strip():
                continue
            matrix = pdfium_raw.FS_MATRIX()
            assert pdfium_raw.FPDFText_GetMatrix(textpage.raw, char, ctypes.byref(matrix))
            size = pdfium_raw.FPDFText_GetFontSize(textpage.raw, char) * math.hypot(matrix.c, matrix.d)
            out.append((letter, size, index))
    return out


@pytest.mark.parametrize("game", ["ceramus", "keramikos", "mausoleum-guardians", "ceratopsians"])
def test_no_printed_character_of_a_shipped_game_is_below_six_points(game: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Every character on the print sheets (faces, credit lines, footers, the guide), read back by pdfium."""
    from pathlib import Path

    from cardgen.artefacts import BuildContext, BuildOptions
    from cardgen.render.produce import produce_cards
    from cardgen.spec.load import load_spec

    loaded = load_spec(Path(__file__).resolve().parents[2] / "specs" / game)
    out = tmp_path_factory.mktemp(game)
    context = BuildContext(loaded, out, BuildOptions(papers=("a4",)))
    produce_cards(context)
    assert not context.findings
    sizes = _printed_sizes((out / f"{game}-print-a4.pdf").read_bytes())
    assert len(sizes) > 1000
    small = [(letter, round(size, 2), page) for letter, size, page in sizes if size < 6.0 - 0.01]
    assert not small, small[:10]


def test_the_size_reader_sees_small_type() -> None:
    """The reader above is not blind: a 4.2 pt credit line on a sheet is reported at 4.2 pt."""
    face = card_scene(TRIM_W, TRIM_H, BLEED, [Rect(0, 0, 69, 94, fill="#ffffff"), Text(10, 80, "credit", "DejaVuSans", 4.2, "#777777")])
    sheets = impose([PrintItem(face, TRIM_W, TRIM_H, BLEED, copies=2)], builtin_sheet_template("a4"), FOOTER)
    sizes = {round(size, 2) for letter, size, _ in _printed_sizes(sheets.to_pdf()) if letter in "credit"}
    assert 4.2 in sizes


def test_the_guide_says_why_a_card_prints_less_than_three_mm_of_bleed() -> None:
    items = [PrintItem(make_face("T"), TRIM_W, TRIM_H, BLEED, copies=2)]
    thin = builtin_sheet_template("a4").model_copy(update={"sheet_bleed_mm": 1.5})
    pdf = with_guide(impose(items, thin, FOOTER), thin, FOOTER, {0: BLEED}, "en", "t.pdf").to_pdf()
    text = " ".join(read_pdf(pdf).pages[0].extract_text().replace("\xa0", " ").split())
    assert "1.5 mm of bleed" in text and "Less than 3 mm because the sheet template prints at most 1.5 mm" in text
    small = card_scene(TRIM_W, TRIM_H, 1.0, [Rect(0, 0, TRIM_W + 2, TRIM_H + 2, fill="#ffffff")])
    full = builtin_sheet_template("a4")
    pdf = with_guide(impose([PrintItem(small, TRIM_W, TRIM_H, 1.0)], full, FOOTER), full, FOOTER, {0: 1.0}, "pt_BR", "t.pdf").to_pdf()
    text = " ".join(read_pdf(pdf).pages[0].extract_text().replace("\xa0", " ").split())
    assert "com 1 mm de sangria" in text and "Menos de 3 mm porque o tamanho da carta na especificação tem só 1 mm" in text
    assert "0,5 mm além da sangria" in text  # numbers as the card language writes them
