"""Card sheets as CSV, XLSX and ODS: the same list gives the same spec, errors name sheet, row and column, bombs are refused."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import openpyxl
import pytest

from cardgen.findings import InputError
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec
from cardgen.spec.tables import load_card_table
from cardgen.spec.tables import MAX_SHEET_COLUMNS, MAX_SHEET_ROWS, column_letter, read_ods_rows, read_xlsx_rows

MINIMAL = Path(__file__).resolve().parents[1] / "fixtures" / "valid" / "minimal"
SITES_YAML = (
    "    cards:\n"
    "      - {id: low, name: {en: Low, pt_BR: Baixo}, type: site, effect: dig, text: {en: \"Dig {numbers.depth} deep.\", pt_BR: \"Cave {numbers.depth} de fundo.\"}, data: {totals: [2, 4], level: 1}}\n"
    "      - {id: mid, name: {en: Middle, pt_BR: Meio}, type: site, data: {totals: [3], level: 2}}\n"
)
HEADER = ["id", "copies", "name.en", "name.pt_BR", "type", "effect", "text.en", "text.pt_BR", "totals", "level"]
ROWS: list[list[Any]] = [
    ["low", 1, "Low, deep", "Baixo, fundo", "site", "dig", "Dig {numbers.depth} deep.\nThen rest.", "Cave {numbers.depth} de fundo.\nDepois descanse.", "[2, 4]", 1],
    ["mid", 2, "Middle", "Meio", "site", None, None, None, "[3]", 2.0],
]
"""The sites deck of the minimal fixture, with a comma inside a cell, a two-paragraph text and a whole float."""

NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "calcext": "urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0",
}
MANIFEST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">\n'
    ' <manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>\n'
    ' <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>\n'
    "</manifest:manifest>\n"
)


# --------------------------------------------------------------------------- writers used by the tests


def ods_cell(value: Any, repeat: int = 1) -> str:
    """One OpenDocument cell: typed float/boolean/string, a paragraph per line, optional column repeat."""
    rep = f' table:number-columns-repeated="{repeat}"' if repeat > 1 else ""
    if value is None:
        return f"<table:table-cell{rep}/>"
    if isinstance(value, bool):
        flag = "true" if value else "false"
        return f'<table:table-cell{rep} office:value-type="boolean" office:boolean-value="{flag}"><text:p>{flag.upper()}</text:p></table:table-cell>'
    if isinstance(value, (int, float)):
        return f'<table:table-cell{rep} office:value-type="float" office:value="{float(value)!r}"><text:p>{value}</text:p></table:table-cell>'
    paragraphs = "".join(f"<text:p>{escape(line)}</text:p>" for line in str(value).split("\n"))
    return f'<table:table-cell{rep} office:value-type="string">{paragraphs}</table:table-cell>'


def ods_row(cells: list[Any], repeat: int = 1) -> str:
    """A row, runs of empty cells written once with a column repeat, as LibreOffice does."""
    parts: list[str] = []
    index = 0
    while index < len(cells):
        if cells[index] is None:
            run = 1
            while index + run < len(cells) and cells[index + run] is None:
                run += 1
            parts.append(ods_cell(None, run))
            index += run
        else:
            parts.append(ods_cell(cells[index]))
            index += 1
    parts.append(ods_cell(None, 1014))  # the rest of the row, blank
    rep = f' table:number-rows-repeated="{repeat}"' if repeat > 1 else ""
    return f"<table:table-row{rep}>{''.join(parts)}</table:table-row>"


def ods_table(name: str, rows_xml: str) -> str:
    return f"<table:table table:name={quoteattr(name)}><table:table-column table:number-columns-repeated=\"1024\"/>{rows_xml}</table:table>"


def write_ods(path: Path, tables: list[str], extra: dict[str, bytes] | None = None) -> Path:
    """A minimal valid .ods: mimetype first and stored, a manifest, and content.xml with these tables."""
    declarations = " ".join(f'xmlns:{prefix}="{uri}"' for prefix, uri in NS.items())
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<office:document-content {declarations} office:version="1.2">'
        f"<office:body><office:spreadsheet>{''.join(tables)}</office:spreadsheet></office:body></office:document-content>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet", compress_type=zipfile.ZIP_STORED)
        archive.writestr("META-INF/manifest.xml", MANIFEST, compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
        for name, data in (extra or {}).items():
            archive.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED)
    return path


def write_cards_ods(path: Path, header: list[str], rows: list[list[Any]]) -> Path:
    """The card list on a sheet named 'cards' after a notes sheet, ended by LibreOffice's blank filler rows."""
    notes = ods_table("Notes", ods_row(["This workbook holds the sites deck."]))
    body = "".join(ods_row(r) for r in [header, *rows])
    body += '<table:table-row table:number-rows-repeated="1048573"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>'
    return write_ods(path, [notes, ods_table("cards", body)])


def write_xlsx(path: Path, header: list[str], rows: list[list[Any]]) -> Path:
    """The card list on a sheet named 'cards' after a notes sheet."""
    book = openpyxl.Workbook()
    notes = book.active
    assert notes is not None
    notes.title = "Notes"
    notes["A1"] = "This workbook holds the sites deck."
    sheet = book.create_sheet("cards")
    sheet.append(header)
    for row in rows:
        sheet.append(row)
    book.save(path)
    return path


def write_csv(path: Path, header: list[str], rows: list[list[Any]], delimiter: str = ",") -> Path:
    """Quote every text cell (so delimiters and newlines inside survive), numbers bare."""

    def cell(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, str):
            return '"' + value.replace('"', '""') + '"'
        return repr(value)

    lines = [delimiter.join(header)] + [delimiter.join(cell(v) for v in row) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def spec_with_sheet(tmp_path: Path, kind: str, writer: Any) -> Path:
    """A copy of the minimal fixture whose sites deck reads its cards from a sheet written by ``writer``."""
    folder = tmp_path / kind
    shutil.copytree(MINIMAL, folder)
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    assert SITES_YAML in text
    (folder / "game.yaml").write_text(text.replace(SITES_YAML, f"    cards_file: sites.{kind}\n"), encoding="utf-8")
    writer(folder / f"sites.{kind}")
    return folder


def without_sheet_name(spec: Spec) -> Spec:
    return spec.model_copy(update={"decks": [d.model_copy(update={"cards_file": None}) for d in spec.decks]})


# --------------------------------------------------------------------------- the same list in three formats


def test_csv_xlsx_and_ods_give_equal_specs(tmp_path: Path) -> None:
    writers = {
        "csv": lambda p: write_csv(p, HEADER, ROWS),
        "xlsx": lambda p: write_xlsx(p, HEADER, ROWS),
        "ods": lambda p: write_cards_ods(p, HEADER, ROWS),
    }
    loaded = {kind: load_spec(spec_with_sheet(tmp_path, kind, writer)) for kind, writer in writers.items()}
    for kind, result in loaded.items():
        assert result.findings == [], (kind, result.findings)
        assert result.spec is not None
    specs = {kind: without_sheet_name(result.spec) for kind, result in loaded.items() if result.spec is not None}
    assert specs["csv"] == specs["xlsx"] == specs["ods"]
    sites = specs["ods"].decks[1]
    low, mid = sites.cards
    assert low.name == {"en": "Low, deep", "pt_BR": "Baixo, fundo"}
    assert low.text == {"en": "Dig {numbers.depth} deep.\nThen rest.", "pt_BR": "Cave {numbers.depth} de fundo.\nDepois descanse."}
    assert low.effect == "dig" and low.data == {"totals": [2, 4], "level": 1}
    assert mid.copies == 2 and mid.text is None and mid.effect is None
    assert mid.data["level"] == 2 and type(mid.data["level"]) is int  # 2.0 typed in a spreadsheet is the int 2
    # the rest of the spec is the fixture's own
    fixture = load_spec(MINIMAL).spec
    assert fixture is not None and specs["xlsx"].decks[0] == fixture.decks[0]
    # places are rows and columns of the sheet, the same in every format
    for kind, result in loaded.items():
        place = result.source.place(("decks", 1, "cards", 1, "data", "level"))
        assert place.file.endswith(f"sites.{kind}") and (place.line, place.column) == (3, 10), kind


@pytest.mark.parametrize("delimiter", [";", "\t"])
def test_csv_other_delimiters_with_the_delimiter_quoted_inside(tmp_path: Path, delimiter: str) -> None:
    rows = [
        ["low", 1, f"Low{delimiter} deep", f"Baixo{delimiter} fundo", "site", "dig", "Dig.", "Cave.", "[2, 4]", 1],
        ["mid", 2, "Middle", "Meio", "site", None, None, None, "[3]", 2],
    ]
    sheet = write_csv(tmp_path / "sites.csv", HEADER, rows, delimiter)
    cards, places = load_card_table(sheet, "sites.csv")
    assert [c["id"] for c in cards] == ["low", "mid"]
    assert cards[0]["name"] == {"en": f"Low{delimiter} deep", "pt_BR": f"Baixo{delimiter} fundo"}
    assert cards[0]["data"] == {"totals": [2, 4], "level": 1}
    assert cards[1]["copies"] == 2 and "effect" not in cards[1]
    assert places.place((1, "data", "totals")).line == 3


# --------------------------------------------------------------------------- errors name the sheet, row and column

BAD_HEADER = ["id", "totals", "name.en"]
BAD_ROWS: list[list[Any]] = [["low", "[2, 4]", "Low"], ["mid", "[3, oops", "Middle"]]


@pytest.mark.parametrize("kind", ["csv", "xlsx", "ods"])
def test_error_in_row_3_column_2_is_named(tmp_path: Path, kind: str) -> None:
    path = tmp_path / f"sites.{kind}"
    {"csv": write_csv, "xlsx": write_xlsx, "ods": write_cards_ods}[kind](path, BAD_HEADER, BAD_ROWS)
    with pytest.raises(InputError) as caught:
        load_card_table(path, f"specs/x/sites.{kind}")
    error = caught.value
    assert (error.file, error.line, error.column) == (f"specs/x/sites.{kind}", 3, 2)
    assert "'totals'" in error.message and "[3, oops" in error.message
    if kind != "csv":  # a CSV file is its one sheet: file:3:2 names the place
        assert error.message.startswith("sheet 'cards', row 3, column B: ")
    assert error.render().startswith(f"specs/x/sites.{kind}:3:2: error: ")


def test_xlsx_formula_error_cell_is_named(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "s.xlsx", BAD_HEADER, [["low", "[2]", "Low"], ["mid", "#DIV/0!", "Middle"]])
    with pytest.raises(InputError) as caught:
        read_xlsx_rows(path, "s.xlsx")
    assert caught.value.message.startswith("sheet 'cards', row 3, column B: the cell holds a formula error (#DIV/0!)")


def test_ods_formula_error_cell_is_named(tmp_path: Path) -> None:
    error_cell = '<table:table-cell table:formula="of:=1/0" office:string-value="" calcext:value-type="error"><text:p>#DIV/0!</text:p></table:table-cell>'
    rows = ods_row(BAD_HEADER) + ods_row(["low", "[2]", "Low"]) + f"<table:table-row>{ods_cell('mid')}{error_cell}</table:table-row>"
    path = write_ods(tmp_path / "s.ods", [ods_table("Cards", rows)])
    with pytest.raises(InputError) as caught:
        read_ods_rows(path, "s.ods")
    assert caught.value.message == "sheet 'Cards', row 3, column B: the cell holds a formula error (#DIV/0!); fix the formula or type the value"
    assert (caught.value.line, caught.value.column) == (3, 2)


# --------------------------------------------------------------------------- ODS details


def test_ods_repeats_types_and_paragraphs(tmp_path: Path) -> None:
    row = (
        "<table:table-row>"
        '<table:table-cell office:value-type="string" table:number-columns-repeated="3"><text:p>x</text:p></table:table-cell>'
        '<table:table-cell table:number-columns-repeated="2"/>'
        '<table:table-cell office:value-type="boolean" office:boolean-value="true"><text:p>TRUE</text:p></table:table-cell>'
        '<table:table-cell office:value-type="percentage" office:value="0.5"><text:p>50%</text:p></table:table-cell>'
        '<table:table-cell office:value-type="string"><text:p>a<text:s text:c="2"/>b<text:span>c</text:span></text:p><text:p>d<text:tab/>e</text:p>'
        "<office:annotation><text:p>a comment</text:p></office:annotation></table:table-cell>"
        '<table:covered-table-cell table:number-columns-repeated="1000"/>'
        "</table:table-row>"
    )
    empty_rows = '<table:table-row table:number-rows-repeated="2"><table:table-cell/></table:table-row>'
    repeated = '<table:table-row table:number-rows-repeated="2"><table:table-cell office:value-type="float" office:value="7"/></table:table-row>'
    header = ods_row([f"h{i}" for i in range(1, 9)])
    group = f"<table:table-header-rows>{header}</table:table-header-rows>{row}<table:table-row-group>{empty_rows}{repeated}</table:table-row-group>"
    path = write_ods(tmp_path / "s.ods", [ods_table("first", group), ods_table("second", ods_row(["no"]))])
    rows = read_ods_rows(path, "s.ods")
    assert rows[1:] == [["x", "x", "x", None, None, True, 0.5, "a  bc\nd\te"], [], [], [7.0], [7.0]]


def test_ods_too_many_rows_or_columns_are_refused(tmp_path: Path) -> None:
    many_rows = ods_row(["id"]) + ods_row(["a"], repeat=MAX_SHEET_ROWS + 5)
    path = write_ods(tmp_path / "rows.ods", [ods_table("cards", many_rows)])
    with pytest.raises(InputError) as caught:
        read_ods_rows(path, "rows.ods")
    assert caught.value.message == f"sheet 'cards', row {MAX_SHEET_ROWS + 2}: the sheet has more than {MAX_SHEET_ROWS} rows below the header"
    wide = f'<table:table-row>{ods_cell("id")}<table:table-cell table:number-columns-repeated="300" office:value-type="float" office:value="1"/></table:table-row>'
    path = write_ods(tmp_path / "cols.ods", [ods_table("cards", wide)])
    with pytest.raises(InputError) as caught:
        read_ods_rows(path, "cols.ods")
    assert caught.value.message.startswith(f"sheet 'cards', row 1, column {column_letter(MAX_SHEET_COLUMNS + 1)}: the sheet is wider than {MAX_SHEET_COLUMNS} columns")


def test_xlsx_too_many_rows_are_refused(tmp_path: Path) -> None:
    rows = [[f"c{i}", 1] for i in range(MAX_SHEET_ROWS + 1)]
    path = write_xlsx(tmp_path / "big.xlsx", ["id", "copies"], rows)
    with pytest.raises(InputError) as caught:
        read_xlsx_rows(path, "big.xlsx")
    assert caught.value.message == f"sheet 'cards', row {MAX_SHEET_ROWS + 2}: the sheet has more than {MAX_SHEET_ROWS} rows below the header"


def test_xlsx_wide_sheet_is_refused(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "wide.xlsx", ["id"] + [f"f{i}" for i in range(MAX_SHEET_COLUMNS)], [["a"]])
    with pytest.raises(InputError) as caught:
        read_xlsx_rows(path, "wide.xlsx")
    assert caught.value.message.startswith(f"sheet 'cards', row 1, column {column_letter(MAX_SHEET_COLUMNS + 1)}: the sheet is wider")


# --------------------------------------------------------------------------- bombs


def _bomb_member() -> bytes:
    return b"\0" * (21 * 1024 * 1024)


def test_zip_bomb_is_refused(tmp_path: Path) -> None:
    ods = write_ods(tmp_path / "bomb.ods", [ods_table("cards", ods_row(["id"]))], extra={"Thumbnails/big.bin": _bomb_member()})
    assert ods.stat().st_size < 1024 * 1024  # small on disk, 21 MiB expanded
    xlsx = write_xlsx(tmp_path / "bomb.xlsx", ["id"], [["a"]])
    with zipfile.ZipFile(xlsx, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/media/big.bin", _bomb_member())
    for path in (ods, xlsx):
        with pytest.raises(InputError) as caught:
            load_card_table(path, path.name)
        assert "over the 20 MiB limit" in caught.value.message and "zip bomb" in caught.value.message
        assert caught.value.file == path.name


def test_xml_entities_are_refused(tmp_path: Path) -> None:
    laughs = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><x>&b;</x>'
    path = write_ods(tmp_path / "laughs.ods", [ods_table("cards", ods_row(["id"]))], extra={"styles.xml": laughs.encode()})
    with pytest.raises(InputError) as caught:
        load_card_table(path, "laughs.ods")
    assert "styles.xml declares a DOCTYPE or XML entities" in caught.value.message


def test_not_a_zip_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "fake.xlsx"
    path.write_text("id,copies\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_card_table(path, "fake.xlsx")
    assert "not a readable .xlsx file" in caught.value.message
