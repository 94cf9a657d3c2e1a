"""The balance report: files, their content against report.json, determinism, exit codes.

Two real games are reported on a small playout budget: Ceratopsians (two
players, with an exact solver) and Mausoleum Guardians (two to four players).
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import DictionaryObject
from typer.testing import CliRunner

from cardgen.cli.app import app
from cardgen.findings import InputError
from cardgen.report import build_sections, gather, render_html
from cardgen.report.chart_kit import BAR, LOW, SEAT_BAR, fmt, nice_ticks
from cardgen.report.charts import coverage_charts
from cardgen.report.data import LOW_COVERAGE
from cardgen.render.scene import Rect, Text
from cardgen.spec.load import load_spec

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "specs"
SMALL = ["--playouts", "40", "--jobs", "1", "--skill-games", "2", "--mcts-budget", "8"]


def run(*args: str) -> tuple[int, str]:
    """Invoke the app in this process, mapping InputError to 2 as main() does."""
    result = CliRunner().invoke(app, list(args))
    if isinstance(result.exception, InputError):
        return 2, result.output + result.exception.render()
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The report folders of both games, written once through the CLI."""
    out = tmp_path_factory.mktemp("out")
    folders = {}
    for game, solve in (("ceratopsians", "1"), ("mausoleum-guardians", "0")):
        code, text = run("report", str(SPECS / game), *SMALL, "--solve-deals", solve, "--out", str(out))
        assert code == 0, text
        folders[game] = out / game / "report"
    return folders


class Page(HTMLParser):
    """Collects what the tests look at: figures, the rects and texts inside each, tags, links."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.figure: str | None = None
        self.rect_fills: dict[str, list[str]] = {}
        self.texts: dict[str, list[str]] = {}
        self.tags: set[str] = set()
        self.attrs: list[tuple[str, str]] = []
        self.headings: list[str] = []
        self._in_heading = False
        self._in_text = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        found = {k: v or "" for k, v in attrs}
        self.attrs.extend(found.items())
        if tag == "figure":
            self.figure = found["id"]
            self.rect_fills[self.figure] = []
            self.texts[self.figure] = []
        if tag == "rect" and self.figure:
            self.rect_fills[self.figure].append(found.get("fill", ""))
        self._in_heading = tag in ("h1", "h2")
        self._in_text = tag == "text"

    def handle_endtag(self, tag: str) -> None:
        if tag == "figure":
            self.figure = None
        if tag in ("h1", "h2"):
            self._in_heading = False
        if tag == "text":
            self._in_text = False

    def handle_data(self, data: str) -> None:
        if self._in_heading:
            self.headings.append(data)
        if self._in_text and self.figure:
            self.texts[self.figure].append(data)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


@pytest.mark.parametrize("game", ["ceratopsians", "mausoleum-guardians"])
def test_page_shows_the_seat_chart_with_the_json_numbers(reports: dict[str, Path], game: str) -> None:
    folder = reports[game]
    data = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    page = parse(folder / "index.html")
    counts = data["counts"]
    assert [c["players"] for c in counts] == (list(range(2, 5)) if game == "mausoleum-guardians" else [2])
    for count in counts:
        n = count["players"]
        metrics = count["metrics"]
        assert metrics["playouts"] == 40
        key = f"p{n}-seats"
        assert key in page.rect_fills, sorted(page.rect_fills)
        assert page.rect_fills[key].count(SEAT_BAR) == n  # one bar per seat
        texts = page.texts[key]
        for seat in metrics["seats"]:
            assert fmt(seat["win_share"]) in texts
            assert f"[{fmt(seat['interval'][0])}, {fmt(seat['interval'][1])}]" in texts
        assert f"1/{n} = {fmt(1 / n)}" in texts
        assert f"{metrics['duration_histogram'][0][2]}" in page.texts[f"p{n}-length"]
        for figure in ("metrics", "scores", "length", "skill", "coverage"):
            assert f"p{n}-{figure}" in page.rect_fills
    assert page.headings[0] == f"Balance report: {data['title']}"
    assert "Summary" in page.headings and "Findings" in page.headings


def test_verdict_box_names_every_check(reports: dict[str, Path]) -> None:
    data = json.loads((reports["mausoleum-guardians"] / "report.json").read_text(encoding="utf-8"))
    verdicts = data["summary"]["verdicts"]
    assert [v["key"] for v in verdicts] == ["deals", "ends", "dead-ends", "reachability", "balance", "decisions", "integrity"]
    page = parse(reports["mausoleum-guardians"] / "index.html")
    texts = page.texts["verdict"]
    for v in verdicts:
        assert v["status"] in ("pass", "warn", "fail")
        assert v["status"].upper() in texts
        found = sorted({f["code"] for f in data["findings"] if f["code"] in v["codes"]})
        assert found == v["codes"]
    assert data["summary"]["findings"]["error"] == 0


def test_page_is_self_contained(reports: dict[str, Path]) -> None:
    for folder in reports.values():
        text = (folder / "index.html").read_text(encoding="utf-8")
        page = parse(folder / "index.html")
        assert not page.tags & {"script", "img", "iframe", "link", "object", "embed"}
        assert "http" not in text.lower() and "url(" not in text
        for name, value in page.attrs:
            if name == "href":
                assert value.startswith("#") or value in ("report.json",) or value.endswith("-balance.pdf"), value
            assert not name.startswith("on")
        assert text.count("<svg ") == text.count("</svg>") >= 5


def test_ceratopsians_solver_section(reports: dict[str, Path]) -> None:
    data = json.loads((reports["ceratopsians"] / "report.json").read_text(encoding="utf-8"))
    [solved] = data["solver"]
    assert solved["players"] == 2 and len(solved["deals"]) == 1 and solved["deals"][0]["seed"] == 0
    assert solved["deals"][0]["proved"] is True
    assert solved["distribution"] == [[solved["deals"][0]["value"], 1]]
    assert "margin" in solved["detail"]
    page = parse(reports["ceratopsians"] / "index.html")
    assert "p2-solver" in page.texts and "value under perfect play" in page.texts["p2-solver"]
    assert data["parameters"] == {"seed": 0, "playouts": 40, "skill_games": 2, "mcts_budget": 8, "solve_deals": 1}


@pytest.mark.parametrize("game", ["ceratopsians", "mausoleum-guardians"])
def test_pdf_parses_with_fonts_embedded_and_headings(reports: dict[str, Path], game: str) -> None:
    folder = reports[game]
    data = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    reader = PdfReader(folder / f"{game}-balance.pdf")
    assert reader.metadata is not None and reader.metadata.title == f"{data['title']} – balance report"
    text = "\n".join(page.extract_text() for page in reader.pages)
    for heading in ("Balance report: " + data["title"], "Summary", "Verdict", "Findings", "How to read this"):
        assert heading in text, heading
    for count in data["counts"]:
        n = count["players"]
        for heading in (f"{n} players", f"Seat win rates, {n} players", f"Game length, {n} players", f"Skill gradient, {n} players"):
            assert heading in text, heading
        for seat in count["metrics"]["seats"]:
            assert fmt(seat["win_share"]) in text
    if game == "ceratopsians":
        assert "Solved deals, 2 players" in text
    fonts = []
    for page in reader.pages:
        resources = page["/Resources"]
        assert isinstance(resources, DictionaryObject)
        page_fonts = resources["/Font"]
        assert isinstance(page_fonts, DictionaryObject)
        for font in page_fonts.values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None:
                descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            fonts.append((str(font["/BaseFont"]), "/FontFile2" in descriptor.get_object()))
    assert fonts and all(embedded for _, embedded in fonts), fonts
    assert all("DejaVu" in name for name, _ in fonts)
    assert f"page 1 of {len(reader.pages)}" in reader.pages[0].extract_text()


def test_same_seed_same_bytes_and_other_seed_differs(tmp_path: Path) -> None:
    args = [str(SPECS / "mausoleum-guardians"), "--playouts", "20", "--jobs", "1", "--skill-games", "1", "--mcts-budget", "4"]
    for name, seed in (("a", "3"), ("b", "3"), ("c", "4")):
        code, text = run("report", *args, "--seed", seed, "--out", str(tmp_path / name))
        assert code == 0, text
    files = ["index.html", "mausoleum-guardians-balance.pdf", "report.json"]
    folder = {name: tmp_path / name / "mausoleum-guardians" / "report" for name in "abc"}
    for file in files:
        assert (folder["a"] / file).read_bytes() == (folder["b"] / file).read_bytes(), file
    assert (folder["a"] / "report.json").read_bytes() != (folder["c"] / "report.json").read_bytes()
    assert json.loads((folder["a"] / "report.json").read_text(encoding="utf-8"))["parameters"]["seed"] == 3


def test_broken_copy_exits_1_and_still_writes_the_report(tmp_path: Path) -> None:
    """Ceratopsians cut to one draft per player: no display can ever be complete, an error finding."""
    spec = tmp_path / "spec"
    shutil.copytree(SPECS / "ceratopsians", spec)
    text = (spec / "game.yaml").read_text(encoding="utf-8")
    assert "  drafts_per_player: 8\n" in text
    (spec / "game.yaml").write_text(text.replace("  drafts_per_player: 8\n", "  drafts_per_player: 1\n"), encoding="utf-8")
    code, out = run("report", str(spec), "--playouts", "20", "--jobs", "1", "--skill-games", "0", "--solve-deals", "0", "--out", str(tmp_path / "out"))
    assert code == 1, out
    folder = tmp_path / "out" / "ceratopsians" / "report"
    data = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    unreachable = [f for f in data["findings"] if f["code"] == "CG505"]
    assert any("display:complete" in f["message"] and f["severity"] == "error" for f in unreachable)
    verdicts = {v["key"]: v for v in data["summary"]["verdicts"]}
    assert verdicts["reachability"]["status"] == "fail" and verdicts["reachability"]["codes"] == ["CG505"]
    assert verdicts["deals"]["status"] == "pass"
    page = parse(folder / "index.html")
    assert "FAIL" in page.texts["verdict"] and "overall: FAIL" in page.texts["verdict"]
    assert (folder / "ceratopsians-balance.pdf").is_file()


def test_missing_game_exits_2(tmp_path: Path) -> None:
    assert run("report", str(tmp_path / "nowhere"), "--out", str(tmp_path))[0] == 2
    done = subprocess.run(
        [sys.executable, "-m", "cardgen", "report", "no-such-game-here", "--out", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "no-such-game-here" in done.stderr
    assert not any(tmp_path.iterdir())


def test_text_from_the_spec_is_escaped() -> None:
    loaded = load_spec(SPECS / "ceratopsians")
    data = gather(loaded, 10, 0, 1, skill_games=0, solve=0)
    data = dataclasses.replace(data, title='<script>alert("x")</script> & co', version="1<b>")
    html_text = render_html(data, "x-balance.pdf")
    page = Page()
    page.feed(html_text)
    assert "script" not in page.tags and "b" not in page.tags
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co" in html_text


def test_low_coverage_is_highlighted() -> None:
    loaded = load_spec(SPECS / "ceratopsians")
    data = gather(loaded, 10, 0, 1, skill_games=0, solve=0)
    metrics = data.check.counts[0].metrics
    assert metrics is not None and LOW_COVERAGE == 0.10
    coverage = {"card:often": (100, 300), "card:half": (50, 50), "card:edge": (10, 10), "card:seldom": (5, 5), "card:rare": (0, 0)}
    [chart] = coverage_charts(dataclasses.replace(metrics, playouts=100, coverage=coverage), "cov")
    fills = [c.fill for c in chart.scene.children if isinstance(c, Rect)]
    texts = [c.text for c in chart.scene.children if isinstance(c, Text)]
    assert fills.count(LOW) == 1  # seldom: 5% of playouts
    assert fills.count(BAR) == 3  # often, half, edge (exactly 10% is not low)
    assert "never" in texts and "5/100 (5.0%) low" in texts and "10/100 (10%)" in texts and "100/100 (100%)" in texts
    labels = [t for t in texts if t.startswith("card:")]
    assert labels == ["card:rare", "card:seldom", "card:edge", "card:half", "card:often"]  # least used first


def test_nice_ticks() -> None:
    assert nice_ticks(0, 1) == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert nice_ticks(0, 0.5) == [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]
    assert nice_ticks(0, 7, integer=True) == [0.0, 2.0, 4.0, 6.0, 8.0]
    assert nice_ticks(0, 1.2, integer=True) == [0.0, 1.0, 2.0]


def test_gallery_links_the_report_page(tmp_path: Path) -> None:
    from cardgen.export.gallery import EXTRA_FOLDERS, render_gallery

    assert "report" in EXTRA_FOLDERS
    loaded = load_spec(SPECS / "ceratopsians")
    assert loaded.spec is not None
    page = render_gallery(loaded.spec, [], [], ["report"], "en")
    assert '<a href="report/">Balance report</a>' in page  # no page found: the folder
    (tmp_path / "report").mkdir()
    (tmp_path / "report" / "index.html").write_text("<!DOCTYPE html>", encoding="utf-8")
    page = render_gallery(loaded.spec, [], [], ["report"], "en", [tmp_path])
    assert '<a href="report/index.html">Balance report</a>' in page


def test_sections_follow_the_player_counts() -> None:
    loaded = load_spec(SPECS / "mausoleum-guardians")
    data = gather(loaded, 8, 0, 1, skill_games=0, solve=3)
    sections = build_sections(data)
    assert [s.key for s in sections] == ["summary", "p2", "p3", "p4"]
    assert data.solver == []  # no solver registered for this game
    assert all(not any(c.key.endswith("-skill") for c in s.charts) for s in sections)
