"""The generic table picture (cardgen/render/table_figure.py): a labelled TableView drawn as a scene in mm.

No game is named here: the views are made up, every kind of zone once, and the scene is checked for what a
printed figure needs (everything inside it, no text under 6 pt, every title and count drawn) and drawn by both
backends.
"""

from __future__ import annotations

from cardgen.render.extent import ink_box, text_sizes
from cardgen.render.figures import Mark, TableView, Zone, cell_label
from cardgen.render.pdf_backend import write_pdf
from cardgen.render.scene import Group, Line, Primitive, Text
from cardgen.render.svg_backend import write_svg
from cardgen.render.table_figure import WIDTH_MM, board, draw_table, wrap


def _texts(items: tuple[Primitive, ...] | list[Primitive]) -> list[str]:
    out: list[str] = []
    for item in items:
        if isinstance(item, Text):
            out.append(item.text)
        elif isinstance(item, Group):
            out.extend(_texts(item.children))
    return out


def _view(seats: int) -> TableView:
    cards = tuple(Mark(card=f"c{i}", text=f"Card number {i}", fill="#e8d9c0") for i in range(5))
    cells = tuple(Mark(entry="x", text="X" if i % 2 else "Yy", fill="#1b3a8a" if i % 3 else "#f2c200", owner=i % 4 - 1) for i in range(24))
    zones = [
        Zone("pile", "deck", 41, title="Deck: draw pile, 41 cards"),
        Zone("discard", "deck", 3, title="Deck: discard pile, 3 cards"),
        Zone("row", "deck", 5, marks=cards, title="Deck: 5 cards face up"),
        Zone("grid", "deck", 4, marks=cards[:3] + (Mark(depth=0),), columns=2, title="Deck: 4 cards in a grid of 2 × 2"),
        Zone("cells", "board", 6, marks=cells, columns=6, block=2, title="Board: 6 cards, 6 × 4 spaces"),
    ]
    for seat in range(seats):
        zones.append(Zone("hand", "deck", 5 + seat, seat, title=f"Deck: {5 + seat} cards in hand"))
        for colour, symbol in (("#b8322a", "R"), ("#5fae6e", "Gr")):
            zones.append(Zone("pieces", "token", 4, seat, (Mark(text=symbol, fill=colour),), title=f"Tokens ({symbol}): 4", heading="Tokens"))
        zones.append(Zone("collection", "deck", 2, seat, (Mark(card="c1", text="Kept card", depth=3), cards[2]), title="Deck: 2 cards face up"))
    return TableView(seats, tuple(zones))


def test_every_zone_kind_is_drawn_inside_the_scene_at_a_readable_size() -> None:
    for seats in (1, 2, 3, 4):
        scene = draw_table(_view(seats), [f"Seat {s + 1}" for s in range(seats)])
        assert scene.width_mm <= WIDTH_MM
        box = ink_box(scene.children)
        assert box is not None
        assert box.left >= 0 and box.top >= 0 and box.right <= scene.width_mm + 1e-6 and box.bottom <= scene.height_mm + 1e-6
        assert min(size for _, size in text_sizes(scene.children)) >= 6.0
        texts = _texts(scene.children)
        for seat in range(seats):
            assert f"Seat {seat + 1}" in texts
            assert str(5 + seat) in texts  # the hand's count on its top card
        assert "41" in texts and "× 4" in texts and "Tokens" in texts
        assert {"A", "F", "1", "4"} <= set(texts)  # the board's columns lettered and rows numbered


def test_both_backends_draw_the_figure() -> None:
    scene = draw_table(_view(2), ["Seat 1", "Seat 2"])
    svg = write_svg(scene)
    assert "Seat 2" in svg and "Board: 6 cards" in svg
    assert write_pdf([scene]).startswith(b"%PDF")


def test_a_wider_view_wraps_instead_of_overflowing() -> None:
    marks = tuple(Mark(card=str(i), text=str(i)) for i in range(20))
    scene = draw_table(TableView(1, (Zone("row", "d", 20, marks=marks, title="Row"), Zone("hand", "d", 1, 0, title="Hand"))), ["Seat 1"])
    assert scene.width_mm <= WIDTH_MM
    box = ink_box(scene.children)
    assert box is not None and box.right <= scene.width_mm


def test_wrap_keeps_lines_within_the_width_and_marks_a_cut() -> None:
    lines = wrap("Archaeological Discovery of the old city walls", 14.0, "DejaVuSans", 6.0, 2)
    assert len(lines) == 2 and lines[-1].endswith("…")
    from cardgen.render.fonts import string_width

    assert all(string_width(line, "DejaVuSans", 6.0) <= 14.0 for line in lines)


def test_cell_labels_read_like_a_board() -> None:
    assert [cell_label(0, 0), cell_label(7, 3), cell_label(25, 0), cell_label(26, 9)] == ["A1", "H4", "Z1", "AA10"]


def test_an_outline_follows_the_edge_of_a_region() -> None:
    drawn = board(Zone("cells", "b", 1, marks=tuple(Mark(entry="x") for _ in range(9)), columns=3), 100.0)
    bar = drawn.outline([(0, 0), (1, 0)], "#000000")
    assert len(bar) == 6 and all(isinstance(line, Line) for line in bar)
    ell = drawn.outline([(0, 0), (0, 1), (1, 1)], "#000000")
    assert len(ell) == 8


def test_a_long_title_is_widened_never_cut() -> None:
    title = "A deck with a rather long name in some language: draw pile, 31 cards"
    scene = draw_table(TableView(1, (Zone("pile", "d", 31, title=title), Zone("hand", "d", 5, 0, title="Hand"))), ["Seat 1"])
    texts = _texts(scene.children)
    assert not any(t.endswith("…") for t in texts)
    assert " ".join(t for t in texts if t not in {"31", "5", "Seat 1", "Hand"}) == title


def test_a_hyphenated_word_breaks_after_its_hyphen() -> None:
    lines = wrap("Babado central do crânio vermelho-amarelo", 16.0, "DejaVuSans", 6.0, 5)
    assert not any(line.endswith("…") for line in lines)
    assert "".join(line if line.endswith("-") else line + " " for line in lines).strip() == "Babado central do crânio vermelho-amarelo"
