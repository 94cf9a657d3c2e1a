"""Card sheets: the CSV reader, the readers by suffix, the shared cell budget, and sheet rows turned into cards.

Spreadsheet formats (xlsx, ods) add their readers in :mod:`cardgen.spec.tables`,
which also holds :func:`~cardgen.spec.tables.load_card_table`, the entry point
that picks a reader by the file's suffix.
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from cardgen.findings import InputError
from cardgen.limits import MAX_SCALAR_CHARS, MAX_SHEET_CELLS, MAX_SHEET_CHARS, MAX_SHEET_ROWS
from cardgen.spec.files import read_text
from cardgen.spec.source import Place, SourceMap
from cardgen.spec.yaml_load import read_yaml_text, scalar_problem

MAX_CSV_CELL = MAX_SCALAR_CHARS
"""The longest cell a card sheet may hold, in characters (the longest text anywhere)."""


def _coerce_cell(raw: str) -> Any:
    """A CSV cell as the value a YAML scalar would have been: int, float, bool or string."""
    text = raw.strip()
    if text == "":
        return None
    lowered = text.lower()
    if lowered in {"true", "yes"}:
        return True
    if lowered in {"false", "no"}:
        return False
    first = text[0]
    if not (first.isdigit() or first in "+-."):  # (no finite number starts otherwise: "inf" and "nan" stay words
        return text  # anyway; the common cell, a name or a sentence, is spared two failed conversions)
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        return text
    return number if math.isfinite(number) else text  # "inf", "NaN", "Infinity" are words in a sheet


SheetRows = list[list[Any]]
"""A card sheet as rows of cells (the header first); cells are strings, numbers, bools or None."""


def read_csv_rows(path: Path, shown: str) -> SheetRows:
    """The rows of a CSV card sheet, read by RFC 4180 with the delimiter its header uses (comma, semicolon, tab or bar).

    Only the delimiter is taken from the header; the quoting is RFC 4180's
    (``"`` quotes a cell, ``""`` inside one is a quote), whatever the
    sniffer guesses: on a header without quotes it would turn doubled quotes
    off, so ``"A ""deep"" cup"`` lost its quotes or the row was refused.
    """
    text = read_text(path, shown)
    if not text.strip():
        raise InputError("card sheet is empty; it needs a header row and one row per card", shown, 1, 1)
    try:
        delimiter = csv.Sniffer().sniff(text.splitlines()[0], delimiters=",;\t|").delimiter
    except csv.Error:
        delimiter = ","
    reader = csv.reader(io.StringIO(text), csv.excel, delimiter=delimiter, strict=True)
    previous_limit = csv.field_size_limit(MAX_CSV_CELL)
    try:
        return [list(row) for row in reader]
    except csv.Error as exc:
        raise InputError(f"card sheet cannot be read as CSV: {exc}", shown, max(reader.line_num, 1), 1) from exc
    finally:
        csv.field_size_limit(previous_limit)


SHEET_READERS: dict[str, Callable[[Path, str], SheetRows]] = {".csv": read_csv_rows, ".tsv": read_csv_rows, ".txt": read_csv_rows}
"""Card sheet readers by file suffix; spreadsheet formats add theirs (see cardgen.spec.tables)."""


@dataclass
class SheetBudget:
    """The cells and characters a spec's card sheets have used so far (all its sheets together).

    One budget is shared by every sheet a spec names, so naming one large sheet
    from many decks cannot multiply the work.
    """

    cells: int = 0
    chars: int = 0

    def spend(self, value: Any, shown: str, row: int, column: int) -> None:
        """Count one non-empty cell; InputError at its place once a limit is passed."""
        self.cells += 1
        if isinstance(value, str):
            self.chars += len(value)
        elif isinstance(value, (list, dict)):
            self.chars += len(json.dumps(value, ensure_ascii=False, default=str))
        if self.cells > MAX_SHEET_CELLS:
            raise InputError(f"card sheets hold more than {MAX_SHEET_CELLS:,} cells together (limit MAX_SHEET_CELLS)", shown, row, column)
        if self.chars > MAX_SHEET_CHARS:
            raise InputError(f"card sheets hold more than {MAX_SHEET_CHARS:,} characters together (limit MAX_SHEET_CHARS)", shown, row, column)


def _data_field(name: str) -> str:
    """The data field a column fills: its name without a ``face1.``/``face2.`` prefix."""
    parts = name.split(".")
    return ".".join(parts[1:] if parts[0] in {"face1", "face2"} else parts)


def _column_target(name: str) -> tuple[int | None, list[str]]:
    """Which face a column's value goes on (0, 1, or None for the card) and the dotted keys under it."""
    parts = name.split(".")
    if parts[0] in {"face1", "face2"}:
        return (0 if parts[0] == "face1" else 1), parts[1:]
    return None, parts


def cards_from_rows(
    rows: SheetRows,
    shown: str,
    max_rows: int = MAX_SHEET_ROWS,
    budget: SheetBudget | None = None,
    text_fields: frozenset[str] = frozenset(),
) -> tuple[list[dict[str, Any]], SourceMap]:
    """Map sheet rows (header first) onto card mappings, remembering each cell's row and column.

    Every non-empty cell is counted against ``budget`` (a fresh one when None):
    :data:`~cardgen.limits.MAX_SHEET_CELLS` and :data:`~cardgen.limits.MAX_SHEET_CHARS`.
    A data field the deck declares as text (``text_fields``) keeps its cell as written, so a
    rank printed as ``10`` or a code ``007`` stays the text it is rather than becoming a number.
    """
    budget = budget if budget is not None else SheetBudget()
    header = [str(h).strip() if h is not None else "" for h in rows[0]]
    for col_index, name in enumerate(header, start=1):
        if not name:
            continue
        if header.index(name) != col_index - 1:
            raise InputError(f"column {name!r} appears twice in the header", shown, 1, col_index)
        if name.split(".")[0] in {"face1", "face2"} and "." not in name:
            raise InputError(f"column {name!r} needs a key after the face, e.g. {name}.name.en", shown, 1, col_index)
        problem = scalar_problem(name)
        if problem:
            raise InputError(f"column {col_index}: {problem}", shown, 1, col_index)
    # Each named column once: its place, name, where its value goes and whether it is kept as text (not once per cell).
    columns = [(col_index, name, _column_target(name), _data_field(name) in text_fields) for col_index, name in enumerate(header, start=1) if name]
    smap = SourceMap(shown)
    cards: list[dict[str, Any]] = []
    for row_index, row in enumerate(rows[1:], start=2):
        cells = ["" if c is None else c for c in row]
        if not any(str(cell).strip() for cell in cells):
            continue
        if len(cards) >= max_rows:
            raise InputError(f"card sheet has more than {max_rows:,} rows (limit MAX_SHEET_ROWS)", shown, row_index)
        while len(cells) > len(header) and not str(cells[-1]).strip():
            cells.pop()
        if len(cells) > len(header):
            raise InputError(f"row has {len(cells)} cells but the header has {len(header)}", shown, row_index, len(header) + 1)
        if len(cells) < len(header) and shown.lower().endswith((".csv", ".tsv", ".txt")):
            raise InputError(f"row has {len(cells)} cells but the header has {len(header)}", shown, row_index, 1)
        card: dict[str, Any] = {}
        index = len(cards)
        smap.places[(index,)] = Place(shown, row_index, 1)
        for col_index, name, (face_index, parts), as_text in columns:
            if col_index > len(cells):
                break
            cell = cells[col_index - 1]
            if as_text:
                if isinstance(cell, float) and cell.is_integer():
                    cell = int(cell)
                value: Any = (str(cell).strip() or None) if not isinstance(cell, bool) else str(cell).lower()
            else:
                value = _coerce_cell(cell) if isinstance(cell, str) else cell
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            if isinstance(value, str) and value[:1] in "[{":
                shown_cell = value if len(value) <= 60 else value[:57] + "..."
                try:
                    value = read_yaml_text(value, shown, 10_000, 10)[0]
                except (InputError, RecursionError) as exc:
                    raise InputError(f"column {name!r}: cannot read {shown_cell!r} as a list or mapping", shown, row_index, col_index) from exc
            problem = scalar_problem(value)
            if problem:
                raise InputError(f"column {name!r}: {problem}", shown, row_index, col_index)
            if value is None:
                continue
            budget.spend(value, shown, row_index, col_index)
            target = card
            keys: list[str | int] = []
            if face_index is not None:
                faces = card.setdefault("faces", [{}, {}])
                target = faces[face_index]
                keys = ["faces", face_index]
            if parts[0] in {"name", "text"} and len(parts) == 2:
                target.setdefault(parts[0], {})[parts[1]] = str(value)
                keys += [parts[0], parts[1]]
            elif parts[0] in {"id", "copies", "type", "effect"} and len(parts) == 1:
                target[parts[0]] = str(value) if parts[0] in {"id", "type", "effect"} else value
                keys += [parts[0]]
            else:
                target.setdefault("data", {})[".".join(parts)] = value
                keys += ["data", ".".join(parts)]
            smap.places[(index, *keys)] = Place(shown, row_index, col_index)
        cards.append(card)
    return cards, smap
