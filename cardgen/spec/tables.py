"""Spreadsheet card sheets beyond CSV: each reader registers itself in ``SHEET_READERS`` by suffix.

Two formats are read here, both without running anything the file holds:

* ``.xlsx`` (Excel, LibreOffice, Google Sheets exports) through openpyxl in
  read-only mode with ``data_only=True``: a formula cell gives the result the
  spreadsheet program stored when it last saved the file;
* ``.ods`` (OpenDocument, LibreOffice's own format) by reading ``content.xml``
  from the zip with the standard library.

The sheet used is the one named ``cards`` (any case) or else the first one.
Rows come back as lists of cells (header first) for
:func:`cardgen.spec.sheets.cards_from_rows`, which turns them into cards.

Both formats are zip files, so both are bounded before anything is parsed: the
archive may not expand beyond :data:`MAX_EXPANDED_BYTES`, no part of it (judged
by content, whatever its name) may declare a DOCTYPE or entities, and its XML is
bounded in elements and depth. The sheet may not hold more than
:data:`MAX_SHEET_ROWS` card rows, :data:`MAX_SHEET_COLUMNS` columns or
:data:`~cardgen.limits.MAX_SHEET_CHARS` characters once shared strings and
repeats are expanded. Every error names the file, the sheet, the row and the column.
"""

from __future__ import annotations

import datetime as _dt
import math
import zipfile
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator
from xml.parsers import expat

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

from cardgen.findings import InputError
from cardgen.limits import (
    MAX_ARCHIVE_BYTES,
    MAX_CELLS_VISITED,
    MAX_SCALAR_CHARS,
    MAX_SHEET_CHARS,
    MAX_SHEET_COLUMNS,
    MAX_SHEET_ROWS,
    MAX_XML_DEPTH,
    MAX_XML_ELEMENTS,
    MAX_ZIP_MEMBERS,
)
from cardgen.spec.sheets import SHEET_READERS, SheetBudget, SheetRows, cards_from_rows
from cardgen.spec.source import SourceMap

# The limits live in cardgen.limits (one place for every budget); re-exported here for the readers' callers.
MAX_CELL_CHARS = MAX_SCALAR_CHARS
"""The longest text a cell may hold, as for CSV sheets."""
MAX_EXPANDED_BYTES = MAX_ARCHIVE_BYTES
"""The most an .xlsx or .ods archive may expand to (and the most its file may weigh)."""
CARDS_SHEET = "cards"
"""The sheet read when a workbook has several: the one with this name, else the first."""

_MIB = 1024 * 1024


@cache
def _forbidden_xml() -> tuple[bytes, ...]:
    """A DOCTYPE or entity declaration as its bytes in each encoding an XML part may use (ASCII-compatible, UTF-16, UTF-32).

    Made on the first archive checked: encoding them imports four codecs, which a spec with a CSV sheet (or none) never needs.
    """
    return tuple(
        marker.encode(encoding)
        for marker in ("<!DOCTYPE", "<!ENTITY", "<!doctype", "<!entity")
        for encoding in ("ascii", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")
    )


def column_letter(column: int) -> str:
    """The spreadsheet name of a 1-based column number: 1 -> A, 27 -> AA."""
    letters = ""
    while column > 0:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters or "?"


def _where(sheet: str, row: int = 0, column: int = 0) -> str:
    """The readable place inside a workbook: ``sheet 'cards', row 4, column C``."""
    text = f"sheet {sheet!r}"
    if row:
        text += f", row {row}"
    if column:
        text += f", column {column_letter(column)}"
    return text


def _sheet_error(shown: str, sheet: str, message: str, row: int = 0, column: int = 0) -> InputError:
    """An InputError whose message and place name the sheet, row and column."""
    return InputError(f"{_where(sheet, row, column)}: {message}", shown, row, column or (1 if row else 0))


# --------------------------------------------------------------------------- zip bounds


def check_archive(path: Path, shown: str, kind: str) -> None:
    """Refuse an archive that is not a zip, holds too many files, expands too far or declares XML entities.

    Python's zipfile never inflates a member beyond the size its directory
    declares, so bounding the declared sizes bounds the work of every later
    reader (openpyxl included).
    """
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror or exc})", shown) from exc
    if size > MAX_EXPANDED_BYTES:
        raise InputError(f"file is {size / _MIB:.1f} MiB, over the {MAX_EXPANDED_BYTES // _MIB} MiB limit for a card sheet", shown)
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
            if len(members) > MAX_ZIP_MEMBERS:
                raise InputError(f"the {kind} archive holds {len(members)} files, over the limit of {MAX_ZIP_MEMBERS}", shown)
            expanded = sum(info.file_size for info in members)
            if expanded > MAX_EXPANDED_BYTES:
                raise InputError(
                    f"the {kind} archive expands to {expanded / _MIB:.1f} MiB, over the {MAX_EXPANDED_BYTES // _MIB} MiB limit "
                    "(a zip bomb, or a workbook holding far more than a card list); refused",
                    shown,
                )
            scan = _XmlScan(shown)
            for info in members:  # every part, by its content: a part's name says nothing about what reads it
                scan.part(info.filename, archive.read(info))
    except zipfile.BadZipFile as exc:
        raise InputError(f"not a readable {kind} file (it is not a valid zip archive: {exc})", shown) from exc
    except (zipfile.LargeZipFile, NotImplementedError, RuntimeError, OSError, EOFError) as exc:
        raise InputError(f"cannot read the {kind} archive ({exc})", shown) from exc


class _XmlScan:
    """Every part of an archive checked as XML would be read: no DOCTYPE or entities, bounded elements and depth.

    The byte scan refuses a declaration in any part, whatever its name or
    encoding (ASCII-compatible, UTF-16 or UTF-32). A part that parses as XML
    is then walked by expat (which also refuses declarations it meets)
    counting elements against :data:`~cardgen.limits.MAX_XML_ELEMENTS` over the
    whole archive and nesting against :data:`~cardgen.limits.MAX_XML_DEPTH`,
    so that no later reader builds a tree too big or too deep to walk.
    """

    def __init__(self, shown: str) -> None:
        self.shown = shown
        self.elements = 0

    def part(self, name: str, content: bytes) -> None:
        if any(marker in content for marker in _forbidden_xml()):
            raise InputError(f"{name} declares a DOCTYPE or XML entities, which card sheets never need; refused", self.shown)
        if content.lstrip(b" \t\r\n\xef\xbb\xbf\xff\xfe\x00")[:1] != b"<":
            return  # not XML: an image, a thumbnail, the mimetype
        self._walk(name, content)

    def _walk(self, name: str, content: bytes) -> None:
        parser = expat.ParserCreate()
        depth = 0

        def start(_tag: str, _attributes: object) -> None:
            nonlocal depth
            depth += 1
            self.elements += 1
            if depth > MAX_XML_DEPTH:
                raise InputError(f"{name} nests elements deeper than {MAX_XML_DEPTH} levels (limit MAX_XML_DEPTH); refused", self.shown)
            if self.elements > MAX_XML_ELEMENTS:
                raise InputError(
                    f"the archive's XML holds more than {MAX_XML_ELEMENTS:,} elements (limit MAX_XML_ELEMENTS), "
                    f"far more than a card list; refused at {name}",
                    self.shown,
                )

        def end(_tag: str) -> None:
            nonlocal depth
            depth -= 1

        def declaration(*_args: object) -> None:
            raise InputError(f"{name} declares a DOCTYPE or XML entities, which card sheets never need; refused", self.shown)

        parser.StartElementHandler = start
        parser.EndElementHandler = end
        parser.StartDoctypeDeclHandler = declaration
        parser.EntityDeclHandler = declaration
        try:
            parser.Parse(content, True)
        except expat.ExpatError:
            return  # not well-formed: the reader that needs this part reports it in its own words


# --------------------------------------------------------------------------- shared checks


def _pick_sheet(names: list[str]) -> int:
    """The index of the sheet named ``cards`` (any case, spaces trimmed), else 0."""
    for index, name in enumerate(names):
        if name.strip().lower() == CARDS_SHEET:
            return index
    return 0


def _check_rows(rows: SheetRows, shown: str, sheet: str) -> SheetRows:
    """Map the rows onto cards once, so a mapping error names the sheet too; return the rows unchanged."""
    try:
        cards_from_rows(rows, shown, MAX_SHEET_ROWS)
    except InputError as error:
        raise _sheet_error(shown, sheet, error.message, error.line, error.column) from error
    return rows


_TOO_MANY_CHARS = f"the sheet's cells hold more than {MAX_SHEET_CHARS:,} characters together (limit MAX_SHEET_CHARS); refused"


def cell_problem(value: Any) -> str | None:
    """Why a cell's value cannot be used, or None: text too long, a number that is not finite."""
    if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
        return f"the cell holds {len(value)} characters, over the limit of {MAX_CELL_CHARS}"
    if isinstance(value, float) and not math.isfinite(value):
        return f"the cell holds {value}, which is not a usable number"
    return None


def _plain(value: Any) -> Any:
    """A spreadsheet value as a sheet cell: dates become ISO text, empty strings empty cells."""
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        return value.isoformat()
    if isinstance(value, _dt.timedelta):
        return str(value)
    if isinstance(value, str) and not value.strip():
        return None
    return value


# --------------------------------------------------------------------------- xlsx


def read_xlsx_rows(path: Path, shown: str) -> SheetRows:
    """The rows of an .xlsx card sheet: the sheet named ``cards`` or the first one, stored formula results."""
    check_archive(path, shown, ".xlsx")
    import openpyxl

    try:
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True, keep_links=False)
    except Exception as exc:  # openpyxl raises many kinds for a damaged workbook; all mean "cannot read"
        raise InputError(f"cannot read this .xlsx workbook ({type(exc).__name__}: {exc})", shown) from exc
    try:
        names = list(workbook.sheetnames)
        if not names:
            raise InputError("the workbook has no sheets", shown)
        sheet_name = names[_pick_sheet(names)]
        sheet = workbook[sheet_name]
        if not hasattr(sheet, "iter_rows"):
            raise InputError(f"{_where(sheet_name)} is a chart, not a sheet of cells", shown)
        rows = list(_xlsx_rows(sheet, shown, sheet_name))
    except InputError:
        raise
    except Exception as exc:  # a damaged sheet part surfaces only while iterating
        raise InputError(f"cannot read this .xlsx workbook ({type(exc).__name__}: {exc})", shown) from exc
    finally:
        workbook.close()
    return _check_rows(rows, shown, sheet_name)


def _xlsx_rows(sheet: Any, shown: str, sheet_name: str) -> Iterator[list[Any]]:
    """Rows up to the last one holding a value, every cell checked against the limits."""
    sheet.reset_dimensions()  # never trust the stated size: a forged one would pad every row
    visited = 0
    chars = 0
    pending_empty = 0
    last_row = MAX_SHEET_ROWS + 1
    for row_number, cells in enumerate(sheet.iter_rows(), start=1):
        visited += len(cells) + 1
        if visited > MAX_CELLS_VISITED:
            raise _sheet_error(shown, sheet_name, f"the sheet is too large to read (over {MAX_CELLS_VISITED} cells); a card sheet is a short table", row_number)
        values: list[Any] = []
        for column, cell in enumerate(cells, start=1):
            value = _plain(cell.value)
            if value is None:
                values.append(None)
                continue
            if getattr(cell, "data_type", None) == "e":
                raise _sheet_error(shown, sheet_name, f"the cell holds a formula error ({value}); fix the formula or type the value", row_number, column)
            if column > MAX_SHEET_COLUMNS:
                raise _sheet_error(shown, sheet_name, f"the sheet is wider than {MAX_SHEET_COLUMNS} columns", row_number, column)
            problem = cell_problem(value)
            if problem:
                raise _sheet_error(shown, sheet_name, problem, row_number, column)
            chars += len(value) if isinstance(value, str) else 0
            if chars > MAX_SHEET_CHARS:  # shared strings: one stored text may fill many cells
                raise _sheet_error(shown, sheet_name, _TOO_MANY_CHARS, row_number, column)
            values.append(value)
        while values and values[-1] is None:
            values.pop()
        if not values:
            pending_empty += 1
            if row_number > 50 * last_row:
                raise _sheet_error(
                    shown, sheet_name, f"the sheet runs on past row {row_number}; delete the empty rows below the cards", row_number
                )
            continue
        if row_number > last_row:
            raise _sheet_error(shown, sheet_name, f"the sheet has more than {MAX_SHEET_ROWS} rows below the header", row_number)
        for _ in range(pending_empty):
            yield []
        pending_empty = 0
        yield values


# --------------------------------------------------------------------------- ods

_NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "calcext": "urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0",
}
ODS_MIMETYPE = "application/vnd.oasis.opendocument.spreadsheet"


def _q(prefix: str, name: str) -> str:
    return f"{{{_NS[prefix]}}}{name}"


_TABLE = _q("table", "table")
_ROW = _q("table", "table-row")
_CELL = _q("table", "table-cell")
_COVERED = _q("table", "covered-table-cell")
_ROW_GROUPS = {_q("table", n) for n in ("table-header-rows", "table-rows", "table-row-group")}
_PARAGRAPHS = {_q("text", "p"), _q("text", "h")}
_SPACE = _q("text", "s")
_TAB = _q("text", "tab")
_BREAK = _q("text", "line-break")
_NOTE_PARTS = {_q("text", "note"), _q("office", "annotation")}


def read_ods_rows(path: Path, shown: str) -> SheetRows:
    """The rows of an .ods card sheet: the table named ``cards`` or the first one."""
    check_archive(path, shown, ".ods")
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            if "mimetype" in names:
                mimetype = archive.read("mimetype").decode("ascii", "replace").strip()
                if mimetype != ODS_MIMETYPE:
                    raise InputError(f"not an OpenDocument spreadsheet (its mimetype is {mimetype!r})", shown)
            if "content.xml" not in names:
                raise InputError("not an OpenDocument spreadsheet (content.xml is missing)", shown)
            content = archive.read("content.xml")
    except zipfile.BadZipFile as exc:
        raise InputError(f"not a readable .ods file ({exc})", shown) from exc
    from xml.etree import ElementTree  # (only .ods sheets are read as a tree; CSV and XLSX sheets never need it)

    try:
        root = ElementTree.fromstring(content)
    except ElementTree.ParseError as exc:
        line, column = getattr(exc, "position", (0, 0))
        raise InputError(f"content.xml is not well-formed XML (line {line}, column {column})", shown) from exc
    tables = root.findall("office:body/office:spreadsheet/table:table", _NS)
    if not tables:
        raise InputError("the spreadsheet has no sheets", shown)
    names_in_order = [t.get(_q("table", "name"), f"Sheet{i + 1}") for i, t in enumerate(tables)]
    index = _pick_sheet(names_in_order)
    sheet_name = names_in_order[index]
    rows = _ods_rows(tables[index], shown, sheet_name)
    return _check_rows(rows, shown, sheet_name)


def _repeat(element: Element, attribute: str, shown: str, sheet: str, row: int, column: int = 0) -> int:
    """A ``number-*-repeated`` count: a positive whole number (1 when absent)."""
    raw = element.get(_q("table", attribute))
    if raw is None:
        return 1
    try:
        count = int(raw)
    except ValueError:
        count = 0
    if count < 1:
        raise _sheet_error(shown, sheet, f"table:{attribute}={raw!r} is not a positive whole number", row, column)
    return count


def _ods_row_elements(parent: Element) -> Iterator[Element]:
    """The rows of a table in order, looking inside header-row and row groups."""
    for child in parent:
        if child.tag == _ROW:
            yield child
        elif child.tag in _ROW_GROUPS:
            yield from _ods_row_elements(child)


def _ods_rows(table: Element, shown: str, sheet: str) -> SheetRows:
    """Expand repeated rows and cells without ever materialising trailing blank ones."""
    rows: SheetRows = []
    row_number = 0  # the sheet row before the current element
    pending_rows = 0
    chars = 0
    for row in _ods_row_elements(table):
        row_repeat = _repeat(row, "number-rows-repeated", shown, sheet, row_number + 1)
        cells = _ods_cells(row, shown, sheet, row_number + 1)
        chars += row_repeat * sum(len(cell) for cell in cells if isinstance(cell, str))
        if chars > MAX_SHEET_CHARS:  # repeated rows and cells: a short file may stand for a huge sheet
            raise _sheet_error(shown, sheet, _TOO_MANY_CHARS, row_number + 1)
        if not cells:
            pending_rows += row_repeat
            row_number += row_repeat
            continue
        last = row_number + row_repeat
        if last > MAX_SHEET_ROWS + 1:
            raise _sheet_error(shown, sheet, f"the sheet has more than {MAX_SHEET_ROWS} rows below the header", max(row_number + 1, MAX_SHEET_ROWS + 2))
        rows.extend([] for _ in range(pending_rows))
        pending_rows = 0
        rows.extend(list(cells) for _ in range(row_repeat))
        row_number = last
    return rows


def _ods_cells(row: Element, shown: str, sheet: str, row_number: int) -> list[Any]:
    """One row's cells, repeated cells expanded, trailing blanks dropped."""
    cells: list[Any] = []
    pending = 0
    for cell in row:
        if cell.tag not in (_CELL, _COVERED):
            continue
        column = len(cells) + pending + 1
        repeat = _repeat(cell, "number-columns-repeated", shown, sheet, row_number, column)
        value = _ods_value(cell, shown, sheet, row_number, column)
        problem = cell_problem(value)
        if problem:
            raise _sheet_error(shown, sheet, problem, row_number, column)
        if value is None:
            pending += repeat
            continue
        if column + repeat - 1 > MAX_SHEET_COLUMNS:
            raise _sheet_error(shown, sheet, f"the sheet is wider than {MAX_SHEET_COLUMNS} columns", row_number, max(column, MAX_SHEET_COLUMNS + 1))
        cells.extend([None] * pending)
        pending = 0
        cells.extend([value] * repeat)
    return cells


def _ods_value(cell: Element, shown: str, sheet: str, row: int, column: int) -> Any:
    """A cell's typed value: float, bool, ISO date text, or its paragraphs joined by newlines."""
    kind = cell.get(_q("office", "value-type"))
    if cell.get(_q("calcext", "value-type")) == "error":
        shown_text = _ods_text(cell) or "an error"
        raise _sheet_error(shown, sheet, f"the cell holds a formula error ({shown_text}); fix the formula or type the value", row, column)
    if kind in {"float", "percentage", "currency"}:
        raw = cell.get(_q("office", "value"))
        try:
            return float(raw) if raw is not None else None
        except ValueError:
            raise _sheet_error(shown, sheet, f"office:value={raw!r} is not a number", row, column) from None
    if kind == "boolean":
        raw = (cell.get(_q("office", "boolean-value")) or "").strip().lower()
        if raw not in {"true", "false"}:
            raise _sheet_error(shown, sheet, f"office:boolean-value={raw!r} is not true or false", row, column)
        return raw == "true"
    if kind == "date":
        return _plain(cell.get(_q("office", "date-value")))
    if kind == "time":
        return _plain(cell.get(_q("office", "time-value")))
    if kind == "string" and cell.get(_q("office", "string-value")) is not None:
        return _plain(cell.get(_q("office", "string-value")))
    return _plain(_ods_text(cell))


class _CellTooLong(Exception):
    """A cell's text passed MAX_CELL_CHARS while its paragraphs were being expanded."""


def _ods_text(cell: Element) -> str:
    """The cell's paragraphs joined by newlines (comments left out), at most MAX_CELL_CHARS (+1) characters.

    Expansion stops as soon as the text is over the limit, so a cell of
    thousands of repeated-space elements never grows past it; the caller then
    reports the cell as too long.
    """
    parts: list[str] = []
    budget = [MAX_CELL_CHARS + 1]
    try:
        for index, paragraph in enumerate(p for p in cell if p.tag in _PARAGRAPHS):
            if index:
                _take(parts, "\n", budget)
            _inline_text(paragraph, parts, budget)
    except _CellTooLong:
        pass
    return "".join(parts)


def _take(parts: list[str], text: str, budget: list[int]) -> None:
    """Append ``text`` while the budget lasts; raise _CellTooLong once it is spent."""
    if len(text) >= budget[0]:
        parts.append(text[: budget[0]])
        raise _CellTooLong
    budget[0] -= len(text)
    parts.append(text)


def _inline_text(element: Element, parts: list[str], budget: list[int]) -> None:
    """The text of a paragraph into ``parts``: spans and links flattened, ``text:s`` spaces and tabs expanded.

    Nesting is bounded by the archive scan (MAX_XML_DEPTH), so the recursion is too.
    """
    _take(parts, element.text or "", budget)
    for child in element:
        if child.tag == _SPACE:
            try:
                count = int(child.get(_q("text", "c"), "1"))
            except ValueError:
                count = 1
            _take(parts, " " * max(1, min(count, budget[0])), budget)
        elif child.tag == _TAB:
            _take(parts, "\t", budget)
        elif child.tag == _BREAK:
            _take(parts, "\n", budget)
        elif child.tag not in _NOTE_PARTS:
            _inline_text(child, parts, budget)
        _take(parts, child.tail or "", budget)


SHEET_READERS.setdefault(".xlsx", read_xlsx_rows)
SHEET_READERS.setdefault(".xlsm", read_xlsx_rows)
SHEET_READERS.setdefault(".ods", read_ods_rows)


def load_card_table(
    path: Path, shown: str, max_rows: int = MAX_SHEET_ROWS, budget: SheetBudget | None = None, text_fields: frozenset[str] = frozenset()
) -> tuple[list[dict[str, Any]], SourceMap]:
    """Load a card list kept in a spreadsheet (CSV, and the formats in SHEET_READERS) into card mappings.

    Columns map onto card keys: ``id``, ``copies``, ``type``, ``effect``,
    ``name.<locale>`` and ``text.<locale>`` for localised strings, and any other
    column is a data field. A ``face1.`` / ``face2.`` prefix fills the two faces
    of a two-sided card. Cells holding YAML-style lists (``[[0,0],[1,0]]``) are
    parsed as YAML flow values. Places are rows and columns of the sheet.
    """
    reader = SHEET_READERS.get(path.suffix.lower())
    if reader is None:
        known = ", ".join(sorted(SHEET_READERS))
        raise InputError(f"card sheets must be one of {known}, not {path.suffix or 'a file without suffix'}", shown)
    rows = reader(path, shown)
    if not rows or not any(str(c).strip() for c in rows[0] if c is not None):
        raise InputError("card sheet is empty; it needs a header row and one row per card", shown, 1, 1)
    return cards_from_rows(rows, shown, max_rows, budget, text_fields)
