"""The chart kit: a canvas with a title, axes and ticks, and the colours, sizes and number formats charts share.

Charts are scenes of the render layer's primitives, 180 mm wide, so one picture
goes into an HTML page as inline SVG and into a PDF through the PDF backend.
The report's charts (:mod:`cardgen.report.charts`) and the sweep's
(:mod:`cardgen.sweep.charts`) are drawn with it; it knows nothing of either.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from cardgen.render.fonts import string_width
from cardgen.render.scene import Anchor, Box, Group, Line, Primitive, Scene, Text, Transform
from cardgen.render.text import layout_text

WIDTH = 180.0
"""Every chart's width in mm (the PDF's text column)."""

FONT = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
INK = "#222222"
MUTED = "#555555"
GRID = "#dddddd"
AXIS = "#444444"
BAR = "#8eb1d6"
"""Ordinary bars: a light blue, pale in greyscale."""
BAR_EDGE = "#2f4f73"
LOW = "#a8322a"
"""Highlighted bars (rarely used cards): a dark red, dark in greyscale."""
SEAT_BAR = "#7fa6cf"
"""Seat win-rate bars (their own shade, so a test or a reader can count them)."""
TITLE_PT = 10.0
SUB_PT = 7.0
LABEL_PT = 7.0
NUM_PT = 6.5


@dataclass(frozen=True)
class Chart:
    """One picture of the report."""

    key: str
    """A stable id, unique in the report (used as the HTML anchor)."""
    title: str
    scene: Scene
    summary: str
    """The chart's numbers as one line of plain text (the HTML caption)."""


# -- small helpers -------------------------------------------------------


def fmt(value: float, decimals: int = 3) -> str:
    """A number with fixed decimals (no ``-0``)."""
    text = f"{value:.{decimals}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def fmt_value(value: float) -> str:
    """A value as short as it can be written: ``3`` for 3.0, ``2.5`` for 2.5."""
    return str(int(value)) if float(value).is_integer() else f"{value:.3g}"


def nice_ticks(low: float, high: float, target: int = 5, integer: bool = False) -> list[float]:
    """Round tick values covering [low, high], about ``target`` of them."""
    span = high - low if high > low else 1.0
    raw = span / target
    magnitude = 10 ** math.floor(math.log10(raw))
    steps = (1.0, 2.0, 5.0, 10.0) if integer else (1.0, 2.0, 2.5, 5.0, 10.0)
    step = next(m * magnitude for m in steps if m * magnitude >= raw - 1e-12)
    if integer:
        step = max(1.0, float(math.ceil(step)))
    start = math.floor(low / step + 1e-9) * step
    ticks = []
    value = start
    while value < high + step - 1e-9:
        ticks.append(round(value, 10))
        value += step
    if len(ticks) < 2:
        ticks.append(round(start + step, 10))
    return ticks


def tick_label(value: float, step: float) -> str:
    decimals = 0
    while decimals < 6 and abs(step * 10**decimals - round(step * 10**decimals)) > 1e-9:
        decimals += 1
    return f"{value:.{decimals}f}"


def dashed(x1: float, y1: float, x2: float, y2: float, stroke: str = INK, width: float = 0.3, dash: float = 1.4, gap: float = 0.9) -> list[Primitive]:
    """A dashed straight line as short segments (the scene has no dash style)."""
    length = math.hypot(x2 - x1, y2 - y1)
    if length == 0:
        return []
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    out: list[Primitive] = []
    pos = 0.0
    while pos < length:
        end = min(length, pos + dash)
        out.append(Line(x1 + ux * pos, y1 + uy * pos, x1 + ux * end, y1 + uy * end, stroke, width))
        pos = end + gap
    return out


def fit_text(text: str, width: float, font: str = FONT, size: float = LABEL_PT) -> str:
    """``text`` shortened with an ellipsis until it is at most ``width`` mm wide."""
    if string_width(text, font, size) <= width:
        return text
    while text and string_width(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


def text_at(x: float, y: float, text: str, size: float = LABEL_PT, font: str = FONT, fill: str = INK, anchor: Anchor = "start") -> Text:
    return Text(x, y, text, font, size, fill, anchor)


class Canvas:
    """A chart under construction: title, wrapped subtitle, a plot box, axis labels."""

    def __init__(
        self, title: str, subtitle: str, plot_h: float, *, left: float = 18.0, right: float = 4.0,
        bottom: float = 13.0, x_label: str = "", y_label: str = "", headroom: float = 4.0,
    ) -> None:
        self.items: list[Primitive] = [text_at(0, 4.2, title, TITLE_PT, BOLD)]
        self.tick_gap = 3.3
        y = 6.6
        if subtitle:
            block = layout_text(subtitle, Box(0, y, WIDTH, 60), FONT, SUB_PT, fill=MUTED, line_height=1.25)
            self.items.extend(block.items)
            y += block.height_mm + 0.8
        top = y + headroom
        self.plot = Box(left, top, WIDTH - left - right, plot_h)
        self.height = top + plot_h + bottom
        if x_label:
            self.items.append(text_at(self.plot.x + self.plot.w / 2, self.height - 1.8, x_label, anchor="middle"))
        if y_label:
            label = text_at(0, 0, y_label, anchor="middle")
            self.items.append(Group((label,), Transform(translate=(3.2, self.plot.y + self.plot.h / 2), rotate=-90.0)))

    def add(self, *items: Primitive) -> None:
        """Add primitives."""
        self.items.extend(items)

    def y_axis(self, high: float, integer: bool = False, low: float = 0.0) -> tuple[float, list[float]]:
        """Horizontal grid lines and labels for values low..high; returns (top of the scale, ticks)."""
        ticks = nice_ticks(low, high, 5, integer)
        top = ticks[-1]
        step = ticks[1] - ticks[0]
        plot = self.plot
        for value in ticks:
            y = plot.bottom - (value - low) / (top - low) * plot.h
            self.items.append(Line(plot.x, y, plot.right, y, GRID, 0.2))
            self.items.append(text_at(plot.x - 1.2, y + 0.9, tick_label(value, step), NUM_PT, fill=MUTED, anchor="end"))
        self.items.append(Line(plot.x, plot.y, plot.x, plot.bottom, AXIS, 0.3))
        self.items.append(Line(plot.x, plot.bottom, plot.right, plot.bottom, AXIS, 0.3))
        return top, ticks

    def x_axis(self, ticks: Sequence[float], to_x: "Scale", labels: Sequence[str], grid: bool = True) -> None:
        """Vertical grid lines and labels under the plot."""
        plot = self.plot
        for value, label in zip(ticks, labels):
            x = to_x(value)
            if grid:
                self.items.append(Line(x, plot.y, x, plot.bottom, GRID, 0.2))
            self.items.append(Line(x, plot.bottom, x, plot.bottom + 0.8, AXIS, 0.25))
            self.items.append(text_at(x, plot.bottom + self.tick_gap, label, NUM_PT, fill=MUTED, anchor="middle"))
        self.items.append(Line(plot.x, plot.bottom, plot.right, plot.bottom, AXIS, 0.3))

    def scene(self) -> Scene:
        """The finished picture."""
        return Scene(WIDTH, round(self.height, 3), tuple(self.items))


class Scale:
    """A linear map from values to mm."""

    def __init__(self, v0: float, v1: float, p0: float, p1: float) -> None:
        self.v0, self.v1, self.p0, self.p1 = v0, v1, p0, p1

    def __call__(self, value: float) -> float:
        if self.v1 == self.v0:
            return self.p0
        return self.p0 + (value - self.v0) / (self.v1 - self.v0) * (self.p1 - self.p0)


def whisker_v(x: float, y_low: float, y_high: float, cap: float = 1.6) -> list[Primitive]:
    return [
        Line(x, y_low, x, y_high, INK, 0.3),
        Line(x - cap, y_low, x + cap, y_low, INK, 0.3),
        Line(x - cap, y_high, x + cap, y_high, INK, 0.3),
    ]


def whisker_h(y: float, x_low: float, x_high: float, cap: float = 1.2) -> list[Primitive]:
    return [
        Line(x_low, y, x_high, y, INK, 0.3),
        Line(x_low, y - cap, x_low, y + cap, INK, 0.3),
        Line(x_high, y - cap, x_high, y + cap, INK, 0.3),
    ]
