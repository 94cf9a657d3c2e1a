"""The rulebook as a list of blocks, parsed from the XHTML the templates render.

The templates write a small, closed set of elements; this module parses them
(with the standard library's XML parser: no entities beyond XML's own, no
external references) into plain dataclasses, which :mod:`cardgen.rulebook.pdf`
and :mod:`cardgen.rulebook.markdown` turn into a PDF and a Markdown file with
the same text. An element outside the set is an error, so a template cannot
smuggle anything the writers do not understand.
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Union

from cardgen.links import safe_link


class DocumentError(ValueError):
    """The rendered template is not a well-formed rulebook document."""


@dataclass(frozen=True)
class Run:
    """A piece of inline text with its style; ``href`` makes it a link."""

    text: str
    bold: bool = False
    italic: bool = False
    href: str = ""


Inline = tuple[Run, ...]


@dataclass(frozen=True)
class Heading:
    """A section heading; level 1 sections and level 2 subsections go in the table of contents."""

    level: int
    text: str
    anchor: str


@dataclass(frozen=True)
class Para:
    """A paragraph; ``css`` is its class (title, tagline, byline, meta, note, attribution, entry or empty).

    An ``entry`` is one item of a list of named things (the card list): its leading bold runs name it,
    the rest says what it is (see :func:`entry_parts`)."""

    runs: Inline
    css: str = ""


@dataclass(frozen=True)
class ListBlock:
    """A bulleted or numbered list."""

    items: tuple[Inline, ...]
    ordered: bool = False


@dataclass(frozen=True)
class Table:
    """A table with a header row; ``css`` names its kind (components, setup)."""

    header: tuple[Inline, ...]
    rows: tuple[tuple[Inline, ...], ...]
    css: str = ""


@dataclass(frozen=True)
class Toc:
    """The place of the table of contents."""

    title: str


@dataclass(frozen=True)
class Picture:
    """A picture of a deck's card face (see :func:`cardgen.rulebook.pictures.card_pictures`)."""

    deck: str
    caption: str


@dataclass(frozen=True)
class Figure:
    """A figure drawn from the game's engine (see :mod:`cardgen.rulebook.figures`): its caption and its text lines."""

    id: str
    caption: str
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class PageBreak:
    """Start a new page (ignored in Markdown)."""


Block = Union[Heading, Para, ListBlock, Table, Toc, Picture, Figure, PageBreak]


@dataclass
class Document:
    """A parsed rulebook."""

    lang: str
    blocks: list[Block] = field(default_factory=list)

    @property
    def headings(self) -> list[Heading]:
        """Every heading, in order."""
        return [b for b in self.blocks if isinstance(b, Heading)]

    @property
    def title(self) -> str:
        """The text of the title paragraph."""
        for block in self.blocks:
            if isinstance(block, Para) and block.css == "title":
                return plain(block.runs)
        return ""


INLINE_TAGS = {"b", "i", "a"}
PARA_CLASSES = {"", "title", "tagline", "byline", "meta", "note", "attribution", "entry"}


def plain(runs: Inline) -> str:
    """The text of inline runs without styling."""
    return "".join(run.text for run in runs)


def entry_parts(runs: Inline) -> tuple[Inline, Inline]:
    """An ``entry`` paragraph's term (its leading bold runs) and its text (the rest, leading space dropped).

    The term is empty when the paragraph does not start in bold; the text is empty when it is all bold.
    """
    split = 0
    while split < len(runs) and runs[split].bold:
        split += 1
    rest = list(runs[split:])
    while rest and not rest[0].text.strip():
        rest.pop(0)
    if rest:
        first = rest[0]
        rest[0] = Run(first.text.lstrip(), first.bold, first.italic, first.href)
    return runs[:split], tuple(rest)


_SPACES = re.compile(r"\s+")


def _squash(runs: list[Run]) -> Inline:
    """Collapse whitespace across runs (as HTML does) and merge neighbours of the same style."""
    out: list[Run] = []
    previous_space = True
    for run in runs:
        text = _SPACES.sub(" ", run.text)
        if previous_space:
            text = text.lstrip(" ")
        if not text:
            continue
        previous_space = text.endswith(" ")
        if out and (out[-1].bold, out[-1].italic, out[-1].href) == (run.bold, run.italic, run.href):
            out[-1] = Run(out[-1].text + text, run.bold, run.italic, run.href)
        else:
            out.append(Run(text, run.bold, run.italic, run.href))
    if out:
        last = out[-1]
        out[-1] = Run(last.text.rstrip(" "), last.bold, last.italic, last.href)
        if not out[-1].text:
            out.pop()
    return tuple(out)


def _inline(element: ET.Element, bold: bool = False, italic: bool = False, href: str = "") -> list[Run]:
    runs: list[Run] = []
    if element.text:
        runs.append(Run(element.text, bold, italic, href))
    for child in element:
        if child.tag not in INLINE_TAGS:
            raise DocumentError(f"<{child.tag}> is not allowed inside <{element.tag}>")
        runs.extend(
            _inline(
                child,
                bold or child.tag == "b",
                italic or child.tag == "i",
                (safe_link(child.get("href", "")) or href) if child.tag == "a" else href,
            )
        )
        if child.tail:
            runs.append(Run(child.tail, bold, italic, href))
    return runs


def slug(text: str) -> str:
    """A GitHub-style anchor for a heading: lower case, punctuation dropped, spaces as '-'."""
    lowered = text.strip().lower()
    kept = "".join(ch for ch in lowered if ch in " -_" or unicodedata.category(ch)[0] in "LN")
    return kept.replace(" ", "-")


def parse_document(xhtml: str) -> Document:
    """Parse the rendered template into a :class:`Document`."""
    try:
        root = ET.fromstring(xhtml)
    except ET.ParseError as error:
        raise DocumentError(f"the rendered rulebook is not well-formed XHTML: {error}") from None
    if root.tag != "rulebook":
        raise DocumentError(f"the document must be a <rulebook>, not <{root.tag}>")
    if (root.text or "").strip():
        raise DocumentError("text outside any paragraph")
    doc = Document(lang=root.get("lang", ""))
    used: dict[str, int] = {}
    for element in root:
        if (element.tail or "").strip():
            raise DocumentError(f"text outside any paragraph after <{element.tag}>")
        tag = element.tag
        if tag in {"h1", "h2", "h3"}:
            text = plain(_squash(_inline(element)))
            base = slug(text) or "section"
            count = used.get(base, 0)
            used[base] = count + 1
            doc.blocks.append(Heading(int(tag[1]), text, base if count == 0 else f"{base}-{count}"))
        elif tag == "p":
            css = element.get("class", "")
            if css not in PARA_CLASSES:
                raise DocumentError(f"unknown paragraph class {css!r}")
            runs = _squash(_inline(element))
            if runs:
                doc.blocks.append(Para(runs, css))
        elif tag in {"ul", "ol"}:
            items = []
            for item in element:
                if item.tag != "li":
                    raise DocumentError(f"<{item.tag}> is not allowed inside <{tag}>")
                items.append(_squash(_inline(item)))
            if items:
                doc.blocks.append(ListBlock(tuple(items), ordered=tag == "ol"))
        elif tag == "table":
            rows: list[tuple[Inline, ...]] = []
            header: tuple[Inline, ...] = ()
            for row in element:
                if row.tag != "tr":
                    raise DocumentError(f"<{row.tag}> is not allowed inside <table>")
                cells = []
                is_header = False
                for cell in row:
                    if cell.tag not in {"th", "td"}:
                        raise DocumentError(f"<{cell.tag}> is not allowed inside <tr>")
                    is_header = is_header or cell.tag == "th"
                    cells.append(_squash(_inline(cell)))
                if is_header and not header and not rows:
                    header = tuple(cells)
                else:
                    rows.append(tuple(cells))
            doc.blocks.append(Table(header, tuple(rows), element.get("class", "")))
        elif tag == "toc":
            doc.blocks.append(Toc(element.get("title", "")))
        elif tag == "picture":
            doc.blocks.append(Picture(element.get("deck", ""), element.get("caption", "")))
        elif tag == "figure":
            lines = []
            for item in element:
                if item.tag != "li":
                    raise DocumentError(f"<{item.tag}> is not allowed inside <figure>")
                lines.append(plain(_squash(_inline(item))))
            doc.blocks.append(Figure(element.get("id", ""), " ".join(element.get("caption", "").split()), tuple(lines)))
        elif tag == "pagebreak":
            doc.blocks.append(PageBreak())
        else:
            raise DocumentError(f"<{tag}> is not a rulebook element")
    return doc
