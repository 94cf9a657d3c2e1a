"""A paragraph split at a page's foot always fits the space left (a reportlab split can come out a line too tall)."""

from __future__ import annotations

from reportlab.platypus import Paragraph

from cardgen.rulebook.pdf import FittingParagraph, make_styles, register_fonts

TEXT = (
    "<b>6.</b> Every skull has a left colour and a right colour: Red-Yellow red and yellow, Red-Green red and green, Red-Blue blue "
    "and red, Yellow-Green yellow and green, Yellow-Blue yellow and blue, Green-Blue green and blue. Each edge that can touch another "
    "position shows one marker of each skull colour, in that colour's own spot along the edge (red, yellow, green, blue in order), so "
    "markers only ever meet markers of the same colour. On the left half of the skull (both left parts and the left edges of the "
    "Center Frill and the Mouth) the left colour is filled and the right colour hollow; the right half is the mirror image with the "
    "right colour filled; on the edge between the Center Frill and the Mouth both colours are filled. Outer edges carry no markers."
)
WIDTH = 498.6141732283464
"""Letter's text width: Ceratopsians' clarification 6 stopped the English Letter rulebook with 'Splitting error'."""


def _too_tall(kind: type[Paragraph]) -> list[float]:
    style = make_styles("en").body
    heights = []
    for tenth in range(300, 1100, 3):
        height = tenth / 10
        paragraph = kind(TEXT, style)
        paragraph.wrap(WIDTH, height)  # as the frame does: it tries to add the paragraph whole, then splits it
        parts = paragraph.split(WIDTH, height)
        if len(parts) >= 2 and parts[0].wrap(WIDTH, height)[1] > height + 1e-6:
            heights.append(height)
    return heights


def test_the_first_part_of_a_split_fits_the_height_it_was_split_at() -> None:
    register_fonts()
    assert _too_tall(Paragraph), "reportlab's own split fits now: FittingParagraph may no longer be needed"
    assert _too_tall(FittingParagraph) == []


def test_a_fitting_split_keeps_every_line() -> None:
    register_fonts()
    style = make_styles("en").body
    whole = FittingParagraph(TEXT, style)
    _, full = whole.wrap(WIDTH, 1000)
    for tenth in range(300, 1100, 7):
        paragraph = FittingParagraph(TEXT, style)
        paragraph.wrap(WIDTH, tenth / 10)
        parts = paragraph.split(WIDTH, tenth / 10)
        if len(parts) == 2:
            heights = [part.wrap(WIDTH, 1000)[1] for part in parts]
            assert sum(heights) >= full - 1e-6  # nothing lost (a split may repeat no line, but never drops one)
