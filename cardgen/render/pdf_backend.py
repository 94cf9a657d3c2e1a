"""PDF backend (reportlab): vector drawing, multi-page, deterministic output.

Scenes are in mm with y down. At the start of each page the backend installs
one transform that converts mm to points and flips the y axis, so primitives
keep their scene coordinates; only text and images are locally flipped back
so they are not drawn upside down. ``invariant=1`` makes the same input give
byte-identical PDFs. The canvas's initial font is a bundled DejaVu face, so no
base-14 font (Helvetica) is ever referenced.
"""

from __future__ import annotations

import io

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, Canvas

from cardgen.render.backend import render_document
from cardgen.render.fonts import DEFAULT_FONT, ensure_registered, register_pdf_fonts, sanitize_text
from cardgen.render.scene import (
    Box,
    Circle,
    ClosePath,
    Color,
    CubicTo,
    Group,
    Image,
    Line,
    LineTo,
    MoveTo,
    Path,
    Polygon,
    QuadTo,
    Rect,
    Scene,
    Text,
)
from cardgen.render.units import PT_PER_MM, pt_to_mm

PdfBox = tuple[float, float, float, float]


def pdf_box(box: Box, page_height_mm: float) -> PdfBox:
    """A y-down mm box as a PDF rectangle (x0, y0, x1, y1) in points, y up."""
    return (
        round(box.x * PT_PER_MM, 4),
        round((page_height_mm - box.bottom) * PT_PER_MM, 4),
        round(box.right * PT_PER_MM, 4),
        round((page_height_mm - box.y) * PT_PER_MM, 4),
    )


class PdfBackend:
    """Renders scenes as pages of one PDF document; :meth:`finish` returns the bytes."""

    def __init__(self, title: str = "", author: str = "", subject: str = "") -> None:
        self._title = title
        self._author = author
        self._subject = subject
        self._buffer = io.BytesIO()
        self._canvas: Canvas | None = None
        self._page_height_mm = 0.0
        self._depth = 0
        self._pages = 0

    # -- document / page -------------------------------------------------
    def begin_document(self) -> None:
        """Create the reportlab canvas (fonts registered, DejaVu as initial font)."""
        register_pdf_fonts()
        self._buffer = io.BytesIO()
        canvas = Canvas(
            self._buffer,
            invariant=1,
            initialFontName=DEFAULT_FONT,
            initialFontSize=10,
            pageCompression=1,
        )
        canvas.setCreator("cardgen")
        canvas.setProducer("cardgen (reportlab)")
        canvas.setTitle(self._title)
        canvas.setAuthor(self._author)
        canvas.setSubject(self._subject)
        self._canvas = canvas
        self._pages = 0

    @property
    def _c(self) -> Canvas:
        if self._canvas is None:
            raise ValueError("begin_document was not called")
        return self._canvas

    def begin_page(self, scene: Scene) -> None:
        """Size the page, set its Trim/BleedBox, install the mm/y-down transform."""
        c = self._c
        self._page_height_mm = scene.height_mm
        c.setPageSize((scene.width_mm * PT_PER_MM, scene.height_mm * PT_PER_MM))
        c.setTrimBox(pdf_box(scene.trim_box, scene.height_mm) if scene.trim_box else None)
        c.setBleedBox(pdf_box(scene.bleed_box, scene.height_mm) if scene.bleed_box else None)
        c.saveState()
        c.transform(PT_PER_MM, 0, 0, -PT_PER_MM, 0, scene.height_mm * PT_PER_MM)
        self._depth = 0

    def end_page(self) -> None:
        """Close the page."""
        if self._depth:
            raise ValueError("unbalanced push_group/pop_group")
        self._c.restoreState()
        self._c.showPage()
        self._pages += 1

    def finish(self) -> bytes:
        """Return the PDF bytes."""
        if self._pages == 0:
            raise ValueError("a PDF needs at least one page")
        data: bytes = self._c.getpdfdata()
        self._canvas = None
        return data

    # -- groups ----------------------------------------------------------
    def push_group(self, group: Group) -> None:
        """saveState, apply the transform, then clip (in local coordinates)."""
        c = self._c
        c.saveState()
        self._depth += 1
        t = group.transform
        if t is not None and not t.is_identity:
            if t.translate != (0.0, 0.0):
                c.translate(*t.translate)
            if t.rotate:
                c.rotate(t.rotate)
            if t.scale != (1.0, 1.0):
                c.scale(*t.scale)
        if group.clip is not None:
            clip = c.beginPath()
            clip.rect(group.clip.x, group.clip.y, group.clip.w, group.clip.h)
            c.clipPath(clip, stroke=0, fill=0)

    def pop_group(self) -> None:
        """restoreState."""
        if self._depth == 0:
            raise ValueError("pop_group without push_group")
        self._depth -= 1
        self._c.restoreState()

    # -- paint helpers ---------------------------------------------------
    def _set_paint(self, fill: Color, stroke: Color, stroke_width: float) -> tuple[int, int]:
        c = self._c
        do_fill = fill is not None
        do_stroke = stroke is not None and stroke_width > 0
        if do_fill:
            c.setFillColor(HexColor(fill))
        if do_stroke:
            c.setStrokeColor(HexColor(stroke))
            c.setLineWidth(stroke_width)
        return int(do_stroke), int(do_fill)

    # -- primitives ------------------------------------------------------
    def draw_rect(self, rect: Rect) -> None:
        """Rectangle (rounded when radius > 0)."""
        stroke, fill = self._set_paint(rect.fill, rect.stroke, rect.stroke_width)
        if not (stroke or fill):
            return
        if rect.radius > 0:
            self._c.roundRect(rect.x, rect.y, rect.w, rect.h, rect.radius, stroke=stroke, fill=fill)
        else:
            self._c.rect(rect.x, rect.y, rect.w, rect.h, stroke=stroke, fill=fill)

    def draw_line(self, line: Line) -> None:
        """Stroked segment."""
        stroke, _ = self._set_paint(None, line.stroke, line.stroke_width)
        if stroke:
            self._c.line(line.x1, line.y1, line.x2, line.y2)

    def draw_polygon(self, polygon: Polygon) -> None:
        """Closed polygon, non-zero fill rule."""
        stroke, fill = self._set_paint(polygon.fill, polygon.stroke, polygon.stroke_width)
        if not (stroke or fill) or not polygon.points:
            return
        p = self._c.beginPath()
        first, *rest = polygon.points
        p.moveTo(*first)
        for point in rest:
            p.lineTo(*point)
        p.close()
        self._c.drawPath(p, stroke=stroke, fill=fill, fillMode=FILL_NON_ZERO)

    def draw_path(self, path: Path) -> None:
        """General path; quadratic curves are converted to cubic ones."""
        stroke, fill = self._set_paint(path.fill, path.stroke, path.stroke_width)
        if not (stroke or fill):
            return
        p = self._c.beginPath()
        cx, cy = 0.0, 0.0
        for cmd in path.commands:
            match cmd:
                case MoveTo(x, y):
                    p.moveTo(x, y)
                    cx, cy = x, y
                case LineTo(x, y):
                    p.lineTo(x, y)
                    cx, cy = x, y
                case CubicTo(x1, y1, x2, y2, x, y):
                    p.curveTo(x1, y1, x2, y2, x, y)
                    cx, cy = x, y
                case QuadTo(qx, qy, x, y):
                    p.curveTo(
                        cx + 2 / 3 * (qx - cx),
                        cy + 2 / 3 * (qy - cy),
                        x + 2 / 3 * (qx - x),
                        y + 2 / 3 * (qy - y),
                        x,
                        y,
                    )
                    cx, cy = x, y
                case ClosePath():
                    p.close()
        mode = FILL_EVEN_ODD if path.fill_rule == "evenodd" else FILL_NON_ZERO
        self._c.drawPath(p, stroke=stroke, fill=fill, fillMode=mode)

    def draw_circle(self, circle: Circle) -> None:
        """Circle."""
        stroke, fill = self._set_paint(circle.fill, circle.stroke, circle.stroke_width)
        if stroke or fill:
            self._c.circle(circle.cx, circle.cy, circle.r, stroke=stroke, fill=fill)

    def draw_text(self, text: Text) -> None:
        """Text run with a bundled TTF face, un-flipped locally around its baseline."""
        content = sanitize_text(text.text)
        if not content:
            return
        c = self._c
        c.saveState()
        c.translate(text.x, text.y)
        c.scale(1, -1)
        c.setFont(ensure_registered(text.font), pt_to_mm(text.size_pt))
        c.setFillColor(HexColor(text.fill))
        if text.anchor == "middle":
            c.drawCentredString(0, 0, content)
        elif text.anchor == "end":
            c.drawRightString(0, 0, content)
        else:
            c.drawString(0, 0, content)
        c.restoreState()

    def draw_image(self, image: Image) -> None:
        """Raster image stretched into its box."""
        c = self._c
        c.saveState()
        c.translate(image.x, image.y + image.h)
        c.scale(1, -1)
        c.drawImage(image.path, 0, 0, image.w, image.h, mask="auto")
        c.restoreState()


def write_pdf(scenes: list[Scene] | tuple[Scene, ...], title: str = "") -> bytes:
    """Render scenes as consecutive pages of one PDF and return its bytes."""
    return render_document(scenes, PdfBackend(title=title))
