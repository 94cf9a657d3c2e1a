"""Print-safety checks read off what each face drew: minimum type size (CG203) and the safe zone (CG209).

The four shipped games pass clean; mutants of their layouts that shrink a size
or move an element are caught, per face, with the layout line to fix.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.findings import Finding, Severity
from cardgen.render.extent import Bounds, ink_box, text_ink, text_sizes
from cardgen.render.fonts import ascent, descent, string_width
from cardgen.render.scene import Box, Circle, Group, Line, Rect, Text, Transform
from cardgen.catalogue import validate_folder

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["ceramus", "keramikos", "mausoleum-guardians", "ceratopsians"]


def _render_findings(folder: Path) -> list[Finding]:
    return list(validate_folder(folder, kinds=("static", "render")).findings)


@pytest.mark.parametrize("game", GAMES)
def test_shipped_games_pass_the_print_safety_checks_clean(game: str) -> None:
    findings = _render_findings(ROOT / "specs" / game)
    assert not [f for f in findings if f.code in ("CG201", "CG203", "CG204", "CG209")], [f.message for f in findings]


def _bundled(rules_id: str) -> Path:
    """The layouts bundled with a rules module."""
    from cardgen.render.layouts import bundled_layouts

    folder = bundled_layouts(rules_id)
    assert folder is not None, rules_id
    return folder


def _mutant(tmp_path: Path, game: str, layout_game: str, deck: str, edit: tuple[str, str]) -> Path:
    """A copy of a shipped game whose spec folder overrides one layout, with one text replacement."""
    folder = tmp_path / game
    shutil.copytree(ROOT / "specs" / game, folder)
    text = (_bundled(layout_game) / f"{deck}.yaml").read_text(encoding="utf-8")
    old, new = edit
    assert old in text
    (folder / "layouts").mkdir(exist_ok=True)
    (folder / "layouts" / f"{deck}.yaml").write_text(text.replace(old, new), encoding="utf-8")
    return folder


def test_the_unmutated_override_is_clean(tmp_path: Path) -> None:
    """The copy mechanism alone adds no finding (so the mutants below fail for their edit)."""
    folder = _mutant(tmp_path, "ceratopsians", "ceratopsians", "skulls", ("params: {size: 6}", "params: {size: 6}"))
    assert not [f for f in _render_findings(folder) if f.code in ("CG203", "CG209")]


def test_a_credit_line_shrunk_below_six_points_is_caught(tmp_path: Path) -> None:
    folder = _mutant(tmp_path, "ceratopsians", "ceratopsians", "skulls", ("params: {size: 6}", "params: {size: 4.2}"))
    findings = [f for f in _render_findings(folder) if f.code == "CG203"]
    assert findings and all(f.severity is Severity.ERROR for f in findings)
    assert any("credit_line" in f.message and "4.2 pt" in f.message for f in findings)
    assert all(f.file.endswith("layouts/skulls.yaml") and f.line > 0 for f in findings)


def test_type_a_widget_sizes_for_itself_is_measured_as_drawn(tmp_path: Path) -> None:
    """Marker letters are sized from the marker's radius (no size parameter): only the drawn text shows it."""
    folder = _mutant(tmp_path, "ceratopsians", "ceratopsians", "skulls", ("radius: 3.0", "radius: 1.5"))
    findings = [f for f in _render_findings(folder) if f.code == "CG203"]
    assert len(findings) == 2  # once per card language
    assert all("ceratopsians_markers" in f.message and "36 face(s)" in f.message for f in findings)


def test_markers_moved_over_the_frame_are_caught_per_card(tmp_path: Path) -> None:
    folder = _mutant(tmp_path, "ceratopsians", "ceratopsians", "skulls", ("inset: 3.7", "inset: 2.0"))
    findings = [f for f in _render_findings(folder) if f.code == "CG209"]
    assert findings and findings[0].severity is Severity.ERROR
    assert "ceratopsians_markers" in findings[0].message and "36 face(s)" in findings[0].message
    assert "left by 1.6 mm" in findings[0].message  # 1.7 mm closer to the edge, from 0.1 mm inside the line


def test_an_element_box_moved_out_of_the_safe_zone_is_caught(tmp_path: Path) -> None:
    folder = _mutant(tmp_path, "mausoleum-guardians", "mausoleum-guardians", "cards", ("box: [4, 9.5, 55, 9]", "box: [1.5, 9.5, 55, 9]"))
    findings = _render_findings(folder)
    drawn = [f for f in findings if f.code == "CG209"]
    assert drawn and "front.elements[1] (title)" in drawn[0].message


def test_letters_of_art_running_into_the_bleed_must_stay_inside(tmp_path: Path) -> None:
    """An art element may run into the bleed, but not the letters it carries (the old corner seat mark)."""
    old = "box: [3, 3, 19, 19]     # the safe zone: the owner's mark carries play, so a cut never takes it\n      params: {scale: 0.38}"
    new = "box: [0, 0, 25, 25]\n      art: true\n      params: {scale: 0.4}"
    folder = _mutant(tmp_path, "ceramus", "ceramus", "tile", (old, new))
    findings = [f for f in _render_findings(folder) if f.code == "CG209"]
    assert findings and "seat_mark" in findings[0].message


# --------------------------------------------------------------------------- the measuring itself
def test_ink_box_counts_strokes_text_and_transforms() -> None:
    assert ink_box([Rect(1, 2, 3, 4, stroke="#000000", stroke_width=0.4)]) == Bounds(0.8, 1.8, 4.2, 6.2)
    assert ink_box([Circle(5, 5, 2, fill="#000000")]) == Bounds(3, 3, 7, 7)
    assert ink_box([Line(0, 0, 10, 0, stroke_width=1.0)]) == Bounds(-0.5, -0.5, 10.5, 0.5)
    text = Text(10, 20, "Wide", "DejaVuSans", 10, "#000000", "middle")
    width = string_width("Wide", "DejaVuSans", 10)
    box = ink_box([text])
    assert box is not None
    assert (box.left, box.right) == pytest.approx((10 - width / 2, 10 + width / 2))
    assert (box.top, box.bottom) == pytest.approx((20 - ascent("DejaVuSans", 10), 20 + descent("DejaVuSans", 10)))
    turned = ink_box([Group((Rect(0, 0, 10, 2, fill="#000000"),), Transform(translate=(50, 50), rotate=90))])
    assert turned is not None
    assert (turned.left, turned.top, turned.right, turned.bottom) == pytest.approx((48, 50, 50, 60))
    clipped = ink_box([Group((Rect(0, 0, 10, 10, fill="#000000"),), clip=Box(2, 2, 3, 3))])
    assert clipped == Bounds(2, 2, 5, 5)


def test_text_sizes_follow_group_scales_and_text_ink_ignores_shapes() -> None:
    inner = Group((Text(0, 5, "a", size_pt=10),), Transform(scale=(0.5, 0.5)))
    assert [size for _, size in text_sizes([Text(0, 0, "b", size_pt=7), inner])] == [7, 5]
    only_shapes = [Rect(0, 0, 50, 50, fill="#000000")]
    assert text_ink(only_shapes) is None
    assert text_ink([*only_shapes, Text(10, 10, "x", size_pt=8)]) is not None


# --------------------------------------------------------------------------- back titles
def _back(game: str, key: str, locale: str = "en") -> list[str]:
    from cardgen.render.faces import card_faces
    from cardgen.spec.load import load_spec

    face = next(f for f in card_faces(load_spec(ROOT / "specs" / game), locale) if f.key == key)
    found: list[str] = []

    def walk(children: tuple[object, ...]) -> None:
        for child in children:
            if isinstance(child, Text):
                found.append(child.text)
            elif isinstance(child, Group):
                walk(child.children)

    walk(face.scene.children)
    return found


@pytest.mark.parametrize("locale", ["en", "pt_BR"])
def test_a_back_never_reads_the_game_title_twice(locale: str) -> None:
    texts = _back("keramikos", "excavation-back", locale)
    assert texts.count("Keramikos") == 1
    assert {"en": "Excavation deck", "pt_BR": "Baralho de escavação"}[locale] in texts
    # a back without a game_title element keeps its title
    assert _back("mausoleum-guardians", "cards-back", locale) == [{"en": "Mausoleum Guardians", "pt_BR": "Guardiões do Mausoléu"}[locale]]


@pytest.mark.parametrize(("game", "key"), [("ceramus", "mural-back"), ("ceramus", "shapes-back"), ("ceramus", "ceramas-back"), ("keramikos", "dig-sites-back")])
def test_back_titles_sit_on_a_plate_over_their_ornament(game: str, key: str) -> None:
    from cardgen.render.faces import card_faces
    from cardgen.spec.load import load_spec

    face = next(f for f in card_faces(load_spec(ROOT / "specs" / game)) if f.key == key)
    titles = [e for e in face.elements if e.widget in ("back_title", "game_title")]
    assert titles
    groups = [c for c in face.scene.children if isinstance(c, Group)]
    background = face.scene.children[0]
    assert isinstance(background, Rect)
    for group in groups:
        texts = [c for c in group.children if isinstance(c, Text)]
        if not texts or not any(t.text in ("Ceramus", "Keramikos", "Mural", "Shape", "Ceramas", "Dig site") for t in texts):
            continue
        plate = group.children[0]
        assert isinstance(plate, Rect) and plate.fill == background.fill  # the face's colour, under the text
        box = ink_box(texts)
        assert box is not None
        assert plate.x < box.left and plate.y < box.top and plate.x + plate.w > box.right and plate.y + plate.h > box.bottom


# --------------------------------------------------------------------------- symbols follow the card language
def _texts(scene_children: tuple[object, ...]) -> list[str]:
    found: list[str] = []
    for child in scene_children:
        if isinstance(child, Text):
            found.append(child.text)
        elif isinstance(child, Group):
            found += _texts(child.children)
    return found


@pytest.mark.parametrize(("locale", "letters", "absent"), [("en", {"R", "Y", "G", "B"}, {"Vm", "Am"}), ("pt_BR", {"Vm", "Am", "Vd", "Az"}, {"R", "Y", "G", "B"})])
def test_marker_letters_follow_the_card_language(locale: str, letters: set[str], absent: set[str]) -> None:
    from cardgen.render.faces import card_faces
    from cardgen.spec.load import load_spec

    printed: set[str] = set()
    for face in card_faces(load_spec(ROOT / "specs" / "ceratopsians"), locale):
        printed |= set(_texts(face.scene.children))
    assert letters <= printed and not (absent & printed)
    seats = {t for f in card_faces(load_spec(ROOT / "specs" / "keramikos"), locale) if f.kind == "component" for t in _texts(f.scene.children)}
    assert seats == ({"R", "B", "G", "K"} if locale == "en" else {"Vm", "Az", "Vd", "Pr"})


def test_symbols_equal_in_one_card_language_are_caught(tmp_path: Path) -> None:
    folder = tmp_path / "ceratopsians"
    shutil.copytree(ROOT / "specs" / "ceratopsians", folder)
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace("symbol: G, symbols: {pt_BR: Vd}", "symbol: G, symbols: {pt_BR: Vm}"), encoding="utf-8")
    findings = [f for f in _render_findings(folder) if f.code == "CG211"]
    assert len(findings) == 1 and "red/green" in findings[0].message
    game.write_text(text.replace("symbol: G, symbols: {pt_BR: Vd}", "symbol: G, symbols: {pt_BR: Vd, de: Gr}"), encoding="utf-8")
    assert [f.code for f in _render_findings(folder) if f.code == "CG121"] == ["CG121"]


# --------------------------------------------------------------------------- one glyph per effect
def test_every_effect_has_its_own_look_in_the_shipped_games() -> None:
    for game in GAMES:
        assert not [f for f in _render_findings(ROOT / "specs" / game) if f.code == "CG212"], game


def test_specials_sharing_one_emblem_are_caught(tmp_path: Path) -> None:
    text = (_bundled("keramikos") / "excavation.yaml").read_text(encoding="utf-8")
    start = text.index("        glyphs: {reroll")
    line = text[start : text.index("\n", start) + 1]
    folder = _mutant(tmp_path, "keramikos", "keramikos", "excavation", (line, ""))
    findings = [f for f in _render_findings(folder) if f.code == "CG212"]
    assert len(findings) == 1 and findings[0].severity is Severity.WARNING
    assert "8 effects are drawn alike" in findings[0].message and "(sabotage)" in findings[0].message


def test_one_icon_per_card_type_is_caught(tmp_path: Path) -> None:
    text = (_bundled("mausoleum-guardians") / "cards.yaml").read_text(encoding="utf-8")
    start = text.index("        glyphs: {double_set")
    line = text[start : text.index("\n", start) + 1]
    folder = _mutant(tmp_path, "mausoleum-guardians", "mausoleum-guardians", "cards", (line, ""))
    findings = sorted(f.message for f in _render_findings(folder) if f.code == "CG212")
    assert len(findings) == 3  # characters, events, actions: each type's cards alike
    assert any("4 effects" in m and "(double_set)" in m for m in findings)


def test_glyphs_are_distinct_drawings() -> None:
    from cardgen.render.glyphs import GLYPHS

    drawn = {name: repr(glyph(10.0, 10.0, 8.0, "#000000", "#ffffff")) for name, glyph in GLYPHS.items()}
    assert len(set(drawn.values())) == len(GLYPHS)
    for name, glyph in GLYPHS.items():
        box = ink_box(glyph(10.0, 10.0, 8.0, "#000000", "#ffffff"))
        assert box is not None and box.left >= 1.5 and box.right <= 18.5 and box.top >= 1.5 and box.bottom <= 18.5, name  # inside its circle


def test_layouts_come_with_the_game_package_whatever_the_spec_is_called(tmp_path: Path) -> None:
    """A designer's variant of Ceramus (another id, the same rules data and mechanic) is drawn with Ceramus's layouts,
    found through the package of its named mechanic; a spec without those rules is not, even under the same id. A
    game written wholly as data (Keramikos) keeps its package's layouts under its own id only (``Spec.package_id``)."""
    import yaml

    from cardgen.render.faces import _layouts
    from cardgen.spec.load import load_spec

    variant = tmp_path / "my-mural"
    shutil.copytree(ROOT / "specs" / "ceramus", variant)
    text = (variant / "game.yaml").read_text(encoding="utf-8")
    (variant / "game.yaml").write_text(text.replace("\nid: ceramus\n", "\nid: my-mural\n"), encoding="utf-8")
    loaded = load_spec(variant)
    assert loaded.spec is not None and loaded.spec.id == "my-mural"
    files = {deck: Path(resolved.file).resolve() for deck, resolved in _layouts(loaded, loaded.spec).items()}
    assert files["ceramas"] == _bundled("ceramus") / "ceramas.yaml"
    unsimulated = tmp_path / "ceramus"
    shutil.copytree(ROOT / "specs" / "ceramus", unsimulated)
    data = yaml.safe_load(text)
    data.pop("rules")
    (unsimulated / "game.yaml").write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    loaded = load_spec(unsimulated)
    assert loaded.spec is not None and loaded.spec.rules is None
    assert all(resolved.file == "" for resolved in _layouts(loaded, loaded.spec).values()), "no rules, no bundled layouts"
    keramikos = load_spec(ROOT / "specs" / "keramikos")
    assert keramikos.spec is not None and keramikos.spec.rules_data is not None
    found = {deck: Path(resolved.file).resolve() for deck, resolved in _layouts(keramikos, keramikos.spec).items()}
    assert found["excavation"] == _bundled("keramikos") / "excavation.yaml"


@pytest.mark.parametrize("back", ["Mausoleum Guardians of the Eternal Night", "Hearts"])
def test_a_text_on_a_plate_keeps_its_plate_inside_the_element_box(tmp_path: Path, back: str) -> None:
    """A back title long enough to be shrunk to its box used to fill the box with its text and draw its plate 1.6 mm
    further, past the box and (with the default layout's box at the safe zone) past the safe zone: CG209 on a renamed
    copy of a shipped game. The text is now laid out inside the box less the plate's padding at its left and right, so
    plate and text stay in the box, and a short title is drawn as before."""
    from cardgen.render.faces import face_set
    from cardgen.spec.load import load_spec

    folder = tmp_path / "hearts"
    shutil.copytree(ROOT / "specs" / "hearts", folder)
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    assert "back: {en: Hearts, pt_BR: Copas}" in text
    (folder / "game.yaml").write_text(text.replace("back: {en: Hearts, pt_BR: Copas}", f"back: {{en: {back}, pt_BR: {back}}}"), encoding="utf-8")
    assert not [f.render() for f in _render_findings(folder) if f.code in ("CG201", "CG209")]
    loaded = load_spec(folder)
    faces = face_set(loaded, "en")
    back_face = faces.by_key()["standard-back"]
    layout = faces.layouts["standard"].layout.back
    assert layout is not None
    element = next(e for e in layout.elements if e.widget == "back_title")
    bleed = (back_face.scene.width_mm - 63.0) / 2  # (Hearts' poker cards, 63 x 88 mm: the scene is the trim plus its bleed)
    assert bleed == (back_face.scene.height_mm - 88.0) / 2 and bleed > 0
    x, y, w, h = element.box
    x, y = x + bleed, y + bleed
    plates = [p for p in _flat(back_face.scene.children) if isinstance(p, Rect) and p.radius and p.fill]
    assert plates
    for plate in plates:
        assert x - 1e-6 <= plate.x and plate.x + plate.w <= x + w + 1e-6 and y - 1e-6 <= plate.y and plate.y + plate.h <= y + h + 1e-6


def _flat(items: object) -> list[object]:
    out: list[object] = []
    for item in items:  # type: ignore[attr-defined]
        if isinstance(item, Group):
            out += _flat(item.children)
        else:
            out.append(item)
    return out
