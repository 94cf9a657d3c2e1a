"""Widget parameters are declared models: layouts are checked against them, widgets read only what they declare.

Mutants of shipped layouts: a misspelt parameter, a value of the wrong kind and an
unknown glyph are each found at their line in the layout file (CG214); every
shipped layout and every generic default layout is clean; docs/widgets.md is
generated from the models and current.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.findings import Finding, Severity
from cardgen.render.layouts import DeckLayout, bundled_layouts, default_component_layout, default_deck_layout
from cardgen.render.scene import Box
from cardgen.render.widget_docs import widgets_reference_markdown
from cardgen.render.widget_kit import UndeclaredParameter, WidgetContext
from cardgen.render.widget_params import param_problems
from cardgen.render.widgets import widget_names, widget_params
from cardgen.spec.load import load_spec, size_of
from cardgen.spec.yaml_load import load_yaml
from cardgen.catalogue import validate_folder

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["ceramus", "keramikos", "mausoleum-guardians", "ceratopsians"]
SHIPPED = sorted((ROOT / "cardgen" / "games").glob("*/layouts/*.yaml")) + sorted((ROOT / "specs").glob("*/layouts/*.yaml"))
"""Every shipped layout: those bundled with a game's rules module and those in a spec's own folder."""


def _bundled(rules_id: str) -> Path:
    folder = bundled_layouts(rules_id)
    assert folder is not None, rules_id
    return folder


def test_every_registered_widget_declares_its_parameters() -> None:
    names = widget_names()
    assert len(names) > 20
    assert all(widget_params(name) is not None for name in names)
    assert widget_params("no_such_widget") is None


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_layout_gives_its_widgets_only_what_they_take(path: Path) -> None:
    data, _ = load_yaml(path, str(path))
    layout = DeckLayout.model_validate(data)
    elements = [e for face in (layout.front, layout.back) if face is not None for e in face.elements]
    assert elements
    for element in elements:
        schema = widget_params(element.widget)
        assert schema is not None, element.widget
        assert param_problems(schema, element.params) == [], (path.name, element.widget, element.params)


@pytest.mark.parametrize("game", GAMES)
def test_the_generic_default_layouts_are_clean(game: str) -> None:
    loaded = load_spec(ROOT / "specs" / game)
    assert loaded.spec is not None
    layouts = [default_deck_layout(d, size_of(d.size)) for d in loaded.spec.decks]
    layouts += [default_component_layout(c, size_of(c.size)) for c in loaded.spec.components]
    for layout in layouts:
        for face in (layout.front, layout.back):
            for element in face.elements if face is not None else ():
                schema = widget_params(element.widget)
                assert schema is not None and param_problems(schema, element.params) == [], (element.widget, element.params)


def _mutant(tmp_path: Path, game: str, layout: str, old: str, new: str) -> tuple[Path, int]:
    """A copy of a shipped game overriding one layout with one edit; the edited line's number."""
    folder = tmp_path / game
    shutil.copytree(ROOT / "specs" / game, folder)
    text = (_bundled(game) / f"{layout}.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    (folder / "layouts").mkdir(exist_ok=True)
    (folder / "layouts" / f"{layout}.yaml").write_text(text.replace(old, new), encoding="utf-8")
    return folder, text[: text.index(old)].count("\n") + 1


def _findings(folder: Path, code: str) -> list[Finding]:
    return [f for f in validate_folder(folder, kinds=("static", "render")).findings if f.code == code]


def test_the_unmutated_override_gives_no_parameter_finding(tmp_path: Path) -> None:
    folder, _ = _mutant(tmp_path, "ceratopsians", "skulls", "params: {size: 6}", "params: {size: 6}")
    assert not _findings(folder, "CG214") and not _findings(folder, "CG207")


MUTANTS = {
    "a misspelt text size": ("ceratopsians", "skulls", "params: {size: 6}", "params: {szie: 6}", "'szie'"),
    "a misspelt game-widget parameter": ("ceratopsians", "skulls", "radius: 3.0, span: 0.66", "radius: 3.0, spam: 0.66", "'spam'"),
    "a size written as a word": ("ceratopsians", "skulls", "params: {field: part, size: 8.5}", "params: {field: part, size: eight}", "size"),
    "a size written as text": ("ceratopsians", "skulls", "params: {size: 6}", "params: {size: '6'}", "size"),
    "a flag written as a number": ("ceramus", "mural", "border: false}", "border: 0}", "border"),
    "an unknown font": ("ceratopsians", "skulls", "params: {size: 6}", "params: {size: 6, font: Comic-Sans}", "Comic-Sans"),
    "an unknown glyph": ("mausoleum-guardians", "cards", "earthquake: crack,", "earthquake: crak,", "crak"),
}


@pytest.mark.parametrize("case", sorted(MUTANTS))
def test_a_parameter_its_widget_does_not_take_is_a_finding_at_its_line(tmp_path: Path, case: str) -> None:
    game, layout, old, new, needle = MUTANTS[case]
    folder, line = _mutant(tmp_path, game, layout, old, new)
    found = _findings(folder, "CG214")
    assert found, case
    assert all(f.severity is Severity.ERROR and f.file.endswith(f"layouts/{layout}.yaml") for f in found)
    assert [f.line for f in found] == [line], [f.render() for f in found]
    assert needle in found[0].message, found[0].message


def test_a_misspelt_name_is_told_the_name_it_was_meant_to_be(tmp_path: Path) -> None:
    folder, _ = _mutant(tmp_path, "ceratopsians", "skulls", "params: {size: 6}", "params: {szie: 6}")
    (finding,) = _findings(folder, "CG214")
    assert "did you mean 'size'" in finding.message


def test_an_element_with_a_refused_parameter_is_not_drawn(tmp_path: Path) -> None:
    """The credit line with a misspelt size prints nothing (so no widget draws from a value it did not declare)."""
    from cardgen.render.faces import face_set

    folder, _ = _mutant(tmp_path, "ceratopsians", "skulls", "params: {size: 6}", "params: {szie: 6}")
    loaded = load_spec(folder)
    faces = face_set(loaded).faces
    assert faces and not any(r.what == "credit" for face in faces if face.group == "skulls" for r in face.reports)
    clean = face_set(load_spec(ROOT / "specs" / "ceratopsians")).faces
    assert any(r.what == "credit" for face in clean if face.group == "skulls" for r in face.reports)


def _context(schema_name: str, params: dict[str, object]) -> WidgetContext:
    loaded = load_spec(ROOT / "specs" / "ceratopsians")
    assert loaded.spec is not None
    from cardgen.render.widget_kit import Resources

    box = Box(0, 0, 10, 10)
    return WidgetContext(
        box=box, trim=box, safe=box, spec=loaded.spec, res=Resources.build(loaded.spec, "en"), deck=None, card=None,
        face_index=0, locale="en", params=params, data={}, title="", element="front.elements[0]", source=(), reports=[],
        schema=widget_params(schema_name),
    )


def test_a_widget_cannot_read_a_parameter_it_does_not_declare() -> None:
    ctx = _context("panel", {"radius": 1.0})
    assert ctx.fparam("radius", 0.0) == 1.0
    with pytest.raises(UndeclaredParameter):
        ctx.param("size")


def test_a_widget_reads_the_default_its_model_declares() -> None:
    ctx = _context("panel", {})
    assert ctx.param("colour") == "type" and ctx.fparam("stroke_width", 0.3) == 0.3
    with pytest.raises(UndeclaredParameter):  # a default in the code that differs from the declared one
        ctx.fparam("stroke_width", 0.5)


def test_the_widgets_page_is_current() -> None:
    kept = (ROOT / "docs" / "widgets.md").read_text(encoding="utf-8")
    assert kept == widgets_reference_markdown(), (
        "run: python -c \"from cardgen.render.widget_docs import widgets_reference_markdown as w; "
        "open('docs/widgets.md','w').write(w())\""
    )


def test_the_widgets_page_lists_every_widget_and_parameter() -> None:
    page = widgets_reference_markdown()
    for name in widget_names():
        assert f"### `{name}`" in page
        schema = widget_params(name)
        assert schema is not None
        for parameter in schema.model_fields:
            assert f"| `{parameter}` |" in page
