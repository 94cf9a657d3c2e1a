"""Shared content: repeated card faces become PDF Form XObjects, defined once and placed by reference."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
from PIL import Image as PilImage, ImageChops
from render_helpers import BASE14, BLEED, TRIM_H, TRIM_W, make_face, page_forms, pdf_fonts, placements, read_pdf

from cardgen.render.backend import draw_scene
from cardgen.render.pdf_backend import write_pdf
from cardgen.render.scene import (
    Box, Group, Line, Primitive, Rect, Scene, SharedContent, Text, Transform, scene_digest, shared_face,
)
from cardgen.render.sheets import FooterInfo, PrintItem, builtin_sheet_template, impose

ROOT = Path(__file__).resolve().parents[2]
FOOTER = FooterInfo("Generic Game", "v1", "CC0")


def _raw_page(data: bytes, page: int = 0) -> bytes:
    """The page's own content stream, without the forms it places."""
    contents = read_pdf(data).pages[page].get_contents()
    assert contents is not None
    return contents.get_data()


def _xobject_ids(data: bytes, page: int) -> dict[str, int]:
    """Object number of each XObject in a page's resources, by resource name."""
    resources: Any = read_pdf(data).pages[page]["/Resources"]
    xobjects: Any = resources.get("/XObject")
    if xobjects is None:
        return {}
    return {str(name): xobjects.raw_get(name).idnum for name in xobjects}


def _plain(primitive: Primitive) -> Primitive:
    """The primitive with every shared marker removed (the same drawing, no forms)."""
    if isinstance(primitive, Group):
        return dataclasses.replace(primitive, children=tuple(_plain(c) for c in primitive.children), shared=None)
    return primitive


def _plain_scene(scene: Scene) -> Scene:
    return dataclasses.replace(scene, children=tuple(_plain(c) for c in scene.children))


def _raster(data: bytes) -> list[PilImage.Image]:
    document = pdfium.PdfDocument(data)
    return [document[i].render(scale=1.5).to_pil().convert("RGB") for i in range(len(document))]


def _differing_pixels(a: PilImage.Image, b: PilImage.Image) -> int:
    assert a.size == b.size
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 24 else 0)
    return diff.histogram()[255]


def test_n_copies_of_one_face_define_one_form_placed_n_times() -> None:
    item = PrintItem(make_face("Solo"), TRIM_W, TRIM_H, BLEED, copies=12)
    pdf = impose([item], builtin_sheet_template("a4"), FOOTER).to_pdf()
    reader = read_pdf(pdf)
    assert len(reader.pages) == 2  # 8 on the first sheet, 4 on the second
    forms_first, forms_second = page_forms(pdf, 0), page_forms(pdf, 1)
    assert list(forms_first) == list(forms_second) and len(forms_first) == 1
    name = next(iter(forms_first))
    assert _xobject_ids(pdf, 0)[name] == _xobject_ids(pdf, 1)[name]  # one definition for the whole document
    assert placements(_raw_page(pdf, 0)) == {name: 8}
    assert placements(_raw_page(pdf, 1)) == {name: 4}
    assert pdf.count(b"/Subtype /Form") == 1


def test_a_face_printed_once_is_drawn_in_place() -> None:
    items = [PrintItem(make_face("Once"), TRIM_W, TRIM_H, BLEED), PrintItem(make_face("Twice"), TRIM_W, TRIM_H, BLEED, copies=2)]
    sheets = impose(items, builtin_sheet_template("a4"), FOOTER)
    groups = [c for c in sheets.pages[0].children if isinstance(c, Group)]
    assert [g.shared is not None for g in groups] == [False, True, True]
    pdf = sheets.to_pdf()
    assert len(page_forms(pdf)) == 1 and sum(placements(_raw_page(pdf)).values()) == 2


def test_two_different_faces_never_share_a_form() -> None:
    items = [
        PrintItem(make_face("Red", "#ff0000"), TRIM_W, TRIM_H, BLEED, copies=2),
        PrintItem(make_face("Blue", "#0000ff"), TRIM_W, TRIM_H, BLEED, copies=3),
    ]
    sheets = impose(items, builtin_sheet_template("a4"), FOOTER)
    keys = [c.shared.key for c in sheets.pages[0].children if isinstance(c, Group) and c.shared]
    assert len(keys) == 5 and len(set(keys)) == 2
    pdf = sheets.to_pdf()
    forms = page_forms(pdf)
    assert len(forms) == 2
    assert sorted(placements(_raw_page(pdf)).values()) == [2, 3]
    contents = {name: form.get_data() for name, form in forms.items()}
    red = [name for name, content in contents.items() if b"1 0 0 rg" in content]
    blue = [name for name, content in contents.items() if b"0 0 1 rg" in content]
    assert len(red) == 1 and len(blue) == 1 and red != blue
    assert placements(_raw_page(pdf))[red[0]] == 2 and placements(_raw_page(pdf))[blue[0]] == 3


def test_equal_faces_share_one_key_and_different_ones_never_do() -> None:
    a, a_again, b = make_face("A"), make_face("A"), make_face("B")
    assert a is not a_again
    assert shared_face(a) == shared_face(a_again)
    assert shared_face(a).key != shared_face(b).key
    assert shared_face(a, scene_digest(a)) == shared_face(a)
    assert shared_face(a).bounds == Box(0, 0, TRIM_W + 2 * BLEED, TRIM_H + 2 * BLEED)


def test_a_shared_key_naming_two_contents_is_rejected() -> None:
    shared = SharedContent("same-key", Box(0, 0, 10, 10))
    scene = Scene(30, 30, (
        Group((Rect(0, 0, 10, 10, fill="#ff0000"),), shared=shared),
        Group((Rect(0, 0, 10, 10, fill="#00ff00"),), Transform(translate=(12, 0)), shared=shared),
    ))
    with pytest.raises(ValueError, match="same-key"):
        write_pdf([scene])


def test_shared_content_needs_a_key_and_a_size() -> None:
    with pytest.raises(ValueError):
        SharedContent("", Box(0, 0, 1, 1))
    with pytest.raises(ValueError):
        SharedContent("k", Box(0, 0, 0, 1))


def test_form_is_placed_under_the_slot_transform_and_clip() -> None:
    item = PrintItem(make_face("Clip"), TRIM_W, TRIM_H, BLEED, copies=2)
    sheets = impose([item], builtin_sheet_template("a4").model_copy(update={"card_rotation": "upright"}), FOOTER)
    pdf = sheets.to_pdf()
    (name, form), = page_forms(pdf).items()
    assert [float(v) for v in form["/BBox"]] == [0, 0, TRIM_W + 2 * BLEED, TRIM_H + 2 * BLEED]
    content = _raw_page(pdf).decode()
    for group in (c for c in sheets.pages[0].children if isinstance(c, Group)):
        assert group.transform is not None and group.clip is not None
        tx, ty = group.transform.translate
        clip = group.clip
        expected = re.compile(
            rf"q\s+1 0 0 1 {tx:g} {ty:g} cm\s+n {clip.x:g} {clip.y:g} {clip.w:g} {clip.h:g} re W\*? n\s+{re.escape(name)} Do\s+Q"
        )
        assert expected.search(content), (tx, ty)


def test_forms_keep_embedded_dejavu_fonts_and_never_base14() -> None:
    items = [PrintItem(make_face("Fonts"), TRIM_W, TRIM_H, BLEED, back=make_face("Back", "#ccddff"), copies=3)]
    pdf = impose(items, builtin_sheet_template("a4"), FOOTER).to_pdf()
    fonts = pdf_fonts(read_pdf(pdf))
    assert fonts
    for name, descriptor in fonts:
        assert name.lstrip("/").split("+")[-1] not in BASE14
        assert "/FontFile2" in descriptor, name
    for page in range(2):
        forms = page_forms(pdf, page)
        assert forms
        for form in forms.values():
            used = set(re.findall(rb"(/F\d+\+\d+) [\d.]+ Tf", form.get_data()))
            assert used, "the face's text is drawn inside the form"
            declared = {str(k).encode() for k in form["/Resources"]["/Font"].get_object().keys()}
            assert used <= declared
    assert b"Helvetica" not in pdf and b"Times" not in pdf and b"Courier" not in pdf


@pytest.mark.parametrize("flip", ["long_edge", "short_edge"])
def test_sheets_with_forms_look_exactly_like_sheets_without(flip: str) -> None:
    """Pixel comparison (pdfium): the same sheets drawn with forms and with every face in place."""
    template = builtin_sheet_template("a4").model_copy(update={"duplex_flip": flip})
    items = [
        PrintItem(make_face(f"F{i}", ("#ffeecc", "#ccffee", "#eeccff")[i]), TRIM_W, TRIM_H, BLEED, back=make_face("Back", "#ccddff"), copies=i + 1)
        for i in range(3)
    ]
    sheets = impose(items, template, FOOTER)
    shared = write_pdf(sheets.pages)
    plain = write_pdf([_plain_scene(page) for page in sheets.pages])
    assert b"/Subtype /Form" in shared and b"/Subtype /Form" not in plain
    assert len(shared) != len(plain)
    for a, b in zip(_raster(shared), _raster(plain), strict=True):
        assert _differing_pixels(a, b) == 0


def test_rotated_scaled_and_nested_shared_content_looks_the_same() -> None:
    # bounds enclose everything drawn (stroke ends included), as the SharedContent contract asks
    inner = Group((Rect(0, 0, 4, 4, fill="#00aa00"), Line(0, 0, 4, 4, stroke="#000000", stroke_width=0.4)), shared=SharedContent("inner", Box(-1, -1, 6, 6)))
    content = (Rect(0, 0, 20, 12, fill="#3366cc"), Text(2, 8, "Shared", "DejaVuSans-Bold", 9, "#ffffff"), Group((inner,), Transform(translate=(14, 6))))
    outer = SharedContent("outer", Box(0, 0, 20, 12))
    scene = Scene(80, 60, (
        Group(content, Transform(translate=(5, 5)), shared=outer),
        Group(content, Transform(translate=(50, 5), rotate=30), clip=Box(0, 0, 15, 12), shared=outer),
        Group(content, Transform(translate=(10, 30), scale=(1.5, 0.8)), shared=outer),
        Group((inner,), Transform(translate=(60, 45))),
    ))
    shared = write_pdf([scene])
    assert shared.count(b"/Subtype /Form") == 2  # the inner square is a form inside the outer one
    for a, b in zip(_raster(shared), _raster(write_pdf([_plain_scene(scene)])), strict=True):
        assert _differing_pixels(a, b) == 0


def test_paint_state_is_tracked_across_groups_text_and_pages() -> None:
    """Colours are only set when they change; a group, a text run or a new page never leaves a wrong colour behind."""
    red, blue, green = "#ff0000", "#0000ff", "#00ff00"
    page = Scene(60, 20, (
        Rect(0, 0, 10, 10, fill=red),
        Group((Rect(10, 0, 10, 10, fill=blue),)),
        Rect(20, 0, 10, 10, fill=red),  # the group's blue must not leak out
        Text(31, 9, "x", size_pt=4, fill=green),
        Rect(40, 0, 10, 10, fill=red),  # the text's green must not stick either
        Rect(50, 0, 10, 10, fill=red, stroke=blue, stroke_width=0.5),
    ))
    pdf = write_pdf([page, page])
    colours = {(255, 0, 0): "red", (0, 0, 255): "blue"}
    for image in _raster(pdf):
        scale = image.width / 60
        pixels: list[Any] = [image.getpixel((int((x + 5) * scale), int(5 * scale))) for x in (0, 10, 20, 40)]
        got = [colours.get(tuple(pixel[:3]), "?") for pixel in pixels]
        assert got == ["red", "blue", "red", "red"]
    first = _raw_page(pdf, 0)
    assert first.count(b"1 0 0 rg") == 2  # red once (the group's Q restores it), then again after the green text
    assert first.count(b"0 0 1 rg") == 1 and first.count(b"0 1 0 rg") == 1
    assert _raw_page(pdf, 1) == first  # each page starts from an unknown state


def test_walker_skips_children_a_backend_drew_itself() -> None:
    calls: list[str] = []

    class Recorder:
        def begin_page(self, scene: Scene) -> None:
            calls.append("begin")

        def end_page(self) -> None:
            calls.append("end")

        def push_group(self, group: Group) -> bool:
            calls.append("push")
            return group.shared is not None

        def pop_group(self) -> None:
            calls.append("pop")

        def draw_rect(self, rect: Rect) -> None:
            calls.append("rect")

        draw_line = draw_polygon = draw_path = draw_circle = draw_text = draw_image = draw_rect

    shared = SharedContent("k", Box(0, 0, 1, 1))
    scene = Scene(5, 5, (Group((Rect(0, 0, 1, 1),), shared=shared), Group((Rect(0, 0, 1, 1),))))
    draw_scene(scene, Recorder())  # type: ignore[arg-type]
    assert calls == ["begin", "push", "pop", "push", "rect", "pop", "end"]


def test_rulebook_pictures_draw_shared_content_in_place() -> None:
    """The rulebook's flowable draws with the PDF backend onto its own canvas: no forms, the content drawn in place."""
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.rulebook.pictures import SceneFlowable

    face = make_face("Picture", "#ff0000")
    scene = Scene(face.width_mm, face.height_mm, (Group(face.children, shared=shared_face(face)),), face.trim_box, face.bleed_box)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, initialFontName="DejaVuSans")
    flowable = SceneFlowable(scene, 40.0)
    flowable.wrap(500, 500)
    flowable.drawOn(canvas, 20, 20)
    canvas.showPage()
    data = canvas.getpdfdata()
    assert b"/Subtype /Form" not in data
    content = _raw_page(data)
    assert b"1 0 0 rg" in content and b" Do" not in content


def test_cards_producer_shop_pdf_draws_the_common_back_once(tmp_path: Path) -> None:
    from cardgen.artefacts import BuildContext, BuildOptions
    from cardgen.render.produce import produce_cards
    from cardgen.spec.load import load_spec

    loaded = load_spec(ROOT / "tests" / "fixtures" / "valid" / "minimal")
    context = BuildContext(loaded, tmp_path, BuildOptions(papers=("a4",)))
    produce_cards(context)
    shop = (tmp_path / "minimal-cards-bleed.pdf").read_bytes()
    placed: dict[int, int] = {}
    for index in range(len(read_pdf(shop).pages)):
        ids = _xobject_ids(shop, index)
        for name, count in placements(_raw_page(shop, index)).items():
            placed[ids[name]] = placed.get(ids[name], 0) + count
    assert placed and all(count > 1 for count in placed.values())  # only repeated faces become forms
    assert shop.count(b"/Subtype /Form") == len(placed)


_SEED_SCRIPT = """
import hashlib, sys
sys.path.insert(0, {helpers!r})
from render_helpers import make_face
from cardgen.render.sheets import FooterInfo, PrintItem, builtin_sheet_template, impose
items = [PrintItem(make_face(f"C{{i}}"), 63.0, 88.0, 3.0, back=make_face("B", "#ccddff"), copies=i + 2) for i in range(3)]
print(hashlib.sha256(impose(items, builtin_sheet_template("a4"), FooterInfo("T", "1", "CC0")).to_pdf("t")).hexdigest())
"""


def test_sheet_bytes_do_not_depend_on_the_hash_seed() -> None:
    script = _SEED_SCRIPT.format(helpers=str(Path(__file__).resolve().parent))
    digests = set()
    for seed in ("1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
        assert done.returncode == 0, done.stderr
        digests.add(done.stdout.strip())
    items = [PrintItem(make_face(f"C{i}"), TRIM_W, TRIM_H, BLEED, back=make_face("B", "#ccddff"), copies=i + 2) for i in range(3)]
    here = impose(items, builtin_sheet_template("a4"), FooterInfo("T", "1", "CC0")).to_pdf("t")
    digests.add(hashlib.sha256(here).hexdigest())
    assert len(digests) == 1


def test_pdf_floor_writes_the_same_bytes_as_cardgen() -> None:
    """bench/render_floor.py (bare reportlab, shared faces as forms) writes exactly cardgen's bytes, so the bench ratio compares like with like."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import render_floor
        import scene_flat
    finally:
        sys.path.remove(str(ROOT / "bench"))
    from cardgen.render.faces import card_faces
    from cardgen.render.produce import print_items
    from cardgen.spec.load import load_spec

    items, _ = print_items(card_faces(load_spec(ROOT / "tests" / "fixtures" / "valid" / "minimal")))
    pages = list(impose(items, builtin_sheet_template("a4"), FOOTER).pages)
    pages += impose(items, builtin_sheet_template("letter"), FOOTER).pages
    shared = [
        [
            (c.shared.key, (c.shared.bounds.x, c.shared.bounds.y, c.shared.bounds.right, c.shared.bounds.bottom))
            if isinstance(c, Group) and c.shared is not None else None
            for c in page.children
        ]
        for page in pages
    ]
    with_forms = render_floor.share_forms(scene_flat.flatten(pages), shared)
    assert any(op[0] == "form" for ops in with_forms for op in ops)
    assert render_floor.draw_flat(with_forms, title="t") == write_pdf(pages, title="t")
