"""The gallery's "More" links open pages: preview, Tabletop Simulator, print-shop and replay folders each
get an index.html from the command that wrote them, and the gallery links those pages."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest
from typer.testing import CliRunner

from cardgen.artefacts import BuildOptions
from cardgen.build import build_game
from cardgen.cli.app import app
from cardgen.export.folder_page import PAGE, folder_files, folder_kind, write_folder_page
from cardgen.spec.load import LoadedSpec

SPECS = Path(__file__).resolve().parents[2] / "specs"
GAME = "mausoleum-guardians"


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.images: list[str] = []
        self.tags: list[str] = []
        self.text: list[str] = []
        self.section = ""
        self.more: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        values = dict(attrs)
        if tag == "a":
            self.links.append(values["href"] or "")
            if self.section in ("More", "Mais"):
                self.more.append(values["href"] or "")
        if tag == "img":
            self.images.append(values["src"] or "")

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self.tags and self.tags[-1] == "h2":
            self.section = data.strip()


def _parse(page: Path) -> _Page:
    parser = _Page()
    parser.feed(page.read_text(encoding="utf-8"))
    parser.close()
    return parser


@pytest.fixture(scope="module")
def game_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pages")
    shops = tmp_path_factory.mktemp("shops")
    (shops / "tinyshop.yaml").write_text("name: tinyshop\ndescription: A test shop that takes one PDF per deck.\nformat: pdf\nbleed_mm: 2\n", encoding="utf-8")
    runner = CliRunner()
    for args in (
        ["preview", GAME, "--dpi", "20", "--out", str(out), "--quiet"],
        ["export", "tts", GAME, "--out", str(out), "--quiet"],
        ["export", "profile", "tinyshop", GAME, "--profiles-dir", str(shops), "--out", str(out), "--quiet"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
    report = out / GAME / "report"
    report.mkdir(parents=True)
    (report / "index.html").write_text("<!DOCTYPE html><title>report</title>", encoding="utf-8")  # as `cardgen report` leaves it
    built = build_game(SPECS / GAME, out, BuildOptions(papers=("a4",), langs=("en",)))
    assert not built.failed, [f.render() for f in built.findings]
    return out / GAME


def test_the_gallery_links_each_folder_as_a_page(game_out: Path) -> None:
    gallery = _parse(game_out / "index.html")
    assert gallery.more == ["report/index.html", "preview/index.html", "tts/index.html", "tinyshop/index.html"]
    assert all((game_out / unquote(link)).is_file() for link in gallery.more)
    text = " ".join(gallery.text)
    assert "Balance report" in text and "Previews" in text and "Tabletop Simulator" in text and "Print shop: tinyshop" in text


@pytest.mark.parametrize("folder, kind", [("preview", "preview"), ("tts", "tts"), ("tinyshop", "print-shop")])
def test_each_folder_page_lists_and_links_every_file(game_out: Path, folder: str, kind: str) -> None:
    where = game_out / folder
    assert folder_kind(where) == kind
    page = _parse(where / PAGE)
    assert "script" not in page.tags
    files = {path.relative_to(where).as_posix() for path in folder_files(where)}
    assert files and files <= {unquote(link) for link in page.links}  # every file is linked
    for target in page.links + page.images:
        assert "://" not in target and not target.startswith("/")
        assert (where / unquote(target)).is_file(), target  # and every link resolves (the gallery above included)
    pngs = {name for name in files if name.endswith(".png")}
    assert {unquote(src) for src in page.images} == pngs  # pictures shown as pictures


def test_what_each_page_says(game_out: Path) -> None:
    preview = " ".join(_parse(game_out / "preview" / PAGE).text)
    assert "contact-sheet.png" in preview and "faces at 20 dpi" in preview
    tts = " ".join(_parse(game_out / "tts" / PAGE).text)
    assert f"{GAME}.json" in tts and "Saved Objects" in tts
    shop = " ".join(_parse(game_out / "tinyshop" / PAGE).text)
    assert "A test shop that takes one PDF per deck." in shop and f"{GAME}-cards.pdf: 52 cards" in shop


def test_a_replays_page_and_escaping(tmp_path: Path, mausoleum: LoadedSpec) -> None:
    assert mausoleum.spec is not None
    folder = tmp_path / "replays"
    folder.mkdir()
    (folder / 'odd "game" <1>.jsonl').write_text("{}\n", encoding="utf-8")
    (folder / ".hidden").write_text("x", encoding="utf-8")
    write_folder_page(mausoleum.spec, folder, "replays", "pt_BR", ["<b>note</b>"])
    text = (folder / PAGE).read_text(encoding="utf-8")
    assert "<b>note" not in text and "&lt;b&gt;note&lt;/b&gt;" in text and ".hidden" not in text
    page = _parse(folder / PAGE)
    assert 'odd "game" <1>.jsonl' in {unquote(link) for link in page.links} and "Voltar à galeria" in " ".join(page.text)
    assert folder_kind(folder) == "replays" and folder_kind(tmp_path) is None
