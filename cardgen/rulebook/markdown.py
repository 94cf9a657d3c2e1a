"""The rulebook as Markdown (CommonMark with GitHub tables): the same text as the PDF."""

from __future__ import annotations

import re

from cardgen.links import markdown_destination, safe_link
from cardgen.rulebook.document import Document, Figure, Heading, Inline, ListBlock, PageBreak, Para, Picture, Table, Toc

_SPECIAL = re.compile(r"([\\`*_\[\]<>|])")
_LINE_START = re.compile(r"^(#|[-+]\s|\d+[.)]\s|>)")
_ENTITY = re.compile(r"&(?=#?\w+;)")
"""An ``&`` that would start a character reference (``&lt;`` shows as ``<``): escaped, so the text shows as written."""


def escape(text: str, in_table: bool = False) -> str:
    """Escape the characters Markdown would read as markup."""
    out = _ENTITY.sub(r"\\&", _SPECIAL.sub(r"\\\1", text))
    if not in_table:
        out = _LINE_START.sub(lambda m: "\\" + m.group(0), out)
    return out


def inline(runs: Inline, in_table: bool = False) -> str:
    """Inline runs as Markdown (bold, italic, links)."""
    parts = []
    for run in runs:
        text = escape(run.text, in_table)
        core = text.strip(" ")
        if not core:
            parts.append(text)
            continue
        lead = text[: len(text) - len(text.lstrip(" "))]
        trail = text[len(text.rstrip(" ")) :]
        href = markdown_destination(safe_link(run.href))
        if href:
            core = f"[{core}](<{href}>)" if core != escape(run.href, in_table) or href != run.href else f"<{href}>"
        if run.italic:
            core = f"*{core}*"
        if run.bold:
            core = f"**{core}**"
        parts.append(lead + core + trail)
    return "".join(parts)


def to_markdown(doc: Document, images: dict[str, str] | None = None) -> str:
    """The whole rulebook as Markdown text (ends with one newline).

    ``images`` maps a figure's id to the file (beside the Markdown) that shows it; a figure without one prints
    its caption and its lines only.
    """
    images = images or {}
    chunks: list[str] = []
    toc_levels = {1, 2}
    for block in doc.blocks:
        if isinstance(block, Heading):
            chunks.append("#" * (block.level + 1) + " " + escape(block.text, in_table=True))
        elif isinstance(block, Para):
            text = inline(block.runs)
            if block.css == "title":
                chunks.append("# " + text)
            elif block.css in ("tagline", "attribution", "note"):
                chunks.append(f"*{text}*" if "*" not in text else text)
            else:
                chunks.append(text)
        elif isinstance(block, ListBlock):
            lines = []
            for index, item in enumerate(block.items, start=1):
                marker = f"{index}." if block.ordered else "-"
                lines.append(f"{marker} {inline(item)}")
            chunks.append("\n".join(lines))
        elif isinstance(block, Table):
            width = max([len(block.header)] + [len(r) for r in block.rows])
            header = list(block.header) + [()] * (width - len(block.header))
            lines = ["| " + " | ".join(inline(c, in_table=True) for c in header) + " |"]
            lines.append("|" + "|".join(" --- " for _ in range(width)) + "|")
            for row in block.rows:
                cells = list(row) + [()] * (width - len(row))
                lines.append("| " + " | ".join(inline(c, in_table=True) for c in cells) + " |")
            chunks.append("\n".join(lines))
        elif isinstance(block, Toc):
            lines = [f"## {escape(block.title, in_table=True)}"] if block.title else []
            for heading in doc.headings:
                if heading.level in toc_levels:
                    indent = "  " * (heading.level - 1)
                    lines.append(f"{indent}- [{escape(heading.text, in_table=True)}](#{heading.anchor})")
            chunks.append("\n".join(lines))
        elif isinstance(block, Figure):
            parts = []
            if block.id in images:
                parts.append(f"![{escape(block.caption, in_table=True)}](<{markdown_destination(images[block.id])}>)")
            if block.caption:
                parts.append(f"*{escape(block.caption)}*")
            if block.lines:
                parts.append("\n".join(f"- {escape(line, in_table=True)}" for line in block.lines))
            chunks.append("\n\n".join(parts))
        elif isinstance(block, (Picture, PageBreak)):
            continue
    return "\n\n".join(chunk for chunk in chunks if chunk) + "\n"
