"""Render checks: text fit, glyphs, sizes, safe zone, bleed, palette distinguishability, colour maths."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.findings import Severity
from cardgen.render.checks import palette_findings, render_checks
from cardgen.render.colour import delta_e2000, simulate, to_lab
from cardgen.spec.load import load_spec
from cardgen.catalogue import validate_folder

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINIMAL = ROOT / "tests" / "fixtures" / "valid" / "minimal"


def codes(folder: Path) -> list[str]:
    return [f.code for f in validate_folder(folder, kinds=("static", "render")).findings]


def test_minimal_fixture_renders_without_errors() -> None:
    findings = validate_folder(MINIMAL, kinds=("static", "render")).findings
    assert not [f for f in findings if f.severity is Severity.ERROR]


def test_overflowing_text_names_card_field_and_size() -> None:
    findings = [f for f in validate_folder(FIXTURES / "overflow", kinds=("static", "render")).findings if f.code == "CG201"]
    assert findings and all(f.severity is Severity.ERROR for f in findings)
    first = findings[0]
    assert first.path == "decks[1].cards[0].text"
    assert "sites/low" in first.message and "mm" in first.message and "line(s)" in first.message
    assert first.line == 63  # the line of the card's text in the fixture


def test_character_missing_from_font_is_reported() -> None:
    findings = [f for f in validate_folder(FIXTURES / "missing-glyph", kinds=("static", "render")).findings if f.code == "CG202"]
    assert len(findings) == 1
    assert "U+6F22" in findings[0].message and "shapes/corner" in findings[0].message


def test_palette_without_symbols_is_an_error() -> None:
    findings = [f for f in validate_folder(FIXTURES / "palette-no-symbols", kinds=("static", "render")).findings if f.code.startswith("CG21")]
    assert [f.code for f in findings] == ["CG211"]
    assert findings[0].severity is Severity.ERROR and "red/blue" in findings[0].message


def test_confusable_colours_with_symbols_are_a_warning() -> None:
    loaded = load_spec(MINIMAL)
    assert loaded.spec is not None
    # the minimal fixture's red #c0392b and blue #2e5fa8 have nearly the same lightness
    findings = list(palette_findings(loaded, 0, loaded.spec.palettes[0]))
    assert [f.code for f in findings] == ["CG210"]
    assert findings[0].severity is Severity.WARNING and "greyscale" in findings[0].message


def test_small_text_outside_safe_zone_and_missing_background(tmp_path: Path) -> None:
    folder = tmp_path / "minimal"
    shutil.copytree(MINIMAL, folder)
    (folder / "layouts").mkdir()
    (folder / "layouts" / "sites.yaml").write_text(
        "front:\n  background: null\n  elements:\n"
        "    - {widget: title, box: [1, 4, 55, 10], params: {size: 5}}\n",
        encoding="utf-8",
    )
    loaded = load_spec(folder)
    found = {f.code: f for f in render_checks(loaded)}
    assert "CG203" in found and "5 pt" in found["CG203"].message
    assert "CG204" in found and "left by 2.0 mm" in found["CG204"].message
    assert "CG205" in found and found["CG205"].severity is Severity.WARNING


def test_ciede2000_matches_published_test_data() -> None:
    # Sharma, Wu and Dalal (2005), pairs 1, 3 and 17 of their test data.
    assert delta_e2000((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert delta_e2000((50.0, 2.8361, -74.0200), (50.0, 0.0, -82.7485)) == pytest.approx(3.4412, abs=1e-4)
    assert delta_e2000((50.0, 2.5, 0.0), (73.0, 25.0, -18.0)) == pytest.approx(27.1492, abs=1e-4)


def test_colour_blind_simulation_merges_red_and_green() -> None:
    red, green = "#d62728", "#2ca02c"
    normal = delta_e2000(simulate(red, "normal"), simulate(green, "normal"))
    deutan = delta_e2000(simulate(red, "deuteranopia"), simulate(green, "deuteranopia"))
    assert normal > 50 and deutan < normal / 2
    assert to_lab("#ffffff")[0] == pytest.approx(100.0, abs=0.01)
    assert simulate("#808080", "protanopia")[1] == pytest.approx(0.0, abs=0.5)  # greys stay grey


def test_render_checks_reuse_the_faces_they_drew() -> None:
    """A second check of an unchanged spec draws nothing again: the faces come from the cache (how fast that is
    belongs to the bench, not to a test)."""
    loaded = load_spec(ROOT / "specs" / "ceramus")
    assert loaded.spec is not None, [f.render() for f in loaded.findings]
    from cardgen.render import faces

    faces._CACHE.clear()
    first = list(render_checks(loaded))
    cached = dict(faces._CACHE)
    assert cached, "the first check keeps the faces it drew"
    again = list(render_checks(loaded))
    assert [f.render() for f in again] == [f.render() for f in first]
    assert all(faces._CACHE[key] is value for key, value in cached.items())
