"""Reading spec files safely, keeping the line and column of every key and item.

A spec is read with ruamel.yaml's round-trip parser (no object tags are ever
constructed) and converted into plain Python values plus a :class:`SourceMap`
that remembers, for each path inside the document, where it was written. The
conversion is bounded: file size, nesting depth and the number of nodes after
alias expansion all have limits, so a typo or a hostile file cannot start an
endless build.
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from cardgen.findings import InputError

PathKey = tuple[str | int, ...]

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_NODES = 200_000
MAX_DEPTH = 40


@dataclass(frozen=True)
class Place:
    """A file and a 1-based line and column."""

    file: str
    line: int = 0
    column: int = 0


@dataclass
class SourceMap:
    """Where each path of a loaded document was written.

    Paths are tuples of keys and indexes, as Pydantic reports them in ``loc``.
    Lookups fall back to the nearest written ancestor, so a missing key points
    at the mapping that should have held it.
    """

    default_file: str
    places: dict[PathKey, Place] = field(default_factory=dict)

    def place(self, path: PathKey) -> Place:
        """The place of ``path`` or of its nearest ancestor that has one."""
        probe = tuple(path)
        while True:
            found = self.places.get(probe)
            if found is not None:
                return found
            if not probe:
                return Place(self.default_file)
            probe = probe[:-1]

    def graft(self, prefix: PathKey, other: "SourceMap") -> None:
        """Copy every place of ``other`` under ``prefix`` (used for card sheets)."""
        for path, place in other.places.items():
            self.places[prefix + path] = place


def dotted(path: PathKey) -> str:
    """A readable dotted path: ``decks[0].cards[3].cells``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def read_text(path: Path, shown: str, max_bytes: int = MAX_FILE_BYTES) -> str:
    """Read a spec file as UTF-8 text with clear errors for size, binary data and encoding."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror or exc})", shown) from exc
    if size > max_bytes:
        raise InputError(f"file is {size} bytes, over the {max_bytes}-byte limit for a spec file", shown)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror or exc})", shown) from exc
    if b"\x00" in raw:
        raise InputError("file holds binary data (a NUL byte), not YAML or CSV text", shown)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(f"file is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}); save it as UTF-8", shown, line, column) from exc
    return text


def _yaml() -> YAML:
    yaml = YAML(typ="rt", pure=True)
    yaml.allow_duplicate_keys = False
    return yaml


class _Converter:
    """Turns a ruamel round-trip tree into plain values, recording places, within limits."""

    def __init__(self, shown: str, max_nodes: int, max_depth: int) -> None:
        self.shown = shown
        self.max_nodes = max_nodes
        self.max_depth = max_depth
        self.nodes = 0
        self.map = SourceMap(shown)

    def _count(self, path: PathKey) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            place = self.map.place(path)
            raise InputError(
                f"document expands to more than {self.max_nodes} values (an alias/anchor bomb or a runaway list?)",
                self.shown,
                place.line,
                place.column,
            )
        if len(path) > self.max_depth:
            place = self.map.place(path)
            raise InputError(f"nesting deeper than {self.max_depth} levels", self.shown, place.line, place.column)

    def convert(self, node: Any, path: PathKey) -> Any:
        self._count(path)
        if isinstance(node, CommentedMap):
            out: dict[str, Any] = {}
            for key in node:
                value = node[key]
                name = key if isinstance(key, str) else str(key)
                child = path + (name,)
                try:
                    line, col = node.lc.key(key)
                    self.map.places[child] = Place(self.shown, line + 1, col + 1)
                except (KeyError, TypeError, AttributeError):
                    pass
                if not isinstance(key, str):
                    raise InputError(
                        f"key {key!r} is not a string; quote it",
                        self.shown,
                        self.map.place(child).line,
                        self.map.place(child).column,
                    )
                out[name] = self.convert(value, child)
            return out
        if isinstance(node, CommentedSeq):
            items: list[Any] = []
            for index, value in enumerate(node):
                child = path + (index,)
                try:
                    line, col = node.lc.item(index)
                    self.map.places[child] = Place(self.shown, line + 1, col + 1)
                except (KeyError, TypeError, AttributeError):
                    pass
                items.append(self.convert(value, child))
            return items
        if isinstance(node, bool) or node is None:
            return node
        if isinstance(node, int):
            return int(node)
        if isinstance(node, float):
            return float(node)
        if isinstance(node, str):
            return str(node)
        if isinstance(node, (_dt.date, _dt.datetime)):
            return node.isoformat()
        if isinstance(node, (dict, list)):  # plain containers from merges
            return self.convert(CommentedMap(node) if isinstance(node, dict) else CommentedSeq(node), path)
        return str(node)


def load_yaml(path: Path, shown: str, *, max_nodes: int = MAX_NODES, max_depth: int = MAX_DEPTH) -> tuple[Any, SourceMap]:
    """Load one YAML file into plain values and a map of where each value was written.

    Raises :class:`InputError` naming the file and place for anything that is not
    readable YAML: empty files, binary data, bad encodings, syntax errors,
    duplicate keys, alias bombs and runaway nesting.
    """
    text = read_text(path, shown)
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        raise InputError("file is empty; a spec needs at least an id, a title and its components", shown, 1, 1)
    try:
        tree = _yaml().load(io.StringIO(text))
    except DuplicateKeyError as exc:
        mark = exc.problem_mark
        line = (mark.line + 1) if mark else 0
        col = (mark.column + 1) if mark else 0
        raise InputError(f"duplicate key: {exc.problem}".replace("\n", " "), shown, line, col) from exc
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = (mark.line + 1) if mark else 0
        col = (mark.column + 1) if mark else 0
        what = (exc.problem or exc.context or "YAML syntax error").replace("\n", " ")
        raise InputError(f"YAML syntax error: {what}", shown, line, col) from exc
    except YAMLError as exc:
        raise InputError(f"YAML error: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}", shown) from exc
    except RecursionError as exc:
        raise InputError(f"nesting deeper than {max_depth} levels", shown) from exc
    converter = _Converter(shown, max_nodes, max_depth)
    try:
        data = converter.convert(tree, ())
    except RecursionError as exc:
        raise InputError(f"nesting deeper than {max_depth} levels", shown) from exc
    return data, converter.map


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
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


SheetRows = list[list[Any]]
"""A card sheet as rows of cells (the header first); cells are strings, numbers, bools or None."""


def read_csv_rows(path: Path, shown: str) -> SheetRows:
    """The rows of a CSV card sheet (the delimiter is sniffed: comma, semicolon, tab or bar)."""
    text = read_text(path, shown)
    if not text.strip():
        raise InputError("card sheet is empty; it needs a header row and one row per card", shown, 1, 1)
    try:
        dialect: Any = csv.Sniffer().sniff(text.splitlines()[0], delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    return [list(row) for row in csv.reader(io.StringIO(text), dialect)]


SHEET_READERS: dict[str, Callable[[Path, str], SheetRows]] = {".csv": read_csv_rows, ".tsv": read_csv_rows, ".txt": read_csv_rows}
"""Card sheet readers by file suffix; spreadsheet formats add theirs (see cardgen.spec.tables)."""


def load_card_table(path: Path, shown: str, max_rows: int = 5000) -> tuple[list[dict[str, Any]], SourceMap]:
    """Load a card list kept in a spreadsheet (CSV, and the formats in SHEET_READERS) into card mappings.

    Columns map onto card keys: ``id``, ``copies``, ``type``, ``effect``,
    ``name.<locale>`` and ``text.<locale>`` for localised strings, and any other
    column is a data field. A ``face1.`` / ``face2.`` prefix fills the two faces
    of a two-sided card. Cells holding YAML-style lists (``[[0,0],[1,0]]``) are
    parsed as YAML flow values. Places are rows and columns of the sheet.
    """
    import cardgen.spec.tables  # noqa: F401  (registers the spreadsheet readers)

    reader = SHEET_READERS.get(path.suffix.lower())
    if reader is None:
        known = ", ".join(sorted(SHEET_READERS))
        raise InputError(f"card sheets must be one of {known}, not {path.suffix or 'a file without suffix'}", shown)
    rows = reader(path, shown)
    if not rows or not any(str(c).strip() for c in rows[0] if c is not None):
        raise InputError("card sheet is empty; it needs a header row and one row per card", shown, 1, 1)
    return cards_from_rows(rows, shown, max_rows)


def cards_from_rows(rows: SheetRows, shown: str, max_rows: int = 5000) -> tuple[list[dict[str, Any]], SourceMap]:
    """Map sheet rows (header first) onto card mappings, remembering each cell's row and column."""
    header = [str(h).strip() if h is not None else "" for h in rows[0]]
    smap = SourceMap(shown)
    cards: list[dict[str, Any]] = []
    flow = _yaml()
    for row_index, row in enumerate(rows[1:], start=2):
        cells = ["" if c is None else c for c in row]
        if not any(str(cell).strip() for cell in cells):
            continue
        if len(cards) >= max_rows:
            raise InputError(f"card sheet has more than {max_rows} rows", shown, row_index)
        while len(cells) > len(header) and not str(cells[-1]).strip():
            cells.pop()
        if len(cells) > len(header):
            raise InputError(f"row has {len(cells)} cells but the header has {len(header)}", shown, row_index, len(header) + 1)
        if len(cells) < len(header) and shown.lower().endswith((".csv", ".tsv", ".txt")):
            raise InputError(f"row has {len(cells)} cells but the header has {len(header)}", shown, row_index, 1)
        card: dict[str, Any] = {}
        index = len(cards)
        smap.places[(index,)] = Place(shown, row_index, 1)
        for col_index, (name, cell) in enumerate(zip(header, cells), start=1):
            if not name:
                continue
            value: Any = _coerce_cell(cell) if isinstance(cell, str) else cell
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            if isinstance(value, str) and value[:1] in "[{":
                try:
                    value = _Converter(shown, 10_000, 10).convert(flow.load(value), ())
                except (YAMLError, InputError) as exc:
                    raise InputError(f"column {name!r}: cannot read {cell!r} as a list or mapping", shown, row_index, col_index) from exc
            if value is None:
                continue
            target = card
            parts = name.split(".")
            keys: list[str | int] = []
            if parts[0] in {"face1", "face2"}:
                faces = card.setdefault("faces", [{}, {}])
                face_index = 0 if parts[0] == "face1" else 1
                target = faces[face_index]
                keys = ["faces", face_index]
                parts = parts[1:]
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
