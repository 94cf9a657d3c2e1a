"""The report's pictures, each drawn once as a :class:`~cardgen.render.scene.Scene`.

Every chart is a scene 180 mm wide (its height follows its content) built
from the render layer's primitives, so the same picture goes into the HTML
page as inline SVG and into the PDF through the PDF backend. Charts carry a
title, axis labels and their numbers printed next to the marks, and tell
things apart by position, labels and lightness rather than hue alone, so they
read in greyscale.

The functions here only draw: they take the engine's metrics (or a
:class:`~cardgen.report.data.ReportData`) and return :class:`Chart` objects,
built with the chart kit (:mod:`cardgen.report.chart_kit`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from cardgen.engine.balance import BalanceMetrics, SkillEdge
from cardgen.engine.checks import CountReport
from cardgen.render.fonts import string_width
from cardgen.render.scene import Line, Polygon, Primitive, Rect, Scene
from cardgen.report.chart_kit import (
    AXIS,
    BAR,
    BAR_EDGE,
    BOLD,
    FONT,
    INK,
    LABEL_PT,
    LOW,
    MUTED,
    NUM_PT,
    SEAT_BAR,
    SUB_PT,
    TITLE_PT,
    WIDTH,
    Canvas,
    Chart,
    Scale,
    dashed,
    fit_text,
    fmt,
    fmt_value,
    nice_ticks,
    text_at,
    tick_label,
    whisker_h,
    whisker_v,
)
from cardgen.report.data import FAIL, LOW_COVERAGE, NOT_RUN, PASS, WARN, ReportData, SolverResult

STATUS_FILL = {PASS: "#d5ead0", WARN: "#f5e2ad", FAIL: "#efbcb6", NOT_RUN: "#e4e4e4"}
STATUS_WORD = {PASS: "PASS", WARN: "WARN", FAIL: "FAIL", NOT_RUN: "NOT RUN"}


def seat_name(seat: int) -> str:
    """How the report names a seat: P1 is the first player."""
    return f"P{seat + 1}"


def agent_name(name: str) -> str:
    """A readable name for an agent of the skill ladder."""
    if name.startswith("mcts"):
        _, _, budget = name.partition(":")
        return f"planner (MCTS {budget})" if budget else "planner (MCTS)"
    return name


# -- the charts ----------------------------------------------------------


def seat_chart(metrics: BalanceMetrics, key: str) -> Chart | None:
    """Seat win shares as bars with 95% Wilson whiskers and a dashed 1/N fair-share line (several seats only)."""
    n = metrics.players
    if n < 2 or metrics.completed == 0:
        return None
    fair = 1.0 / n
    subtitle = (
        f"{metrics.completed} completed random playouts with {n} players. Bar: the seat's share of first places "
        f"(a tie among k seats counts 1/k each); whisker: 95% Wilson interval; dashed line: the fair share 1/{n} = {fmt(fair)}."
    )
    c = Canvas(f"Seat win rates, {n} players", subtitle, 52.0, bottom=17.0, x_label="seat (order of play)", y_label="share of first places", headroom=7.0)
    peak = max([s.interval[1] for s in metrics.seats] + [fair])
    top, _ = c.y_axis(min(1.0, peak * 1.12))
    plot = c.plot
    to_y = Scale(0.0, top, plot.bottom, plot.y)
    slot = plot.w / n
    bar_w = min(slot * 0.55, 24.0)
    for s in metrics.seats:
        cx = plot.x + slot * (s.seat + 0.5)
        y = to_y(s.win_share)
        c.add(Rect(cx - bar_w / 2, y, bar_w, plot.bottom - y, SEAT_BAR, BAR_EDGE, 0.25))
        lo, hi = to_y(s.interval[0]), to_y(s.interval[1])
        c.add(*whisker_v(cx, lo, hi))
        c.add(text_at(cx, hi - 1.4, fmt(s.win_share), NUM_PT + 0.5, BOLD, anchor="middle"))
        c.add(text_at(cx, plot.bottom + 3.6, seat_name(s.seat), LABEL_PT, BOLD, anchor="middle"))
        c.add(text_at(cx, plot.bottom + 6.9, f"[{fmt(s.interval[0])}, {fmt(s.interval[1])}]", NUM_PT, fill=MUTED, anchor="middle"))
        c.add(text_at(cx, plot.bottom + 9.9, f"{s.wins} sole wins", NUM_PT, fill=MUTED, anchor="middle"))
    y_fair = to_y(fair)
    c.add(*dashed(plot.x, y_fair, plot.right, y_fair, INK, 0.35))
    c.add(text_at(plot.right - 0.5, y_fair - 1.0, f"1/{n} = {fmt(fair)}", NUM_PT, fill=INK, anchor="end"))
    summary = "; ".join(f"{seat_name(s.seat)} {fmt(s.win_share)} [{fmt(s.interval[0])}, {fmt(s.interval[1])}]" for s in metrics.seats)
    return Chart(key, f"Seat win rates, {n} players", c.scene(), f"Win share (95% Wilson interval): {summary}; fair share {fmt(fair)}.")


def score_chart(metrics: BalanceMetrics, key: str) -> Chart | None:
    """Final-score histograms, one row per seat on a shared score axis, with mean, sd and range."""
    seats = [s for s in metrics.seats]
    hists = metrics.score_histogram
    bins = [b for h in hists for b in h]
    if not bins:
        return None
    low = min(b[0] for b in bins)
    high = max(b[1] for b in bins) + 1
    peak = max(b[2] for b in bins) or 1
    row_h, gap = 15.0, 5.0
    n = len(seats)
    who = "per seat" if n > 1 else "solo"
    subtitle = (
        f"Final scores of {metrics.completed} completed random playouts, {who}; each bar counts the games whose score "
        f"fell in its range (the number on top). Left: mean, standard deviation and range."
    )
    c = Canvas(f"Score distribution, {n} player{'s' if n > 1 else ''}", subtitle, n * row_h + (n - 1) * gap, left=30.0, x_label="final score", y_label="games")
    c.tick_gap = 5.0
    plot = c.plot
    to_x = Scale(low, high, plot.x, plot.right)
    for index, (s, hist) in enumerate(zip(seats, hists)):
        base = plot.y + index * (row_h + gap) + row_h
        height = row_h - 3.4
        c.add(Line(plot.x, base, plot.right, base, AXIS, 0.3))
        c.add(text_at(1.0 + 6.0, base - row_h + 3.0, seat_name(s.seat), LABEL_PT, BOLD))
        c.add(text_at(7.0, base - row_h + 6.2, f"mean {s.score_mean:.2f}", NUM_PT, fill=MUTED))
        c.add(text_at(7.0, base - row_h + 9.0, f"sd {s.score_sd:.2f}", NUM_PT, fill=MUTED))
        c.add(text_at(7.0, base - row_h + 11.8, f"range {s.score_min}..{s.score_max}", NUM_PT, fill=MUTED))
        for lo, hi, count in hist:
            x0, x1 = to_x(lo), to_x(hi + 1)
            h = count / peak * height
            if count:
                c.add(Rect(x0 + 0.15, base - h, max(0.1, x1 - x0 - 0.3), h, BAR, BAR_EDGE, 0.2))
            label = str(count)
            if string_width(label, FONT, NUM_PT) <= x1 - x0 + 1.0:
                c.add(text_at((x0 + x1) / 2, base - h - 0.8, label, NUM_PT, anchor="middle"))
        mean_x = to_x(s.score_mean + 0.5)
        c.add(Polygon(((mean_x, base + 0.2), (mean_x - 1.1, base + 2.1), (mean_x + 1.1, base + 2.1)), INK))
    ticks = [t for t in nice_ticks(low, high - 1, 8, integer=True) if low <= t <= high - 1]
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    c.x_axis(ticks, Scale(low - 0.5, high - 0.5, plot.x, plot.right), [tick_label(t, step) for t in ticks], grid=False)
    c.add(text_at(plot.right, plot.y - 1.2, "triangle under the axis: mean score", NUM_PT, fill=MUTED, anchor="end"))
    parts = []
    for s, hist in zip(seats, hists):
        bars = ", ".join(f"{lo}-{hi}: {count}" for lo, hi, count in hist)
        parts.append(f"{seat_name(s.seat)} mean {s.score_mean:.2f}, sd {s.score_sd:.2f}, range {s.score_min}..{s.score_max} ({bars})")
    return Chart(key, f"Score distribution, {n} player{'s' if n > 1 else ''}", c.scene(), "; ".join(parts) + ".")


def histogram_chart(key: str, title: str, subtitle: str, bins: Sequence[tuple[int, int, int]], x_label: str, y_label: str) -> Chart | None:
    """Counts in equal whole-number bins as touching bars, each labelled with its range and count."""
    if not bins:
        return None
    c = Canvas(title, subtitle, 42.0, bottom=15.0, x_label=x_label, y_label=y_label)
    plot = c.plot
    peak = max(b[2] for b in bins)
    top, _ = c.y_axis(max(1.0, peak * 1.1), integer=True)
    to_y = Scale(0.0, top, plot.bottom, plot.y)
    slot = plot.w / len(bins)
    for index, (lo, hi, count) in enumerate(bins):
        x0 = plot.x + index * slot
        y = to_y(count)
        if count:
            c.add(Rect(x0 + 0.3, y, slot - 0.6, plot.bottom - y, BAR, BAR_EDGE, 0.2))
        c.add(text_at(x0 + slot / 2, y - 1.0, str(count), NUM_PT, BOLD, anchor="middle"))
        label = f"{lo}–{hi}" if hi != lo else str(lo)
        size = NUM_PT
        while string_width(label, FONT, size) > slot - 0.4 and size > 4.6:
            size -= 0.5
        if string_width(label, FONT, size) > slot - 0.4:
            label = str(lo)
        c.add(Line(x0, plot.bottom, x0, plot.bottom + 0.8, AXIS, 0.25))
        c.add(text_at(x0 + slot / 2, plot.bottom + 3.4, label, size, fill=MUTED, anchor="middle"))
    summary = ", ".join(f"{lo}-{hi}: {count}" for lo, hi, count in bins)
    return Chart(key, title, c.scene(), f"{title}: {summary}.")


def length_chart(metrics: BalanceMetrics, key: str) -> Chart | None:
    """The game-length histogram (actions per playout, chance steps included)."""
    n = metrics.players
    subtitle = (
        f"{metrics.playouts} random playouts with {n} player{'s' if n > 1 else ''}: mean {metrics.duration_mean:.1f} actions "
        f"(range {metrics.duration_min}..{metrics.duration_max}), of which {metrics.decisions_mean:.1f} decisions on average. "
        f"Each bar counts the playouts whose length fell in its range."
    )
    return histogram_chart(key, f"Game length, {n} player{'s' if n > 1 else ''}", subtitle, metrics.duration_histogram, "actions per game (chance steps included)", "playouts")


def margin_chart(metrics: BalanceMetrics, key: str) -> Chart | None:
    """How far first place finished ahead of second (several seats only)."""
    if metrics.players < 2 or metrics.margin_mean is None:
        return None
    subtitle = (
        f"Score of first place minus score of second place over {metrics.completed} completed random playouts; "
        f"mean {metrics.margin_mean:.2f}. A tall bar at 0 means many close or tied games."
    )
    return histogram_chart(key, f"Winning margin, {metrics.players} players", subtitle, metrics.margin_histogram, "points between first and second place", "games")


def coverage_charts(metrics: BalanceMetrics, key: str, rows_per_chart: int = 55) -> list[Chart]:
    """Share of playouts in which each counted card, pattern or set was used, least used first; rare ones dark."""
    if not metrics.coverage or metrics.playouts == 0:
        return []
    total = metrics.playouts
    rows = sorted(((games / total, name, games) for name, (games, _uses) in metrics.coverage.items()), key=lambda r: (r[0], r[1]))
    label_w = min(62.0, max(string_width(name, FONT, NUM_PT) for _, name, _ in rows) + 2.0)
    chunks = [rows[i : i + rows_per_chart] for i in range(0, len(rows), rows_per_chart)]
    low_count = sum(1 for share, _, _ in rows if share < LOW_COVERAGE)
    out: list[Chart] = []
    n = metrics.players
    for part, chunk in enumerate(chunks):
        row_h = 4.2
        title = f"Card coverage, {n} player{'s' if n > 1 else ''}" + (f" (part {part + 1} of {len(chunks)})" if len(chunks) > 1 else "")
        subtitle = (
            f"For each of the {len(rows)} things the rules count (cards, patterns, sets...), the share of the {total} random playouts "
            f"in which it was used at least once, least used first. Dark bars marked 'low': used in fewer than "
            f"{LOW_COVERAGE:.0%} of playouts ({low_count} of them); 'never': in no random playout (an error finding "
            f"when the skill-ladder games never used it either)."
        )
        c = Canvas(title, subtitle, len(chunk) * row_h + 1.0, left=label_w + 2.0, right=34.0, bottom=10.0, x_label="share of playouts where it was used", headroom=5.0)
        plot = c.plot
        to_x = Scale(0.0, 1.0, plot.x, plot.right)
        ticks = [0.0, 0.25, 0.5, 0.75, 1.0]
        c.x_axis(ticks, to_x, ["0%", "25%", "50%", "75%", "100%"])
        c.add(Line(plot.x, plot.y, plot.x, plot.bottom, AXIS, 0.3))
        low_x = to_x(LOW_COVERAGE)
        c.add(*dashed(low_x, plot.y - 1.0, low_x, plot.bottom, LOW, 0.3))
        c.add(text_at(low_x + 0.8, plot.y - 1.4, f"{LOW_COVERAGE:.0%}", NUM_PT, fill=LOW))
        for index, (share, name, games) in enumerate(chunk):
            y = plot.y + 0.5 + index * row_h
            low = share < LOW_COVERAGE
            c.add(text_at(plot.x - 1.5, y + row_h * 0.68, fit_text(name, label_w - 1.0, FONT, NUM_PT), NUM_PT, BOLD if low else FONT, anchor="end"))
            w = to_x(share) - plot.x
            if games:
                c.add(Rect(plot.x, y + 0.6, w, row_h - 1.2, LOW if low else BAR, BAR_EDGE if not low else None, 0.2 if not low else 0.0))
            note = "never" if games == 0 else f"{games}/{total} ({share:.1%}) low" if low else f"{games}/{total} ({share:.0%})"
            c.add(text_at(max(plot.x + w, low_x) + 1.2, y + row_h * 0.68, note, NUM_PT, BOLD if low else FONT, LOW if low else INK))
        summary = ", ".join(f"{name} {games}/{total}" for _, name, games in chunk)
        out.append(Chart(f"{key}-{part + 1}" if len(chunks) > 1 else key, title, c.scene(), f"Used in (playouts): {summary}."))
    return out


def skill_chart(count: CountReport, min_edge: float, key: str) -> Chart | None:
    """The skill ladder: how often each stronger agent beats the weaker one, with 95% whiskers."""
    edges: list[SkillEdge] = list(count.skill)
    if not edges:
        return None
    n = count.players
    how = (
        "each pair plays the same deal and their scores are compared" if n == 1
        else "one stronger agent among weaker ones, seats rotated, finishing places compared pairwise"
    )
    subtitle = (
        f"Share of comparisons the stronger agent wins ({how}; ties count half), with 95% Wilson whiskers. "
        f"0.5 means skill does not matter; the check warns when the planner beats random less than {fmt(min_edge, 2)} of the time."
    )
    row_h = 9.0
    labels = [f"{agent_name(e.strong)} vs {agent_name(e.weak)}" for e in edges]
    label_w = min(60.0, max(string_width(t, FONT, LABEL_PT) for t in labels) + 2.0)
    c = Canvas(f"Skill gradient, {n} player{'s' if n > 1 else ''}", subtitle, len(edges) * row_h, left=label_w + 2.0, right=44.0, bottom=10.0, x_label="share of comparisons won by the stronger agent", headroom=6.0)
    plot = c.plot
    to_x = Scale(0.0, 1.0, plot.x, plot.right)
    ticks = [0.0, 0.25, 0.5, 0.75, 1.0]
    c.x_axis(ticks, to_x, ["0", "0.25", "0.5", "0.75", "1"])
    c.add(Line(plot.x, plot.y, plot.x, plot.bottom, AXIS, 0.3))
    half, threshold = to_x(0.5), to_x(min_edge)
    c.add(*dashed(half, plot.y - 1.5, half, plot.bottom, INK, 0.35))
    c.add(text_at(half - 0.8, plot.y - 1.9, "no edge 0.5", NUM_PT, anchor="end"))
    if abs(min_edge - 0.5) > 1e-9:
        c.add(*dashed(threshold, plot.y - 1.5, threshold, plot.bottom, LOW, 0.3, 0.6, 0.6))
        c.add(text_at(threshold + 0.8, plot.y - 1.9, f"warning below {fmt(min_edge, 2)}", NUM_PT, fill=LOW))
    for index, (edge, label) in enumerate(zip(edges, labels)):
        y = plot.y + index * row_h
        mid = y + row_h / 2
        c.add(text_at(plot.x - 1.5, mid + 1.0, label, LABEL_PT, anchor="end"))
        w = to_x(edge.edge) - plot.x
        c.add(Rect(plot.x, y + 2.0, w, row_h - 4.0, BAR, BAR_EDGE, 0.2))
        c.add(*whisker_h(mid, to_x(edge.interval[0]), to_x(edge.interval[1])))
        games = f"{edge.games} game{'s' if edge.games != 1 else ''}"
        c.add(text_at(plot.right + 1.5, mid - 0.2, fmt(edge.edge), NUM_PT + 0.5, BOLD))
        c.add(text_at(plot.right + 1.5, mid + 2.6, f"[{fmt(edge.interval[0], 2)}, {fmt(edge.interval[1], 2)}], {games}", NUM_PT, fill=MUTED))
    summary = "; ".join(f"{label}: {fmt(e.edge)} [{fmt(e.interval[0])}, {fmt(e.interval[1])}] over {e.games} games" for e, label in zip(edges, labels))
    return Chart(key, f"Skill gradient, {n} player{'s' if n > 1 else ''}", c.scene(), summary + ".")


def solver_chart(result: SolverResult, key: str) -> Chart | None:
    """How the exactly solved deals' values are distributed."""
    if not result.deals:
        return None
    n = result.players
    values = [d.value for d in result.deals]
    proved = sum(1 for d in result.deals if d.proved)
    seeds = f"seed {result.deals[0].seed}" if len(values) == 1 else f"seeds {result.deals[0].seed}..{result.deals[-1].seed}"
    detail = f" The value is the {result.detail}." if result.detail else ""
    subtitle = (
        f"{len(values)} deal{'s' if len(values) != 1 else ''} ({seeds}) solved exactly, {proved} proved optimal; "
        f"mean value {sum(values) / len(values):.2f}, from {fmt_value(min(values))} to {fmt_value(max(values))}.{detail}"
    )
    dist = result.distribution()
    title = f"Solved deals, {n} player{'s' if n > 1 else ''}"
    c = Canvas(title, subtitle, 34.0, bottom=12.0, x_label="value under perfect play", y_label="deals")
    plot = c.plot
    top, _ = c.y_axis(max(1.0, max(k for _, k in dist) * 1.15), integer=True)
    to_y = Scale(0.0, top, plot.bottom, plot.y)
    slot = plot.w / len(dist)
    bar_w = min(slot * 0.7, 18.0)
    for index, (value, k) in enumerate(dist):
        cx = plot.x + slot * (index + 0.5)
        y = to_y(k)
        c.add(Rect(cx - bar_w / 2, y, bar_w, plot.bottom - y, BAR, BAR_EDGE, 0.2))
        c.add(text_at(cx, y - 1.0, str(k), NUM_PT, BOLD, anchor="middle"))
        c.add(text_at(cx, plot.bottom + 3.4, fmt_value(value), NUM_PT, fill=MUTED, anchor="middle"))
    summary = ", ".join(f"value {fmt_value(v)}: {k} deal{'s' if k != 1 else ''}" for v, k in dist)
    return Chart(key, title, c.scene(), f"{summary}; {proved} of {len(values)} proved.")


def summary_chart(data: ReportData) -> Chart:
    """The verdict box: one row per check with PASS / WARN / FAIL / NOT RUN and the finding codes."""
    counts = data.severity_counts()
    overall = FAIL if any(v.status == FAIL for v in data.verdicts) else WARN if any(v.status == WARN for v in data.verdicts) else (
        NOT_RUN if all(v.status == NOT_RUN for v in data.verdicts) else PASS
    )
    items: list[Primitive] = []
    row_h = 7.0
    top = 15.0
    height = top + row_h * len(data.verdicts) + 4.0
    items.append(Rect(0.2, 0.2, WIDTH - 0.4, height - 0.4, "#fafafa", AXIS, 0.4, 1.5))
    items.append(text_at(4.0, 6.8, "Verdict", TITLE_PT, BOLD))
    items.append(text_at(WIDTH - 4.0, 6.8, f"overall: {STATUS_WORD[overall]}", TITLE_PT, BOLD, anchor="end"))
    items.append(
        text_at(4.0, 11.6, f"{counts['error']} error(s), {counts['warning']} warning(s), {counts['info']} note(s) from {_played(data)}", SUB_PT, fill=MUTED)
    )
    for index, verdict in enumerate(data.verdicts):
        y = top + index * row_h
        if index % 2 == 0:
            items.append(Rect(2.0, y, WIDTH - 4.0, row_h, "#f0f0f0"))
        items.append(Rect(4.0, y + 1.0, 20.0, row_h - 2.0, STATUS_FILL[verdict.status], AXIS, 0.3, 1.0))
        items.append(text_at(14.0, y + row_h / 2 + 1.1, STATUS_WORD[verdict.status], NUM_PT + 0.5, BOLD, anchor="middle"))
        items.append(text_at(27.0, y + row_h / 2 + 1.2, fit_text(verdict.label, 110.0, FONT, LABEL_PT + 0.5), LABEL_PT + 0.5))
        codes = ", ".join(verdict.codes) if verdict.codes else "no findings"
        items.append(text_at(WIDTH - 4.0, y + row_h / 2 + 1.2, fit_text(codes, 38.0, FONT, LABEL_PT), LABEL_PT, BOLD if verdict.codes else FONT, MUTED if not verdict.codes else INK, anchor="end"))
    summary = "; ".join(f"{v.label}: {STATUS_WORD[v.status]}" + (f" ({', '.join(v.codes)})" if v.codes else "") for v in data.verdicts)
    return Chart("verdict", "Verdict", Scene(WIDTH, round(height, 3), tuple(items)), f"Overall {STATUS_WORD[overall]}. {summary}.")


def _played(data: ReportData) -> str:
    random_games = sum(c.metrics.playouts if c.metrics else 0 for c in data.check.counts)
    counts = ", ".join(str(c.players) for c in data.check.counts) or "no"
    return f"{random_games} random playouts at {counts} player(s), seed {data.seed}"


def metrics_chart(count: CountReport, key: str) -> Chart | None:
    """The count's balance metrics as a labelled grid of numbers."""
    m = count.metrics
    if m is None:
        return None
    na = "n/a (solo)"
    cells: list[tuple[str, str]] = [
        ("Playouts (completed)", f"{m.playouts} ({m.completed})"),
        ("Completion", fmt(m.completion)),
        ("AdvantageP1", fmt(m.advantage_p1) if m.advantage_p1 is not None else na),
        ("Balance (1 - widest seat gap)", fmt(m.balance) if m.balance is not None else na),
        ("Drawishness (all seats tied)", fmt(m.drawishness)),
        ("Tie rate (first place shared)", fmt(m.tie_rate) if m.players > 1 else na),
        ("Timeouts / dead ends / errors", f"{m.timeouts} / {m.dead_ends} / {m.errors}"),
        ("DecisionMoves", fmt(m.decision_moves)),
        ("Branching factor (mean, max)", f"{m.branching_mean:.2f}, {m.branching_max}"),
        ("Duration in actions (mean, range)", f"{m.duration_mean:.1f}, {m.duration_min}..{m.duration_max}"),
        ("Decisions per game (mean)", f"{m.decisions_mean:.1f}"),
        ("Winning margin (mean)", f"{m.margin_mean:.2f}" if m.margin_mean is not None else na),
        ("Widest seat interval (±)", fmt(m.max_half_width) if m.players > 1 else na),
        ("Longest game (actions, seed)", f"{m.longest_length}, seed {m.longest_seed}"),
    ]
    columns = 3
    col_w = WIDTH / columns
    row_h = 9.0
    rows = math.ceil(len(cells) / columns)
    items: list[Primitive] = []
    title = f"Metrics, {count.players} player{'s' if count.players > 1 else ''}"
    items.append(text_at(0, 4.2, title, TITLE_PT, BOLD))
    top = 7.0
    for index, (label, value) in enumerate(cells):
        col, row = index % columns, index // columns
        x, y = col * col_w, top + row * row_h
        items.append(Rect(x + 0.5, y + 0.5, col_w - 1.0, row_h - 1.0, "#f4f4f4"))
        items.append(text_at(x + 2.0, y + 3.6, fit_text(label, col_w - 4.0, FONT, NUM_PT), NUM_PT, fill=MUTED))
        items.append(text_at(x + 2.0, y + 7.4, fit_text(value, col_w - 4.0, BOLD, LABEL_PT + 1), LABEL_PT + 1, BOLD))
    height = top + rows * row_h + 1.0
    summary = "; ".join(f"{label} {value}" for label, value in cells)
    return Chart(key, title, Scene(WIDTH, round(height, 3), tuple(items)), summary + ".")


@dataclass
class Section:
    """The charts of one player count (or the solver's, or the summary), in reading order."""

    key: str
    heading: str
    charts: list[Chart]
    notes: list[str]
    """Sentences shown under the heading (e.g. why a count was not played)."""


def build_sections(data: ReportData) -> list[Section]:
    """Every chart of the report, grouped per player count, the summary first."""
    top_notes: list[str] = []
    if all(v.status == NOT_RUN for v in data.verdicts):
        top_notes.append("The game was not simulated: its spec names no registered rules module, so there are no figures to show.")
    sections = [Section("summary", "Summary", [summary_chart(data)], top_notes)]
    min_edge = data.thresholds.get("min_skill_edge", 0.55)
    solved = {s.players: s for s in data.solver}
    for count in data.check.counts:
        n = count.players
        key = f"p{n}"
        heading = f"{n} player{'s' if n > 1 else ''}"
        notes: list[str] = []
        charts: list[Chart] = []
        m = count.metrics
        if m is None:
            notes.append(f"Not played: the game could not be set up for {n} player(s); see the findings.")
        else:
            for chart in (
                metrics_chart(count, f"{key}-metrics"),
                seat_chart(m, f"{key}-seats"),
                score_chart(m, f"{key}-scores"),
                margin_chart(m, f"{key}-margin"),
                length_chart(m, f"{key}-length"),
                skill_chart(count, min_edge, f"{key}-skill"),
            ):
                if chart is not None:
                    charts.append(chart)
            charts.extend(coverage_charts(m, f"{key}-coverage"))
            if m.completed == 0:
                notes.append("No playout ended by the rules, so there are no win rates or scores to show.")
        result = solved.get(n)
        if result is not None:
            chart = solver_chart(result, f"{key}-solver")
            if chart is not None:
                charts.append(chart)
            if result.note:
                notes.append(f"Exact solver: {result.note}.")
        sections.append(Section(key, heading, charts, notes))
    return sections
