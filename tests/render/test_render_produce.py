"""The "cards" producer read back with independent tools: pypdf, xml.etree and the JSON sidecar."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from render_helpers import BASE14, pdf_fonts, read_pdf

from cardgen.artefacts import BuildContext, BuildOptions
from cardgen.render.faces import card_faces
from cardgen.render.produce import produce_cards
from cardgen.render.units import PT_PER_MM
from cardgen.spec.load import load_spec

ROOT = Path(__file__).resolve().parents[2]
MINIMAL = ROOT / "tests" / "fixtures" / "valid" / "minimal"
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def build(out: Path, card_lang: str | None = None) -> Path:
    loaded = load_spec(MINIMAL)
    assert loaded.spec is not None
    out.mkdir(parents=True, exist_ok=True)
    context = BuildContext(loaded, out, BuildOptions(papers=("a4", "letter"), card_lang=card_lang))
    produce_cards(context)
    assert not context.findings
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("cards"))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pages_have_the_exact_paper_size_and_embedded_fonts(built: Path, paper: str) -> None:
    reader = read_pdf((built / f"minimal-print-{paper}.pdf").read_bytes())
    width, height = PAPER_MM[paper]
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(width * PT_PER_MM, abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(height * PT_PER_MM, abs=0.01)
    fonts = pdf_fonts(reader)
    assert fonts
    for name, descriptor in fonts:
        assert name.lstrip("/").split("+")[-1] not in BASE14
        assert "/FontFile2" in descriptor  # the TrueType program is embedded


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_sidecar_trims_match_the_spec_and_every_copy_is_placed(built: Path, paper: str) -> None:
    record = json.loads((built / f"minimal-print-{paper}.layout.json").read_text())
    loaded = load_spec(MINIMAL)
    faces = {f.key: f for f in card_faces(loaded)}
    cards = record["cards"]
    for card in cards:
        face = faces[card["face"]]
        x, y, w, h = card["trim_mm"]
        if card["turn_deg"]:
            w, h = h, w
        assert w == pytest.approx(face.size.width, abs=0.1) and h == pytest.approx(face.size.height, abs=0.1)
        bx, by, bw, bh = card["bleed_mm"]
        if card["turn_deg"]:
            bw, bh = bh, bw
        printed = record["sheet_bleed_mm"] if record["sheet_bleed_mm"] is not None else face.size.bleed
        assert bw - w == pytest.approx(2 * min(printed, face.size.bleed), abs=0.01)
    fronts = Counter(c["face"] for c in cards if c["side"] == "front")
    for key, face in faces.items():
        if face.kind == "back" or face.face_index == 1:
            continue
        assert fronts[key] == face.copies
    with_cards = {c["page"] for c in cards}
    assert all(page["crop_marks"] > 0 for page in record["pages"] if page["page"] in with_cards)
    empty = [page["page"] for page in record["pages"] if page["page"] not in with_cards]
    assert empty[:2] == [1, 2] and len(empty) > 2  # the guide and its blank back; then the tiles' blank backs
    assert all(page % 2 == 0 for page in empty[1:]) and len(record["pages"]) % 2 == 0  # so one duplex run prints it all
    reader = read_pdf((built / f"minimal-print-{paper}.pdf").read_bytes())
    assert len(reader.pages) == len(record["pages"])


def test_backs_mirror_fronts_and_double_sided_cards_back_themselves(built: Path) -> None:
    record = json.loads((built / "minimal-print-a4.layout.json").read_text())
    page_w = PAPER_MM["a4"][0]
    fronts = {(c["item"], c["copy"]): c for c in record["cards"] if c["side"] == "front"}
    backs = [c for c in record["cards"] if c["side"] == "back"]
    assert backs
    for back in backs:
        front = fronts[(back["item"], back["copy"])]
        fx, fy, fw, _ = front["trim_mm"]
        bx, by, _, _ = back["trim_mm"]
        assert bx == pytest.approx(page_w - (fx + fw), abs=0.01)  # long-edge flip mirrors columns
        assert by == pytest.approx(fy, abs=0.01)
        assert back["sheet"] == front["sheet"] and back["page"] == front["page"] + 1
        if front["face"] == "bones-bone1":
            assert back["face"] == "bones-bone1-face2"
        elif front["group"] != "tile":
            assert back["face"] == f"{front['group']}-back"


def test_svgs_parse_and_declare_mm(built: Path) -> None:
    loaded = load_spec(MINIMAL)
    keys = sorted(f.key for f in card_faces(loaded))
    files = sorted(p.stem for p in (built / "cards").glob("*.svg"))
    assert files == keys
    for path in (built / "cards").glob("*.svg"):
        root = ET.parse(path).getroot()
        assert root.get("width", "").endswith("mm") and root.get("height", "").endswith("mm")


def test_portuguese_cards_and_footer(tmp_path: Path) -> None:
    out = build(tmp_path / "pt", card_lang="pt_BR")
    svg = (out / "cards" / "shapes-domino.svg").read_text(encoding="utf-8")
    assert "Dominó" in svg
    pages = read_pdf((out / "minimal-print-a4.pdf").read_bytes()).pages
    guide, text = pages[0].extract_text(), pages[2].extract_text()
    assert "Como imprimir: Mínimo" in guide and "Imprima em 100" in guide
    assert "folha 1 de" in text and "Mínimo, de Test Designer" in text


def test_building_twice_gives_identical_bytes(built: Path, tmp_path: Path) -> None:
    again = build(tmp_path / "again")
    first = {p.relative_to(built): p.read_bytes() for p in built.rglob("*") if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()}
    assert first.keys() == second.keys()
    assert all(first[k] == second[k] for k in first)
