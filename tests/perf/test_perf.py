"""Tests of the speed work: same bytes with and without the caches and speed-ups, and a runnable benchmark.

No test here asserts on time.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cardgen.build import CACHE_DIR, BuildOptions, build_game
from cardgen.render import rl_speedups
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
    """The string-built SVG writer: sorted attributes, escaping, clip paths, and polygon points (svgwrite dropped them)."""
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


def test_rl_speedups_match_reportlab() -> None:
    """Each fast stand-in returns exactly what reportlab's own Python fallback returns."""
    import random

    original = rl_speedups._ORIGINAL
    rnd = random.Random(7)
    numbers = [0, 1, -1, 0.5, 1e-8, 1e-7, 2 / 3, 123456.789, 1e9, 7] + [rnd.uniform(-500, 500) for _ in range(2000)]
    for value in numbers:
        assert rl_speedups.fp_str(value) == original["fp_str"](value)
    assert rl_speedups.fp_str(*numbers[:6]) == original["fp_str"](*numbers[:6])
    assert rl_speedups.fp_str(numbers[:9]) == original["fp_str"](numbers[:9])
    for size in range(12):
        data = bytes(rnd.choice((0, 0, 40, 255, rnd.randrange(256))) for _ in range(size))
        assert rl_speedups.ascii_base85_encode(data) == original["asciiBase85Encode"](data)
        assert rl_speedups.escape_pdf(data) == original["escapePDF"](data)
        assert rl_speedups.escape_pdf(data.decode("latin-1")) == original["escapePDF"](data.decode("latin-1"))
    from cardgen.render.fonts import _tt_font

    font = _tt_font("DejaVuSans")
    for text in ("Ação", "", "x" * 50, "→ ✓"):
        assert rl_speedups.instance_string_width_ttf(font, text, 9.5) == original["instanceStringWidthTTF"](font, text, 9.5)


def test_pdf_bytes_same_with_and_without_speedups() -> None:
    from cardgen.render.pdf_backend import write_pdf

    scene = Scene(50, 30, (Rect(1, 1, 20, 10, fill="#336699", stroke="#000000", stroke_width=0.3, radius=1), Text(2, 20, "Olá (mundo) 1/3", size_pt=9)))
    assert rl_speedups.installed()
    fast = write_pdf([scene], title="t")
    rl_speedups.uninstall()
    try:
        slow = write_pdf([scene], title="t")
    finally:
        rl_speedups.install()
    assert fast == slow


def test_bench_quick_runs_and_writes_json(tmp_path: Path) -> None:
    """bench/run.py --quick runs (rendering groups only, to stay fast) and writes valid JSON; times are not checked."""
    out = tmp_path / "results.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), "--quick", "--only", "svg,pdf", "--out", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(out.read_text(encoding="utf-8"))
    names = [f["figure"] for f in record["figures"]]
    assert any("SVG writing vs" in n for n in names) and any("PDF sheet rendering vs" in n for n in names)
    for figure in record["figures"]:
        assert not figure["error"], figure
        assert figure["median"] is not None and figure["median"] > 0
    assert "median" in done.stdout and "target" in done.stdout
