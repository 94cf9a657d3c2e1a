"""Previews: a PNG per face at the DPI-derived size, a contact sheet, deterministic bytes."""

from __future__ import annotations

from pathlib import Path

from PIL import Image
from typer.testing import CliRunner

from cardgen.cli.app import app
from cardgen.export.preview import CONTACT_SHEET, write_previews
from cardgen.render.faces import card_faces
from cardgen.spec.load import LoadedSpec


def test_previews_have_the_dpi_size_and_are_deterministic(tmp_path: Path, mausoleum: LoadedSpec) -> None:
    first = write_previews(mausoleum, tmp_path / "a", dpi=50)
    second = write_previews(mausoleum, tmp_path / "b", dpi=50)
    keys = {f.key for f in card_faces(mausoleum)}
    assert {p.stem for p in first.faces} == keys and len(keys) == 15
    for path in first.faces:
        image = Image.open(path)
        assert image.size == (136, 185)  # (63 + 6) mm x (88 + 6) mm at 50 dpi, rounded
        data = path.read_bytes()
        assert b"tIME" not in data and b"tEXt" not in data and b"iTXt" not in data
        assert data == (tmp_path / "b" / path.name).read_bytes()
    sheet = Image.open(first.contact_sheet)
    assert sheet.width > 8 * 136 and sheet.height > 2 * 185  # 15 faces in rows of 8, with labels
    assert first.contact_sheet.read_bytes() == second.contact_sheet.read_bytes()


def test_preview_command(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["preview", "ceratopsians", "--dpi", "30", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "ceratopsians" / "preview"
    assert (folder / CONTACT_SHEET).is_file()
    faces = [p for p in folder.glob("*.png") if p.name != CONTACT_SHEET]
    assert len(faces) == 36  # 18 double-sided cards
    assert Image.open(faces[0]).size == (90, 90)  # (70 + 6) mm at 30 dpi = 89.76 px, rounded
