"""Card faces from specs: counts, copies, locales, placeholders, layouts and widgets."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.render.faces import card_faces, face_set, print_order
from cardgen.render.layouts import DeckLayout, default_deck_layout
from cardgen.render.scene import Group, Primitive, Scene, Text
from cardgen.render.widgets import get_widget, widget_names
from cardgen.spec.load import LoadedSpec, load_spec, size_of

ROOT = Path(__file__).resolve().parents[2]
MINIMAL = ROOT / "tests" / "fixtures" / "valid" / "minimal"
SPECS = ROOT / "specs"


def texts(items: tuple[Primitive, ...] | list[Primitive]) -> list[str]:
    """Every text run in a tree of primitives."""
    out: list[str] = []
    for item in items:
        if isinstance(item, Text):
            out.append(item.text)
        elif isinstance(item, Group):
            out.extend(texts(item.children))
    return out


def scene_text(scene: Scene) -> str:
    return " ".join(texts(scene.children))


@pytest.fixture(scope="module")
def minimal() -> LoadedSpec:
    loaded = load_spec(MINIMAL)
    assert loaded.spec is not None
    return loaded


def test_minimal_has_every_distinct_face_with_its_copies(minimal: LoadedSpec) -> None:
    faces = {f.key: f for f in card_faces(minimal)}
    # shapes: domino (2 copies) + corner, one back; sites: low, mid + back; pots: amphora (2) + back;
    # bones: one double-sided card = two fronts, no back; tiles: 2 colours x 2 seats.
    assert sorted(faces) == sorted(
        [
            "shapes-domino", "shapes-corner", "shapes-back", "sites-low", "sites-mid", "sites-back",
            "pots-amphora", "pots-back", "bones-bone1", "bones-bone1-face2",
            "tile-red-p1", "tile-blue-p1", "tile-red-p2", "tile-blue-p2",
        ]
    )
    assert faces["shapes-domino"].copies == 2 and faces["shapes-back"].copies == 3
    assert faces["bones-bone1"].reverse == "bones-bone1-face2" and faces["bones-bone1-face2"].reverse == "bones-bone1"
    assert sum(f.copies for f in faces.values() if f.kind == "component") == 8  # the fixture's stated count
    pairs = print_order(list(faces.values()))
    assert sum(front.copies for front, _ in pairs) == 3 + 2 + 2 + 1 + 8


def test_faces_measure_trim_plus_bleed(minimal: LoadedSpec) -> None:
    for face in card_faces(minimal):
        assert face.scene.trim_box is not None
        assert face.scene.trim_box.w == pytest.approx(face.size.width)
        assert face.scene.trim_box.h == pytest.approx(face.size.height)
        assert face.scene.width_mm == pytest.approx(face.size.width + 2 * face.size.bleed)


def test_numbers_and_effects_are_replaced_and_locale_is_chosen(minimal: LoadedSpec) -> None:
    en = {f.key: f for f in card_faces(minimal)}
    pt = {f.key: f for f in card_faces(minimal, "pt_BR")}
    assert "Dig 2 deep." in scene_text(en["sites-low"].scene)
    assert "Cave 2 de fundo." in scene_text(pt["sites-low"].scene)
    assert "Domino" in scene_text(en["shapes-domino"].scene)
    assert "Dominó" in scene_text(pt["shapes-domino"].scene)
    assert "{numbers" not in scene_text(en["sites-low"].scene)


def test_effect_placeholder_names_the_card(minimal: LoadedSpec) -> None:
    from cardgen.render.widgets import Resources

    assert minimal.spec is not None
    res = Resources.build(minimal.spec, "pt_BR")
    assert res.resolve("Jogue {effect:dig} {numbers.depth} vezes {tile}") == "Jogue Baixo 2 vezes {tile}"


def test_default_layout_is_used_without_a_layout_file(minimal: LoadedSpec) -> None:
    layouts = face_set(minimal).layouts
    assert all(resolved.file == "" for resolved in layouts.values())
    assert minimal.spec is not None
    deck = minimal.spec.decks[0]
    default = default_deck_layout(deck, size_of(deck.size))
    assert [e.widget for e in default.front.elements][:1] == ["title"]
    assert default.back is not None


def test_spec_folder_layout_overrides_and_unknown_widget_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / "minimal"
    shutil.copytree(MINIMAL, folder)
    (folder / "layouts").mkdir()
    (folder / "layouts" / "shapes.yaml").write_text(
        "front:\n  background: '#102030'\n  elements:\n"
        "    - {widget: title, box: [4, 4, 55, 10], params: {size: 12}}\n"
        "    - {widget: no_such_widget, box: [4, 20, 55, 10]}\n",
        encoding="utf-8",
    )
    loaded = load_spec(folder)
    faces = face_set(loaded)
    assert faces.layouts["shapes"].file.endswith("layouts/shapes.yaml")
    domino = faces.by_key()["shapes-domino"]
    first = domino.scene.children[0]
    assert getattr(first, "fill") == "#102030"
    assert [p.code for p in faces.problems] == ["CG208"]
    assert faces.problems[0].line == 5


def test_layout_schema_is_strict() -> None:
    with pytest.raises(Exception):
        DeckLayout.model_validate({"front": {"elements": [], "colour": "#ffffff"}})


def test_generic_and_game_widgets_are_registered() -> None:
    names = set(widget_names())
    assert {"title", "text", "field", "localised_field", "swatch", "palette_grid", "polyomino", "pattern", "badge", "icon_row", "type_band", "credit_line"} <= names
    assert get_widget("ceramus_bonus") is not None  # found through cardgen.games.<pkg>.widgets


def test_ceramus_counts_match_the_rulebook() -> None:
    loaded = load_spec(SPECS / "ceramus")
    assert loaded.spec is not None, [f.render() for f in loaded.findings]
    faces = card_faces(loaded)
    fronts = [f for f in faces if f.kind == "front"]
    assert sum(f.copies for f in fronts if f.group == "mural") == 12
    assert sum(f.copies for f in fronts if f.group == "shapes") == 14
    assert sum(f.copies for f in fronts if f.group == "ceramas") == 6
    tiles = [f for f in faces if f.kind == "component"]
    assert len(tiles) == 16 and sum(f.copies for f in tiles) == 64  # 4 styles x 4 players, 4 of each
    assert [f.key for f in faces if f.kind == "back"] == ["mural-back", "shapes-back", "ceramas-back"]
