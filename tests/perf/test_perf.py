"""Tests of the speed work: same bytes with and without the caches and speed-ups, and a runnable benchmark.

No test here asserts on time.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardgen.artefacts import BuildOptions
from cardgen.build import build_game
from cardgen.cache import CACHE_DIR
from cardgen.render.scene import Circle, Group, Polygon, Rect, Scene, Text, Transform, scene_digest
from cardgen.render.svg_backend import write_svg
from cardgen.spec.load import find_spec_folder

ROOT = Path(__file__).resolve().parents[2]


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and CACHE_DIR not in p.parts}


def test_cache_never_changes_output_bytes(tmp_path: Path) -> None:
    """Cold build (fills the cache), warm build (uses it) and a build without cache give identical files."""
    spec = tmp_path / "spec"
    import shutil

    shutil.copytree(find_spec_folder("mausoleum-guardians"), spec)
    cold = build_game(spec, tmp_path / "cached", BuildOptions(papers=("a4",)))
    assert not cold.failed
    first = _files(tmp_path / "cached")
    cache_dir = tmp_path / "cached" / CACHE_DIR / cold.game
    entries = sorted(p.name for p in cache_dir.iterdir())
    assert entries and all(len(name) == 64 for name in entries)
    warm = build_game(spec, tmp_path / "cached", BuildOptions(papers=("a4",)))
    assert not warm.failed
    assert _files(tmp_path / "cached") == first
    assert sorted(p.name for p in cache_dir.iterdir()) == entries  # nothing new, nothing pruned
    fresh = build_game(spec, tmp_path / "fresh", BuildOptions(papers=("a4",), cache=False))
    assert not fresh.failed
    assert _files(tmp_path / "fresh") == first
    assert not (tmp_path / "fresh" / CACHE_DIR).exists()


def test_edited_card_rebuilds_and_matches_an_uncached_build(tmp_path: Path) -> None:
    """After editing one card's name the cached rebuild equals a from-scratch build of the edited spec."""
    import shutil

    spec = tmp_path / "spec"
    shutil.copytree(find_spec_folder("mausoleum-guardians"), spec)
    first = build_game(spec, tmp_path / "out", BuildOptions(papers=("a4",)))
    assert not first.failed
    game_yaml = spec / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    from cardgen.spec.load import load_spec

    loaded = load_spec(spec)
    assert loaded.spec is not None
    name = loaded.spec.decks[0].cards[0].name["en"]
    assert name in text
    game_yaml.write_text(text.replace(name, name + " II", 1), encoding="utf-8")
    before = _files(tmp_path / "out")
    again = build_game(spec, tmp_path / "out", BuildOptions(papers=("a4",)))
    assert not again.failed
    after = _files(tmp_path / "out")
    assert after != before  # the edit shows
    fresh = build_game(spec, tmp_path / "fresh", BuildOptions(papers=("a4",), cache=False))
    assert not fresh.failed
    assert _files(tmp_path / "fresh") == after


def test_scene_digest_sees_every_change() -> None:
    base = Scene(10, 10, (Rect(0, 0, 5, 5, fill="#ff0000"),))
    assert scene_digest(base) == scene_digest(Scene(10, 10, (Rect(0, 0, 5, 5, fill="#ff0000"),)))
    assert scene_digest(base) != scene_digest(Scene(10, 10, (Rect(0, 0, 5, 5, fill="#ff0001"),)))
    assert scene_digest(base) != scene_digest(Scene(10, 10, (Rect(0, 0, 5, 5.0001, fill="#ff0000"),)))


def test_svg_writer_output() -> None:
    """The SVG writer: sorted attributes, escaping, clip paths, and polygon points (the first svgwrite writer dropped them)."""
    scene = Scene(
        20,
        10,
        (
            Group((Polygon(((0, 0), (4, 0), (2, 3)), fill="#112233"),), Transform(translate=(1.5, 2)), clip=None),
            Group((Circle(5, 5, 1, stroke="#000000", stroke_width=0.2),), clip=None),
            Text(1, 9, "a < b & c", size_pt=7.2, anchor="middle"),
            Text(1, 9, "\n"),
        ),
    )
    svg = write_svg(scene)
    assert svg.startswith('<?xml version="1.0" encoding="utf-8"?>\n<svg baseProfile="full" height="10mm" ')
    assert 'viewBox="0 0 20 10" width="20mm"' in svg
    assert '<g transform="translate(1.5 2)"><polygon fill="#112233" points="0,0 4,0 2,3" /></g>' in svg
    assert '<circle cx="5" cy="5" fill="none" r="1" stroke="#000000" stroke-width="0.2" />' in svg
    assert '<text fill="#000000" font-family="DejaVu Sans" font-size="2.54" text-anchor="middle" x="1" xml:space="preserve" y="9">a &lt; b &amp; c</text>' in svg
    assert '<text fill="#000000" font-family="DejaVu Sans" font-size="3.5278" x="1" xml:space="preserve" y="9" />' in svg
    assert svg.endswith("</svg>\n") and "<defs />" in svg


def test_svg_writer_keeps_path_data_and_polygon_points() -> None:
    """Path data and polygon points survive the serialiser; an empty path writes no ``d``, as svgwrite did."""
    from cardgen.render.scene import LineTo, MoveTo, Path as ScenePath

    scene = Scene(10, 10, (ScenePath((MoveTo(0, 0), LineTo(1.23456, 2)), stroke="#000000", stroke_width=0.1), Polygon(((1, 1), (2, 2), (3, 1)))))
    svg = write_svg(scene)
    assert '<path d="M0 0 L1.2346 2" fill="none" stroke="#000000" stroke-width="0.1" />' in svg
    assert '<polygon fill="none" points="1,1 2,2 3,1" />' in svg
    assert svg == write_svg(scene)
    assert '<path fill="none" stroke="#000000" stroke-width="0.1" />' in write_svg(Scene(10, 10, (ScenePath((), stroke="#000000", stroke_width=0.1),)))


def _every_primitive(image: Path) -> Scene:
    """A scene using every primitive kind, nested transforms, clips, an image and text needing escapes."""
    from cardgen.render.scene import Box, ClosePath, CubicTo, Image, Line, LineTo, MoveTo, Path as ScenePath, QuadTo

    kids = (
        Rect(0, 0, 5, 5, fill="#ff0000", stroke="#000000", stroke_width=0.3, radius=1),
        Line(0, 0, 3, 4, stroke="#00ff00", stroke_width=0.1),
        Polygon(((0, 0), (1.23456, 2), (3, 1)), fill="#112233", stroke="#000000", stroke_width=0.2),
        ScenePath((MoveTo(0, 0), LineTo(1, 2), CubicTo(1, 2, 3, 4, 5, 6), QuadTo(1, 1, 2, 2), ClosePath()), fill="#101010", fill_rule="evenodd"),
        Circle(5, 5, 1, stroke="#000000", stroke_width=0.2),
        Text(1, 9, "a < b & c \" ' > é", size_pt=7.2, anchor="middle"),
        Text(1, 9, "tab\there", anchor="end"),
        Image(str(image), 1, 1, 3, 3),
    )
    return Scene(20.5, 10, (
        Group(kids, Transform(translate=(1.5, 2), rotate=90, scale=(2, 1)), clip=Box(0, 0, 10, 10)),
        Group((Group(kids, clip=Box(1, 1, 2, 2)),)),
        *kids,
    ))


def test_svgwrite_floor_writes_the_same_bytes(tmp_path: Path) -> None:
    """The SVG floor (bare svgwrite) writes exactly cardgen's bytes for real faces and for every primitive kind.

    So the ratio compares like with like, and cardgen's ElementTree writer
    keeps writing the bytes svgwrite wrote before it was dropped.
    """
    from PIL import Image as PilImage

    image = tmp_path / "dot.png"
    PilImage.new("RGB", (2, 2), (255, 0, 0)).save(image)
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import scene_flat
        import svg_floor
    finally:
        sys.path.remove(str(ROOT / "bench"))
    from cardgen.render.faces import card_faces
    from cardgen.spec.load import load_spec

    loaded = load_spec(find_spec_folder("mausoleum-guardians"))
    from cardgen.render.scene import Box

    edges = Scene(12, 9, (  # empty groups (closed as <g />), a clip around nothing, text needing escapes, empty text
        Group(()),
        Group((), clip=Box(0, 0, 1, 1)),
        Group((Group((), Transform(translate=(1, 1))),), Transform(rotate=45)),
        Text(1, 1, ""),
        Text(1, 2, "a&b<c>d\"e'f &amp; \u00a0é"),
    ))
    faces = [face.scene for face in card_faces(loaded)][:6] + [_every_primitive(image), edges]
    for scene, ops in zip(faces, scene_flat.flatten(faces)):
        assert svg_floor.write_flat(ops) == write_svg(scene)


def test_reportlab_uses_its_c_accelerator() -> None:
    """rl_accel is installed and reportlab picked it up (cardgen patches nothing in reportlab)."""
    from reportlab.lib import rl_accel

    for name in ("fp_str", "asciiBase85Encode", "escapePDF", "instanceStringWidthTTF"):
        assert getattr(rl_accel, name).__module__ == "_rl_accel", name


def test_pdf_bytes_same_run_to_run() -> None:
    from cardgen.render.pdf_backend import write_pdf

    scene = Scene(50, 30, (Rect(1, 1, 20, 10, fill="#336699", stroke="#000000", stroke_width=0.3, radius=1), Text(2, 20, "Olá (mundo) 1/3", size_pt=9)))
    assert write_pdf([scene], title="t") == write_pdf([scene], title="t")


def test_bench_quick_runs_and_writes_json(tmp_path: Path) -> None:
    """bench/run.py --quick runs (the whole-job and rendering groups, to stay fast) and writes valid JSON; times are not checked."""
    out = tmp_path / "results.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), "--quick", "--only", "job,svg,pdf", "--out", str(out)],
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(out.read_text(encoding="utf-8"))
    names = [f["figure"] for f in record["figures"]]
    assert any(n.startswith("last step only: SVG writing") for n in names) and any(n.startswith("last step only: PDF writing") for n in names)
    assert any("`cardgen build --only print --paper a4` vs bare reportlab floor" in n for n in names)
    assert any("every artefact, vs bare reportlab floor printing the sheets only" in n for n in names)
    assert sum("bare floor that first imports the libraries" in n for n in names) == 2
    for figure in record["figures"]:
        assert not figure["error"], figure
        assert figure["median"] is not None and figure["median"] > 0
        if figure["figure"].startswith("whole job"):  # whole processes: the load around each run is recorded and judged
            assert figure["loads"] and figure["reliable"] in (True, False)
    assert "median" in done.stdout and "target" in done.stdout and "load" in done.stdout


def test_a_rebuild_draws_only_the_edited_face_s_svg_and_keeps_one_cache_entry_for_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The face SVGs live in one cache entry: a cold build draws every face, a rebuild after one edit draws that face only."""
    import shutil

    from cardgen.render import svg_backend
    from cardgen.spec.load import load_spec

    drawn: list[int] = []
    real = svg_backend.write_svg

    def counted(scene: Scene) -> str:
        drawn.append(1)
        return real(scene)

    monkeypatch.setattr(svg_backend, "write_svg", counted)
    spec = tmp_path / "spec"
    shutil.copytree(find_spec_folder("mausoleum-guardians"), spec)
    options = BuildOptions(papers=("a4",), only=("faces",))
    first = build_game(spec, tmp_path / "out", options)
    assert not first.failed
    faces = len(list((tmp_path / "out" / first.game / "cards").glob("*.svg")))
    assert len(drawn) == faces > 10
    drawn.clear()
    assert not build_game(spec, tmp_path / "out", options).failed
    assert drawn == []  # nothing changed: every SVG came from the pack
    loaded = load_spec(spec)
    assert loaded.spec is not None
    name = loaded.spec.decks[0].cards[0].name["en"]
    game_yaml = spec / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace(name, name + " II", 1), encoding="utf-8")
    assert not build_game(spec, tmp_path / "out", options).failed
    assert len(drawn) == 1
    fresh = build_game(spec, tmp_path / "fresh", BuildOptions(papers=("a4",), only=("faces",), cache=False))
    assert not fresh.failed
    assert _files(tmp_path / "fresh") == _files(tmp_path / "out")


def test_deck_size_slopes_per_added_card() -> None:
    """The bench's per-card slopes: the difference of medians over the difference of sizes, and the drift of the last step."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from bench_job import per_card_slopes, slope_text
    finally:
        sys.path.remove(str(ROOT / "bench"))
    slopes = per_card_slopes({5400: 10.8, 54: 0.6, 540: 1.5}, 1000.0)
    assert [(a, b) for a, b, _ in slopes] == [(54, 540), (540, 5400)]
    assert slopes[0][2] == pytest.approx(900 / 486) and slopes[1][2] == pytest.approx(9300 / 4860)
    text = slope_text(slopes, "ms")
    assert text.startswith("54->540: 1.85 ms/card, 540->5,400: 1.91 ms/card") and "(last step 1.03x the first" in text
    assert slope_text(per_card_slopes({54: 80.0, 540: 89.0}, 1024.0), "KB") == "54->540: 18.96 KB/card"
