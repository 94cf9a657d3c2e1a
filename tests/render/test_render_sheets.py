"""Imposition: grid, exact card geometry, crop marks, duplex backs, footer, templates."""

from __future__ import annotations

from pathlib import Path

import pytest
from cardgen.findings import InputError
from render_helpers import BLEED, TRIM_H, TRIM_W, make_face, page_content, read_pdf

from cardgen.render.sheet_guide import duplex_test_sheet
from cardgen.render.scene import Box, Circle, Group, Line, Scene, Text
from cardgen.render.sheets import (
    CardPlacement,
    FooterInfo,
    ImposedSheets,
    PrintItem,
    SheetTemplate,
    builtin_sheet_template,
    impose,
    load_sheet_template,
    plan_grid,
)

FOOTER = FooterInfo("Generic Game", "v1.2", "CC BY-SA 4.0")


def _items(n: int = 5, backs: bool = True, bleed: float = BLEED) -> list[PrintItem]:
    return [
        PrintItem(
            make_face(f"F{i}", bleed=bleed), TRIM_W, TRIM_H, bleed,
            back=make_face(f"B{i}", "#ccddff", bleed=bleed) if backs else None, copies=2,
        )
        for i in range(n)
    ]


def _overlaps(a: Box, b: Box) -> bool:
    return a.x < b.right - 1e-6 and b.x < a.right - 1e-6 and a.y < b.bottom - 1e-6 and b.y < a.bottom - 1e-6


@pytest.mark.parametrize("name", ["a4", "letter"])
def test_card_rectangles_are_exact_and_inside_page(name: str) -> None:
    template = builtin_sheet_template(name)
    result = impose(_items(), template, FOOTER)
    assert result.placements
    for p in result.placements:
        w, h = (p.trim.h, p.trim.w) if p.turn else (p.trim.w, p.trim.h)
        assert w == pytest.approx(63.0, abs=0.1) and h == pytest.approx(88.0, abs=0.1)
        assert p.bleed.inset(template.printed_bleed(BLEED)) == pytest.approx(p.trim)
        assert template.margins_mm.left <= p.bleed.x and p.bleed.right <= template.paper.width_mm - template.margins_mm.right
        assert p.bleed.bottom <= template.paper.height_mm - template.margins_mm.bottom - template.footer.height_mm
    for page in range(len(result.pages)):
        boxes = [p.bleed for p in result.placements_on(page)]
        assert not any(_overlaps(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


def test_nine_up_without_bleed_on_a4() -> None:
    grid = plan_grid(builtin_sheet_template("a4"), TRIM_W, TRIM_H, 0.0)
    assert (grid.cols, grid.rows) == (3, 3)


@pytest.mark.parametrize(("name", "count"), [("a4", 8), ("letter", 6)])
def test_poker_cards_keep_their_full_bleed_and_lie_sideways_where_more_fit(name: str, count: int) -> None:
    template = builtin_sheet_template(name)
    assert template.printed_bleed(BLEED) == BLEED == 3.0
    grid = plan_grid(template, TRIM_W, TRIM_H, BLEED)
    assert grid.capacity == count and grid.sideways
    upright = plan_grid(template.model_copy(update={"card_rotation": "upright"}), TRIM_W, TRIM_H, BLEED)
    assert not upright.sideways and upright.capacity < count
    assert plan_grid(template.model_copy(update={"card_rotation": "sideways"}), TRIM_W, TRIM_H, BLEED) == grid


def test_all_copies_are_placed_and_pages_alternate_front_back() -> None:
    items = _items(5)
    result = impose(items, builtin_sheet_template("a4"), FOOTER)
    fronts = [p for p in result.placements if p.side == "front"]
    assert len(fronts) == sum(i.copies for i in items)
    sides = [result.placements_on(i)[0].side for i in range(len(result.pages))]
    assert sides == ["front", "back"] * (len(result.pages) // 2)
    assert len(read_pdf(result.to_pdf()).pages) == len(result.pages)


def test_no_back_pages_without_backs() -> None:
    result = impose(_items(3, backs=False), builtin_sheet_template("a4"), FOOTER)
    assert {p.side for p in result.placements} == {"front"}


def _front_back_pairs(result: ImposedSheets) -> list[tuple[CardPlacement, CardPlacement]]:
    fronts = {(p.item_index, p.copy_index): p for p in result.placements if p.side == "front"}
    return [(fronts[(b.item_index, b.copy_index)], b) for b in result.placements if b.side == "back"]


def test_long_edge_backs_reverse_columns_and_mirror_exactly() -> None:
    template = builtin_sheet_template("a4")
    result = impose(_items(), template, FOOTER)
    pairs = _front_back_pairs(result)
    assert pairs
    width = template.paper.width_mm
    for front, back in pairs:
        grid = result.grids[front.page_index]
        assert grid is not None
        assert back.page_index == front.page_index + 1
        assert (back.row, back.col) == (front.row, grid.cols - 1 - front.col)
        assert back.trim.x == pytest.approx(width - front.trim.right, abs=1e-6)
        assert back.trim.y == pytest.approx(front.trim.y, abs=1e-6)


def test_short_edge_backs_reverse_rows_and_mirror_exactly() -> None:
    template = builtin_sheet_template("a4").model_copy(update={"duplex_flip": "short_edge"})
    result = impose(_items(bleed=0.0), template, FOOTER)
    height = template.paper.height_mm
    for front, back in _front_back_pairs(result):
        grid = result.grids[front.page_index]
        assert grid is not None
        assert (back.row, back.col) == (grid.rows - 1 - front.row, front.col)
        assert back.trim.y == pytest.approx(height - front.trim.bottom, abs=1e-6)
        assert back.trim.x == pytest.approx(front.trim.x, abs=1e-6)


def _on_trim_line(mark: Line, trims: list[Box]) -> bool:
    if mark.x1 == mark.x2:
        return any(abs(mark.x1 - x) < 1e-6 for t in trims for x in (t.x, t.right))
    return any(abs(mark.y1 - y) < 1e-6 for t in trims for y in (t.y, t.bottom))


@pytest.mark.parametrize("gutter", [0.0, 8.0])
def test_crop_marks_are_outside_bleed_and_on_trim_lines(gutter: float) -> None:
    template = builtin_sheet_template("a4").model_copy(update={"gutter_mm": gutter})
    result = impose(_items(), template, FOOTER)
    for page, marks in enumerate(result.crop_marks):
        placements = result.placements_on(page)
        trims, bleeds = [p.trim for p in placements], [p.bleed for p in placements]
        assert marks, "every sheet has crop marks"
        for mark in marks:
            assert mark.x1 == mark.x2 or mark.y1 == mark.y2
            assert _on_trim_line(mark, trims)
            line_box = Box(min(mark.x1, mark.x2), min(mark.y1, mark.y2), abs(mark.x2 - mark.x1) or 1e-3, abs(mark.y2 - mark.y1) or 1e-3)
            assert not any(_overlaps(line_box, b) for b in bleeds)
            assert 0 <= min(mark.x1, mark.x2) and max(mark.x1, mark.x2) <= template.paper.width_mm
        # every trim edge of every card has a mark along it, at least at the outside
        for t in trims:
            for x in (t.x, t.right):
                assert any(m.x1 == m.x2 and abs(m.x1 - x) < 1e-6 for m in marks)
            for y in (t.y, t.bottom):
                assert any(m.y1 == m.y2 and abs(m.y1 - y) < 1e-6 for m in marks)
    if gutter:
        assert len(result.crop_marks[0]) > len(impose(_items(), builtin_sheet_template("a4"), FOOTER).crop_marks[0])


def test_crop_marks_are_in_the_pdf_content_stream() -> None:
    result = impose(_items(1, backs=False), builtin_sheet_template("a4"), FOOTER)
    content = page_content(result.to_pdf())
    assert content.count(b" l S") >= len(result.crop_marks[0])


def test_cards_are_clipped_to_their_bleed() -> None:
    template = builtin_sheet_template("a4").model_copy(update={"sheet_bleed_mm": 1.5, "card_rotation": "upright"})
    result = impose(_items(1, backs=False), template, FOOTER)
    groups = [c for c in result.pages[0].children if hasattr(c, "clip")]
    placement = result.placements[0]
    first = groups[0]
    assert isinstance(first, Group) and first.transform is not None
    cut = BLEED - template.printed_bleed(BLEED)
    assert cut == pytest.approx(1.5)
    assert first.clip == Box(cut, cut, placement.bleed.w, placement.bleed.h)
    assert first.transform.translate == pytest.approx((placement.bleed.x - cut, placement.bleed.y - cut))


def test_footer_text_and_size() -> None:
    result = impose(_items(5), builtin_sheet_template("letter"), FOOTER)
    sheets = len(result.pages) // 2
    footer = result.pages[2].children[-1]
    assert isinstance(footer, Text)
    assert footer.size_pt >= 6
    assert footer.text == f"Generic Game · v1.2 · sheet 2 of {sheets} (front) · CC BY-SA 4.0"


def test_mixed_card_sizes_start_a_new_page() -> None:
    small = PrintItem(Scene(44, 68, ()), 44, 68, 0.0, copies=1)
    result = impose([_items(1, backs=False)[0], small], builtin_sheet_template("a4"), FOOTER)
    assert len(result.pages) == 2
    assert result.placements[-1].trim.w == pytest.approx(44)


def test_face_of_wrong_size_is_rejected() -> None:
    with pytest.raises(ValueError):
        PrintItem(make_face("X"), TRIM_W, TRIM_H, bleed=0.0)


def test_card_too_big_for_paper_is_rejected() -> None:
    with pytest.raises(ValueError):
        plan_grid(builtin_sheet_template("a4"), 300, 400, 3)


def test_template_rejects_unknown_keys(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parents[2] / "templates" / "sheets" / "a4.yaml").read_text()
    bad = tmp_path / "bad.yaml"
    bad.write_text(text + "\nspare_key: 1\n")
    with pytest.raises(InputError, match="spare_key") as caught:  # one clean line naming the file and the key's line
        load_sheet_template(bad)
    assert caught.value.line == text.count("\n") + 2
    assert isinstance(builtin_sheet_template("letter"), SheetTemplate)


def test_duplex_test_sheet_targets_mirror() -> None:
    template = builtin_sheet_template("a4")
    sheet = duplex_test_sheet(template, FOOTER)
    assert len(sheet.pages) == 2
    width = template.paper.width_mm

    def centres(page_index: int) -> set[tuple[float, float]]:
        return {(round(c.cx, 4), round(c.cy, 4)) for c in sheet.pages[page_index].children if isinstance(c, Circle)}

    assert {(round(width - x, 4), y) for x, y in centres(0)} == centres(1)
    assert len(read_pdf(sheet.to_pdf()).pages) == 2


def test_a_moved_placement_keeps_every_field_but_its_page() -> None:
    """``CardPlacement.moved`` names each field itself: a field added later and not passed on would be lost."""
    from dataclasses import fields

    values = {field.name: object() for field in fields(CardPlacement)}
    values["page_index"] = 3
    placement = CardPlacement(**values)  # type: ignore[arg-type]
    moved = placement.moved(2)
    assert moved.page_index == 5
    assert all(getattr(moved, name) is value for name, value in values.items() if name != "page_index")
