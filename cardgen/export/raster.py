"""Face scenes to pixels, and faces re-framed onto canvases of another size.

Rasterising goes through the same PDF backend the print files use: the scene
becomes a one-page PDF in memory (reportlab), pypdfium2 renders it, Pillow
saves it. The PNG bytes are deterministic: no timestamp, no text chunks, only
the pixels and the resolution (a ``pHYs`` chunk).

A face scene is trim + its spec bleed (3 mm in the shipped games). A print shop
or a virtual table wants another frame: 1/8 in of bleed, a fixed pixel size, or
the trim alone. :func:`reframe` never scales the art: it centres the face's
trim on the new canvas, fills the canvas with the face's background colour and
draws the face on top, clipped to the canvas. Where the new bleed is larger than
the spec's, the extra rim is plain background; where it is smaller, the face's
own bleed is cut back.
"""

from __future__ import annotations

import io

import pypdfium2 as pdfium
from PIL import Image as PILImage

from cardgen.findings import InputError
from cardgen.limits import MAX_BITMAP_PIXELS, MAX_BITMAP_SIDE
from cardgen.render.pdf_backend import write_pdf
from cardgen.render.scene import Box, Group, Rect, Scene, Transform
from cardgen.render.units import MM_PER_INCH

WHITE = "#ffffff"


def trim_of(scene: Scene) -> Box:
    """The scene's trim box (the whole scene when it has none)."""
    return scene.trim_box if scene.trim_box is not None else Box(0.0, 0.0, scene.width_mm, scene.height_mm)


def background_of(scene: Scene) -> str:
    """The colour a face's background is painted in: its first full-bleed filled rectangle, else white.

    Faces are drawn background first (see :mod:`cardgen.render.faces`), so the
    first child that is a filled rectangle covering the whole scene is it.
    """
    for child in scene.children[:1]:
        if isinstance(child, Rect) and child.fill is not None and child.x <= 0 and child.y <= 0:
            if child.x + child.w >= scene.width_mm - 1e-6 and child.y + child.h >= scene.height_mm - 1e-6:
                return child.fill
    return WHITE


def reframe(scene: Scene, width_mm: float, height_mm: float, background: str | None = None) -> Scene:
    """The face centred (by its trim) on a ``width_mm`` x ``height_mm`` canvas, unscaled.

    The canvas is filled with ``background`` (default: the face's own background
    colour), then the face is drawn translated so its trim sits in the middle,
    clipped to the canvas. The result's trim box is the face's trim in canvas
    coordinates and its bleed box is the whole canvas.
    """
    trim = trim_of(scene)
    dx = (width_mm - trim.w) / 2 - trim.x
    dy = (height_mm - trim.h) / 2 - trim.y
    fill = background or background_of(scene)
    children = (
        Rect(0.0, 0.0, width_mm, height_mm, fill=fill),
        Group(children=(Group(children=scene.children, transform=Transform(translate=(dx, dy))),), clip=Box(0.0, 0.0, width_mm, height_mm)),
    )
    new_trim = Box(trim.x + dx, trim.y + dy, trim.w, trim.h)
    return Scene(width_mm, height_mm, children, trim_box=new_trim, bleed_box=Box(0.0, 0.0, width_mm, height_mm))


def with_bleed(scene: Scene, bleed_mm: float) -> Scene:
    """The face with ``bleed_mm`` of bleed on every side (trim + 2 * bleed), see :func:`reframe`."""
    trim = trim_of(scene)
    return reframe(scene, trim.w + 2 * bleed_mm, trim.h + 2 * bleed_mm)


def px_to_mm(px: int, dpi: float) -> float:
    """A pixel count at ``dpi`` as millimetres."""
    return px / dpi * MM_PER_INCH


def mm_to_px(mm: float, dpi: float) -> int:
    """Millimetres at ``dpi`` as a whole pixel count (rounded to nearest)."""
    return int(round(mm / MM_PER_INCH * dpi))


def bitmap_problem(width_px: int, height_px: int) -> str | None:
    """Why a ``width_px`` x ``height_px`` bitmap is over the pixel budget, or None."""
    if width_px > MAX_BITMAP_SIDE or height_px > MAX_BITMAP_SIDE:
        return f"a {width_px}x{height_px} px bitmap has a side over the limit of {MAX_BITMAP_SIDE:,} px (MAX_BITMAP_SIDE)"
    if width_px * height_px > MAX_BITMAP_PIXELS:
        return f"a {width_px}x{height_px} px bitmap holds {width_px * height_px:,} pixels, over the limit of {MAX_BITMAP_PIXELS:,} (MAX_BITMAP_PIXELS)"
    return None


def rasterise(scene: Scene, width_px: int, height_px: int, where: str = "bitmap") -> PILImage.Image:
    """The scene as an RGB image of exactly ``width_px`` x ``height_px`` pixels.

    The scene is rendered uniformly at ``width_px / width``; pdfium rounds the
    bitmap up to whole pixels, so a last row or column of at most one pixel
    (bleed, never trim) is cut off or padded to hit the exact size. A bitmap
    over the pixel budget is refused (InputError naming ``where``) before any memory is taken.
    """
    problem = bitmap_problem(width_px, height_px)
    if problem:
        raise InputError(f"{problem}; lower the dpi or the pixel size", where)
    pdf = pdfium.PdfDocument(write_pdf([scene]))
    try:
        page = pdf[0]
        scale = width_px / (scene.width_mm / MM_PER_INCH * 72.0)
        bitmap = page.render(scale=scale)
        image = bitmap.to_pil().convert("RGB")
        page.close()
    finally:
        pdf.close()
    if image.size != (width_px, height_px):
        canvas = PILImage.new("RGB", (width_px, height_px), (255, 255, 255))
        canvas.paste(image.crop((0, 0, min(width_px, image.width), min(height_px, image.height))), (0, 0))
        image = canvas
    return image


def rasterise_at(scene: Scene, dpi: float, where: str = "bitmap") -> PILImage.Image:
    """The scene at ``dpi``; its pixel size is the scene's size in inches times ``dpi``, rounded."""
    return rasterise(scene, max(1, mm_to_px(scene.width_mm, dpi)), max(1, mm_to_px(scene.height_mm, dpi)), where)


def png_bytes(image: PILImage.Image, dpi: float | None = None) -> bytes:
    """Deterministic PNG bytes: pixels and (optionally) the resolution, no timestamp or text chunks."""
    buffer = io.BytesIO()
    clean = PILImage.new(image.mode, image.size)
    clean.paste(image)
    params: dict[str, object] = {"format": "PNG", "optimize": False, "compress_level": 6}
    if dpi is not None:
        params["dpi"] = (dpi, dpi)
    clean.save(buffer, **params)  # type: ignore[arg-type]
    return buffer.getvalue()
