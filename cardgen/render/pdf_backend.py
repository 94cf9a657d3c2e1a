"""PDF backend (reportlab): vector drawing, multi-page, deterministic output.

Scenes are in mm with y down. At the start of each page the backend installs
one transform that converts mm to points and flips the y axis, so primitives
keep their scene coordinates; only text and images are locally flipped back
so they are not drawn upside down. ``invariant=1`` makes the same input give
byte-identical PDFs. The canvas's initial font is a bundled DejaVu face, so no
base-14 font (Helvetica) is ever referenced.

Content a scene marks as shared (:class:`~cardgen.render.scene.SharedContent`,
e.g. a card face placed on many sheet slots) is defined once per document as
a PDF Form XObject and placed by reference (``Do``) under each group's own
transform and clip. reportlab's ``beginForm`` starts from a reset graphics
state, so forms are defined when a page begins, before its content: the page's
scene is scanned for shared content not yet defined, in drawing order, and the
forms are named by order of first appearance (deterministic). A backend that
draws onto someone else's canvas (the rulebook's pictures) never begins a page,
so it defines no forms and draws shared content in place.

Each page is formatted into its final bytes (its dictionary and compressed
content stream) as soon as it ends, and reportlab's page objects are let go:
reportlab keeps every page until the file is written, which for a deck of
thousands of cards (the one-card-per-page bleed PDF) held most of a build's
memory. What stays to the end is only what needs the whole document (fonts,
forms, the page tree, the catalogue).

The hot path avoids repeated work: colours are parsed once per ``#rrggbb``
string, fill/stroke colour and line width are only set when they change
(tracked across save/restore), and text runs are positioned with a text
matrix instead of a saved, transformed and restored graphics state.
"""

from __future__ import annotations

import io
import zlib
from operator import attrgetter
from dataclasses import dataclass
from typing import Any

from reportlab import rl_config
from reportlab.lib.rl_accel import asciiBase85Encode, fp_str
from reportlab.pdfbase.pdfdoc import BasicFonts, NoEncryption, PDFObject, PDFObjectReference, xObjectName
from reportlab.pdfbase.pdfdoc import format as pdf_format
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.pdfbase.pdfutils import _wrap as wrap_a85
from reportlab.pdfgen import canvas as canvas_module
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from cardgen.render.backend import draw_children, render_document
from cardgen.render.fonts import DEFAULT_FONT, ensure_registered, sanitize_text
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
    Primitive,
    QuadTo,
    Rect,
    Scene,
    SharedContent,
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


_RGB: dict[str, tuple[float, float, float]] = {}
"""``#rrggbb`` -> (r, g, b) in 0..1, the same values reportlab's HexColor gives."""


def _rgb(colour: str) -> tuple[float, float, float]:
    value = _RGB.get(colour)
    if value is None:
        n = int(colour[1:], 16)
        value = _RGB[colour] = ((n >> 16) / 255.0, ((n >> 8) & 0xFF) / 255.0, (n & 0xFF) / 255.0)
    return value


_GROUP_STATE = ("_currentMatrix", "_fillColorObj", "_strokeColorObj", "_lineWidth", "_fontname", "_fontsize", "_leading")
"""The canvas attributes that drawing inside a group can change (its transform, paint and line width, and the
font of a text object drawn by reportlab), saved and restored around each group in place of reportlab's copy
of its whole graphics state: nothing the backend draws inside a group changes any other (an image saves and
restores the whole state itself)."""
_group_state = attrgetter(*_GROUP_STATE)

_RGB_OPS: dict[tuple[object, str], str] = {}
"""``0.1 0.2 0.3 rg`` by (colour, operator): the operator reportlab's canvas writes for an RGB tuple (one per colour used)."""

_UNKNOWN = object()
"""Tracked paint state before anything is known (page or form start): always set."""


class _Settled(PDFObject):
    """A page or content stream already formatted: the document writes its bytes as they are, under its object number.

    The bytes are handed over once: the document copies them into the file's pieces as it writes it, so an
    object that kept its own copy until the file was joined held a second copy of every page at the build's
    peak (8 MB of a 5,400-card bleed PDF). A second request is a bug, and fails rather than write an empty object.
    """

    def __init__(self, data: bytes) -> None:
        self.data: bytes | None = data

    def format(self, document: object) -> bytes:
        """The object's bytes (between reportlab's ``obj`` and ``endobj``), given once."""
        data, self.data = self.data, None
        if data is None:
            raise RuntimeError("a settled PDF object was written twice")
        return data


def _settled(name: str, data: bytes) -> _Settled:
    settled = _Settled(data)
    settled.__InternalName__ = name  # reportlab's mark of a registered object (so the page tree can refer to it)
    return settled


def settle_last_page(canvas: Canvas) -> None:
    """Format the page ``canvas`` has just shown (its dictionary and content stream) and keep only the bytes.

    reportlab numbers and formats every object when the file is written, so it
    keeps every page object, with its content, until then. A page's bytes do
    not depend on anything later pages do (its fonts and forms are referred to
    by name, through the document-wide font dictionary and the form objects,
    which are still formatted at the end), so they are made now, and the
    page's objects are replaced in reportlab's table by their bytes.
    """
    doc = canvas._doc
    pages = doc.Pages.pages
    page = pages[-1]
    name = page.__InternalName__
    data = pdf_format(page, doc, toplevel=1)  # registers the content stream (page.Contents) as an object of its own
    settled = _settled(name, data)
    doc.idToObject[name] = settled
    pages[-1] = settled
    contents = page.Contents
    content_name = getattr(contents, "__InternalName__", None)
    if content_name is not None and doc.idToObject.get(content_name) is contents:
        doc.idToObject[content_name] = _settled(content_name, pdf_format(contents, doc, toplevel=1))


def _plain_page(canvas: Canvas) -> bool:
    """Whether the page being drawn uses only what :func:`show_page` writes: a compressed page of an unencrypted document, no page transition, duration,
    crop marks, annotations, graphics-state dictionaries, shadings or named colour spaces."""
    c: Any = canvas
    return bool(c._pageCompression) and isinstance(c._doc.encrypt, NoEncryption) and not (
        c._pageTransition or c._pageDuration is not None or c._cropMarks or c._annotationrefs or c._extgstate.getState()
        or c._shadingUsed or c._colorsUsed or c._cropBox or c._artBox
    )


def _array(values: tuple[float, ...] | list[float]) -> str:
    key = tuple(values)  # (fp_str writes equal numbers alike, 0 and -0.0 included, so equal keys give equal text)
    text = _ARRAYS.get(key)
    if text is None:
        if len(_ARRAYS) >= 4096:
            _ARRAYS.clear()
        text = _ARRAYS[key] = "[ " + " ".join(fp_str(v) for v in values) + " ]"
    return text


_ROUND_RECTS: dict[tuple[float, ...], tuple[str, ...]] = {}
"""A rounded rectangle's path operators (as reportlab's path object writes them) by its numbers."""


def _round_rect_path(x: float, y: float, w: float, h: float, radius: float) -> tuple[str, ...]:
    key = (x, y, w, h, radius)  # (fp_str writes equal numbers alike, so equal keys give equal operators)
    code = _ROUND_RECTS.get(key)
    if code is None:
        if len(_ROUND_RECTS) >= 4096:
            _ROUND_RECTS.clear()
        entries: list[str] = []
        PDFPathObject(code=entries).roundRect(x, y, w, h, radius)
        code = _ROUND_RECTS[key] = tuple(entries)
    return code


_ARRAYS: dict[tuple[float, ...], str] = {}
"""A page box's PDF array by its numbers: every page of a size writes the same three."""


_SMALL_STREAMS: dict[tuple[bytes, bool, bool], bytes] = {}
"""Encoded stream objects of short page contents by content and filters: a deck's common back is one page of the
bleed PDF per card, each the same few operators (a form placed on the page)."""
SMALL_STREAM_BYTES = 512
"""The longest page content whose encoded stream is kept (a page placing a form; a drawn face is longer)."""
_SMALL_STREAMS_LIMIT = 256


def _content_stream(content: bytes, a85: bool, wrap: bool) -> bytes:
    """A page's content stream object as reportlab's filters write it: compressed (Flate), then ASCII85-encoded
    when ``a85`` (lines wrapped when ``wrap``), after its dictionary. The same content always gives the same bytes
    (compression is deterministic), so the stream of a short content is made once and kept: compressing costs
    about 12 microseconds however short the content, most of it setting the compressor up."""
    key = (content, a85, wrap)
    small = len(content) <= SMALL_STREAM_BYTES
    if small:
        known = _SMALL_STREAMS.get(key)
        if known is not None:
            return known
    packed = zlib.compress(content)  # reportlab's Flate filter, then its ASCII85 one when it uses it
    filters = "/FlateDecode"
    if a85:
        encoded = asciiBase85Encode(packed)
        packed = (wrap_a85(encoded) if wrap else encoded).encode("latin-1")
        filters = "/ASCII85Decode /FlateDecode"
    data = f"<<\n/Filter [ {filters} ] /Length {len(packed)}\n>>\nstream\n".encode("latin-1") + packed + b"endstream\n"
    if small:
        if len(_SMALL_STREAMS) >= _SMALL_STREAMS_LIMIT:
            _SMALL_STREAMS.clear()
        _SMALL_STREAMS[key] = data
    return data


def show_page(canvas: Canvas) -> None:
    """End the page being drawn, as ``canvas.showPage()`` does, and write its objects' bytes at once.

    For a plain page (see :func:`_plain_page`) the page dictionary is written
    here, with the entries reportlab writes for it (MediaBox, TrimBox and
    BleedBox when set, Rotate, resources naming the document's fonts, the
    forms the page places and every procedure set, its parent and content),
    and so is its content stream, compressed and encoded by reportlab's own
    filters (Flate, then ASCII85 when reportlab uses it), instead of through
    reportlab's general object formatter, which took most of a large
    document's writing time. Any other page is shown by reportlab and
    then settled (:func:`settle_last_page`).
    """
    if not _plain_page(canvas):
        canvas.showPage()
        settle_last_page(canvas)
        return
    c: Any = canvas
    doc = c._doc
    c._code.append(" ")
    content = ("\n".join(c._psCommandsBeforePage + [c._preamble] + c._code + c._psCommandsAfterPage) + "\n").encode("utf-8")
    content_data = _content_stream(content, bool(rl_config.useA85), bool(rl_config.wrapA85))
    content_ref = doc.Reference(_Settled(content_data)).format(doc).decode("latin-1")
    width, height = c._pagesize
    rotation = c._pageRotation
    media = [0, 0, height, width] if rotation in (90, 270) else [0, 0, width, height]
    parts = ["<<\n"]
    if c._bleedBox:
        parts.append(f"/BleedBox {_array(c._bleedBox)} ")
    refs = getattr(doc, "_cardgen_page_refs", None)
    if refs is None:  # the page tree's and the font dictionary's references: the same on every page of a document
        refs = doc._cardgen_page_refs = (
            doc.Reference(doc.Pages).format(doc).decode("latin-1"), PDFObjectReference(BasicFonts).format(doc).decode("latin-1")
        )
    parts.append(f"/Contents {content_ref} /MediaBox {_array(media)} /Parent {refs[0]} ")
    procs = "/PDF /Text /ImageB /ImageC /ImageI" if c._currentPageHasImages else "/PDF /Text"
    parts.append(f"/Resources <<\n/Font {refs[1]} /ProcSet [ {procs} ]")
    forms = c._formsinuse
    if forms:
        names = sorted({xObjectName(form) for form in forms})
        refs = "\n".join(f"/{n} {PDFObjectReference(n).format(doc).decode('latin-1')}" for n in names)
        parts.append(f" /XObject <<\n{refs}\n>>")
    parts.append(f"\n>> /Rotate {fp_str(rotation)} ")
    if c._trimBox:
        parts.append(f"/TrimBox {_array(c._trimBox)} ")
    parts.append("/Type /Page\n>>")
    doc.addPage(_Settled("".join(parts).encode("latin-1")))
    if c._onPage:
        c._onPage(c._pageNumber)
    c._startPage()


def _transform_after_save(c: Any, a: float, b: float, cc: float, d: float, e: float, f: float) -> None:
    """``c.transform(a, b, cc, d, e, f)`` right after a ``q``: what reportlab's ``transform`` does then (its matrix
    tracked, one ``cm`` written, since the operator before is not one it could merge with), in one call."""
    if not canvas_module.ENABLE_TRACKING or c._code[-1] != "q":
        c.transform(a, b, cc, d, e, f)
        return
    a0, b0, c0, d0, e0, f0 = c._currentMatrix
    c._currentMatrix = (a0 * a + c0 * b, b0 * a + d0 * b, a0 * cc + c0 * d, b0 * cc + d0 * d, a0 * e + c0 * f + e0, b0 * e + d0 * f + f0)
    c._code.append("%s cm" % fp_str(a, b, cc, d, e, f))


@dataclass(frozen=True)
class _Form:
    """A defined Form XObject: its reportlab name and the content it was made from."""

    name: str
    children: tuple[Primitive, ...]
    bounds: Box


class PdfBackend:
    """Renders scenes as pages of one PDF document; :meth:`finish` returns the bytes."""

    colour_space: str | None = None
    """reportlab's ``enforceColorSpace``: None paints RGB; a subclass painting CMYK sets ``"cmyk"``, so
    any colour that reaches the canvas in another space is an error rather than a silent conversion."""

    def __init__(self, title: str = "", author: str = "", subject: str = "") -> None:
        self._title = title
        self._author = author
        self._subject = subject
        self._buffer = io.BytesIO()
        self._canvas: Canvas | None = None
        self._depth = 0
        self._pages = 0
        self._forms: dict[str, _Form] = {}
        self._ascii_fonts: dict[str, bool] = {}
        """Whether a font encodes every printable ASCII character as itself in subset 0 in this document."""
        self._text_faces: dict[str, tuple[str, Any]] = {}
        """A scene font's key -> its reportlab name and font object (registered on first use)."""
        self._font_ops: dict[tuple[str, int, float], str] = {}
        """(font, subset, size) -> the operators selecting it, in this document (see :meth:`_font_operators`)."""
        self._fill: object = _UNKNOWN
        self._stroke: object = _UNKNOWN
        self._width: object = _UNKNOWN
        self._saved: list[tuple[object, object, object, tuple[object, ...]]] = []

    # -- document / page -------------------------------------------------
    def begin_document(self) -> None:
        """Create the reportlab canvas with DejaVu as its initial font; other faces are registered as text first uses them."""
        ensure_registered(DEFAULT_FONT)
        self._buffer = io.BytesIO()
        canvas = Canvas(
            self._buffer,
            invariant=1,
            initialFontName=DEFAULT_FONT,
            initialFontSize=10,
            pageCompression=1,
            enforceColorSpace=self.colour_space,
        )
        canvas.setCreator("cardgen")
        canvas.setProducer("cardgen (reportlab)")
        canvas.setTitle(self._title)
        canvas.setAuthor(self._author)
        canvas.setSubject(self._subject)
        self._canvas = canvas
        self._pages = 0
        self._forms = {}
        self._ascii_fonts = {}
        self._font_ops = {}

    @property
    def _c(self) -> Canvas:
        if self._canvas is None:
            raise ValueError("begin_document was not called")
        return self._canvas

    def begin_page(self, scene: Scene) -> None:
        """Define the page's new shared content as forms, size the page, set its
        Trim/BleedBox, install the mm/y-down transform."""
        c = self._c
        self._define_forms(scene.children)
        c.setPageSize((scene.width_mm * PT_PER_MM, scene.height_mm * PT_PER_MM))
        c.setTrimBox(pdf_box(scene.trim_box, scene.height_mm) if scene.trim_box else None)
        c.setBleedBox(pdf_box(scene.bleed_box, scene.height_mm) if scene.bleed_box else None)
        c.saveState()
        _transform_after_save(c, PT_PER_MM, 0, 0, -PT_PER_MM, 0, scene.height_mm * PT_PER_MM)
        self._depth = 0
        self._forget_paint()

    def end_page(self) -> None:
        """Close the page."""
        if self._depth:
            raise ValueError("unbalanced push_group/pop_group")
        self._c.restoreState()
        show_page(self._c)
        self._pages += 1

    def finish(self) -> bytes:
        """Return the PDF bytes."""
        if self._pages == 0:
            raise ValueError("a PDF needs at least one page")
        data: bytes = self._c.getpdfdata()
        self._canvas = None
        return data

    # -- shared content as Form XObjects ---------------------------------
    def _known_form(self, shared: SharedContent, children: tuple[Primitive, ...]) -> _Form | None:
        """The form already defined for this shared content; ValueError if the key names other content."""
        form = self._forms.get(shared.key)
        if form is not None and (
            form.bounds != shared.bounds or (form.children is not children and form.children != children)
        ):
            raise ValueError(f"shared content key {shared.key!r} names two different contents in one document")
        return form

    def _define_forms(self, children: tuple[Primitive, ...]) -> None:
        """Define a form for every shared group in ``children`` not defined yet, innermost first."""
        for child in children:
            if not isinstance(child, Group):
                continue
            shared = child.shared
            if shared is None:
                self._define_forms(child.children)
            elif self._known_form(shared, child.children) is None:
                self._define_forms(child.children)
                self._define_form(shared, child.children)

    def _define_form(self, shared: SharedContent, children: tuple[Primitive, ...]) -> None:
        """Draw ``children`` (group-local mm, y down) into a new form bounded by ``shared.bounds``."""
        c = self._c
        name = f"C{len(self._forms)}"
        box = shared.bounds
        outside = (self._depth, self._saved, self._fill, self._stroke, self._width)
        c.beginForm(name, box.x, box.y, box.right, box.bottom)
        self._forget_paint()  # a form starts from whatever state it is placed in
        self._depth = 0
        draw_children(children, self)
        if self._depth:
            raise ValueError("unbalanced push_group/pop_group")
        c.endForm()
        self._depth, self._saved, self._fill, self._stroke, self._width = outside
        self._forms[shared.key] = _Form(name, children, box)

    # -- groups ----------------------------------------------------------
    def push_group(self, group: Group) -> bool:
        """saveState, apply the transform, then clip (in local coordinates); place shared
        content defined as a form by reference (returns True: the children are drawn)."""
        c: Any = self._c
        # What reportlab's saveState writes ("q"), keeping only the canvas state a group's drawing changes (see
        # _GROUP_STATE) instead of a copy of all of it: a deck's faces open tens of thousands of groups.
        c._code.append("q")
        self._saved.append((self._fill, self._stroke, self._width, _group_state(c)))
        self._depth += 1
        t = group.transform
        if t is not None and not t.is_identity:
            if t.translate != (0.0, 0.0):
                _transform_after_save(c, 1, 0, 0, 1, *t.translate)  # (c.translate)
            if t.rotate:
                c.rotate(t.rotate)
            if t.scale != (1.0, 1.0):
                c.scale(*t.scale)
        if group.clip is not None:
            clip = c.beginPath()
            clip.rect(group.clip.x, group.clip.y, group.clip.w, group.clip.h)
            c.clipPath(clip, stroke=0, fill=0)
        shared = group.shared
        if shared is not None:
            form = self._known_form(shared, group.children)
            if form is not None:
                c.doForm(form.name)
                return True
        return False

    def pop_group(self) -> None:
        """restoreState."""
        if self._depth == 0:
            raise ValueError("pop_group without push_group")
        self._depth -= 1
        c = self._c
        c._code.append("Q")  # (what reportlab's restoreState writes; the canvas state a group changed is put back)
        self._fill, self._stroke, self._width, state = self._saved.pop()
        c.__dict__.update(zip(_GROUP_STATE, state))  # (as reportlab's own restoreState puts its copy back)

    # -- paint helpers ---------------------------------------------------
    def _forget_paint(self) -> None:
        """The graphics state is not known (a new page or form): set every paint next time."""
        self._fill = self._stroke = self._width = _UNKNOWN
        self._saved = []

    def paint_value(self, colour: str, text: bool = False) -> object:
        """What the canvas is given for ``colour`` (an (r, g, b) tuple here); ``text`` says it paints glyphs.

        A subclass may paint in another colour space (:mod:`cardgen.export.pdfx` paints CMYK); the
        value is cached per colour, so the same colour always gives the same object."""
        return _rgb(colour)

    def _paint(self, value: object, operator: str) -> None:
        """Set the fill (``rg``) or stroke (``RG``) colour as reportlab's canvas does; an RGB colour's operator is
        written once per colour for the process (what ``setFillColor``/``setStrokeColor`` write for a tuple)."""
        c: Any = self._c
        if type(value) is tuple and not c._enforceColorSpace:
            ops = _RGB_OPS.get((value, operator))
            if ops is None:
                ops = _RGB_OPS[(value, operator)] = f"{fp_str(value)} {operator}"
            if operator == "rg":
                c._fillColorObj = value
            else:
                c._strokeColorObj = value
            c._code.append(ops)
        elif operator == "rg":
            c.setFillColor(value)
        else:
            c.setStrokeColor(value)

    def _set_fill(self, fill: str, text: bool = False) -> None:
        value = self.paint_value(fill, text)
        if value is not self._fill:
            self._paint(value, 'rg')
            self._fill = value

    def _set_paint(self, fill: Color, stroke: Color, stroke_width: float) -> tuple[int, int]:
        """Set what changed of fill colour, stroke colour and line width; return (stroke, fill) flags."""
        do_fill = 0
        if fill is not None:
            do_fill = 1
            value = self.paint_value(fill)
            if value is not self._fill:
                self._paint(value, 'rg')
                self._fill = value
        if stroke is None or stroke_width <= 0:
            return 0, do_fill
        value = self.paint_value(stroke)
        if value is not self._stroke:
            self._paint(value, 'RG')
            self._stroke = value
        if stroke_width != self._width:
            self._c.setLineWidth(stroke_width)
            self._width = stroke_width
        return 1, do_fill

    # -- primitives ------------------------------------------------------
    def draw_rect(self, rect: Rect) -> None:
        """Rectangle (rounded when radius > 0)."""
        stroke, fill = self._set_paint(rect.fill, rect.stroke, rect.stroke_width)
        if not (stroke or fill):
            return
        if rect.radius > 0:  # what canvas.roundRect writes, its path operators made once per shape (every frame of a deck is one)
            c: Any = self._c
            c._code.extend(_round_rect_path(rect.x, rect.y, rect.w, rect.h, rect.radius))
            c._strokeAndFill(stroke, fill)
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
        """Text run with a bundled TTF face; a text matrix un-flips it around its baseline.

        The operators are those reportlab's text object writes for one line of a TrueType face
        (``BT``, its origin and the run's matrix, the subset font and size whenever the subset
        changes, each piece shown with ``Tj``, ``T*``, ``ET``), put together here in one string:
        a text object per run cost more than the text itself on a large deck's faces."""
        raw = text.text
        content = raw if raw.isprintable() else sanitize_text(raw)  # printable text has nothing to drop
        if not content:
            return
        faces = self._text_faces.get(text.font)
        if faces is None:
            font = ensure_registered(text.font)
            faces = self._text_faces[text.font] = (font, getFont(font))
        font, face = faces
        size = pt_to_mm(text.size_pt)
        x = text.x
        if text.anchor != "start":
            width = stringWidth(content, font, size)
            x -= width * 0.5 if text.anchor == "middle" else width
        self._set_fill(text.fill, text=True)
        c: Any = self._c
        if not face._dynamicFont or c.bottomup != 1:
            run = c.beginText()
            run.setTextTransform(1, 0, 0, -1, x, text.y)
            run.setFont(font, size)
            run.textLine(content)
            c.drawText(run)
            return
        if content.isascii() and self._ascii_fonts.get(font):  # printable ASCII: subset 0, each character its own code
            c._code.append(f"BT 1 0 0 1 0 0 Tm 1 0 0 -1 {fp_str(x, text.y)} Tm {self._font_operators(face, 0, size)} ({c._escape(content.encode('ascii'))}) Tj T* ET")
            return
        doc = c._doc
        escape = c._escape
        parts = [f"BT 1 0 0 1 0 0 Tm 1 0 0 -1 {fp_str(x, text.y)} Tm"]
        current = -1
        pieces = face.splitString(content, doc)
        if font not in self._ascii_fonts:  # reportlab's ASCII-readable subset 0, set up when the font is first used
            state = face.state.get(doc)
            if state is not None:
                self._ascii_fonts[font] = all(state.assignments.get(code) == code for code in range(32, 127))
        for subset, piece in pieces:
            if subset != current:
                parts.append(self._font_operators(face, subset, size))
                current = subset
            parts.append(f"({escape(piece)}) Tj")
        parts.append("T* ET")
        c._code.append(" ".join(parts))

    def _font_operators(self, face: Any, subset: int, size: float) -> str:
        """``/F1+0 3.175 Tf 3.81 TL``: a subset of a TrueType face at a size, as reportlab's text object selects it.

        Kept per document (a subset's name is fixed once the document first uses it): every text run of a
        deck's faces selects one of a few, and naming it through reportlab's per-document font state each
        time cost a fifth of drawing the text."""
        key = (face.fontName, subset, size)
        operators = self._font_ops.get(key)
        if operators is None:
            operators = self._font_ops[key] = f"{face.getSubsetInternalName(subset, self._c._doc)} {fp_str(size)} Tf {fp_str(size * 1.2)} TL"
        return operators

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
