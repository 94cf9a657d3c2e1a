"""A quick estimate of how many pages a rulebook fills, without laying it out.

:func:`cardgen.rulebook.pdf.typeset_pdf` prints a contents page only in a book
of seven pages or more, which it knows only once the book is laid out. The
estimate tells which layout to try first (without contents for a book expected
to be short), so most books are laid out once; a wrong guess costs a layout
pass, never a different PDF.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from cardgen.render.scene import Scene
from cardgen.rulebook.document import Document, Figure, Heading, ListBlock, PageBreak, Para, Picture, Table, entry_parts, plain

if TYPE_CHECKING:
    from cardgen.rulebook.pdf import Styles


def estimated_pages(
    doc: Document, styles: Styles, pictures: dict[str, Scene], frame: tuple[float, float], picture_width_mm: float, figure_width_mm: float
) -> float:
    """A quick estimate of the pages ``doc`` fills (title page included), from its text's widths and its pictures' sizes.

    Only a guess, used to choose which layout to try first (see :func:`cardgen.rulebook.pdf.typeset_pdf`);
    what is printed never depends on it. ``frame`` is the text frame's size in points; pictures of card faces
    are ``picture_width_mm`` wide, figures at most ``figure_width_mm``. Each paragraph, list item, table row and heading takes as many lines as its text's width
    needs at its style's size (no line breaking), pictures and figures their printed height.
    """
    frame_w, frame_h = frame
    filled = [0.0, 0.0]  # [whole pages, points used on the current one]

    def add(points: float) -> None:
        filled[1] += points
        while filled[1] > frame_h:
            filled[0] += 1
            filled[1] -= frame_h

    def text(runs_text: str, style: ParagraphStyle, room: float) -> float:
        lines = max(1, -(-stringWidth(runs_text, style.fontName, style.fontSize) // max(room, 1.0)))
        return lines * style.leading + style.spaceBefore + style.spaceAfter

    def scene_height(key: str, width_mm: float) -> float:
        scene = pictures.get(key)
        return 0.0 if scene is None else scene.height_mm * min(width_mm, scene.width_mm) / scene.width_mm * mm

    paras = {"": styles.body, "title": styles.title, "tagline": styles.tagline, "byline": styles.byline,
             "meta": styles.meta, "note": styles.note, "attribution": styles.attribution}
    picture_run = 0
    for block in doc.blocks:
        if not isinstance(block, Picture) and picture_run:
            add(4 * mm)
            picture_run = 0
        if isinstance(block, Heading):
            add(text(block.text, styles.headings[max(1, min(block.level, 3)) - 1], frame_w))
        elif isinstance(block, Para) and block.css == "entry" and entry_parts(block.runs)[0]:
            term, rest = entry_parts(block.runs)
            add(text(plain(term), styles.entry_term if rest else styles.body, frame_w))
            if rest:
                add(text(plain(rest), styles.entry_text, frame_w - styles.entry_text.leftIndent))
        elif isinstance(block, Para):
            add(text(plain(block.runs), paras.get(block.css, styles.body), frame_w))
        elif isinstance(block, ListBlock):
            add(sum(text(plain(item), styles.item, frame_w - 7 * mm) for item in block.items) + 5)
        elif isinstance(block, Table):
            columns = max([len(block.header)] + [len(r) for r in block.rows])
            for row in ((block.header,) if block.header else ()) + block.rows:
                add(max((text(plain(cell), styles.cell, frame_w / columns - 12) for cell in row), default=0.0) + 6)
            add(3 * mm)
        elif isinstance(block, Picture):
            if picture_run % 3 == 0:
                add(scene_height(block.deck, picture_width_mm) + styles.caption.leading)
            picture_run += 1
        elif isinstance(block, Figure):
            from cardgen.rulebook.figures import picture_key

            tall = scene_height(picture_key(block.id), figure_width_mm) + styles.caption.leading + 5 * mm
            if filled[1] + tall > frame_h:
                filled[:] = [filled[0] + 1, 0.0]
            add(tall)
        elif isinstance(block, PageBreak) and filled[1] > 0:
            filled[:] = [filled[0] + 1, 0.0]
    return filled[0] + filled[1] / frame_h
