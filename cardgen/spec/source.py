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
import hashlib
import io
import json
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from cardgen.findings import InputError

PathKey = tuple[str | int, ...]

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_NODES = 200_000
MAX_DEPTH = 40
MAX_INT = 2**53 - 1
"""The largest whole number a spec may hold (either sign): beyond it numbers are typos or attacks."""
MAX_CSV_CELL = 64 * 1024
"""The longest cell a card sheet may hold, in characters."""


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


class ResultCache(Protocol):
    """Where a loader or a check keeps a result for later processes (a build's :class:`cardgen.build.ArtefactCache`).

    Keys come from :meth:`key`, which covers cardgen's code and the versions
    of the libraries it uses besides the parts given; a result is stored only
    when it is a deterministic function of those parts.
    """

    def key(self, *parts: object) -> str:
        """A hex key over the code fingerprint and ``parts``."""
        ...

    def get(self, key: str) -> bytes | None:
        """The bytes stored under ``key`` (marking it used by this build), or None."""
        ...

    def put(self, key: str, data: bytes) -> None:
        """Store ``data`` under ``key``; failing to store is not an error."""
        ...


_PARSE_CACHE: ContextVar[ResultCache | None] = ContextVar("cardgen_parse_cache", default=None)


@contextmanager
def parse_cache_scope(cache: ResultCache | None) -> Iterator[None]:
    """Make ``cache`` the :func:`active_parse_cache` for the duration (a build sets its own).

    Spec files are loaded with an explicit cache (``load_spec(folder, cache=...)``);
    files read deeper down, where no cache is passed (a deck's layout file),
    use this one.
    """
    token = _PARSE_CACHE.set(cache)
    try:
        yield
    finally:
        _PARSE_CACHE.reset(token)


def active_parse_cache() -> ResultCache | None:
    """The cache set by the enclosing :func:`parse_cache_scope`, or None (outside a build)."""
    return _PARSE_CACHE.get()


def seal_entry(kind: str, payload: bytes) -> bytes:
    """A cache entry: a header naming ``kind`` and the sha256 of ``payload``, then ``payload``."""
    return f"cardgen:{kind}:{hashlib.sha256(payload).hexdigest()}\n".encode("ascii") + payload


def open_entry(kind: str, entry: bytes | None) -> bytes | None:
    """The payload of an entry made by :func:`seal_entry` for ``kind``; None when missing, foreign, truncated or altered."""
    if entry is None:
        return None
    header, newline, payload = entry.partition(b"\n")
    if not newline or header != f"cardgen:{kind}:{hashlib.sha256(payload).hexdigest()}".encode("ascii"):
        return None
    return payload


def read_bytes(path: Path, shown: str, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """Read a spec file's bytes, refusing files over ``max_bytes`` with a clear error."""
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
    return raw


def decode_text(raw: bytes, shown: str) -> str:
    """A spec file's bytes as UTF-8 text, with clear errors for binary data and bad encodings."""
    if b"\x00" in raw:
        raise InputError("file holds binary data (a NUL byte), not YAML or CSV text", shown)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(f"file is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}); save it as UTF-8", shown, line, column) from exc
    return text


def read_text(path: Path, shown: str, max_bytes: int = MAX_FILE_BYTES) -> str:
    """Read a spec file as UTF-8 text with clear errors for size, binary data and encoding."""
    return decode_text(read_bytes(path, shown, max_bytes), shown)


_TOKEN_START = frozenset(":-,[{?")


def check_flow_depth(text: str, shown: str, limit: int = MAX_DEPTH) -> None:
    """Refuse text whose flow collections (``[`` and ``{``) nest deeper than ``limit``.

    ruamel's scanner slows down quadratically with flow nesting, so a few
    kilobytes of brackets would stall it for seconds before the converter's own
    depth limit is reached. This linear pre-scan skips comments and quoted
    scalars and counts a bracket only where YAML could open a collection (at a
    line start or after ``:``, ``-``, ``,``, ``[``, ``{`` or ``?``), so brackets
    inside prose do not count.
    """
    depth = 0
    line = 1
    line_start = 0
    previous = "\n"  # the last significant character (line starts count as token starts)
    index = 0
    length = len(text)
    while index < length:
        ch = text[index]
        if ch == "\n":
            line += 1
            line_start = index + 1
            previous = "\n"
        elif ch in " \t\r":
            pass
        elif ch == "#" and (index == 0 or text[index - 1] in " \t\r\n"):
            end = text.find("\n", index)
            index = length if end < 0 else end
            continue
        elif ch in "'\"" and (previous == "\n" or previous in _TOKEN_START):
            quote = ch
            index += 1
            while index < length:
                cur = text[index]
                if cur == "\n":
                    line += 1
                    line_start = index + 1
                elif quote == '"' and cur == "\\":
                    index += 1
                elif cur == quote:
                    if quote == "'" and index + 1 < length and text[index + 1] == "'":
                        index += 1
                    else:
                        break
                index += 1
            previous = quote
        elif ch in "!&" and (previous == "\n" or previous in _TOKEN_START):
            # a tag or an anchor: skip its name and let the collection after it count
            while index + 1 < length and text[index + 1] not in " \t\r\n[]{},":
                index += 1
        elif ch in "[{" and (previous == "\n" or previous in _TOKEN_START):
            depth += 1
            if depth > limit:
                raise InputError(f"nesting deeper than {limit} levels", shown, line, index - line_start + 1)
            previous = ch
        elif ch in "]}":
            depth = max(depth - 1, 0)
            previous = ch
        else:
            previous = ch
        index += 1


def _scalar_problem(value: Any) -> str | None:
    """Why a loaded scalar cannot be accepted, or None."""
    if isinstance(value, int) and not isinstance(value, bool) and not -MAX_INT <= value <= MAX_INT:
        return f"number is too large (whole numbers must lie within \u00b1{MAX_INT})"
    if isinstance(value, str):
        for ch in value:
            if "\ud800" <= ch <= "\udfff":
                return f"text holds an unpaired surrogate (U+{ord(ch):04X}); write the character itself, not its escape"
    return None


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
                self._check_scalar(key, child)
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
            self._check_scalar(node, path)
            return int(node)
        if isinstance(node, float):
            return float(node)
        if isinstance(node, str):
            self._check_scalar(node, path)
            return str(node)
        if isinstance(node, (_dt.date, _dt.datetime)):
            return node.isoformat()
        if isinstance(node, (dict, list)):  # plain containers from merges
            return self.convert(CommentedMap(node) if isinstance(node, dict) else CommentedSeq(node), path)
        # anything else (a custom or unknown tag, binary data, a set) is kept as plain text
        text = str(node)
        self._check_scalar(text, path)
        return text

    def _check_scalar(self, value: Any, path: PathKey) -> None:
        problem = _scalar_problem(value)
        if problem:
            place = self.map.place(path)
            raise InputError(f"{dotted(path) or 'value'}: {problem}", self.shown, place.line, place.column)


def convert_plain(value: Any, shown: str, *, max_nodes: int = MAX_NODES, max_depth: int = MAX_DEPTH) -> tuple[Any, SourceMap]:
    """Apply the loader's limits and checks to values already parsed (e.g. built by a tool or a test).

    Returns plain values and an (empty) source map; raises :class:`InputError`
    exactly where :func:`load_yaml` would: non-string keys, runaway nesting or
    size, numbers beyond :data:`MAX_INT`, unpaired surrogates.
    """
    converter = _Converter(shown, max_nodes, max_depth)
    try:
        data = converter.convert(value, ())
    except RecursionError as exc:
        raise InputError(f"nesting deeper than {max_depth} levels", shown) from exc
    return data, converter.map


YAML_ENTRY = "yaml-parse-1"
"""The kind (and format version) of a cached YAML parse."""


def _encode_parse(data: Any, smap: SourceMap, shown: str) -> bytes | None:
    """A parse result as a sealed JSON entry (places without their file, which is always ``shown``); None if it cannot be."""
    places = []
    for path, place in smap.places.items():
        if place.file != shown:
            return None
        places.append([list(path), place.line, place.column])
    try:
        payload = json.dumps({"data": data, "places": places}, ensure_ascii=False, allow_nan=True, separators=(",", ":")).encode("utf-8")
        if json.loads(payload) != {"data": data, "places": places}:
            return None  # a value JSON would bring back changed (a tuple, NaN...): parse it afresh each time
    except (TypeError, ValueError, UnicodeEncodeError, RecursionError):
        return None
    return seal_entry(YAML_ENTRY, payload)


def _decode_parse(entry: bytes | None, shown: str) -> tuple[Any, SourceMap] | None:
    """The parse result stored by :func:`_encode_parse`, its places naming ``shown``; None for anything unusable."""
    payload = open_entry(YAML_ENTRY, entry)
    if payload is None:
        return None
    try:
        stored = json.loads(payload.decode("utf-8"))
        data = stored["data"]
        smap = SourceMap(shown)
        for path, line, column in stored["places"]:
            if not all(isinstance(part, (str, int)) and not isinstance(part, bool) for part in path):
                return None
            if type(line) is not int or type(column) is not int:
                return None
            smap.places[tuple(path)] = Place(shown, line, column)
    except (ValueError, TypeError, KeyError, RecursionError, UnicodeDecodeError):
        return None
    return data, smap


def load_yaml(
    path: Path, shown: str, *, max_nodes: int = MAX_NODES, max_depth: int = MAX_DEPTH, cache: ResultCache | None = None
) -> tuple[Any, SourceMap]:
    """Load one YAML file into plain values and a map of where each value was written.

    Raises :class:`InputError` naming the file and place for anything that is not
    readable YAML: empty files, binary data, bad encodings, syntax errors,
    duplicate keys, alias bombs and runaway nesting.

    With a ``cache``, a successful parse is stored under the sha256 of the
    file's bytes and the limits (and cardgen's code, through the cache's key),
    as JSON, and later loads of the same bytes reuse it: the values and the
    places come back equal. A file that fails is never stored, so its error is
    raised, with its place, every time.
    """
    raw = read_bytes(path, shown)
    key = ""
    if cache is not None:
        key = cache.key(YAML_ENTRY, hashlib.sha256(raw).hexdigest(), max_nodes, max_depth)
        cached = _decode_parse(cache.get(key), shown)
        if cached is not None:
            return cached
    data, smap = _parse_yaml(decode_text(raw, shown), shown, max_nodes, max_depth)
    if cache is not None:
        entry = _encode_parse(data, smap, shown)
        if entry is not None:
            cache.put(key, entry)
    return data, smap


def _parse_yaml(text: str, shown: str, max_nodes: int, max_depth: int) -> tuple[Any, SourceMap]:
    """Parse YAML text into plain values and places, within the limits (see :func:`load_yaml`)."""
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        raise InputError("file is empty; a spec needs at least an id, a title and its components", shown, 1, 1)
    check_flow_depth(text, shown, max_depth)
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
    except (ValueError, OverflowError, TypeError, AttributeError, KeyError, IndexError) as exc:
        # the parser met a value it cannot build (a number with thousands of digits, a malformed tag...)
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError(f"YAML value cannot be read: {first[:200]}", shown) from exc
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
    reader = csv.reader(io.StringIO(text), dialect)
    previous_limit = csv.field_size_limit(MAX_CSV_CELL)
    try:
        return [list(row) for row in reader]
    except csv.Error as exc:
        raise InputError(f"card sheet cannot be read as CSV: {exc}", shown, max(reader.line_num, 1), 1) from exc
    finally:
        csv.field_size_limit(previous_limit)


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
    for col_index, name in enumerate(header, start=1):
        if not name:
            continue
        if header.index(name) != col_index - 1:
            raise InputError(f"column {name!r} appears twice in the header", shown, 1, col_index)
        if name.split(".")[0] in {"face1", "face2"} and "." not in name:
            raise InputError(f"column {name!r} needs a key after the face, e.g. {name}.name.en", shown, 1, col_index)
        problem = _scalar_problem(name)
        if problem:
            raise InputError(f"column {col_index}: {problem}", shown, 1, col_index)
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
                shown_cell = value if len(value) <= 60 else value[:57] + "..."
                try:
                    check_flow_depth(value, shown, 10)
                    value = _Converter(shown, 10_000, 10).convert(flow.load(value), ())
                except (YAMLError, InputError, RecursionError, ValueError, OverflowError, TypeError, AttributeError, KeyError, IndexError) as exc:
                    raise InputError(f"column {name!r}: cannot read {shown_cell!r} as a list or mapping", shown, row_index, col_index) from exc
            problem = _scalar_problem(value)
            if problem:
                raise InputError(f"column {name!r}: {problem}", shown, row_index, col_index)
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
