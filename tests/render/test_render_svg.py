"""SVG backend: well-formed, sized in mm, escaped text, deterministic, icons as shapes."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from render_helpers import BLEED, TRIM_H, TRIM_W, make_face

from render_helpers import demo_icons
from cardgen.render.scene import Box, Circle, Group, Path, MoveTo, LineTo, QuadTo, ClosePath, Scene, Text, Transform
from cardgen.render.svg_backend import write_svg
from cardgen.render.text import layout_text

SVG = "{http://www.w3.org/2000/svg}"


def test_card_face_svg_has_mm_size_and_viewbox(face: Scene) -> None:
    root = ET.fromstring(write_svg(face))
    assert root.tag == f"{SVG}svg"
    assert root.get("width") == f"{TRIM_W + 2 * BLEED:g}mm"
    assert root.get("height") == f"{TRIM_H + 2 * BLEED:g}mm"
    assert root.get("viewBox") == f"0 0 {TRIM_W + 2 * BLEED:g} {TRIM_H + 2 * BLEED:g}"


def test_svg_is_deterministic() -> None:
    assert write_svg(make_face("X")) == write_svg(make_face("X"))
    clipped = Scene(10, 10, (Group((Circle(5, 5, 4, fill="#112233"),), clip=Box(0, 0, 5, 5)),))
    assert write_svg(clipped) == write_svg(clipped)
    assert 'id="clip1"' in write_svg(clipped)


def test_special_characters_and_control_chars_stay_well_formed() -> None:
    nasty = 'a < b && "quoted" \'single\' > c\x07\x00\x1b end'
    scene = Scene(50, 20, (Text(1, 10, nasty),))
    svg = write_svg(scene)
    root = ET.fromstring(svg)  # raises if not well-formed
    text = root.find(f".//{SVG}text")
    assert text is not None
    assert text.text == 'a < b && "quoted" \'single\' > c end'
    assert text.get("font-family") == "DejaVu Sans"


def test_font_faces_map_to_css_family_weight_style() -> None:
    scene = Scene(50, 20, (Text(1, 5, "b", "DejaVuSans-Bold"), Text(1, 10, "c", "DejaVuSansCondensed-Bold", anchor="end")))
    texts = ET.fromstring(write_svg(scene)).findall(f".//{SVG}text")
    assert texts[0].get("font-weight") == "bold"
    assert texts[1].get("font-family") == "DejaVu Sans Condensed"
    assert texts[1].get("text-anchor") == "end"


def test_font_size_is_converted_to_mm() -> None:
    text = ET.fromstring(write_svg(Scene(50, 20, (Text(1, 5, "x", size_pt=72),)))).find(f".//{SVG}text")
    assert text is not None and text.get("font-size") == "25.4"


def test_icons_are_drawn_as_primitives_in_svg() -> None:
    block = layout_text("pay {circle}", Box(0, 0, 40, 10), icons=demo_icons())
    root = ET.fromstring(write_svg(Scene(40, 10, block.items)))
    groups = root.findall(f".//{SVG}g")
    assert len(groups) == 1 and groups[0].get("transform", "").startswith("translate(")
    assert groups[0].find(f"{SVG}circle") is not None
    assert "{circle}" not in (root.find(f".//{SVG}text").text or "")  # type: ignore[union-attr]


def test_group_transform_and_path_output() -> None:
    path = Path((MoveTo(0, 0), LineTo(5, 0), QuadTo(5, 5, 0, 5), ClosePath()), fill="#ff0000", fill_rule="evenodd")
    scene = Scene(20, 20, (Group((path,), Transform(translate=(1, 2), rotate=90, scale=(2, 2))),))
    root = ET.fromstring(write_svg(scene))
    g = root.find(f".//{SVG}g")
    assert g is not None and g.get("transform") == "translate(1 2) rotate(90) scale(2 2)"
    p = g.find(f"{SVG}path")
    assert p is not None and p.get("d") == "M0 0 L5 0 Q5 5 0 5 Z" and p.get("fill-rule") == "evenodd"
