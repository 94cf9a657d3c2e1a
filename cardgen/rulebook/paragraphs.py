"""Paragraphs of the rulebook PDF: inline runs as reportlab markup, paragraphs that split safely, plain
paragraphs made without reportlab's markup parser, and the entries of the card list.

Used by :mod:`cardgen.rulebook.pdf`, which lays the book out.
"""

from __future__ import annotations

from html import escape as html_escape
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Paragraph
from reportlab.platypus.paragraph import cleanBlockQuotedText
from reportlab.platypus.paraparser import ParaParser

from cardgen.links import safe_link
from cardgen.rulebook.document import Inline, entry_parts
from cardgen.rulebook.line_breaks import KeptParagraph


def escape(text: str) -> str:
    """``text`` with ``&``, ``<`` and ``>`` escaped for reportlab's paragraph markup (quotes left as they are).

    The standard library's ``html.escape`` rather than ``xml.sax.saxutils.escape`` (the same three
    replacements): the latter imports ``urllib.request``, and with it ``http.client`` and ``ssl``,
    about a tenth of the rulebook's start-up.
    """
    return html_escape(text, quote=False)


def markup(runs: Inline) -> str:
    """Inline runs as reportlab paragraph markup (text escaped)."""
    out = []
    for run in runs:
        text = escape(run.text)
        href = safe_link(run.href)
        if href:
            text = f"<a href=\"{html_escape(href)}\" color=\"#7a3b12\">{text}</a>"
        if run.italic:
            text = f"<i>{text}</i>"
        if run.bold:
            text = f"<b>{text}</b>"
        out.append(text)
    return "".join(out)


class FittingParagraph(KeptParagraph):
    """A paragraph whose split always gives a first part that fits the height it was split at.

    reportlab's split of a hyphenated paragraph can break its lines differently from the wrap it
    measured (a word hyphenated one way when measuring, another when splitting), so the first part may
    come out a line taller than the space left; the frame then refuses it and the build stops with
    "Splitting error". Such a split is tried again one line lower until the first part fits (or the
    whole paragraph moves to the next page).
    """

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        height = availHeight
        while height > 0:
            parts: list[Flowable] = super().split(availWidth, height)
            if len(parts) < 2 or parts[0].wrap(availWidth, availHeight)[1] <= availHeight + 1e-6:
                return parts
            height -= self.style.leading
        return []


class Paragraphs:
    """Makes the paragraphs of one layout, building a paragraph of plain text without reportlab's markup parser.

    reportlab parses every paragraph's markup with an HTML parser, a third of typesetting a long card list.
    Text of one style (no italics or links, all bold or none) holding no character that markup escapes
    comes out of that parser as one fragment: the style's fragment for that text, whitespace collapsed.
    Here that fragment is copied from one parsed once per style (and boldness) instead; the paragraph is
    the one the parser would give, so is the page. reportlab's whitespace cleaning of such a text, a split
    and join per line, is ``str.split`` and one join when the text is ASCII (the whitespace characters
    reportlab strips are then exactly those Python splits at).
    """

    def __init__(self) -> None:
        self._templates: dict[tuple[int, bool], tuple[ParagraphStyle, Any]] = {}

    def __call__(self, runs: Inline, style: ParagraphStyle, kind: type[Paragraph] = FittingParagraph) -> Paragraph:
        """The paragraph of ``runs`` in ``style``, as ``kind`` (a Paragraph class)."""
        bold = bool(runs) and runs[0].bold
        text = "".join(run.text for run in runs)
        if all(run.bold == bold and not run.italic and not run.href for run in runs) and not any(c in text for c in "&<>"):
            cleaned = " ".join(text.split()) if text.isascii() else cleanBlockQuotedText(text)  # (the same for ASCII)
            if cleaned:
                key = (id(style), bold)
                template = self._templates.get(key)
                if template is None:
                    _, frags, _ = ParaParser().parse("<b>x</b>" if bold else "x", style)
                    template = self._templates[key] = (style, frags[0])
                frags = [template[1].clone(text=cleaned, link=[], us_lines=[])]
                if issubclass(kind, KeptParagraph):  # (its fragment is a function of the text, the style and the boldness)
                    return kind(cleaned, style, frags=frags, kept_as=("plain", cleaned, bold))
                return kind(cleaned, style, frags=frags)
        return kind(markup(runs), style)


class _Entry(Flowable):
    """A term on a line of its own with its text below, never parted from the text's first line.

    What ``keepWithNext`` on the term would do, without platypus' KeepTogether, which breaks both
    paragraphs' lines once to measure them and again to place them: here they are broken once, and the
    entry splits only at a page end, inside its text.
    """

    def __init__(self, term: Paragraph, text: Paragraph) -> None:
        super().__init__()
        self.term = term
        self.text = text
        self._heights = (0.0, 0.0)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803 (platypus's names)
        term_h = self.term.wrap(availWidth, availHeight)[1] + self.term.getSpaceAfter()
        text_h = self.text.wrap(availWidth, availHeight)[1] + self.text.getSpaceBefore()
        self._heights = (term_h, text_h)
        self.width = availWidth
        self.height = term_h + text_h
        return availWidth, self.height

    def getSpaceBefore(self) -> float:  # noqa: N802 (platypus's names)
        return float(self.term.getSpaceBefore())

    def getSpaceAfter(self) -> float:  # noqa: N802 (platypus's names)
        return float(self.text.getSpaceAfter())

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:  # noqa: N803 (platypus's names)
        term_h = self.term.wrap(availWidth, availHeight)[1] + self.term.getSpaceAfter()
        room = availHeight - term_h - self.text.getSpaceBefore()
        if room <= 0:
            return []
        parts = self.text.split(availWidth, room)
        if len(parts) < 2:
            return []
        return [_Entry(self.term, parts[0]), *parts[1:]]

    def draw(self) -> None:
        term_h, text_h = self._heights
        self.term.drawOn(self.canv, 0, text_h + term_h - self.term.height)
        self.text.drawOn(self.canv, 0, 0)


def entry_flowables(runs: Inline, body: ParagraphStyle, term_style: ParagraphStyle, text_style: ParagraphStyle, paragraph: Paragraphs) -> list[Flowable]:
    """An entry of the card list: its term in bold on a line of its own, kept with its text, set below it and indented.

    Two paragraphs of one font each: platypus breaks a paragraph mixing fonts word by word through its
    fragment machinery, about five times slower (see docs/decisions.md, Rulebooks).
    """
    term, text = entry_parts(runs)
    if not term:
        return [paragraph(runs, body)]
    if not text:
        return [paragraph(term, body)]
    return [_Entry(paragraph(term, term_style, KeptParagraph), paragraph(text, text_style))]
