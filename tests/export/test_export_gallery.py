"""The gallery page: written by the build, parses, links only to files that exist, loads in a browser."""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest

import cardgen.export.gallery as gallery
from cardgen.artefacts import BuildOptions
from cardgen.build import build_game, registered_producers
from cardgen.render.faces import card_faces
from cardgen.spec.load import LoadedSpec

from external_tools import need

SPECS = Path(__file__).resolve().parents[2] / "specs"


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.images: list[str] = []
        self.links: list[str] = []
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        values = dict(attrs)
        if tag == "img":
            self.images.append(values["src"] or "")
        if tag == "a":
            self.links.append(values["href"] or "")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("build")
    (out / "mausoleum-guardians" / "report").mkdir(parents=True)  # written earlier by another command
    result = build_game(SPECS / "mausoleum-guardians", out, BuildOptions(papers=("a4",)))
    assert not result.failed, [f.render() for f in result.findings]
    return out / "mausoleum-guardians"


def test_gallery_runs_after_cards_and_rulebooks() -> None:
    names = sorted(registered_producers())
    assert gallery.PRODUCER_NAME in names
    assert names[-1] == gallery.PRODUCER_NAME


def test_gallery_links_resolve(built: Path, mausoleum: LoadedSpec) -> None:
    page = built / "index.html"
    parser = _Collector()
    parser.feed(page.read_text(encoding="utf-8"))
    parser.close()
    assert "script" not in parser.tags
    faces = card_faces(mausoleum)
    # every card front beside the deck back: 14 pairs
    assert len(parser.images) == 2 * 14
    assert {unquote(src) for src in parser.images} == {f"cards/{f.key}.svg" for f in faces}
    for target in parser.images + parser.links:
        assert "://" not in target and not target.startswith("/")
        assert (built / unquote(target)).exists(), target
    assert "mausoleum-guardians-print-a4.pdf" in parser.links
    assert "mausoleum-guardians-rules-pt_BR.pdf" in parser.links
    assert "report/" in parser.links and "replays/" not in parser.links
    assert "Mausoleum Guardians" in "".join(parser.text)


def test_gallery_escapes_text(mausoleum: LoadedSpec) -> None:
    assert mausoleum.spec is not None
    spec = mausoleum.spec.model_copy(update={"title": {"en": "<b>Tom & Jerry</b>", "pt_BR": "x"}})
    page = gallery.render_gallery(spec, card_faces(mausoleum), ["a\"b.pdf"], [], "en")
    assert "<b>Tom" not in page and "&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;" in page
    assert 'href="a%22b.pdf"' in page


def test_gallery_loads_every_image_in_chromium(built: Path, tmp_path: Path) -> None:
    chromium = need("chromium")  # installed by the README's first set-up command; under CI a missing one fails
    probe = (
        '<script>window.addEventListener("load",function(){var i=document.images,ok=0,bad=0;'
        "for(var k=0;k<i.length;k++){if(i[k].complete&&i[k].naturalWidth>0)ok++;else bad++;}"
        'document.body.setAttribute("data-loaded",ok);document.body.setAttribute("data-broken",bad);});</script>'
    )
    # the shipped page has no script; a copy next to it (same relative links) carries the probe
    copy = built / ".probe-index.html"
    copy.write_text((built / "index.html").read_text(encoding="utf-8").replace("</body>", probe + "</body>"), encoding="utf-8")
    try:
        run = subprocess.run(
            [
                chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
                "--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000", "--dump-dom", copy.as_uri(),
            ],
            capture_output=True, text=True, timeout=90,
        )
    finally:
        copy.unlink()
    assert run.returncode == 0, run.stderr[-2000:]
    assert 'data-loaded="28"' in run.stdout and 'data-broken="0"' in run.stdout, run.stdout[:500]
    console = [line for line in run.stderr.splitlines() if "CONSOLE" in line]
    assert console == [], console


def test_gallery_can_be_copied_and_still_opens(built: Path, tmp_path: Path) -> None:
    moved = tmp_path / "moved"
    shutil.copytree(built, moved)
    parser = _Collector()
    parser.feed((moved / "index.html").read_text(encoding="utf-8"))
    assert all((moved / unquote(src)).is_file() for src in parser.images)


def test_gallery_says_how_to_print(built: Path) -> None:
    parser = _Collector()
    parser.feed((built / "index.html").read_text(encoding="utf-8"))
    parser.close()
    text = " ".join("".join(parser.text).split()).replace("\xa0", " ")
    assert "How to print" in text and "On A4 paper (mausoleum-guardians-print-a4.pdf)" in text
    for words in ("Print at 100 %", "50 mm", "double-sided, flipping on the long edge", "mausoleum-guardians-duplex-test-a4.pdf", "back_offset_mm in templates/sheets/a4.yaml", "crop marks"):
        assert words in text, words
    assert "letter.yaml" not in text  # only the papers built


def test_gallery_guide_from_the_build_is_the_sidecars(built: Path, mausoleum: LoadedSpec) -> None:
    """The build hands the gallery each staged sidecar's print guide; the page is the one the sidecar itself gives."""
    spec = mausoleum.spec
    assert spec is not None
    prints = [f"{spec.id}-print-a4.pdf"]
    sidecar = built / f"{spec.id}-print-a4.layout.json"
    from_file = gallery.render_gallery(spec, card_faces(mausoleum), prints, [], "en", [built])
    guide = json.loads(sidecar.read_text(encoding="utf-8"))["how_to_print"]
    assert guide
    handed = gallery.render_gallery(spec, card_faces(mausoleum), prints, [], "en", [], {sidecar.name: guide})
    assert handed == from_file
    assert "Print at 100" in handed
    assert gallery.render_gallery(spec, card_faces(mausoleum), prints, [], "en", []) != from_file  # no guide: none shown
