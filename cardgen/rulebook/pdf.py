"""The rulebook as a PDF, with reportlab platypus.

Title page, table of contents (platypus ``TableOfContents``), PDF outline,
headings, tables, lists, card pictures, and a footer on every page after the
title with the credit line and the page number.

Only the bundled DejaVu faces are used (every style, the table of contents,
list bullets, the canvas's initial font), so every font in the file is an
embedded TrueType subset and no base-14 font is referenced. ``invariant=1``
makes two builds of the same input byte-identical.

A table of contents needs the page numbers of a finished layout. Its lines
(level, heading, link) are known from the document before any layout, and
nothing in the layout depends on the numbers: platypus draws each line's dot
leader and page number after the line's text, in space the text does not take.
So each number is drawn as a PDF form XObject referenced where the line ends
and defined once the layout is done and every heading's page is known (PDF
allows a form to be defined after the pages that use it). The book is laid
out once. Should the lines printed and the headings met ever differ, it is
laid out again with the headings met, until they agree. Every pass lays out
freshly built flowables. Platypus paragraphs keep state from an earlier layout
(one broken at a hyphen in the first pass lost that hyphen in the second), so
reusing them, as ``multiBuild`` does, could print words that are not in the
source.

A book shorter than :data:`CONTENTS_MIN_PAGES` pages without its contents
does not spend a page on them. Which it is, only a layout tells, so a quick
estimate from the text's widths and the pictures' sizes
(:mod:`cardgen.rulebook.page_estimate`) chooses the layout tried first: a
book expected to be short is laid out without its contents, and that layout
stops as it begins its :data:`CONTENTS_MIN_PAGES`-th page (the book is long
after all: it is laid out with them); any other book is laid out with its
contents, which stand between page breaks, so that layout tells how many
pages the rest takes, and a short book is laid out once more without them. A
right guess costs one layout, a wrong one two; the PDF is the same.

Body text is justified. Portuguese paragraphs are hyphenated with the
syllable-based hyphenator of :mod:`cardgen.rulebook.hyphenate`, handed to
reportlab as a callable ``hyphenationLang``; soft hyphens (U+00AD) in spec
text are honoured too (``embeddedHyphenation``).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import registerFontFamily, stringWidth
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    ListFlowable,
    PageBreak as PlatypusPageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table as PlatypusTable,
    TableStyle,
)
from reportlab.platypus.tableofcontents import TableOfContents

from cardgen.render.fonts import ensure_registered
from cardgen.render.scene import Scene
from cardgen.rulebook.document import Block, Document, Figure, Heading, Inline, ListBlock, PageBreak, Para, Picture, Run, Table, Toc
from cardgen.rulebook.hyphenate import hyphen_pairs
from cardgen.rulebook.line_breaks import KeptParagraph
from cardgen.rulebook.page_estimate import estimated_pages
from cardgen.rulebook.text_canvas import TextCanvas
from cardgen.rulebook.paragraphs import FittingParagraph as FittingParagraph
from cardgen.rulebook.paragraphs import Paragraphs, entry_flowables, escape, markup
from cardgen.rulebook.pictures import SceneFlowable

PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
"""Supported paper sizes, in points."""

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
FONT_ITALIC = "DejaVuSans-Oblique"
FONT_BOLD_ITALIC = "DejaVuSans-BoldOblique"
FONTS_USED = (FONT, FONT_BOLD, FONT_ITALIC, FONT_BOLD_ITALIC)

INK = colors.HexColor("#1f1f1f")
ACCENT = colors.HexColor("#7a3b12")
RULE = colors.HexColor("#b9a58f")
HEADER_FILL = colors.HexColor("#efe6da")
MARGIN = 20 * mm
FOOTER_HEIGHT = 12 * mm
PICTURE_WIDTH_MM = 40.0
CONTENTS_MIN_PAGES = 7
"""A book prints its contents page only when, without it, it runs to this many pages or more (title page
included). A shorter book is read through in one sitting; its PDF outline still lists every heading."""
SHORT_BOOK_MARGIN_PAGES = 0.5
"""How far under :data:`CONTENTS_MIN_PAGES` a book's page estimate must stay for it to be laid out first as a short
book. The estimate leaves out what a real layout wastes (the ends of lines, page ends before a heading or an entry
kept with what follows), so it ran short in every book measured, by 0.3 to 1.1 pages at seven pages and more
(issue 17, session 8: the bench job's book, estimated at 5.94, filled 7). A guess on the wrong side costs one
layout either way; this margin puts the books the estimate cannot tell apart on the side most of them are."""
HYPHENATED_LOCALES = {"pt_BR": hyphen_pairs, "pt": hyphen_pairs}
"""Locales whose body text is hyphenated, and the hyphenator used."""


def register_fonts() -> None:
    """Register the four DejaVu Sans faces the rulebook's text uses, and their family (so <b> and <i> pick the right face)."""
    for face in FONTS_USED:
        ensure_registered(face)
    registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT_ITALIC, boldItalic=FONT_BOLD_ITALIC)


@dataclass(frozen=True)
class Styles:
    """The paragraph styles of one rulebook."""

    body: ParagraphStyle
    cell: ParagraphStyle
    cell_head: ParagraphStyle
    item: ParagraphStyle
    title: ParagraphStyle
    tagline: ParagraphStyle
    byline: ParagraphStyle
    meta: ParagraphStyle
    note: ParagraphStyle
    attribution: ParagraphStyle
    headings: tuple[ParagraphStyle, ParagraphStyle, ParagraphStyle]
    toc_title: ParagraphStyle
    toc_levels: tuple[ParagraphStyle, ParagraphStyle]
    footer: ParagraphStyle
    caption: ParagraphStyle
    entry_term: ParagraphStyle
    entry_text: ParagraphStyle


ENTRY_INDENT_MM = 4.0
"""How far an entry's text (a card's, in the card list) stands in from its term."""


def make_styles(locale: str) -> Styles:
    """Every style in DejaVu; body text justified and, for Portuguese, hyphenated."""
    hyphenator: Any = HYPHENATED_LOCALES.get(locale, "")
    base = dict(fontName=FONT, textColor=INK, hyphenationLang=hyphenator, embeddedHyphenation=1, uriWasteReduce=0.3)
    body = ParagraphStyle("body", fontSize=10, leading=13.6, alignment=TA_JUSTIFY, spaceAfter=5, **base)
    cell = ParagraphStyle("cell", fontSize=8.8, leading=11, alignment=TA_LEFT, **base)
    centred = dict(fontName=FONT, textColor=INK, alignment=TA_CENTER)
    heading = dict(fontName=FONT_BOLD, textColor=ACCENT, keepWithNext=1, alignment=TA_LEFT)
    return Styles(
        body=body,
        cell=cell,
        cell_head=ParagraphStyle("cell_head", parent=cell, fontName=FONT_BOLD, hyphenationLang=""),  # headers are never hyphenated
        item=ParagraphStyle("item", parent=body, spaceAfter=2),
        title=ParagraphStyle("title", fontSize=32, leading=38, spaceBefore=60 * mm, spaceAfter=8 * mm, **{**centred, "fontName": FONT_BOLD, "textColor": ACCENT}),
        tagline=ParagraphStyle("tagline", fontSize=14, leading=18, spaceAfter=14 * mm, **{**centred, "fontName": FONT_ITALIC}),
        byline=ParagraphStyle("byline", fontSize=13, leading=17, spaceAfter=5 * mm, **centred),
        meta=ParagraphStyle("meta", fontSize=10.5, leading=14, spaceAfter=2 * mm, **centred),
        note=ParagraphStyle("note", fontSize=9, leading=12, spaceBefore=10 * mm, **{**centred, "fontName": FONT_ITALIC}),
        attribution=ParagraphStyle("attribution", parent=body, fontName=FONT_ITALIC),
        headings=(
            ParagraphStyle("h1", fontSize=17, leading=21, spaceBefore=12, spaceAfter=6, **heading),
            ParagraphStyle("h2", fontSize=13, leading=16, spaceBefore=9, spaceAfter=4, **heading),
            ParagraphStyle("h3", fontSize=11, leading=14, spaceBefore=6, spaceAfter=3, **{**heading, "textColor": INK}),
        ),
        toc_title=ParagraphStyle("toc_title", fontSize=17, leading=21, spaceAfter=10, **{**heading, "keepWithNext": 0}),
        toc_levels=(
            ParagraphStyle("toc1", fontName=FONT_BOLD, fontSize=11, leading=15, leftIndent=6 * mm, firstLineIndent=-6 * mm, textColor=INK),
            ParagraphStyle("toc2", fontName=FONT, fontSize=10, leading=13, leftIndent=12 * mm, firstLineIndent=-6 * mm, textColor=INK),
        ),
        footer=ParagraphStyle("footer", fontName=FONT, fontSize=7.2, leading=9, textColor=colors.HexColor("#555555")),
        caption=ParagraphStyle("caption", fontName=FONT_ITALIC, fontSize=8.5, leading=11, alignment=TA_CENTER, textColor=INK),
        entry_term=ParagraphStyle("entry_term", parent=body, fontName=FONT_BOLD, alignment=TA_LEFT, spaceAfter=0, hyphenationLang=""),
        entry_text=ParagraphStyle("entry_text", parent=body, leftIndent=ENTRY_INDENT_MM * mm),
    )


class _LateNumberedToc(TableOfContents):
    """A table of contents whose dot leaders and page numbers are forms, defined after the layout (see the module doc)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.late: list[tuple[str, float, float, float, int]] = []
        """(form name, x, y, available width, level) of each line's end, in drawing order."""

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803 (platypus's names)
        """Lay out the lines as platypus does, drawing their ends through :meth:`define_numbers`'s forms."""
        size = super().wrap(availWidth, availHeight)

        def line_end(canvas: Any, kind: str, label: str) -> None:
            level = int(label.split(",")[1])
            name = f"TocPage{len(self.late) + 1}"
            self.late.append((name, canvas._curr_tx_info["cur_x"], canvas._curr_tx_info["cur_y"], availWidth, level))
            canvas.doForm(name)

        self.canv.setNamedCB("drawTOCEntryEnd", line_end)
        return size

    def define_numbers(self, canvas: Any, pages: list[int]) -> None:
        """Define each line's form: dots and the page number ``pages[i]``, right-aligned as platypus draws them."""
        for index, (name, x, y, available, level) in enumerate(self.late):
            style = self.getLevelStyle(level)
            text = str(pages[index]) if index < len(pages) else ""
            size = style.fontSize
            width = stringWidth(text, style.fontName, size)
            while width > available - x and size >= 1.0:  # (platypus's own rule for a number that does not fit)
                size *= 0.9
                width = stringWidth(text, style.fontName, size)
            dot = " . " if self.dotsMinLevel >= 0 and level >= self.dotsMinLevel else ""
            dot_width = stringWidth(dot, style.fontName, size) if dot else 0.0
            dots = int((available - x - width) / dot_width) if dot else 0
            canvas.beginForm(name, lowerx=-available, lowery=-available, upperx=2 * available, uppery=2 * available)
            line = canvas.beginText(available - dots * dot_width - width, y)
            line.setFont(style.fontName, size)
            line.setFillColor(style.textColor)
            line.textLine(dots * dot + text)
            canvas.drawText(line)
            canvas.endForm()


class _PageMark(Flowable):
    """An invisible mark; the document notes the page it falls on (the contents' first and last page)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803 (platypus's names)
        return (0.0, 0.0)

    def draw(self) -> None:
        """Nothing to draw."""


class _HeadingParagraph(KeptParagraph):
    """A heading that registers itself in the table of contents and the PDF outline."""

    def __init__(self, text: str, style: ParagraphStyle, level: int, key: str, plain_text: str) -> None:
        super().__init__(text, style)
        self.toc_level = level
        self.toc_key = key
        self.toc_text = plain_text


class _LongBook(Exception):
    """A layout without contents reached :data:`CONTENTS_MIN_PAGES` pages: the book prints its contents after all."""


class _RulebookDoc(BaseDocTemplate):
    """A document template that feeds headings to the TOC and the outline."""

    def __init__(self, target: Any, footer: Callable[[Any, Any], None], **kwargs: Any) -> None:
        super().__init__(target, **kwargs)
        width, height = self.pagesize
        body = Frame(MARGIN, MARGIN + FOOTER_HEIGHT, width - 2 * MARGIN, height - 2 * MARGIN - FOOTER_HEIGHT, id="body", leftPadding=0, rightPadding=0)
        self.addPageTemplates(
            [
                PageTemplate(id="title", frames=[body], autoNextPageTemplate="main"),
                PageTemplate(id="main", frames=[body], onPage=footer),
            ]
        )
        self._outline_level = -1
        self.marks: dict[str, int] = {}
        """The page each :class:`_PageMark` fell on, by name."""
        self.stop_at = 0
        """When set, the layout stops (:class:`_LongBook`) as it begins this page."""

    def beforePage(self) -> None:
        """Stop a layout that has reached :attr:`stop_at` pages."""
        if self.stop_at and self.page >= self.stop_at:
            raise _LongBook(self.page)

    def afterFlowable(self, flowable: Flowable) -> None:
        """Announce headings to the table of contents and add them to the outline; note page marks."""
        if isinstance(flowable, _PageMark):
            self.marks[flowable.name] = self.page
        if not isinstance(flowable, _HeadingParagraph):
            return
        level = min(flowable.toc_level, self._outline_level + 1)
        self._outline_level = level
        self.canv.bookmarkPage(flowable.toc_key)
        self.canv.addOutlineEntry(flowable.toc_text, flowable.toc_key, level=level, closed=level > 0)
        if flowable.toc_level <= 1:
            self.notify("TOCEntry", (flowable.toc_level, flowable.toc_text, self.page, flowable.toc_key))


def _heading_entry(block: Heading) -> tuple[int, str, str] | None:
    """(TOC level, text, bookmark key) of a heading, or None when the contents leave it out; as :class:`_RulebookDoc` announces it."""
    level = max(1, min(block.level, 3)) - 1
    return (level, block.text, f"h-{block.anchor}") if level <= 1 else None


def _headings(doc: Document) -> tuple[TocEntry, ...]:
    """The contents' lines known before any layout: every heading the contents list, page numbers not yet known (0)."""
    entries = (_heading_entry(block) for block in doc.blocks if isinstance(block, Heading))
    return tuple((level, text, 0, key) for level, text, key in (e for e in entries if e is not None))


def _lines(entries: tuple[TocEntry, ...]) -> list[tuple[int, str, Any]]:
    """What a contents line's layout depends on: level, text and link, not the page number (drawn later, as a form)."""
    return [(level, text, key) for level, text, _, key in entries]


def _story(doc: Document, styles: Styles, pictures: dict[str, Scene], toc_lines: tuple[TocEntry, ...] = ()) -> list[Flowable]:
    story: list[Flowable] = []
    para_styles = {
        "": styles.body,
        "title": styles.title,
        "tagline": styles.tagline,
        "byline": styles.byline,
        "meta": styles.meta,
        "note": styles.note,
        "attribution": styles.attribution,
    }
    pending_pictures: list[Picture] = []
    paragraph = Paragraphs()

    def flush_pictures() -> None:
        if not pending_pictures:
            return
        cells = []
        for picture in pending_pictures:
            scene = pictures.get(picture.deck)
            if scene is None:
                continue
            cells.append([SceneFlowable(scene, PICTURE_WIDTH_MM), KeptParagraph(escape(picture.caption), styles.caption)])
        pending_pictures.clear()
        if not cells:
            return
        per_row = 3
        rows = [cells[i : i + per_row] for i in range(0, len(cells), per_row)]
        rows[-1] = rows[-1] + [""] * (per_row - len(rows[-1]))  # type: ignore[list-item]
        table = PlatypusTable(rows, colWidths=[(PICTURE_WIDTH_MM + 8) * mm] * per_row)
        table.setStyle(
            TableStyle([("FONTNAME", (0, 0), (-1, -1), FONT), ("VALIGN", (0, 0), (-1, -1), "BOTTOM"), ("ALIGN", (0, 0), (-1, -1), "CENTER")])
        )
        story.append(Spacer(1, 4 * mm))
        story.append(table)

    for block in doc.blocks:
        if not isinstance(block, Picture):
            flush_pictures()
        if isinstance(block, Heading):
            level = max(1, min(block.level, 3))
            story.append(_HeadingParagraph(escape(block.text), styles.headings[level - 1], level - 1, f"h-{block.anchor}", block.text))
        elif isinstance(block, Para) and block.css == "entry":
            story.extend(entry_flowables(block.runs, styles.body, styles.entry_term, styles.entry_text, paragraph))
        elif isinstance(block, Para):
            story.append(paragraph(block.runs, para_styles.get(block.css, styles.body)))
        elif isinstance(block, ListBlock):
            items = [paragraph(item, styles.item) for item in block.items]
            story.append(
                ListFlowable(
                    items,
                    bulletType="1" if block.ordered else "bullet",
                    bulletFormat="%s." if block.ordered else None,
                    start=None if block.ordered else "•",
                    bulletFontName=FONT,
                    bulletFontSize=10 if block.ordered else 9,
                    leftIndent=7 * mm,
                    spaceAfter=5,
                )
            )
        elif isinstance(block, Table):
            story.append(_table(block, styles))
            story.append(Spacer(1, 3 * mm))
        elif isinstance(block, Toc):
            story.append(_PageMark("contents-start"))
            if block.title:
                story.append(KeptParagraph(escape(block.title), styles.toc_title))
            toc_table = TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, -1), FONT),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ]
            )
            toc = _LateNumberedToc(levelStyles=list(styles.toc_levels), dotsMinLevel=0, tableStyle=toc_table)
            toc._entries = list(toc_lines)  # beforeBuild makes these the lines this pass prints
            story.append(toc)
            story.append(_PageMark("contents-end"))
        elif isinstance(block, Picture):
            pending_pictures.append(block)
        elif isinstance(block, Figure):
            story.extend(_figure(block, pictures, styles))
        elif isinstance(block, PageBreak):
            story.append(PlatypusPageBreak())
    flush_pictures()
    return story


FIGURE_WIDTH_MM = 170.0
"""A figure's widest (the text width on A4; Letter's is a little wider); a narrower one is printed at its own size."""
FIGURE_MAX_HEIGHT_MM = 205.0
"""A taller figure is scaled down to this height, so it fits a page with its caption."""


def _figure(block: Figure, pictures: dict[str, Scene], styles: Styles) -> list[Flowable]:
    """A figure drawn from the engine, at its own size (narrowed to the text width or shortened to fit a page), its caption below; kept together."""
    from reportlab.platypus import KeepTogether

    from cardgen.rulebook.figures import picture_key

    scene = pictures.get(picture_key(block.id))
    if scene is None:
        return []
    width = min(FIGURE_WIDTH_MM, scene.width_mm)
    if scene.height_mm * width / scene.width_mm > FIGURE_MAX_HEIGHT_MM:
        width = FIGURE_MAX_HEIGHT_MM * scene.width_mm / scene.height_mm
    parts: list[Flowable] = [Spacer(1, 2 * mm), SceneFlowable(scene, width, clip_to_trim=False)]
    if block.caption:
        parts.append(KeptParagraph(escape(block.caption), styles.caption))
    return [KeepTogether(parts), Spacer(1, 3 * mm)]


def _table(block: Table, styles: Styles) -> Flowable:
    width = max([len(block.header)] + [len(r) for r in block.rows])
    available = 1.0
    if block.css == "components" and width == 3:
        fractions = [0.3, 0.17, 0.53]
    elif block.css == "setup" and width > 1:
        first = 0.42 if width <= 5 else 0.3
        fractions = [first] + [(available - first) / (width - 1)] * (width - 1)
    else:
        fractions = [available / width] * width

    def cells(row: tuple[Inline, ...], style: ParagraphStyle) -> list[Any]:
        padded = list(row) + [()] * (width - len(row))
        return [KeptParagraph(markup(cell), style) for cell in padded]

    data = []
    if block.header:
        data.append(cells(block.header, styles.cell_head))
    data.extend(cells(row, styles.cell) for row in block.rows)
    return _SizedTable(data, fractions, repeat=1 if block.header else 0)


class _SizedTable(Flowable):
    """A table whose column widths are fractions of the frame width, decided when it is laid out."""

    def __init__(self, data: list[list[Any]], fractions: list[float], repeat: int) -> None:
        super().__init__()
        self.data = data
        self.fractions = fractions
        self.repeat = repeat
        self._table: PlatypusTable | None = None

    def _make(self, available_width: float) -> PlatypusTable:
        table = PlatypusTable(self.data, colWidths=[f * available_width for f in self.fractions], repeatRows=self.repeat, hAlign="LEFT")
        commands: list[tuple[Any, ...]] = [
            ("FONTNAME", (0, 0), (-1, -1), FONT),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LINEBELOW", (0, 0), (-1, -1), 0.4, RULE),
            ("LINEABOVE", (0, 0), (-1, 0), 0.8, ACCENT),
            ("TOPPADDING", (0, 0), (-1, -1), 3),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ]
        if self.repeat:
            commands.append(("BACKGROUND", (0, 0), (-1, 0), HEADER_FILL))
        table.setStyle(TableStyle(commands))
        return table

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        """Lay the table out at the frame's width."""
        self._table = self._make(available_width)
        width, height = self._table.wrap(available_width, available_height)
        return width, height

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        """Split across pages (the header row repeats)."""
        table = self._make(available_width)
        return list(table.split(available_width, available_height))

    def draw(self) -> None:
        """Draw the laid-out table."""
        assert self._table is not None
        self._table.drawOn(self.canv, 0, 0)


MAX_LAYOUT_PASSES = 10
"""Layout passes allowed for the table of contents to settle (one suffices: its lines are known before the layout)."""

TocEntry = tuple[int, str, int, Any]
"""One table-of-contents line as platypus records it: (level, text, page number, bookmark key)."""


@dataclass(frozen=True)
class TypesetPdf:
    """A typeset rulebook: the PDF bytes, the table of contents it printed, and how many layout passes it took."""

    data: bytes
    toc: tuple[TocEntry, ...]
    passes: int


def typeset_pdf(
    doc: Document,
    paper: str,
    footer_credit: str,
    page_label: Callable[[int], str],
    title: str,
    author: str,
    pictures: dict[str, Scene] | None = None,
) -> TypesetPdf:
    """Typeset ``doc`` on ``paper`` (a4 or letter).

    ``footer_credit`` is printed at the foot of every page after the title page,
    beside ``page_label(page_number)``. The layout takes one pass unless the
    headings met differ from the contents' lines printed (see the module doc),
    or the estimate of whether the book is shorter than :data:`CONTENTS_MIN_PAGES`
    without its contents was wrong (a short book's ``toc`` is empty).
    Raises RuntimeError when the table of contents does not settle in
    :data:`MAX_LAYOUT_PASSES` passes.
    """
    register_fonts()
    locale = doc.lang.replace("-", "_")
    styles = make_styles(locale)
    pagesize = PAPERS[paper]
    credit_runs = (Run(footer_credit),)
    page_style = ParagraphStyle("page", parent=styles.footer, alignment=2)
    plain = Paragraphs()  # (the footer's two paragraphs are plain text: made on every page without the markup parser)

    def footer(canvas: Any, template: Any) -> None:
        canvas.saveState()
        width, _ = pagesize
        rule_y = MARGIN + FOOTER_HEIGHT - 4 * mm
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        canvas.line(MARGIN, rule_y, width - MARGIN, rule_y)
        label_width = 30 * mm
        label = plain((Run(page_label(canvas.getPageNumber())),), page_style, KeptParagraph)
        _, label_height = label.wrapOn(canvas, label_width, FOOTER_HEIGHT)
        label.drawOn(canvas, width - MARGIN - label_width, rule_y - 3 - label_height)
        credit = plain(credit_runs, styles.footer, KeptParagraph)
        _, credit_height = credit.wrapOn(canvas, width - 2 * MARGIN - label_width - 4 * mm, FOOTER_HEIGHT)
        credit.drawOn(canvas, MARGIN, rule_y - 3 - credit_height)
        canvas.restoreState()

    def one_pass(book: Document, printed: tuple[TocEntry, ...], stop_at: int = 0) -> tuple[bytes, tuple[TocEntry, ...], int]:
        """Lay out fresh flowables with ``printed`` in the table of contents; return the PDF, the entries
        measured and the number of pages the book has without its contents. With ``stop_at``, raise
        :class:`_LongBook` instead when the layout reaches that many pages."""
        buffer = io.BytesIO()
        template = _RulebookDoc(
            buffer,
            footer,
            pagesize=pagesize,
            leftMargin=MARGIN,
            rightMargin=MARGIN,
            topMargin=MARGIN,
            bottomMargin=MARGIN,
            title=title,
            author=author,
            subject=title,
            creator="cardgen",
            producer="cardgen (reportlab)",
            invariant=1,
            pageCompression=1,
            initialFontName=FONT,
            lang=book.lang or None,
            displayDocTitle=1,
        )
        template.stop_at = stop_at
        story = _story(book, styles, pictures or {}, printed)
        contents = [flowable for flowable in story if isinstance(flowable, _LateNumberedToc)]
        template._indexingFlowables = contents  # where the document announces each heading (afterFlowable -> notify)
        for toc in contents:
            toc.beforeBuild()
        template._doSave = 0  # (as multiBuild does: the file is finished below, once the page numbers are known)
        template.build(story, canvasmaker=TextCanvas)  # (plain ASCII runs written without reportlab's per-character encoding)
        for toc in contents:
            toc.define_numbers(template.canv, [page for _, _, page, _ in toc._entries])
        pages = template.page
        marks = template.marks
        if "contents-start" in marks and "contents-end" in marks:  # the contents stand between page breaks
            pages -= marks["contents-end"] - marks["contents-start"] + 1
        template.canv.save()
        return buffer.getvalue(), tuple(entry for toc in contents for entry in toc._entries), pages

    printed = _headings(doc)
    tried = 0
    if printed and doc.blocks != without_contents(doc).blocks and _likely_short(doc, styles, pictures or {}, pagesize):
        try:  # a short book is laid out once, without its contents; a long one stops at its 7th page
            data, _, _ = one_pass(without_contents(doc), (), stop_at=CONTENTS_MIN_PAGES)
            return TypesetPdf(data, (), 1)
        except _LongBook:
            tried = 1
    for passes in range(1 + tried, MAX_LAYOUT_PASSES + 1 + tried):
        data, measured, pages = one_pass(doc, printed)
        if _lines(measured) == _lines(printed):
            if measured and pages < CONTENTS_MIN_PAGES:  # a short book: laid out again without its contents page
                data, _, _ = one_pass(without_contents(doc), ())
                return TypesetPdf(data, (), passes + 1)
            return TypesetPdf(data, measured, passes)
        printed = measured
    raise RuntimeError(f"the table of contents did not settle after {MAX_LAYOUT_PASSES} layout passes")


def _likely_short(doc: Document, styles: Styles, pictures: dict[str, Scene], pagesize: tuple[float, float]) -> bool:
    """Whether ``doc`` without its contents is expected to end before its :data:`CONTENTS_MIN_PAGES`-th page begins."""
    width, height = pagesize
    frame = (width - 2 * MARGIN, height - 2 * MARGIN - FOOTER_HEIGHT)
    estimate = estimated_pages(without_contents(doc), styles, pictures, frame, PICTURE_WIDTH_MM, FIGURE_WIDTH_MM)
    return estimate <= CONTENTS_MIN_PAGES - 1 - SHORT_BOOK_MARGIN_PAGES


def without_contents(doc: Document) -> Document:
    """``doc`` without its table of contents and the page break that closes it."""
    blocks: list[Block] = []
    skip_break = False
    for block in doc.blocks:
        if isinstance(block, Toc):
            skip_break = True
            continue
        if skip_break and isinstance(block, PageBreak):
            skip_break = False
            continue
        skip_break = False
        blocks.append(block)
    return Document(doc.lang, blocks)
