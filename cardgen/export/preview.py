"""PNG previews: one image per distinct face, and a labelled contact sheet.

Decision: previews are rasterised from the face scenes themselves (each face
rendered as a one-page PDF in memory, then pypdfium2), not from the imposed
print sheets. A face PNG is the full face, trim plus the spec's bleed, so its
size is ``(trim + 2 * bleed) / 25.4 * dpi`` pixels, rounded; cutting the sheets
apart again would only lose the bleed and add the sheet's rounding.

The contact sheet puts every face in a grid (decks in spec order, each card
front followed by its back or second face, components last), every cell the
size of the largest face, with the face key and the copy count written under it
in DejaVu Sans (the font shipped in ``cardgen/data/fonts``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image as PILImage
from PIL import ImageDraw, ImageFont

from cardgen.export.raster import bitmap_problem, mm_to_px, png_bytes, rasterise_at
from cardgen.findings import InputError
from cardgen.fsmove import write_atomic
from cardgen.limits import MAX_BITMAP_SIDE, MAX_CONTACT_SHEET_PIXELS
from cardgen.progress import NoProgress, ProgressHook
from cardgen.render.faces import Face, card_faces
from cardgen.spec.load import LoadedSpec

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"
LABEL_FONT = FONT_DIR / "DejaVuSans.ttf"
CONTACT_SHEET = "contact-sheet.png"
CONTACT_COLUMNS = 8
BACKDROP = (238, 238, 238)
INK = (34, 34, 34)


def ordered_faces(faces: list[Face]) -> list[Face]:
    """Faces in reading order: per deck each card's front then its reverse, the deck back, then components."""
    by_key = {face.key: face for face in faces}
    out: list[Face] = []
    seen: set[str] = set()
    for face in faces:
        if face.key in seen:
            continue
        out.append(face)
        seen.add(face.key)
        reverse = by_key.get(face.reverse) if face.reverse else None
        if reverse is not None and reverse.kind == "front" and reverse.key not in seen:
            out.append(reverse)
            seen.add(reverse.key)
    return out


@dataclass
class PreviewResult:
    """What :func:`write_previews` wrote."""

    faces: list[Path]
    contact_sheet: Path
    dpi: int


def _label_font(size_px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(LABEL_FONT), size_px)


def contact_sheet(images: list[tuple[str, PILImage.Image]], columns: int = CONTACT_COLUMNS, label_px: int = 12) -> PILImage.Image:
    """A grid of the images, each with its label under it, on a light grey backdrop."""
    font = _label_font(label_px)
    gap = max(6, label_px // 2)
    cell_w = max(image.width for _, image in images)
    cell_h = max(image.height for _, image in images)
    label_h = label_px * 2 + 4
    cols = contact_columns(len(images), columns)
    rows = -(-len(images) // cols)
    width = gap + cols * (cell_w + gap)
    height = gap + rows * (cell_h + label_h + gap)
    sheet = PILImage.new("RGB", (width, height), BACKDROP)
    draw = ImageDraw.Draw(sheet)
    for index, (label, image) in enumerate(images):
        row, col = divmod(index, cols)
        x = gap + col * (cell_w + gap)
        y = gap + row * (cell_h + label_h + gap)
        sheet.paste(image, (x + (cell_w - image.width) // 2, y + (cell_h - image.height) // 2))
        text = _fit(draw, label, font, cell_w)
        draw.text((x + cell_w / 2, y + cell_h + 3), text, fill=INK, font=font, anchor="ma")
    return sheet


def contact_columns(count: int, columns: int = CONTACT_COLUMNS) -> int:
    """Columns of the contact sheet: ``columns``, or a square grid when that would make it far taller than wide."""
    if count > columns * columns:
        return math.ceil(math.sqrt(count))
    return max(1, min(columns, count))


def contact_scale(sizes: list[tuple[int, int]], label_px: int, columns: int = CONTACT_COLUMNS) -> float:
    """How much the faces shrink on the contact sheet (1.0: not at all) to keep it within the pixel budget.

    The sheet must stay within :data:`~cardgen.limits.MAX_CONTACT_SHEET_PIXELS` and
    :data:`~cardgen.limits.MAX_BITMAP_SIDE`; a game of thousands of faces gets thumbnails.
    """
    gap = max(6, label_px // 2)
    cell_w = max(w for w, _ in sizes)
    cell_h = max(h for _, h in sizes)
    label_h = label_px * 2 + 4
    cols = contact_columns(len(sizes), columns)
    rows = -(-len(sizes) // cols)

    def fits(scale: float) -> bool:
        width = gap + cols * (max(1, math.floor(cell_w * scale)) + gap)
        height = gap + rows * (max(1, math.floor(cell_h * scale)) + label_h + gap)
        return width <= MAX_BITMAP_SIDE and height <= MAX_BITMAP_SIDE and width * height <= MAX_CONTACT_SHEET_PIXELS

    if fits(1.0):
        return 1.0
    if not fits(0.0):
        raise InputError(f"a contact sheet of {len(sizes):,} faces cannot be drawn within {MAX_CONTACT_SHEET_PIXELS:,} pixels (MAX_CONTACT_SHEET_PIXELS)", CONTACT_SHEET)
    low, high = 0.0, 1.0
    for _ in range(30):
        middle = (low + high) / 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


def _fit(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: int) -> str:
    """``text``, shortened with an ellipsis until it fits ``width`` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while len(text) > 1 and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def write_previews(
    loaded: LoadedSpec, folder: Path, dpi: int = 100, locale: str | None = None, progress: ProgressHook | None = None
) -> PreviewResult:
    """Write ``<key>.png`` for every face and ``contact-sheet.png`` into ``folder`` (``progress`` counts faces, then the sheet)."""
    hook = progress or NoProgress()
    if dpi < 10 or dpi > 1200:
        raise ValueError(f"dpi must be between 10 and 1200, got {dpi}")
    faces = ordered_faces(card_faces(loaded, locale))
    written: list[Path] = []
    cells: list[tuple[str, PILImage.Image]] = []
    sizes = [(max(1, mm_to_px(face.scene.width_mm, dpi)), max(1, mm_to_px(face.scene.height_mm, dpi))) for face in faces]
    for face, (width, height) in zip(faces, sizes):  # every size checked before the first file is written
        problem = bitmap_problem(width, height)
        if problem:
            raise InputError(f"{problem}; lower --dpi", f"preview of {face.key} at {dpi} dpi")
    label_px = max(10, round(dpi / 8))
    scale = contact_scale(sizes, label_px) if sizes else 1.0
    hook.start(len(faces) + 1, "previews")
    for face, (width, height) in zip(faces, sizes):
        image = rasterise_at(face.scene, dpi, f"preview of {face.key}")
        path = folder / f"{face.key}.png"
        write_atomic(path, png_bytes(image, dpi))
        written.append(path)
        if scale < 1.0:  # only the thumbnail is kept: thousands of full faces would not fit in memory
            image = image.resize((max(1, math.floor(width * scale)), max(1, math.floor(height * scale))), PILImage.Resampling.LANCZOS)
        cells.append((f"{face.key} ×{face.copies}", image))
        hook.advance()
    sheet_path = folder / CONTACT_SHEET
    write_atomic(sheet_path, png_bytes(contact_sheet(cells, CONTACT_COLUMNS, label_px), dpi))
    hook.advance()
    from cardgen.export.folder_page import write_folder_page

    spec = loaded.spec
    assert spec is not None
    write_folder_page(spec, folder, "preview", locale or spec.locales[0], [f"{len(written)} faces at {dpi} dpi"])
    return PreviewResult(written, sheet_path, dpi)
