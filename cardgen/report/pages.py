"""The report's two outputs from one set of charts: a static HTML page and a PDF.

:func:`render_html` puts every chart's scene inline as SVG (through
:func:`cardgen.render.write_svg`), :func:`render_pdf` flows the very same
scenes onto A4 pages (through :func:`cardgen.render.write_pdf`). The page is
self-contained: inline CSS, no script, no external URL; every text it shows is
escaped. Both are deterministic: the same data gives the same bytes.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from cardgen.engine.checks import CHECK_CODES
from cardgen.findings import Finding
from cardgen.render.pdf_backend import write_pdf
from cardgen.render.scene import Box, Group, Line, Primitive, Scene, Text, Transform
from cardgen.render.svg_backend import write_svg
from cardgen.render.text import layout_text
from cardgen.report.chart_kit import BOLD, FONT, INK, MUTED, WIDTH, Chart
from cardgen.report.charts import Section, build_sections
from cardgen.report.data import ReportData

GLOSSARY: tuple[tuple[str, str], ...] = (
    ("Win share", "A seat's share of first places over completed games; a tie among k seats counts 1/k for each."),
    ("95% interval", "The Wilson score interval: with this many games the true win share lies inside it 19 times out of 20."),
    ("AdvantageP1", "The first seat's win share. With N seats a fair game sits near 1/N."),
    ("Balance", "1 minus the largest gap between two seats' win shares: 1 is perfectly even."),
    ("Completion", "The share of playouts that ended by the rules (no timeout, dead end or engine error)."),
    ("Drawishness", "The share of games in which every seat tied; the tie rate counts games where first place was shared."),
    ("DecisionMoves", "The share of decision points that offered more than one legal action."),
    ("Branching factor", "The number of legal actions at a decision point, averaged over every decision of every playout."),
    ("Skill gradient", "How often a stronger agent (greedy, or the MCTS planner) beats a weaker one; 0.5 means skill does not matter."),
    ("Coverage", "The share of playouts in which a card, pattern or set the rules count was used at least once."),
    ("Solved deals", "Deals solved exactly by the game's solver, when it has one: the value under perfect play."),
)
"""What the report's words mean, shown at the end of both outputs."""

CSS = """
body{font-family:"DejaVu Sans",Verdana,sans-serif;margin:0;background:#f4f3f0;color:#222;line-height:1.4}
header,main,footer,nav{max-width:900px;margin:0 auto;padding:0 16px}
h1{margin:18px 0 4px;font-size:26px}h2{border-bottom:2px solid #bbb;padding-bottom:4px;margin-top:32px}
p.params{color:#555;font-size:14px;margin:4px 0}
nav ul{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:6px 16px;font-size:14px}
figure{margin:14px 0;background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px}
figure svg{display:block;width:100%;max-width:180mm;height:auto}
figcaption{font-size:12px;color:#555;margin-top:6px}
table.findings{border-collapse:collapse;width:100%;font-size:13px;background:#fff}
table.findings th,table.findings td{border:1px solid #ccc;padding:4px 6px;text-align:left;vertical-align:top}
td.sev-error{font-weight:bold;background:#efbcb6}td.sev-warning{font-weight:bold;background:#f5e2ad}td.sev-info{background:#e4e4e4}
.hint{color:#555;font-style:italic}.note{background:#fff6d6;border-left:4px solid #c9a227;padding:6px 10px}
dl{font-size:14px}dt{font-weight:bold;margin-top:6px}dd{margin-left:16px}
footer{font-size:12px;color:#666;margin:28px auto}
"""

_NAMESPACE_RE = re.compile(r'\s+xmlns(?::[A-Za-z]+)?="[^"]*"')


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def inline_svg(chart: Chart) -> str:
    """The chart as an ``<svg>`` element for an HTML page: no XML prolog, no namespace URLs, an accessible label."""
    svg = write_svg(chart.scene)
    svg = svg.split("\n", 1)[1] if svg.startswith("<?xml") else svg
    head_end = svg.index(">")
    head = _NAMESPACE_RE.sub("", svg[:head_end])
    head = head.replace("<svg ", f'<svg role="img" aria-label="{_e(chart.title)}" ', 1)
    return (head + svg[head_end:]).strip()


def _where(f: Finding) -> str:
    place = f"{f.file}:{f.line}" if f.line else f.file
    return f"{place} {f.path}".strip()


def parameters_line(data: ReportData) -> str:
    """The run's parameters in one sentence."""
    playouts = str(data.playouts) if data.playouts is not None else "enough for the target interval"
    solve = f"{data.solve_deals} deal(s) per player count" if data.solve_deals else "off"
    return (
        f"Seed {data.seed}; random playouts per player count: {playouts}; skill ladder: {data.skill_games} game(s) per rung, "
        f"planner budget {data.mcts_budget}; exact solver: {solve}."
    )


def render_html(data: ReportData, pdf_name: str, sections: list[Section] | None = None, more_pages: tuple[str, ...] = ()) -> str:
    """The report page: summary box, then per player count every chart inline, the findings and a glossary.

    ``more_pages`` names other pages of the report folder to link (``sweep.html``, written by ``cardgen sweep``).
    """
    sections = sections if sections is not None else build_sections(data)
    title = f"Balance report: {data.title}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body>",
        f"<header><h1>{_e(title)}</h1>",
        f'<p class="params">{_e(data.game)} · version {_e(data.version)} · {_e(data.check.file)}</p>',
        f'<p class="params">{_e(parameters_line(data))}</p>',
        f'<p class="params">Files: <a href="report.json">report.json</a> · <a href="{_e(pdf_name)}">{_e(pdf_name)}</a>'
        + "".join(f' · <a href="{_e(page)}">{_e(page)}</a>' for page in more_pages) + "</p></header>",
    ]
    links = [(s.key, s.heading) for s in sections] + [("findings", "Findings"), ("glossary", "How to read this")]
    parts.append("<nav><ul>" + "".join(f'<li><a href="#{_e(k)}">{_e(h)}</a></li>' for k, h in links) + "</ul></nav><main>")
    for section in sections:
        parts.append(f'<section id="{_e(section.key)}"><h2>{_e(section.heading)}</h2>')
        for note in section.notes:
            parts.append(f'<p class="note">{_e(note)}</p>')
        for chart in section.charts:
            parts.append(f'<figure id="{_e(chart.key)}">{inline_svg(chart)}<figcaption>{_e(chart.summary)}</figcaption></figure>')
        parts.append("</section>")
    parts.append('<section id="findings"><h2>Findings</h2>')
    findings = data.findings
    if findings:
        rows = "".join(
            f'<tr><td class="sev-{_e(f.severity.label)}">{_e(f.severity.label)}</td><td>{_e(f.code)}</td><td>{_e(_where(f))}</td>'
            f"<td>{_e(f.message)}" + (f'<br><span class="hint">{_e(f.hint)}</span>' if f.hint else "") + "</td></tr>"
            for f in findings
        )
        parts.append(f'<table class="findings"><thead><tr><th>severity</th><th>code</th><th>where</th><th>what</th></tr></thead><tbody>{rows}</tbody></table>')
        codes = sorted({f.code for f in findings if f.code in CHECK_CODES})
        parts.append("<dl>" + "".join(f"<dt>{_e(c)}</dt><dd>{_e(CHECK_CODES[c])}</dd>" for c in codes) + "</dl>")
    else:
        parts.append("<p>No findings: every check passed.</p>")
    parts.append("</section>")
    parts.append('<section id="glossary"><h2>How to read this</h2><dl>')
    parts.extend(f"<dt>{_e(term)}</dt><dd>{_e(text)}</dd>" for term, text in GLOSSARY)
    parts.append("</dl></section></main>")
    parts.append(f"<footer>Made by cardgen from the game's spec and rules module. Same seed, same report.</footer></body></html>")
    return "\n".join(parts) + "\n"


# -- PDF -----------------------------------------------------------------

PAGE_W, PAGE_H = 210.0, 297.0
MARGIN_X = (PAGE_W - WIDTH) / 2
MARGIN_TOP, MARGIN_BOTTOM = 14.0, 16.0
BLOCK_GAP = 5.0


@dataclass
class _Block:
    items: tuple[Primitive, ...]
    height: float
    keep_with_next: bool = False


def _text_block(
    text: str, size: float, font: str = FONT, fill: str = INK, keep: bool = False, gap_after: float = 1.5, gap_before: float = 0.0
) -> _Block:
    laid = layout_text(text, Box(0, gap_before, WIDTH, 10_000), font, size, fill=fill, line_height=1.3)
    return _Block(laid.items, gap_before + laid.height_mm + gap_after, keep)


def _heading(text: str) -> _Block:
    return _text_block(text, 14.0, BOLD, keep=True, gap_after=2.5, gap_before=3.0)


def _chart_block(chart: Chart) -> _Block:
    return _Block(chart.scene.children, chart.scene.height_mm + BLOCK_GAP)


def _pdf_blocks(data: ReportData, sections: list[Section]) -> list[_Block]:
    blocks = [
        _text_block(f"Balance report: {data.title}", 18.0, BOLD, gap_after=2.0),
        _text_block(f"{data.game} · version {data.version} · {data.check.file}", 8.0, fill=MUTED),
        _text_block(parameters_line(data), 8.0, fill=MUTED, gap_after=4.0),
    ]
    for section in sections:
        blocks.append(_heading(section.heading))
        for note in section.notes:
            blocks.append(_text_block(note, 8.5, keep=False))
        blocks.extend(_chart_block(c) for c in section.charts)
    blocks.append(_heading("Findings"))
    findings = data.findings
    if not findings:
        blocks.append(_text_block("No findings: every check passed.", 8.5))
    for f in findings:
        hint = f" Hint: {f.hint}" if f.hint else ""
        blocks.append(_text_block(f"{f.severity.label.upper()} {f.code} at {_where(f)}: {f.message}.{hint}", 7.5, gap_after=2.0))
    blocks.append(_heading("How to read this"))
    for term, text in GLOSSARY:
        blocks.append(_text_block(f"{term}: {text}", 8.0, gap_after=1.2))
    return blocks


def _footer(data: ReportData, page: int, pages: int) -> list[Primitive]:
    y = PAGE_H - MARGIN_BOTTOM + 8.0
    return [
        Line(MARGIN_X, y - 4.0, PAGE_W - MARGIN_X, y - 4.0, MUTED, 0.2),
        Text(MARGIN_X, y, f"{data.title}: balance report, seed {data.seed}", FONT, 7.0, MUTED),
        Text(PAGE_W - MARGIN_X, y, f"page {page} of {pages}", FONT, 7.0, MUTED, "end"),
    ]


def paginate(blocks: list[_Block]) -> list[list[tuple[float, float, _Block]]]:
    """Place blocks top to bottom on pages: (y, scale, block) per page; a heading never ends a page; a block taller than a page is scaled down."""
    usable = PAGE_H - MARGIN_TOP - MARGIN_BOTTOM
    pages: list[list[tuple[float, float, _Block]]] = [[]]
    y = MARGIN_TOP
    for index, block in enumerate(blocks):
        scale = min(1.0, usable / block.height) if block.height > 0 else 1.0
        need = block.height * scale
        if block.keep_with_next and index + 1 < len(blocks):
            following = blocks[index + 1]
            need += min(following.height, usable - need)
        if y + need > MARGIN_TOP + usable + 1e-6 and pages[-1]:
            pages.append([])
            y = MARGIN_TOP
        pages[-1].append((y, scale, block))
        y += block.height * scale
    return pages


def pdf_scenes(data: ReportData, sections: list[Section] | None = None) -> list[Scene]:
    """The report as A4 page scenes."""
    sections = sections if sections is not None else build_sections(data)
    pages = paginate(_pdf_blocks(data, sections))
    scenes = []
    for number, placed in enumerate(pages, start=1):
        children: list[Primitive] = []
        for y, scale, block in placed:
            transform = Transform(translate=(MARGIN_X, round(y, 4)), scale=(scale, scale) if scale < 1.0 else (1.0, 1.0))
            children.append(Group(block.items, transform))
        children.extend(_footer(data, number, len(pages)))
        scenes.append(Scene(PAGE_W, PAGE_H, tuple(children)))
    return scenes


def render_pdf(data: ReportData, sections: list[Section] | None = None) -> bytes:
    """The report as PDF bytes (A4, fonts embedded, deterministic)."""
    return write_pdf(pdf_scenes(data, sections), title=f"{data.title} – balance report")
