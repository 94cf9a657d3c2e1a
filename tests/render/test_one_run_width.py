"""The one-line fitting search's shortcut gives the very width a layout gives, or declines."""

from __future__ import annotations

import pytest

from cardgen.render import widget_kit as widgets
from cardgen.render.fonts import FACES
from cardgen.render.scene import Box
from cardgen.render.text import layout_text, one_run_right
from cardgen.render.units import pt_to_mm
from render_helpers import demo_icons

PLAIN = [
    "Dig site 2",
    "Krater of the Western Workshop",
    "  two  spaces  around ",
    "tab\tinside",
    "Í çedilha ñ",
    "a\u00a0non-breaking space",
    "\u00a0",
    "control\x07 character",
    "\x07",
    "",
    "   ",
    "WWWWWWWWWWWWWWWWWWWWWWWWWWWW",
    "emoji 🂡 card",
]
DECLINED = ["A {circle} marks", "brace } alone", "two\nlines", "carriage\rreturn", "{{literal}}", "W" * 4000]


def laid_out_right(text: str, box: Box, font: str, size: float) -> float:
    """The right edge the fitting search reads from a layout (its plain path)."""
    trial = layout_text(text, box, font, size, align="left", valign="middle", fill="#1a1a1a", icons=demo_icons())
    return max((widgets._item_right(item, pt_to_mm(size)) for item in trial.items), default=box.x)


@pytest.mark.parametrize("text", PLAIN)
@pytest.mark.parametrize("font", sorted(FACES))
@pytest.mark.parametrize(("x", "size"), [(3.0, 12.0), (5.123, 9.75), (0.0, 13.0), (-2.5, 6.25)])
def test_the_shortcut_gives_the_layouts_width_to_the_last_bit(text: str, font: str, x: float, size: float) -> None:
    box = Box(x, 4.0, 10_000.0, 9.0)
    right = one_run_right(text, x, font, size, box.w)
    assert right is not None
    assert right == laid_out_right(text, box, font, size)


@pytest.mark.parametrize("text", DECLINED)
def test_icons_braces_line_breaks_and_wrapping_widths_are_left_to_the_layout(text: str) -> None:
    assert one_run_right(text, 3.0, "DejaVuSans-Bold", 12.0, 10_000.0) is None
