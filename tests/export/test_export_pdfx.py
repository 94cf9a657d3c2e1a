"""CMYK PDF/X-1a for print shops, read back with independent readers.

pypdf reads the Info keys, the output intent, the page boxes and every colour operator of the pages and
their forms; qpdf checks the structure; Ghostscript renders the pages to CMYK separations, from which the
largest total ink of any pixel is measured. What is not checked here (no ISO 15930 preflight runs) is
listed in docs/decisions.md, "CMYK and PDF/X-1a".
"""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path
from typing import Any, Iterator

import pytest
from PIL import Image, ImageCms
from pypdf import PdfReader
from pypdf.generic import ArrayObject, ContentStream, DictionaryObject, NameObject, StreamObject

from cardgen.export.ink import TEXT_BLACK_K, capped, ink_findings, print_cmyk
from cardgen.export.pdfx import OutputIntent, write_pdfx
from cardgen.export.profiles import ProfileExport, export_profile, load_profile, shop_page
from cardgen.findings import InputError
from cardgen.render.faces import card_faces
from cardgen.render.scene import Rect, Text, card_scene
from cardgen.spec.load import LoadedSpec

from external_tools import need

PAINT_RGB = {b"rg", b"RG", b"g", b"G", b"sc", b"scn", b"SC", b"SCN", b"cs", b"CS"}
"""Operators that paint in any space but DeviceCMYK (or select another space)."""


@pytest.fixture(scope="module")
def dtc_cmyk(tmp_path_factory: pytest.TempPathFactory, mausoleum: LoadedSpec) -> tuple[Path, ProfileExport]:
    out = tmp_path_factory.mktemp("dtc-cmyk")
    return out, export_profile(mausoleum, load_profile("drivethrucards"), out)


def _get(value: object) -> Any:
    """A PDF object resolved (pypdf types its look-ups loosely)."""
    return value.get_object() if hasattr(value, "get_object") else value


def _operations(reader: PdfReader, stream: object, resources: DictionaryObject) -> Iterator[tuple[list[object], bytes]]:
    """Every (operands, operator) of a content stream, descending into the forms it draws."""
    content = ContentStream(stream, reader)
    xobjects = resources.get("/XObject")
    for operands, operator in content.operations:
        yield operands, operator
        if operator == b"Do" and xobjects is not None:
            form = xobjects.get_object()[operands[0]].get_object()
            if form.get("/Subtype") == "/Form":
                inner = form.get("/Resources")
                yield from _operations(reader, form, inner.get_object() if inner is not None else resources)


def _text_fills(reader: PdfReader) -> list[tuple[float, ...]]:
    """The fill colour of every text-showing operator on every page, in CMYK."""
    fills: list[tuple[float, ...]] = []
    for page in reader.pages:
        fill: tuple[float, ...] = (0.0, 0.0, 0.0, 1.0)  # the PDF default
        resources = _get(page["/Resources"])
        for operands, operator in _operations(reader, page.get_contents(), resources):
            if operator == b"k":
                fill = tuple(float(v) for v in operands)  # type: ignore[arg-type]
            elif operator in (b"Tj", b"TJ", b"'", b'"'):
                fills.append(fill)
    return fills


def test_the_drivethrucards_pdf_is_pdfx_1a_in_structure(dtc_cmyk: tuple[Path, ProfileExport]) -> None:
    folder, _ = dtc_cmyk
    reader = PdfReader(folder / "mausoleum-guardians-cards.pdf")
    info = _get(reader.trailer["/Info"])
    assert info["/GTS_PDFXVersion"] == "PDF/X-1a:2003" and info["/Trapped"] == "/False"
    assert info["/Title"] and "/CreationDate" in info and "/ModDate" in info
    assert "/Encrypt" not in reader.trailer and reader.pdf_header == "%PDF-1.4"
    assert len(_get(reader.trailer["/ID"])) == 2  # PDF/X asks for a file identifier
    intents = _get(reader.trailer["/Root"])["/OutputIntents"]
    assert isinstance(intents, ArrayObject) and len(intents) == 1
    intent = intents[0].get_object()
    assert (intent["/S"], intent["/OutputConditionIdentifier"], intent["/RegistryName"]) == ("/GTS_PDFX", "CGATS TR 001", "http://www.color.org")
    for page in reader.pages:
        media = [float(v) for v in page.mediabox]
        trim, bleed = [float(v) for v in page.trimbox], [float(v) for v in page.bleedbox]
        assert "/TrimBox" in page and "/BleedBox" in page
        assert media[0] <= bleed[0] < trim[0] and trim[2] < bleed[2] <= media[2]
        assert "/Annots" not in page
        resources = _get(page["/Resources"])
        assert "/ExtGState" not in resources  # no soft masks, no constant alpha: nothing transparent
        for xobject in _get(resources.get("/XObject") or DictionaryObject()).values():
            assert xobject.get_object()["/Subtype"] == "/Form" and "/Group" not in xobject.get_object()  # no images, no transparency groups


def test_every_colour_is_cmyk_and_dark_text_is_solid_black(dtc_cmyk: tuple[Path, ProfileExport]) -> None:
    folder, _ = dtc_cmyk
    reader = PdfReader(folder / "mausoleum-guardians-cards.pdf")
    operators: set[bytes] = set()
    for page in reader.pages:
        for _, operator in _operations(reader, page.get_contents(), _get(page["/Resources"])):
            operators.add(operator)
    assert not operators & PAINT_RGB, operators & PAINT_RGB
    assert {b"k", b"K", b"Tj"} <= operators
    fills = _text_fills(reader)
    assert (0.0, 0.0, 0.0, 1.0) in fills  # the body text, #1a1a1a in RGB
    dark = [f for f in fills if f[3] >= TEXT_BLACK_K]
    assert dark and all(f == (0.0, 0.0, 0.0, 1.0) for f in dark)  # never four-colour black


def test_fonts_are_embedded_and_qpdf_finds_no_error(dtc_cmyk: tuple[Path, ProfileExport]) -> None:
    folder, _ = dtc_cmyk
    pdf = folder / "mausoleum-guardians-cards.pdf"
    reader = PdfReader(pdf)
    for page in reader.pages[:6]:
        for ref in _get(page["/Resources"])["/Font"].values():
            font = ref.get_object()
            descriptor = font["/FontDescriptor"].get_object()
            assert "/FontFile2" in descriptor, font["/BaseFont"]
    result = subprocess.run([need("qpdf"), "--check", str(pdf)], capture_output=True, text=True)
    assert result.returncode == 0 and "No syntax or stream encoding errors" in result.stdout, result.stdout + result.stderr


def test_total_ink_is_capped_as_ghostscript_measures_it(tmp_path: Path, mausoleum: LoadedSpec) -> None:
    """A face painted #200000 (287.5 % naive) prints at 240 %; Ghostscript's CMYK separations agree."""
    profile = load_profile("drivethrucards")
    base = next(f for f in card_faces(mausoleum) if f.key == "cards-base")
    rich = card_scene(63, 88, 3, [Rect(0, 0, 69, 94, fill="#200000"), Rect(20, 20, 20, 20, fill="#4a90d9"), Text(10, 60, "Solid", fill="#1e1a17", size_pt=14)])
    page = shop_page(profile, dataclasses.replace(base, scene=rich))
    pdf = tmp_path / "rich.pdf"
    pdf.write_bytes(write_pdfx([page], OutputIntent("CGATS TR 001"), profile.ink_limit_percent, "rich"))
    fills = [tuple(float(v) for v in ops) for ops, op in ContentStream(PdfReader(pdf).pages[0].get_contents(), None).operations if op == b"k"]
    assert max(sum(f) for f in fills) == pytest.approx(2.4, abs=1e-3)
    tiff = tmp_path / "rich.tif"
    subprocess.run([need("gs"), "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc", "-r72", f"-sOutputFile={tiff}", str(pdf)], check=True)
    with Image.open(tiff) as image:
        assert image.mode == "CMYK"
        raw = image.tobytes()
    totals = [sum(raw[i : i + 4]) * 100 / 255 for i in range(0, len(raw), 4)]
    assert max(totals) == pytest.approx(240.0, abs=1.0)  # the cap, measured: not 287.5, not lower
    assert min(totals) > 80  # the page is painted all over (the rich colour bleeds to every edge)


def test_the_cap_takes_chroma_never_darkness() -> None:
    assert capped((0.0, 1.0, 1.0, 0.8745), 240) == pytest.approx((0.0, 0.76275, 0.76275, 0.8745))
    assert capped((0.2, 0.3, 0.0, 0.1), 240) == (0.2, 0.3, 0.0, 0.1)  # under the limit: unchanged
    assert capped((0.0, 1.0, 1.0, 0.9), 80) == (0.0, 0.0, 0.0, 0.8)  # a limit under the black alone
    assert print_cmyk("#1a1a1a", 240, text=True) == (0.0, 0.0, 0.0, 1.0)
    assert print_cmyk("#1a1a1a", 240) == pytest.approx((0.0, 0.0, 0.0, 1 - 26 / 255))  # a shape keeps its grey, K only
    assert print_cmyk("#4a4a4a", 240, text=True) == pytest.approx((0.0, 0.0, 0.0, 1 - 74 / 255))  # lighter text keeps its tint


def test_an_icc_profile_named_by_the_profile_is_embedded(tmp_path: Path, mausoleum: LoadedSpec) -> None:
    gs = Path(need("gs"))
    icc = next(iter(sorted(Path("/usr/share/color/icc/ghostscript").glob("default_cmyk.icc"))), None)
    assert icc is not None, f"{gs} is installed without its CMYK profile (Debian libgs-common)"
    shops = tmp_path / "shops"
    shops.mkdir()
    (shops / "press.icc").write_bytes(icc.read_bytes())
    (shops / "press.yaml").write_text(
        "name: press\ndescription: A CMYK test shop.\nformat: pdf\nbleed_mm: 3\nink_limit_percent: 300\ncolour: cmyk\n"
        "output_intent: {identifier: Ghostscript default CMYK, registry: '', icc_profile: press.icc}\n",
        encoding="utf-8",
    )
    result = export_profile(mausoleum, load_profile("press", shops), tmp_path / "out")
    reader = PdfReader(result.files[0])
    intent = _get(reader.trailer["/Root"])["/OutputIntents"][0].get_object()
    profile = intent["/DestOutputProfile"].get_object()
    assert isinstance(profile, StreamObject) and profile["/N"] == 4
    assert profile.get_data() == icc.read_bytes()
    assert intent["/OutputConditionIdentifier"] == "Ghostscript default CMYK"
    assert isinstance(intent["/S"], NameObject)


def test_unusable_cmyk_profiles_are_refused(tmp_path: Path) -> None:
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    (tmp_path / "screen.icc").write_bytes(srgb)
    head = "description: x\nformat: pdf\nbleed_mm: 3\ncolour: cmyk\n"
    cases = {
        "rgbicc": (head + "output_intent: {identifier: X, icc_profile: screen.icc}\n", "not CMYK"),
        "noicc": (head + "output_intent: {identifier: X, icc_profile: missing.icc}\n", "cannot read the ICC profile"),
        "nointent": (head, "needs format: pdf and an output_intent"),
        "pngcmyk": (head.replace("format: pdf", "format: png") + "output_intent: {identifier: X}\n", "needs format: pdf"),
        "rgbintent": (head.replace("colour: cmyk", "colour: rgb") + "output_intent: {identifier: X}\n", "only used with colour: cmyk"),
    }
    for name, (text, message) in cases.items():
        (tmp_path / f"{name}.yaml").write_text(f"name: {name}\n" + text, encoding="utf-8")
        with pytest.raises(InputError, match=message):
            load_profile(name, tmp_path)


def test_the_ink_warning_says_the_cmyk_export_caps_the_colour(mausoleum: LoadedSpec) -> None:
    base = next(f for f in card_faces(mausoleum) if f.key == "cards-base")
    rich = [dataclasses.replace(base, scene=card_scene(63, 88, 3, [Rect(0, 0, 69, 94, fill="#200000")]))]
    (capped_here,) = ink_findings(mausoleum, rich, 240, "drivethrucards", capped_here=True)
    (elsewhere,) = ink_findings(mausoleum, rich, 240, "othershop")
    assert "caps it by taking chroma" in capped_here.hint and "caps" not in elsewhere.hint
