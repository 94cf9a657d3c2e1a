"""A sweep's figures as charts and a page beside the game's balance report.

Each :class:`~cardgen.sweep.present.Effect` (one varied number at one player
count) gives three charts drawn with the report's own canvas
(:mod:`cardgen.report.chart_kit`): each seat's win share with its 95% interval,
the tie rate, skill gradient and card coverage, and the game length. Seats and
series are told apart by position, marker shape and labels, so the charts read
in greyscale. :func:`write_sweep_page` writes ``sweep.html`` (charts inline,
then the table) and ``sweep.json`` into ``output/<game>/report/``.
"""

from __future__ import annotations

import html
import json
import os
from pathlib import Path
from typing import Sequence

from cardgen.render.scene import Line, Polygon, Primitive, Rect, Text
from cardgen.report.chart_kit import AXIS, FONT, GRID, INK, MUTED, NUM_PT, Canvas, Chart, dashed, fmt, nice_ticks
from cardgen.sweep.present import Effect, effects, sweep_json, table_rows
from cardgen.sweep.run import SweepPlan
from cardgen.sweep.work import Record

SEAT_FILLS = ("#1f3b5a", "#5b7fa6", "#a9c1dc", "#ffffff", "#777777", "#cccccc")
"""Seat markers from dark to light (the fourth is hollow), so seats differ without hue."""

PAGE = "sweep.html"
JSON_FILE = "sweep.json"


def _x_scale(c: Canvas, values: Sequence[int]) -> tuple[float, float]:
    """(x of the first value, mm per unit) with half a slot of margin each side."""
    plot = c.plot
    low, high = values[0], values[-1]
    if high == low:
        return plot.x + plot.w / 2, 0.0
    slot = plot.w / (len(values))
    return plot.x + slot / 2, (plot.w - slot) / (high - low)


def _x_axis(c: Canvas, values: Sequence[int], name: str) -> tuple[float, float]:
    """Ticks and labels under the plot, one per varied value; returns the x scale."""
    x0, per = _x_scale(c, values)
    plot = c.plot
    for value in values:
        x = x0 + (value - values[0]) * per
        c.add(Line(x, plot.y, x, plot.bottom, GRID, 0.2), Line(x, plot.bottom, x, plot.bottom + 0.8, AXIS, 0.25))
        c.add(Text(x, plot.bottom + c.tick_gap, str(value), FONT, NUM_PT, MUTED, "middle"))
    c.add(Line(plot.x, plot.bottom, plot.right, plot.bottom, AXIS, 0.3))
    return x0, per


def _marker(shape: str, x: float, y: float, fill: str, r: float = 1.1) -> Primitive:
    if shape == "square":
        return Rect(x - r, y - r, 2 * r, 2 * r, fill, INK, 0.25)
    if shape == "triangle":
        return Polygon(((x, y - r * 1.2), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8)), fill, INK, 0.25)
    return Polygon(((x, y - r * 1.3), (x + r * 1.1, y), (x, y + r * 1.3), (x - r * 1.1, y)), fill, INK, 0.25)


def seat_effect_chart(effect: Effect, key: str) -> Chart:
    """Each seat's pooled win share against the varied value, with its 95% Wilson interval and the fair share."""
    n, values = effect.players, [p.value for p in effect.points]
    subtitle = (
        f"Each value pools every variant that has it ({effect.points[0].variants} per value). Marker: the seat's share of first places; "
        f"whisker: 95% Wilson interval; dashed: the fair share 1/{n}. Seats left to right, dark to light: "
        + ", ".join(f"P{s + 1}" for s in range(n)) + "."
    )
    c = Canvas(f"Seat win share against {effect.name}, {n} players", subtitle, 50.0, x_label=f"numbers.{effect.name}", y_label="share of first places")
    top, _ = c.y_axis(min(1.0, max(h for p in effect.points for _, _, h in p.seats) * 1.1 + 0.02))
    x0, per = _x_axis(c, values, effect.name)
    plot = c.plot

    def to_y(v: float) -> float:
        return plot.bottom - v / top * plot.h

    spread = min(4.0, plot.w / max(1, len(values)) / (n + 1))
    for p in effect.points:
        cx = x0 + (p.value - values[0]) * per
        for seat, (share, low, high) in enumerate(p.seats):
            x = cx + (seat - (n - 1) / 2) * spread
            c.add(Line(x, to_y(low), x, to_y(high), INK, 0.3))
            c.add(_marker("square", x, to_y(share), SEAT_FILLS[seat % len(SEAT_FILLS)], 0.9))
    fair = to_y(1.0 / n)
    c.add(*dashed(plot.x, fair, plot.right, fair, INK, 0.35))
    c.add(Text(plot.right - 0.5, fair - 1.0, f"1/{n} = {fmt(1.0 / n)}", FONT, NUM_PT, INK, "end"))
    summary = "; ".join(
        f"{effect.name}={p.value}: " + ", ".join(f"P{s + 1} {fmt(w)} [{fmt(lo)}, {fmt(hi)}]" for s, (w, lo, hi) in enumerate(p.seats)) for p in effect.points
    )
    return Chart(key, f"Seat win share against {effect.name}, {n} players", c.scene(), summary + ".")


def rates_effect_chart(effect: Effect, key: str) -> Chart:
    """Tie rate (squares), skill gradient (triangles) and card coverage (diamonds) against the varied value."""
    values = [p.value for p in effect.points]
    subtitle = (
        "Squares: tie rate (first place shared). Triangles: skill gradient (how often the planner beats random; 0.5: skill does not matter). "
        "Diamonds: card coverage (share of the cards, sets and bonuses used at least once)."
    )
    c = Canvas(f"Ties, skill and coverage against {effect.name}, {effect.players} players", subtitle, 44.0, x_label=f"numbers.{effect.name}", y_label="share")
    c.y_axis(1.0)
    x0, per = _x_axis(c, values, effect.name)
    plot = c.plot
    series: tuple[tuple[str, str, list[float | None]], ...] = (("square", "#ffffff", [p.tie_rate for p in effect.points]), ("triangle", "#555555", [p.skill for p in effect.points]), ("diamond", "#a9c1dc", [p.coverage for p in effect.points]))
    for dx, (shape, fill, data) in zip((-1.6, 0.0, 1.6), series):  # side by side where two series meet
        last: tuple[float, float] | None = None
        for value, v in zip(values, data):
            if v is None:
                last = None
                continue
            point = (x0 + (value - values[0]) * per + dx, plot.bottom - v * plot.h)
            if last is not None:
                c.add(Line(last[0], last[1], point[0], point[1], MUTED, 0.25))
            last = point
        for value, v in zip(values, data):
            if v is not None:
                c.add(_marker(shape, x0 + (value - values[0]) * per + dx, plot.bottom - v * plot.h, fill))
    summary = "; ".join(f"{effect.name}={p.value}: ties {fmt(p.tie_rate)}, skill {fmt(p.skill) if p.skill is not None else 'n/a'}, coverage {fmt(p.coverage) if p.coverage is not None else 'n/a'}" for p in effect.points)
    return Chart(key, f"Ties, skill and coverage against {effect.name}, {effect.players} players", c.scene(), summary + ".")


def length_effect_chart(effect: Effect, key: str) -> Chart:
    """Mean game length (actions) against the varied value, the whisker spanning the shortest to the longest game."""
    values = [p.value for p in effect.points]
    c = Canvas(
        f"Game length against {effect.name}, {effect.players} players", "Marker: mean actions per game (chance steps included); whisker: shortest to longest game.",
        40.0, x_label=f"numbers.{effect.name}", y_label="actions",
    )
    high = max(p.length_max for p in effect.points)
    low = min(p.length_min for p in effect.points)
    ticks = nice_ticks(max(0.0, low * 0.9), high * 1.05 + 1, 5, integer=True)
    bottom, top = ticks[0], ticks[-1]
    c.y_axis(top, integer=True, low=bottom)
    x0, per = _x_axis(c, values, effect.name)
    plot = c.plot

    def to_y(v: float) -> float:
        return plot.bottom - (v - bottom) / (top - bottom) * plot.h

    for p in effect.points:
        x = x0 + (p.value - values[0]) * per
        c.add(Line(x, to_y(p.length_min), x, to_y(p.length_max), INK, 0.3))
        c.add(_marker("diamond", x, to_y(p.length), "#5b7fa6"))
        c.add(Text(x + 1.6, to_y(p.length) + 0.9, f"{p.length:.1f}", FONT, NUM_PT, INK, "start"))
    summary = "; ".join(f"{effect.name}={p.value}: mean {p.length:.1f} [{p.length_min}..{p.length_max}]" for p in effect.points)
    return Chart(key, f"Game length against {effect.name}, {effect.players} players", c.scene(), summary + ".")


def sweep_charts(plan: SweepPlan, records: Sequence[Record]) -> list[Chart]:
    """Every chart of the sweep: three per varied number and player count."""
    charts: list[Chart] = []
    for effect in effects(plan, records):
        key = f"{effect.name}-p{effect.players}"
        charts.append(seat_effect_chart(effect, f"{key}-seats"))
        charts.append(rates_effect_chart(effect, f"{key}-rates"))
        charts.append(length_effect_chart(effect, f"{key}-length"))
    return charts


def render_sweep_page(plan: SweepPlan, records: Sequence[Record]) -> str:
    """``sweep.html``: the sweep's settings, its charts inline, then the table (self-contained, escaped)."""
    from cardgen.report.pages import CSS, inline_svg

    e = lambda text: html.escape(str(text), quote=True)  # noqa: E731
    s = plan.settings
    title = f"Balance sweep: {plan.source.folder_name}"
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">', f"<title>{e(title)}</title><style>{CSS}</style></head><body>",
        f"<header><h1>{e(title)}</h1>",
        f'<p class="params">{e(" ".join("--vary " + v.as_text() for v in plan.varies))}: {len(plan.grid)} variants; '
        f"{s.playouts} playouts per player count with {e(s.agents)} agents; skill ladder {s.skill_games} game(s) per rung; seed {s.seed}; "
        f"spec sha256 {plan.source.digest[:12]}.</p>",
        f'<p class="params">Files: <a href="{JSON_FILE}">{JSON_FILE}</a> · <a href="index.html">balance report</a></p></header><main>',
    ]
    for chart in sweep_charts(plan, records):
        parts.append(f'<figure id="{e(chart.key)}">{inline_svg(chart)}<figcaption>{e(chart.summary)}</figcaption></figure>')
    rows = table_rows(plan, records)
    parts.append('<section id="table"><h2>Every variant</h2><table class="findings"><thead><tr>')
    parts.append("".join(f"<th>{e(cell)}</th>" for cell in rows[0]) + "</tr></thead><tbody>")
    parts.extend("<tr>" + "".join(f"<td>{e(cell)}</td>" for cell in row) + "</tr>" for row in rows[1:])
    parts.append("</tbody></table></section></main><footer>Made by cardgen sweep. Same spec, options and seed, same figures.</footer></body></html>")
    return "\n".join(parts) + "\n"


def write_sweep_page(plan: SweepPlan, records: Sequence[Record], folder: Path) -> list[Path]:
    """Write ``sweep.html`` and ``sweep.json`` into ``folder`` (the game's report folder), each by one atomic rename."""
    folder.mkdir(parents=True, exist_ok=True)
    outputs = [
        (folder / PAGE, render_sweep_page(plan, records)),
        (folder / JSON_FILE, json.dumps(sweep_json(plan, records), indent=1, sort_keys=True, ensure_ascii=False) + "\n"),
    ]
    for path, text in outputs:
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    return [path for path, _ in outputs]
