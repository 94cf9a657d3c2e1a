"""A one-line text shrinks to the same size as trying every 0.25 pt step, with far fewer layouts."""

from __future__ import annotations

import pytest

from cardgen.render import widget_kit as widgets
from render_helpers import demo_icons
from cardgen.render.scene import Box, Text
from cardgen.render.text import layout_text
from cardgen.render.units import pt_to_mm

TEXTS = ["Dig site 2", "Krater of the Western Workshop", "A {circle} marks the {square} site", "Í", "WWWWWWWWWWWWWWWW"]


def every_step(text: str, box: Box, size: float, lower: float) -> float:
    """The size the plain search finds: step down by 0.25 pt until the line fits or the next step passes ``lower``."""
    wide = Box(box.x, box.y, 10_000.0, box.h)
    current = size
    while True:
        trial = layout_text(text, wide, "DejaVuSans-Bold", current, align="left", valign="top", fill="#000000", icons=demo_icons())
        width = max((widgets._item_right(i, pt_to_mm(current)) for i in trial.items), default=box.x) - box.x
        if width <= box.w + 1e-6 or current - 0.25 < lower - 1e-6:
            return current
        current -= 0.25


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("box_width", [4.0, 11.5, 19.0, 27.3, 40.0, 120.0])
@pytest.mark.parametrize(("size", "lower"), [(12.0, 6.0), (9.3, 5.0), (14.0, 13.0)])
def test_the_size_found_is_the_one_every_step_would_find(text: str, box_width: float, size: float, lower: float, monkeypatch: pytest.MonkeyPatch) -> None:
    box = Box(3.0, 5.0, box_width, 8.0)
    layouts = 0
    real = widgets.layout_text

    def counted(*args: object, **kwargs: object) -> object:
        nonlocal layouts
        layouts += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(widgets, "layout_text", counted)
    block = widgets._single_line(text, box, "DejaVuSans-Bold", size, lower, "#000000", "left", "top", demo_icons())
    first = next(item for item in block.items if isinstance(item, Text))
    expected = every_step(text, box, size, lower)
    assert first.size_pt == expected
    if expected > lower and first.size_pt < size:
        assert layouts <= 4  # the first trial, one step above the predicted size, the fit, and the final layout
