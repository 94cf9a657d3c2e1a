"""Bounded work (issue 15, family 2): every number that drives work has a range, every loop a bound.

A hostile corpus made at test time (each file is small: the attack is in what
it asks for, not in its size) goes through the real loader, validator or
command. Each case must end in a finding naming the file and line (exit 1) or
one error line naming the file (exit 2): never a hang, a MemoryError, a
traceback or exit 3. The cases that would take gigabytes or hours without the
budgets run in a child process with a time limit and an address-space cap, and
report their peak memory, which must stay under 500 MB.

The budgets themselves live in :mod:`cardgen.limits`.
"""

from __future__ import annotations

import json
import math
import os
import re
import signal
import subprocess
import sys
import textwrap
import zipfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from cardgen import limits
from cardgen.findings import InputError
from cardgen.spec.load import load_spec
from cardgen.catalogue import validate_folder

from .conftest import MINIMAL, ROOT, copy_spec, one_line

PEAK_MB = 500
"""The most memory (resident) any command may use on any input under 1 MB."""
CHILD_SECONDS = 120
"""Time a child command may take before it counts as a hang (generous: the machine is shared)."""
ADDRESS_SPACE = 1536 * 1024 * 1024
"""A safety net for the machine: a child over it fails with MemoryError (exit 3) instead of swapping."""

CHILD = textwrap.dedent(
    """
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    sys.argv = ["cardgen", *sys.argv[1:]]
    from cardgen.cli.app import main
    code = 0
    try:
        main()
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
    sys.stderr.write("PEAK_KB %d\\n" % resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    sys.stderr.flush()
    sys.exit(code)
    """
)


def run_child(args: list[str], cwd: Path) -> tuple[int, str, str, float]:
    """``cardgen <args>`` in a fresh process, time- and memory-capped: (exit code, stdout, stderr, peak MB)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD.format(limit=ADDRESS_SPACE), *args],
            cwd=cwd, env=env, capture_output=True, text=True, timeout=CHILD_SECONDS,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"cardgen {' '.join(args)} ran past {CHILD_SECONDS} s (a loop without a bound?)")
    peak = re.search(r"PEAK_KB (\d+)", done.stderr)
    stderr = re.sub(r"PEAK_KB \d+\n?", "", done.stderr)
    return done.returncode, done.stdout, stderr, (int(peak.group(1)) / 1024 if peak else float("inf"))


def assert_clean_refusal(code: int, out: str, err: str, peak_mb: float, expected_code: int, *needles: str) -> str:
    """Exit ``expected_code``, no traceback, every line one printable line, the needles in the output, under PEAK_MB."""
    text = out + err
    assert code == expected_code, text[-3000:]
    assert "Traceback" not in text and "MemoryError" not in text, text[-3000:]
    assert all(one_line(line) for line in text.splitlines())
    for needle in needles:
        assert needle in text, (needle, text[-3000:])
    assert peak_mb < PEAK_MB, f"peak memory {peak_mb:.0f} MB"
    return text


# --------------------------------------------------------------------------- layout numbers

LAYOUT = """\
front:
  elements:
    - widget: title
      box: [4, 4, 55, 10]
      params: {{size: {title_size}}}
    - widget: text
      box: {text_box}
      params: {{size: 9}}
    - widget: polyomino
      box: [8, 40, 46, 40]
      params: {{field: cells, frame_cells: {frame_cells}}}
"""


def _spec_with_layout(tmp_path: Path, title_size: str = "11", text_box: str = "[4, 16, 55, 20]", frame_cells: str = "4") -> Path:
    folder = copy_spec(MINIMAL, tmp_path / "spec")
    (folder / "layouts").mkdir()
    (folder / "layouts" / "shapes.yaml").write_text(
        LAYOUT.format(title_size=title_size, text_box=text_box, frame_cells=frame_cells), encoding="utf-8"
    )
    return folder


BAD_LAYOUT_NUMBERS = {
    "text size 10000": ({"title_size": "10000"}, 5),
    "text size 1e6": ({"title_size": "1e6"}, 5),
    "text size NaN": ({"title_size": ".nan"}, 5),
    "text size .inf": ({"title_size": ".inf"}, 5),
    "negative text size": ({"title_size": "-8"}, 5),
    "box of .inf": ({"text_box": "[4, 16, .inf, 20]"}, 7),
    "box of NaN": ({"text_box": "[.nan, 16, 55, 20]"}, 7),
    "frame cells 1e7": ({"frame_cells": "10000000"}, 11),
}


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Fail the test (instead of hanging the suite) when the block runs longer than ``seconds``."""

    def expired(_signum: int, _frame: object) -> None:
        pytest.fail(f"still running after {seconds} s (a loop without a bound?)")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("case", sorted(set(BAD_LAYOUT_NUMBERS) - {"frame cells 1e7"}))
def test_bad_layout_numbers_are_findings_at_their_line(tmp_path: Path, case: str) -> None:
    values, line = BAD_LAYOUT_NUMBERS[case]
    folder = _spec_with_layout(tmp_path, **values)
    with deadline(CHILD_SECONDS):
        result = validate_folder(folder, kinds=("static", "render"))
    found = [f for f in result.findings if f.code == "CG207"]
    assert found and all(f.file.endswith("shapes.yaml") for f in found), [f.render() for f in result.findings]
    assert line in {f.line for f in found}, [f.render() for f in found]
    assert all(one_line(f.render()) for f in result.findings)


def test_a_huge_frame_is_a_finding_within_the_memory_budget(tmp_path: Path) -> None:
    """frame_cells of ten million once drew twenty million grid lines (gigabytes); now a finding at its line."""
    values, line = BAD_LAYOUT_NUMBERS["frame cells 1e7"]
    folder = _spec_with_layout(tmp_path, **values)
    code, out, err, peak = run_child(["validate", str(folder), "--no-sim"], tmp_path)
    text = assert_clean_refusal(code, out, err, peak, 1, "CG207", "frame_cells")
    assert any(f"shapes.yaml:{line}:" in row for row in text.splitlines() if "CG207" in row), text


def test_a_layout_inside_the_ranges_still_validates(tmp_path: Path) -> None:
    """The control: the same file with ordinary numbers gives no layout finding."""
    folder = _spec_with_layout(tmp_path)
    result = validate_folder(folder, kinds=("static", "render"))
    assert not [f for f in result.findings if f.code == "CG207"], [f.render() for f in result.findings]


# --------------------------------------------------------------------------- amplification inside the file-size limits

POTS_CARD = "      - {id: amphora, name: {en: Amphora, pt_BR: Ânfora}, copies: 2, data: {set: amphora, set_size: 2}}\n"
POTS_FIELDS = "      set_size: {type: int, description: Cards in the set}\n"
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _spec_with_aliased_text(tmp_path: Path, length: int, cards: int) -> tuple[Path, int]:
    """The minimal spec whose pots deck has 26 text fields, every one (on every card) an alias of one long text."""
    folder = copy_spec(MINIMAL, tmp_path / "spec")
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    fields = "".join(f"      note_{c}: {{type: text, description: A note, shown: true}}\n" for c in LETTERS)
    body = ""
    for index in range(cards):
        body += f"      - id: pot{index}\n        name: {{en: Pot, pt_BR: Vaso}}\n        data:\n          set: pot{index}\n          set_size: 1\n"
        for c in LETTERS:
            if index == 0 and c == "a":
                body += f'          note_a: &big "{"x" * length}"\n'
            else:
                body += f"          note_{c}: *big\n"
    text = text.replace(POTS_FIELDS, POTS_FIELDS + fields, 1).replace(POTS_CARD, body, 1)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    anchor_line = text[: text.index("&big")].count("\n") + 1
    return folder, anchor_line


def test_a_long_text_aliased_into_26_fields_is_refused_at_its_line(tmp_path: Path) -> None:
    folder, line = _spec_with_aliased_text(tmp_path, 200_000, 1)
    assert (folder / "game.yaml").stat().st_size < 1024 * 1024
    code, out, err, peak = run_child(["validate", str(folder), "--no-sim"], tmp_path)
    assert_clean_refusal(code, out, err, peak, 2, f"game.yaml:{line}:", f"{limits.MAX_SCALAR_CHARS:,} characters")


def test_texts_within_the_limit_still_count_against_the_document_budget(tmp_path: Path) -> None:
    """60,000 characters are a legal text; aliased into 26 fields on 3 cards they are 4.7 million, over the budget."""
    folder, _line = _spec_with_aliased_text(tmp_path, 60_000, 3)
    code, out, err, peak = run_child(["validate", str(folder), "--no-sim"], tmp_path)
    assert_clean_refusal(code, out, err, peak, 2, "game.yaml:", "MAX_DOCUMENT_CHARS")


XLSX_PARTS = {
    "[Content_Types].xml": (
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Default Extension="bin" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
        '<Override PartName="/{sheet}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        "</Types>"
    ),
    "_rels/.rels": (
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
        "</Relationships>"
    ),
    "xl/workbook.xml": (
        '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="cards" sheetId="1" r:id="rId1"/></sheets></workbook>'
    ),
    "xl/_rels/workbook.xml.rels": (
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/{sheet}"/>'
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="/xl/sharedStrings.xml"/>'
        "</Relationships>"
    ),
}


def _xlsx_cell(reference: str, value: object) -> str:
    if isinstance(value, int):
        return f'<c r="{reference}"><v>{value}</v></c>'
    if isinstance(value, tuple):  # ("shared", index)
        return f'<c r="{reference}" t="s"><v>{value[1]}</v></c>'
    return f'<c r="{reference}" t="inlineStr"><is><t>{value}</t></is></c>'


def write_raw_xlsx(
    path: Path, rows: list[list[object]], shared: list[str], sheet: str = "xl/worksheets/sheet1.xml", prologue: str = ""
) -> Path:
    """A hand-made .xlsx: inline strings and numbers, ``("shared", i)`` cells pointing at ``shared[i]``.

    ``sheet`` names the worksheet part (any name: the workbook's relationships
    point at it); ``prologue`` goes between the XML declaration and the root.
    """
    body = "".join(
        f'<row r="{r}">' + "".join(_xlsx_cell(f"{chr(65 + c)}{r}", v) for c, v in enumerate(row)) + "</row>"
        for r, row in enumerate(rows, start=1)
    )
    worksheet = (
        f'<?xml version="1.0" encoding="UTF-8"?>{prologue}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f"<sheetData>{body}</sheetData></worksheet>"
    )
    strings = "".join(f"<si><t>{text}</t></si>" for text in shared)
    shared_xml = (
        '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        f'count="{len(shared)}" uniqueCount="{len(shared)}">{strings}</sst>'
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, template in XLSX_PARTS.items():
            archive.writestr(name, template.replace("{sheet}", sheet))
        archive.writestr("xl/sharedStrings.xml", shared_xml)
        archive.writestr(sheet, worksheet)
    return path


def _spec_with_sheet(tmp_path: Path, name: str) -> Path:
    """The minimal spec whose pots deck reads its cards from ``name`` (written by the caller)."""
    folder = copy_spec(MINIMAL, tmp_path / "spec")
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    text = text.replace("    cards:\n" + POTS_CARD, f"    cards_file: {name}\n", 1)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    return folder


POTS_HEADER = ["id", "name.en", "name.pt_BR", "set", "set_size", "copies"]


def test_an_xlsx_of_2000_cards_sharing_one_64k_string_is_refused(tmp_path: Path) -> None:
    folder = _spec_with_sheet(tmp_path, "pots.xlsx")
    rows: list[list[object]] = [list[object](POTS_HEADER)] + [[f"pot{i}", ("shared", 0), "Vaso", f"pot{i}", 1, 1] for i in range(2000)]
    write_raw_xlsx(folder / "pots.xlsx", rows, ["y" * limits.MAX_SCALAR_CHARS])
    assert (folder / "pots.xlsx").stat().st_size < 1024 * 1024
    code, out, err, peak = run_child(["validate", str(folder), "--no-sim"], tmp_path)
    assert_clean_refusal(code, out, err, peak, 2, "pots.xlsx", "MAX_SHEET_CHARS")


def test_2000_rows_of_500_copies_is_a_finding_not_a_million_cards(tmp_path: Path) -> None:
    folder = _spec_with_sheet(tmp_path, "pots.csv")
    lines = [",".join(POTS_HEADER)] + [f"pot{i},Pot,Vaso,pot{i},1,500" for i in range(2000)]
    (folder / "pots.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = validate_folder(folder, kinds=("static",))
    found = [f for f in result.findings if f.code == "CG012"]
    assert len(found) == 1 and found[0].file.endswith("pots.csv"), [f.render() for f in result.findings]
    printed = int(re.search(r"prints ([\d,]+) cards", found[0].message).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert printed > 1_000_000 and f"{limits.MAX_PRINTED_PIECES:,}" in found[0].message
    assert result.loaded is not None and result.loaded.spec is not None
    before = sum(c.copies for d in result.loaded.spec.decks[:2] for c in d.cards)  # the decks ahead of the sheet's
    assert found[0].line == 2 + (limits.MAX_PRINTED_PIECES - before) // 500  # the row whose copies pass the budget


def test_a_collectible_card_sized_game_loads_and_validates(tmp_path: Path) -> None:
    """5,400 distinct cards (the old limits were 2,000 per deck and 5,000 sheet rows) fit the budgets."""
    folder = _spec_with_sheet(tmp_path, "pots.csv")
    lines = [",".join(POTS_HEADER)] + [f"pot{i},Pot {i},Vaso {i},pot{i},2,2" for i in range(5400)]
    (folder / "pots.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = validate_folder(folder, kinds=("static", "render"))  # every face laid out and its text fitted
    assert result.loaded is not None and result.loaded.spec is not None
    assert not result.has_errors, [f.render() for f in result.findings if f.severity.name == "ERROR"][:5]
    assert len(result.loaded.spec.decks[2].cards) == 5400


def test_one_sheet_named_by_many_decks_shares_one_budget(tmp_path: Path) -> None:
    """Each deck naming the same large sheet reads it again: the spec's sheets share one cell and character budget."""
    folder = _spec_with_sheet(tmp_path, "pots.csv")
    per_row = 200
    rows = limits.MAX_SHEET_CHARS // (per_row * 3) + 10  # about a third of the budget
    lines = [",".join(POTS_HEADER)] + [f"pot{i},{'p' * per_row},Vaso,pot{i},1,1" for i in range(rows)]
    (folder / "pots.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert load_spec(folder).spec is not None  # one deck reading it is within the budget
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    deck = text[text.index("  - id: pots\n") : text.index("  - id: bones\n")]
    copies = "".join(deck.replace("id: pots", f"id: pots{n}") for n in range(3))
    (folder / "game.yaml").write_text(text.replace(deck, deck + copies, 1), encoding="utf-8")
    with pytest.raises(InputError, match="MAX_SHEET_CHARS") as caught:
        load_spec(folder)
    assert caught.value.file.endswith("pots.csv") and caught.value.line > 1


# --------------------------------------------------------------------------- spreadsheets: XML parts, repeats, nesting

ENTITY_BOMB = (
    '<!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">'
    + "".join(f'<!ENTITY {n} "{("&" + p + ";") * 16}">' for p, n in zip("abcdef", "bcdefg"))
    + "]>"
)


@pytest.mark.parametrize("part", ["xl/worksheets/sheet1.bin", "xl/worksheets/sheet1.xml", "xl/worksheets/data"])
def test_entities_in_any_xlsx_part_are_refused_whatever_its_name(tmp_path: Path, part: str) -> None:
    """The DOCTYPE scan once looked only at parts named *.xml: a worksheet renamed .bin expanded its entities."""
    folder = _spec_with_sheet(tmp_path, "pots.xlsx")
    rows: list[list[object]] = [list(POTS_HEADER), ["pot0", "&g;", "Vaso", "pot0", 1, 1]]
    write_raw_xlsx(folder / "pots.xlsx", rows, [], sheet=part, prologue=ENTITY_BOMB)
    assert (folder / "pots.xlsx").stat().st_size < 20_000
    code, out, err, peak = run_child(["validate", str(folder), "--no-sim"], tmp_path)
    assert_clean_refusal(code, out, err, peak, 2, "pots.xlsx", part, "DOCTYPE")


ODS_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
)


def write_raw_ods(path: Path, rows_xml: str) -> Path:
    """A minimal .ods whose one table (named cards) holds ``rows_xml``."""
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ODS_NS} office:version="1.2">'
        f'<office:body><office:spreadsheet><table:table table:name="cards">{rows_xml}</table:table></office:spreadsheet></office:body>'
        "</office:document-content>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
    return path


def ods_text_row(*cells: str) -> str:
    return "<table:table-row>" + "".join(f'<table:table-cell office:value-type="string"><text:p>{c}</text:p></table:table-cell>' for c in cells) + "</table:table-row>"


ODS_HEADER = ods_text_row(*POTS_HEADER[:5])


def test_an_ods_of_repeated_space_elements_stays_within_the_character_budget(tmp_path: Path) -> None:
    """Each <text:s text:c="1000"/> stands for a thousand spaces: 5,000 rows of 60 of them are 300 million characters.

    Every cell is under the 64 Ki limit for one text; the sheet's budget stops the reader long before the end.
    """
    folder = _spec_with_sheet(tmp_path, "pots.ods")
    spaces = '<text:s text:c="1000"/>' * 60
    rows = "".join(
        f'<table:table-row><table:table-cell office:value-type="string"><text:p>pot{i}</text:p></table:table-cell>'
        f'<table:table-cell office:value-type="string"><text:p>x{spaces}x</text:p></table:table-cell></table:table-row>'
        for i in range(5000)
    )
    write_raw_ods(folder / "pots.ods", ODS_HEADER + rows)
    assert (folder / "pots.ods").stat().st_size < 1024 * 1024
    code, out, err, peak = run_child(["validate", str(folder), "--no-sim"], tmp_path)
    assert_clean_refusal(code, out, err, peak, 2, "pots.ods", "MAX_SHEET_CHARS")


def test_a_cell_of_repeated_space_elements_is_cut_off_at_the_text_limit(tmp_path: Path) -> None:
    """400 elements of a thousand spaces in one cell: refused as one over-long text, without building all of it."""
    folder = _spec_with_sheet(tmp_path, "pots.ods")
    spaces = '<text:s text:c="1000"/>' * 400
    row = f'<table:table-row><table:table-cell office:value-type="string"><text:p>pot{spaces}</text:p></table:table-cell></table:table-row>'
    write_raw_ods(folder / "pots.ods", ODS_HEADER + row)
    with pytest.raises(InputError, match=f"over the limit of {limits.MAX_SCALAR_CHARS}") as caught:
        load_spec(folder)
    assert caught.value.file.endswith("pots.ods") and "row 2" in caught.value.message
    assert f"holds {limits.MAX_SCALAR_CHARS + 1} characters" in caught.value.message  # the expansion stopped one past the limit


def test_an_ods_of_repeated_rows_of_long_cells_stays_within_the_sheet_budget(tmp_path: Path) -> None:
    """One row of five 60,000-character cells, repeated 5,000 times: each cell is legal, the sheet is 1.5 billion characters."""
    folder = _spec_with_sheet(tmp_path, "pots.ods")
    cell = f'<table:table-cell office:value-type="string" table:number-columns-repeated="5"><text:p>{"z" * 60_000}</text:p></table:table-cell>'
    write_raw_ods(folder / "pots.ods", ODS_HEADER + f'<table:table-row table:number-rows-repeated="5000">{cell}</table:table-row>')
    code, out, err, peak = run_child(["validate", str(folder), "--no-sim"], tmp_path)
    assert_clean_refusal(code, out, err, peak, 2, "pots.ods", "MAX_SHEET_CHARS")


@pytest.mark.parametrize("nested", ["span", "row group"])
def test_deeply_nested_ods_is_refused_not_a_recursion_error(tmp_path: Path, nested: str) -> None:
    folder = _spec_with_sheet(tmp_path, "pots.ods")
    depth = 100_000
    if nested == "span":
        rows = ODS_HEADER + f'<table:table-row><table:table-cell office:value-type="string"><text:p>{"<text:span>" * depth}pot{"</text:span>" * depth}</text:p></table:table-cell></table:table-row>'
    else:
        rows = "<table:table-row-group>" * depth + ODS_HEADER + "</table:table-row-group>" * depth
    write_raw_ods(folder / "pots.ods", rows)
    code, out, err, peak = run_child(["validate", str(folder), "--no-sim"], tmp_path)
    assert_clean_refusal(code, out, err, peak, 2, "pots.ods", "MAX_XML_DEPTH")


# --------------------------------------------------------------------------- replays

def _replay_header(**changes: object) -> str:
    header: dict[str, object] = {"game": "minimal", "spec_hash": "0" * 64, "players": 2, "seed": 1, "agents": ["random", "random"], "cardgen_version": "x"}
    header.update(changes)
    return json.dumps(header)


END_LINE = json.dumps({"scores": [0, 0], "ranking": [[0, 1]], "termination": "done"})


def test_a_replay_read_from_dev_zero_is_refused(tmp_path: Path) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero on this system")
    code, out, err, peak = run_child(["replay", "/dev/zero"], tmp_path)
    assert_clean_refusal(code, out, err, peak, 2, "/dev/zero", "not a regular file")


def test_a_100000_deep_replay_line_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_text(_replay_header() + "\n" + "[" * 100_000 + "]" * 100_000 + "\n" + END_LINE + "\n", encoding="utf-8")
    code, out, err, peak = run_child(["replay", str(path)], tmp_path)
    assert_clean_refusal(code, out, err, peak, 2, "deep.jsonl:2", "MAX_JSON_DEPTH")


@pytest.mark.parametrize("seed", ["9" * 5000, "9" * 4000, str(2**63), "-1"])
def test_a_seed_out_of_range_is_refused(tmp_path: Path, seed: str) -> None:
    path = tmp_path / "seed.jsonl"
    path.write_text(_replay_header().replace('"seed": 1', f'"seed": {seed}') + "\n" + END_LINE + "\n", encoding="utf-8")
    code, out, err, peak = run_child(["replay", str(path)], tmp_path)
    assert_clean_refusal(code, out, err, peak, 2, "seed.jsonl:1")


COMMAND_NUMBERS = {
    "4000-digit seed": (["play"], "--seed", "9" * 4000),
    "seed past 2**63": (["play"], "--seed", str(2**63)),
    "negative seed": (["solve"], "--seed", "-1"),
    "a hundred thousand workers": (["check"], "--jobs", "100000"),
    "ten trillion playouts": (["check"], "--playouts", str(10**13)),
    "a thousand players": (["play"], "--players", "1000"),
    "a billion planner iterations": (["check"], "--mcts-budget", str(10**9)),
    "a billion skill games": (["report"], "--skill-games", str(10**9)),
    "a sweep seed past 2**63": (["sweep"], "--seed", str(2**63)),
    "a million tuning trials": (["tune"], "--trials", str(10**6)),
    "an mcts agent of 10**20 iterations": (["play"], "--agents", "mcts:" + "9" * 20),
}


@pytest.mark.parametrize("case", sorted(COMMAND_NUMBERS))
def test_numbers_out_of_range_on_the_command_line_are_usage_errors(tmp_path: Path, case: str) -> None:
    command, option, value = COMMAND_NUMBERS[case]
    extra = ["--playouts=1"] if option == "--jobs" else []  # (unbounded, one playout needs no workers at all)
    code, out, err, peak = run_child([*command, str(ROOT / "specs" / "ceramus"), f"{option}={value}", *extra], tmp_path)
    assert_clean_refusal(code, out, err, peak, 2, option)


# --------------------------------------------------------------------------- bitmaps

PROFILE = """\
name: huge
description: A shop that wants enormous images.
format: png
bleed_mm: 3
dpi: {dpi}
pixel_sizes:
  poker: [{width}, {height}]
"""


def test_a_profile_asking_for_a_60000_px_bitmap_is_refused_at_its_line(tmp_path: Path) -> None:
    profiles = tmp_path / "profiles"
    profiles.mkdir()
    (profiles / "huge.yaml").write_text(PROFILE.format(dpi=300, width=60000, height=60000), encoding="utf-8")
    out = tmp_path / "out"
    code, stdout, err, peak = run_child(["export", "profile", "huge", str(MINIMAL), "--profiles-dir", str(profiles), "--out", str(out)], tmp_path)
    assert_clean_refusal(code, stdout, err, peak, 2, "huge.yaml:7", "MAX_BITMAP_SIDE")
    assert not out.exists() or not any(p.is_file() for p in out.rglob("*"))


def test_a_profile_whose_dpi_makes_a_face_too_large_writes_nothing(tmp_path: Path) -> None:
    """Every size is within the profile's limits, but 1200 dpi on a 1000 mm card is 2.2 billion pixels: refused before any file."""
    folder = copy_spec(MINIMAL, tmp_path / "spec")
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text.replace("    size: mini\n", "    size: {width: 1000, height: 1000}\n", 1), encoding="utf-8")
    profiles = tmp_path / "profiles"
    profiles.mkdir()
    (profiles / "huge.yaml").write_text(PROFILE.format(dpi=1200, width=825, height=1125), encoding="utf-8")
    out = tmp_path / "out"
    code, stdout, err, peak = run_child(["export", "profile", "huge", str(folder), "--profiles-dir", str(profiles), "--out", str(out)], tmp_path)
    assert_clean_refusal(code, stdout, err, peak, 2, "MAX_BITMAP", "1200 dpi")
    assert not out.exists() or not any(p.suffix == ".png" for p in out.rglob("*"))


def test_a_preview_of_a_huge_card_at_high_dpi_is_refused(tmp_path: Path) -> None:
    folder = copy_spec(MINIMAL, tmp_path / "spec")
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text.replace("    size: mini\n", "    size: {width: 1000, height: 1000}\n", 1), encoding="utf-8")
    out = tmp_path / "out"
    code, stdout, err, peak = run_child(["preview", str(folder), "--dpi", "1200", "--out", str(out)], tmp_path)
    assert_clean_refusal(code, stdout, err, peak, 2, "MAX_BITMAP", "--dpi")
    assert not out.exists() or not any(p.suffix == ".png" for p in out.rglob("*"))


# --------------------------------------------------------------------------- loops with a bound of their own

THIN_LAYOUT = """\
front:
  elements:
    - {widget: ornament, box: [4, 4, 0, 80], params: {motif: stripes}}
    - {widget: ornament, box: [4, 4, 0.0001, 80], params: {motif: chevrons}}
    - {widget: ornament, box: [4, 4, 55, 0.00001], params: {motif: waves}}
    - {widget: keramikos_vessel, box: [4, 4, 0, 0]}
    - {widget: keramikos_set, box: [4, 60, 55, 6]}
    - {widget: keramikos_level, box: [4, 70, 20, 10], params: {field: set_size, max: 64}}
"""


def test_zero_area_and_hair_thin_boxes_draw_in_bounded_time(tmp_path: Path) -> None:
    """A motif's step is a fraction of its box: a zero-width box once stepped by zero forever, a hair-thin one billions of times."""
    folder = copy_spec(MINIMAL, tmp_path / "spec")
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    text = text.replace("data: {set: amphora, set_size: 2}", "data: {set: amphora, set_size: 9007199254740991}")
    text = text.replace("      - {kind: set_sizes, set_field: set, size_field: set_size}\n", "      - {kind: unique_values, field: set}\n")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    (folder / "layouts").mkdir()
    (folder / "layouts" / "pots.yaml").write_text(THIN_LAYOUT, encoding="utf-8")
    with deadline(CHILD_SECONDS):
        result = validate_folder(folder, kinds=("static", "render"))
    assert result.loaded is not None and result.loaded.spec is not None
    assert not [f for f in result.findings if f.code == "CG207"], [f.render() for f in result.findings]


def test_the_bounded_fitter_finds_the_size_the_step_by_step_search_finds() -> None:
    """Over 64 steps the fitter bisects; for text that fits at smaller sizes it lands on the same size as trying each step."""
    from cardgen.render.scene import Box
    from cardgen.render.text import fit_steps, layout_text, shrink_to_fit

    text = "Move one tile to any free space next to it, then score a point for every neighbour of the same style. " * 3
    box = Box(0.0, 0.0, 50.0, 30.0)
    sizes = fit_steps(40.0, 4.0)
    assert len(sizes) > limits.MAX_FIT_LAYOUTS
    stepwise = next(size for size in sizes if layout_text(text, box, size_pt=size).overflow.fits)
    block = shrink_to_fit(text, box, size_pt=40.0, min_size_pt=4.0)
    assert block.overflow.fits
    assert {item.size_pt for item in block.items if hasattr(item, "size_pt")} == {stepwise}
    assert fit_steps(math.nan, 6.0) == [6.0] and fit_steps(math.inf, math.nan) == [6.0] and fit_steps(10.0, 6.0, 0.0) == [6.0]
