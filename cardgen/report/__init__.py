"""Balance reports: the engine's findings and figures as a static HTML page and a PDF.

``cardgen report GAME`` runs the checks (:mod:`cardgen.engine.checks`) and, when
the game has an exact solver, solves a few deals; :func:`write_report` then
writes ``index.html``, ``<game>-balance.pdf`` and ``report.json`` into
``output/<game>/report/``, which the gallery links.

Modules:

* :mod:`cardgen.report.data`: gathers the figures (``ReportData``) and the verdicts;
* :mod:`cardgen.report.chart_kit`: the canvas, axes, colours and number formats charts share;
* :mod:`cardgen.report.charts`: draws each of the report's charts once, as a render-layer Scene;
* :mod:`cardgen.report.pages`: the HTML page (inline SVG) and the PDF (A4 pages) from those scenes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from cardgen.report.chart_kit import Chart
from cardgen.report.charts import Section, build_sections
from cardgen.report.data import ReportData, gather
from cardgen.report.pages import render_html, render_pdf

REPORT_FOLDER = "report"
INDEX = "index.html"
JSON_NAME = "report.json"
SIBLING_PAGES = ("sweep.html",)
"""Pages other commands write into the report folder (``cardgen sweep``); the report links those present."""


def pdf_name(game: str) -> str:
    """The PDF's file name for a game."""
    return f"{game}-balance.pdf"


def report_json(data: ReportData) -> str:
    """``report.json``'s text."""
    return json.dumps(data.as_json(), indent=1, ensure_ascii=False) + "\n"


def _write(path: Path, content: bytes) -> None:
    """Write ``content`` to ``path`` through a temporary file and one atomic rename."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(content)
    os.replace(tmp, path)


def write_report(data: ReportData, folder: Path) -> list[Path]:
    """Write the page, the PDF and the JSON into ``folder`` (created if needed); return their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    sections = build_sections(data)
    name = pdf_name(data.game)
    outputs = [
        (folder / INDEX, render_html(data, name, sections, tuple(p for p in SIBLING_PAGES if (folder / p).is_file())).encode("utf-8")),
        (folder / name, render_pdf(data, sections)),
        (folder / JSON_NAME, report_json(data).encode("utf-8")),
    ]
    for path, content in outputs:
        _write(path, content)
    return [path for path, _ in outputs]


__all__ = [
    "Chart", "Section", "ReportData", "build_sections", "gather", "render_html", "render_pdf",
    "report_json", "write_report", "pdf_name", "REPORT_FOLDER", "INDEX", "JSON_NAME",
]
