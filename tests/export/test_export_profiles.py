"""Print-shop profiles: DriveThruCards PDF boxes, order and fonts; PNG sizes; profiles as data."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import DictionaryObject
from typer.testing import CliRunner

from cardgen.cli.app import app
from cardgen.export.ink import cmyk, ink_findings, ink_problems, total_ink
from cardgen.export.profiles import ProfileExport, available_profiles, export_profile, load_profile
from cardgen.export.raster import background_of
from cardgen.findings import InputError
from cardgen.render.faces import card_faces
from cardgen.render.scene import Rect, Scene, Text, card_scene
from cardgen.spec.load import LoadedSpec

PT_PER_MM = 72 / 25.4
DTC_BLEED_PT = 3.175 * PT_PER_MM  # 1/8 in = 9 pt


@pytest.fixture(scope="module")
def dtc(tmp_path_factory: pytest.TempPathFactory, mausoleum: LoadedSpec, ceratopsians: LoadedSpec) -> dict[str, tuple[Path, ProfileExport]]:
    root = tmp_path_factory.mktemp("dtc")
    profile = load_profile("drivethrucards")
    out = {}
    for loaded in (mausoleum, ceratopsians):
        assert loaded.spec is not None
        out[loaded.spec.id] = (root / loaded.spec.id, export_profile(loaded, profile, root / loaded.spec.id))
    return out


def test_bundled_profiles() -> None:
    assert {"drivethrucards", "gamecrafter", "makeplayingcards"} <= set(available_profiles())
    dtc = load_profile("drivethrucards")
    assert (dtc.format, dtc.bleed_mm, dtc.page_order, dtc.ink_limit_percent) == ("pdf", 3.175, "back-front", 240)


def test_drivethrucards_pdf_boxes_are_exact(dtc: dict[str, tuple[Path, ProfileExport]]) -> None:
    folder, _ = dtc["mausoleum-guardians"]
    reader = PdfReader(folder / "mausoleum-guardians-cards.pdf")
    assert len(reader.pages) == 104  # 52 cards, back and front each
    trim_w, trim_h = 63.5 * PT_PER_MM, 88.9 * PT_PER_MM  # the shop's poker trim, 2.5 x 3.5 in: a 2.75 x 3.75 in page
    for page in reader.pages:
        media = [float(v) for v in page.mediabox]
        trim = [float(v) for v in page.trimbox]
        bleed = [float(v) for v in page.bleedbox]
        assert media == pytest.approx([0, 0, trim_w + 2 * DTC_BLEED_PT, trim_h + 2 * DTC_BLEED_PT], abs=1e-3)
        assert trim == pytest.approx([DTC_BLEED_PT, DTC_BLEED_PT, DTC_BLEED_PT + trim_w, DTC_BLEED_PT + trim_h], abs=1e-3)
        assert bleed == pytest.approx(media, abs=1e-3)
        assert (media[2] / 72, media[3] / 72) == pytest.approx((2.75, 3.75), abs=1e-4)


def test_drivethrucards_back_comes_before_front(dtc: dict[str, tuple[Path, ProfileExport]]) -> None:
    folder, _ = dtc["mausoleum-guardians"]
    reader = PdfReader(folder / "mausoleum-guardians-cards.pdf")
    first_back, first_front = reader.pages[0].extract_text(), reader.pages[1].extract_text()
    assert "Base" not in first_back and "Mausoleum Guardians" in first_back
    assert "Base" in first_front
    # double-sided cards: the second face is the "back" page of each pair
    folder, _ = dtc["ceratopsians"]
    assert len(PdfReader(folder / "ceratopsians-skulls.pdf").pages) == 36


def test_drivethrucards_fonts_are_embedded(dtc: dict[str, tuple[Path, ProfileExport]]) -> None:
    folder, _ = dtc["mausoleum-guardians"]
    reader = PdfReader(folder / "mausoleum-guardians-cards.pdf")
    seen = 0
    for page in reader.pages[:4]:
        resources = page["/Resources"]
        assert isinstance(resources, DictionaryObject)
        fonts = resources["/Font"] if "/Font" in resources else DictionaryObject()
        assert isinstance(fonts, DictionaryObject)
        for ref in fonts.values():
            font = ref.get_object()
            descriptor = font["/FontDescriptor"].get_object() if "/FontDescriptor" in font else None
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object()
            assert descriptor is not None, font
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), font["/BaseFont"]
            seen += 1
    assert seen > 0


def test_naive_cmyk_and_total_ink() -> None:
    assert total_ink("#000000") == 100.0
    assert total_ink("#ffffff") == 0.0
    assert cmyk("#ff0000") == (0.0, 1.0, 1.0, 0.0)
    assert total_ink("#200000") == 287.5  # K = 1 - 32/255, M = Y = 1
    assert total_ink("#1a0a0a") == pytest.approx(213.0, abs=0.1)  # dark but under 240 %


def test_ink_limit_finding_names_the_card(mausoleum: LoadedSpec) -> None:
    faces = card_faces(mausoleum)
    base = next(f for f in faces if f.key == "cards-base")
    rich = card_scene(63, 88, 3, [Rect(0, 0, 69, 94, fill="#200000"), Text(10, 10, "x", fill="#000000"), Rect(5, 5, 4, 4, fill="#1a0a0a")])
    fixture = [dataclasses.replace(base, scene=rich)] + [f for f in faces if f.key != "cards-base"]
    problems = ink_problems(fixture, 240)
    assert [(p.colour, p.ink_percent) for p in problems] == [("#200000", 287.5)]
    (finding,) = ink_findings(mausoleum, fixture, 240, "drivethrucards")
    assert finding.code == "CG601" and "cards/base" in finding.message and "287.5%" in finding.message
    assert finding.line > 0


def test_shipped_games_stay_under_the_ink_limit(dtc: dict[str, tuple[Path, ProfileExport]]) -> None:
    assert [f.render() for _, result in dtc.values() for f in result.findings if f.code != "CG602"] == []


def test_a_size_the_shop_does_not_make_is_reported(dtc: dict[str, tuple[Path, ProfileExport]], tmp_path: Path, ceratopsians: LoadedSpec) -> None:
    """The 70 mm square Ceratopsians card is not a product of either shop; the poker games are."""
    assert not [f for f in dtc["mausoleum-guardians"][1].findings if f.code == "CG602"]
    found = [f for f in dtc["ceratopsians"][1].findings if f.code == "CG602"]
    assert len(found) == 1 and "70x70 mm" in found[0].message and found[0].path == "decks[0].size" and found[0].line > 0
    at_tgc = export_profile(ceratopsians, load_profile("gamecrafter"), tmp_path)
    assert [f.code for f in at_tgc.findings] == ["CG602"]


def test_gamecrafter_pngs_have_the_shop_pixel_sizes(tmp_path: Path, mausoleum: LoadedSpec) -> None:
    result = export_profile(mausoleum, load_profile("gamecrafter"), tmp_path)
    pngs = [p for p in result.files if p.suffix == ".png"]
    assert len(pngs) == 15  # 14 fronts and the back
    for path in pngs:
        image = Image.open(path)
        assert image.size == (825, 1125) and image.mode == "RGB"
        assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
    # the bleed was extended with the back's own background colour, not scaled
    back = next(f for f in card_faces(mausoleum) if f.key == "cards-back")
    corner = Image.open(tmp_path / "cards" / "cards-back.png").getpixel((0, 0))
    assert isinstance(corner, tuple)
    assert "#{:02x}{:02x}{:02x}".format(*corner) == background_of(back.scene)
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert sum(f["copies"] for f in manifest["faces"] if f["side"] == "front") == 52


def test_makeplayingcards_and_derived_sizes(tmp_path: Path, ceratopsians: LoadedSpec) -> None:
    assert load_profile("makeplayingcards").pixel_sizes["poker"] == (822, 1122)
    result = export_profile(ceratopsians, load_profile("gamecrafter"), tmp_path)
    sizes = {Image.open(p).size for p in result.files if p.suffix == ".png"}
    assert sizes == {(902, 902)}  # (70 + 2 * 3.175) mm at 300 dpi = 901.8 px


def test_a_profile_added_as_a_file_works(tmp_path: Path) -> None:
    shops = tmp_path / "shops"
    shops.mkdir()
    (shops / "tinyshop.yaml").write_text(
        "name: tinyshop\ndescription: A test shop.\nformat: png\nbleed_mm: 2\ndpi: 150\n", encoding="utf-8"
    )
    out = tmp_path / "out"
    runner = CliRunner()
    result = runner.invoke(app, ["export", "profile", "tinyshop", "mausoleum-guardians", "--profiles-dir", str(shops), "--out", str(out)])
    assert result.exit_code == 0, result.output
    image = Image.open(out / "mausoleum-guardians" / "tinyshop" / "cards" / "cards-base.png")
    assert image.size == (396, 543)  # (63 + 4) mm and (88 + 4) mm at 150 dpi
    listed = runner.invoke(app, ["export", "profiles", "--profiles-dir", str(shops)])
    assert listed.output.startswith("tinyshop: png")


def test_bad_profiles_are_refused(tmp_path: Path) -> None:
    (tmp_path / "typo.yaml").write_text("name: typo\ndescription: x\nformat: png\nbleed_mm: 3\ndpi_typo: 300\n", encoding="utf-8")
    (tmp_path / "other.yaml").write_text("name: elsewhere\ndescription: x\nformat: pdf\nbleed_mm: 3\n", encoding="utf-8")
    with pytest.raises(InputError, match="dpi_typo"):
        load_profile("typo", tmp_path)
    with pytest.raises(InputError, match="elsewhere"):
        load_profile("other", tmp_path)
    with pytest.raises(InputError, match="no print-shop profile"):
        load_profile("missing", tmp_path)


def test_reframe_keeps_the_art_unscaled() -> None:
    from cardgen.export.raster import with_bleed

    face = card_scene(10, 20, 3, [Rect(0, 0, 16, 26, fill="#336699")])
    bigger = with_bleed(face, 5)
    assert (bigger.width_mm, bigger.height_mm) == (20, 30)
    assert bigger.trim_box is not None and (bigger.trim_box.x, bigger.trim_box.y, bigger.trim_box.w, bigger.trim_box.h) == (5, 5, 10, 20)
    assert isinstance(bigger.children[0], Rect) and bigger.children[0].fill == "#336699"
    assert Scene is type(bigger)
