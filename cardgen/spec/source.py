"""Reading spec files safely, keeping the line and column of every key and item.

A spec is composed into YAML nodes by PyYAML (with LibYAML, in C; no object
is ever constructed from a tag) and converted into plain Python values, by the
YAML 1.2 rules, plus a :class:`SourceMap` that remembers, for each path inside
the document, where it was written. The conversion is bounded: file size,
nesting depth and the number of nodes after alias expansion all have limits,
so a typo or a hostile file cannot start an endless build.
"""

from __future__ import annotations

import csv
import datetime as _dt
import hashlib
import io
import json
import math
import re
import stat
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol

import yaml

from cardgen.findings import InputError
from cardgen.limits import (
    MAX_DEPTH,
    MAX_DOCUMENT_CHARS,
    MAX_FILE_BYTES,
    MAX_INT,
    MAX_NODES,
    MAX_SCALAR_CHARS,
    MAX_SHEET_CELLS,
    MAX_SHEET_CHARS,
    MAX_SHEET_ROWS,
)

PathKey = tuple[str | int, ...]


MAX_CSV_CELL = MAX_SCALAR_CHARS
"""The longest cell a card sheet may hold, in characters (the longest text anywhere)."""


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
    """Where a loader or a check keeps a result for later processes (a build's :class:`cardgen.cache.ArtefactCache`).

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
    """Read a file's bytes, refusing anything but a regular file and files over ``max_bytes`` with a clear error.

    The read itself stops after ``max_bytes`` + 1 bytes, so a file that grows
    while it is read, or one whose stated size is wrong, cannot make it endless.
    """
    try:
        info = path.stat()
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror or exc})", shown) from exc
    if not stat.S_ISREG(info.st_mode):
        raise InputError("not a regular file (a device, a pipe or a folder); name a file", shown)
    if info.st_size > max_bytes:
        raise InputError(f"file is {info.st_size} bytes, over the {max_bytes}-byte limit for this kind of file", shown)
    try:
        with path.open("rb") as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror or exc})", shown) from exc
    if len(raw) > max_bytes:
        raise InputError(f"file holds more than {max_bytes} bytes, over the {max_bytes}-byte limit for this kind of file", shown)
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
_FLOW_SIGNS = re.compile(r"[\n#'\"!&\[\]{}]")
"""The characters :func:`check_flow_depth` looks at; everything between them only sets the last significant character."""
_SINGLE_QUOTED = re.compile(r"'(?:[^']|'')*'?")
_DOUBLE_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)
_TAG_NAME = re.compile(r"[^ \t\r\n\[\]{},]*")


def check_flow_depth(text: str, shown: str, limit: int = MAX_DEPTH) -> None:
    """Refuse text whose flow collections (``[`` and ``{``) nest deeper than ``limit``.

    A YAML parser may slow down sharply with flow nesting (ruamel's scanner,
    which read specs before, is quadratic) and LibYAML's composer recurses
    once per level, so brackets are counted before parsing. This linear
    pre-scan skips comments and quoted scalars and counts a bracket only where
    YAML could open a collection (at a line start or after ``:``, ``-``,
    ``,``, ``[``, ``{`` or ``?``), so brackets inside prose do not count.
    """
    depth = 0
    previous = "\n"  # the last significant character (line starts count as token starts)
    start = 0  # where the text not looked at yet begins
    while True:
        sign = _FLOW_SIGNS.search(text, start)
        if sign is None:
            return
        index = sign.start()
        ch = text[index]
        if ch == "\n":
            previous = "\n"
            start = index + 1
            continue
        back = index - 1
        while back >= start and text[back] in " \t\r":
            back -= 1
        if back >= start:
            previous = text[back]
        opens = previous == "\n" or previous in _TOKEN_START
        if ch == "#" and (index == 0 or text[index - 1] in " \t\r\n"):
            end = text.find("\n", index)
            if end < 0:
                return
            start = end
            continue
        if opens and ch in "'\"":
            quoted = (_SINGLE_QUOTED if ch == "'" else _DOUBLE_QUOTED).match(text, index)
            start = quoted.end() if quoted else index + 1
        elif opens and ch in "!&":
            # a tag or an anchor: skip its name and let the collection after it count
            name = _TAG_NAME.match(text, index + 1)
            start = name.end() if name else index + 1
            continue
        else:
            start = index + 1
            if opens and ch in "[{":
                depth += 1
                if depth > limit:
                    line_start = text.rfind("\n", 0, index) + 1
                    raise InputError(f"nesting deeper than {limit} levels", shown, text.count("\n", 0, index) + 1, index - line_start + 1)
            elif ch in "]}":
                depth = max(depth - 1, 0)
        previous = ch


_SURROGATE = re.compile("[\ud800-\udfff]")


def _scalar_problem(value: Any) -> str | None:
    """Why a loaded scalar cannot be accepted, or None."""
    if isinstance(value, int) and not isinstance(value, bool) and not -MAX_INT <= value <= MAX_INT:
        return f"number is too large (whole numbers must lie within \u00b1{MAX_INT})"
    if isinstance(value, str):
        if len(value) > MAX_SCALAR_CHARS:
            return f"text of {len(value):,} characters, over the limit of {MAX_SCALAR_CHARS:,} characters for one text"
        surrogate = _SURROGATE.search(value)
        if surrogate:
            return f"text holds an unpaired surrogate (U+{ord(surrogate.group()):04X}); write the character itself, not its escape"
    return None


class _Limits:
    """The node budget, the depth limit and the scalar checks shared by both converters."""

    def __init__(self, shown: str, max_nodes: int, max_depth: int) -> None:
        self.shown = shown
        self.max_nodes = max_nodes
        self.max_depth = max_depth
        self.nodes = 0
        self.chars = 0
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

    def _check_scalar(self, value: Any, path: PathKey) -> None:
        problem = _scalar_problem(value)
        if problem:
            place = self.map.place(path)
            raise InputError(f"{dotted(path) or 'value'}: {problem}", self.shown, place.line, place.column)
        if isinstance(value, str):
            self.chars += len(value)
            if self.chars > MAX_DOCUMENT_CHARS:
                place = self.map.place(path)
                raise InputError(
                    f"{dotted(path) or 'value'}: the document expands to more than {MAX_DOCUMENT_CHARS:,} characters "
                    "(the same long text aliased into many places?); limit MAX_DOCUMENT_CHARS",
                    self.shown,
                    place.line,
                    place.column,
                )

    def _plain(self, value: Any, path: PathKey) -> Any:
        """A scalar as a spec holds it: bools, None, int, float and str as they are, dates as ISO text, anything else as text."""
        if isinstance(value, bool) or value is None:
            return value
        if isinstance(value, int):
            self._check_scalar(value, path)
            return int(value)
        if isinstance(value, float):
            return float(value)
        if isinstance(value, str):
            self._check_scalar(value, path)
            return str(value)
        if isinstance(value, (_dt.date, _dt.datetime)):
            return value.isoformat()
        text = str(value)
        self._check_scalar(text, path)
        return text


class _Converter(_Limits):
    """Checks values already parsed (plain dicts, lists and scalars) against the loader's limits."""

    def convert(self, node: Any, path: PathKey) -> Any:
        self._count(path)
        if isinstance(node, dict):
            out: dict[str, Any] = {}
            for key, value in node.items():
                name = key if isinstance(key, str) else str(key)
                child = path + (name,)
                if not isinstance(key, str):
                    place = self.map.place(child)
                    raise InputError(f"key {key!r} is not a string; quote it", self.shown, place.line, place.column)
                self._check_scalar(key, child)
                out[name] = self.convert(value, child)
            return out
        if isinstance(node, list):
            return [self.convert(value, path + (index,)) for index, value in enumerate(node)]
        return self._plain(node, path)


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


# --- reading YAML text ----------------------------------------------------------------
#
# PyYAML composes the text into a node tree (in C when it is built with LibYAML,
# as its wheels are) and never constructs objects from it: the converter below
# turns nodes into plain values itself. Plain scalars are resolved by the
# YAML 1.2 rules cardgen has always used (those of ruamel.yaml's round-trip
# loader, which read specs before): ``yes``/``on`` and ``1:20`` are text,
# ``010`` is ten, ``0o17``, ``0x1F``, ``0b101`` and ``1_000`` are numbers.

_CORE = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL, _TIMESTAMP = (_CORE + name for name in ("str", "int", "float", "bool", "null", "timestamp"))
_MAP, _SEQ, _MERGE = _CORE + "map", _CORE + "seq", _CORE + "merge"
_SCALAR_ONLY = frozenset({_INT, _FLOAT, _BOOL, _NULL, _TIMESTAMP, _CORE + "binary"})
"""Tags that read a single value: on a list or a mapping they are an error."""
_COLLECTION_ONLY = {_MAP: "mapping", _CORE + "set": "mapping", _SEQ: "sequence", _CORE + "omap": "sequence", _CORE + "pairs": "sequence"}
"""Tags that read a collection, and the kind they need: on a single value they are an error."""

_PLAIN_RULES: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
for _tag, _pattern, _first in (
    (_BOOL, r"true|True|TRUE|false|False|FALSE", "tTfF"),
    (
        _FLOAT,
        (
            r"[-+]?(?:[0-9][0-9_]*\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[0-9][0-9_]*[eE][-+]?[0-9]+|\.[0-9_]+(?:[eE][-+][0-9]+)?|\.(?:inf|Inf|INF))"
            r"|\.(?:nan|NaN|NAN)"
        ),
        "-+0123456789.",
    ),
    (_INT, r"[-+]?(?:0b[01_]+|0o?[0-7_]+|[0-9_]+|0x[0-9a-fA-F_]+)", "-+0123456789"),
    (_MERGE, r"<<", "<"),
    (_NULL, r"~|null|Null|NULL|", "~nN"),
    (
        _TIMESTAMP,
        (
            r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
            r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?"
        ),
        "0123456789",
    ),
):
    for _char in [*_first, ""] if _tag == _NULL else _first:
        _PLAIN_RULES.setdefault(_char, []).append((_tag, re.compile(_pattern)))

_TIMESTAMP_PARTS = re.compile(
    r"(?P<year>[0-9]{4})-(?P<month>[0-9]{1,2})-(?P<day>[0-9]{1,2})"
    r"(?:(?:[Tt]|[ \t]+)(?P<hour>[0-9]{1,2}):(?P<minute>[0-9]{2}):(?P<second>[0-9]{2})(?:\.(?P<fraction>[0-9]*))?"
    r"(?:[ \t]*(?P<tz>Z|(?P<tz_sign>[-+])(?P<tz_hour>[0-9]{1,2})(?::(?P<tz_minute>[0-9]{2}))?))?)?"
)
_BOOL_WORDS = {"true": True, "false": False, "yes": True, "no": False, "y": True, "n": False, "on": True, "off": False}
"""The words an explicit ``!!bool`` accepts (any case); untagged, only true and false are booleans."""


def _plain_tag(value: str) -> str:
    """The YAML 1.2 tag of an untagged plain scalar."""
    for tag, pattern in _PLAIN_RULES.get(value[:1], ()):
        if pattern.fullmatch(value):
            return tag
    return _STR


def _to_int(text: str) -> int:
    """A whole number: decimal (leading zeros allowed), ``0b``, ``0o`` or ``0x``, with an optional sign and underscores."""
    digits = text.replace("_", "")
    sign = -1 if digits[:1] == "-" else 1
    if digits[:1] in ("+", "-"):
        digits = digits[1:]
    for prefix, base in (("0b", 2), ("0x", 16), ("0o", 8)):
        if digits.startswith(prefix):
            if len(digits) == 2:
                raise ValueError(f"{text!r} has no digits after {prefix}")
            return sign * int(digits[2:], base)
    if not digits:
        raise ValueError(f"{text!r} has no digits")
    return sign * int(digits)


def _to_float(text: str) -> float:
    """A decimal number, or ``.inf`` / ``.nan`` (any case), with an optional sign and underscores."""
    digits = text.replace("_", "").lower()
    sign = -1.0 if digits[:1] == "-" else 1.0
    if digits[:1] in ("+", "-"):
        digits = digits[1:]
    if digits == ".inf":
        return sign * math.inf
    if digits == ".nan":
        return math.nan
    if not digits:
        raise ValueError(f"{text!r} has no digits")
    return sign * float(digits)


def _to_bool(text: str) -> bool:
    """A boolean from one of :data:`_BOOL_WORDS`."""
    try:
        return _BOOL_WORDS[text.lower()]
    except KeyError:
        raise ValueError(f"{text!r} is not true or false") from None


def _to_timestamp(text: str) -> _dt.date:
    """A date, or a date and time (with its zone when one is written); fractions beyond microseconds are rounded."""
    match = _TIMESTAMP_PARTS.fullmatch(text)
    if match is None:
        raise ValueError(f"{text!r} is not a date (YYYY-MM-DD) or a date and time")
    part = match.groupdict()
    day = _dt.date(int(part["year"]), int(part["month"]), int(part["day"]))
    if part["hour"] is None:
        return day
    fraction = part["fraction"] or ""
    micro = int(fraction[:6].ljust(6, "0"))
    if len(fraction) > 6 and fraction[6] >= "5":
        micro += 1
    zone: _dt.tzinfo | None = None
    if part["tz_sign"]:
        offset = _dt.timedelta(hours=int(part["tz_hour"]), minutes=int(part["tz_minute"] or 0))
        zone = _dt.timezone(-offset if part["tz_sign"] == "-" else offset)
    elif part["tz"] == "Z":
        zone = _dt.UTC
    moment = _dt.datetime(day.year, day.month, day.day, int(part["hour"]), int(part["minute"]), int(part["second"]), micro % 1_000_000, zone)
    return moment + _dt.timedelta(seconds=1) if micro == 1_000_000 else moment


_SCALAR_READERS: dict[str, Callable[[str], Any]] = {
    _INT: _to_int,
    _FLOAT: _to_float,
    _BOOL: _to_bool,
    _NULL: lambda text: None,
    _TIMESTAMP: _to_timestamp,
}

_LOADER_BASE: Any = yaml.CSafeLoader if getattr(yaml, "__with_libyaml__", False) else yaml.SafeLoader


def _parser_version() -> str:
    if _LOADER_BASE is yaml.SafeLoader:
        return f"PyYAML {yaml.__version__} (pure Python)"
    from yaml import _yaml

    return f"PyYAML {yaml.__version__} LibYAML {_yaml.get_version_string()}"


PARSER_VERSION = _parser_version()
"""The YAML parser spec files are read with (part of every cached parse's key)."""


def _kind(node: yaml.Node) -> str:
    """A node's kind as YAML names it: scalar, sequence or mapping."""
    if isinstance(node, yaml.MappingNode):
        return "mapping"
    return "sequence" if isinstance(node, yaml.SequenceNode) else "scalar"


class _Composer(_LOADER_BASE):
    """PyYAML's safe loader, used only to compose nodes, with YAML 1.2 tags for plain scalars."""

    def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
        """The tag of an untagged node: YAML 1.2 rules for plain scalars, text for quoted and block ones."""
        if kind is yaml.ScalarNode:
            return _plain_tag(value) if implicit[0] else _STR
        return _SEQ if kind is yaml.SequenceNode else _MAP

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        """No path resolvers are used."""

    def ascend_resolver(self) -> None:
        """No path resolvers are used."""


_SHIELDED = "\x85\u2028\u2029\ufeff"
"""Characters LibYAML treats specially that YAML 1.2 (and the loader cardgen used before) reads as ordinary text:
the YAML 1.1 line breaks NEL, LS and PS, and a byte order mark inside the text (LibYAML miscounts columns after it)."""
_SAFE_NESTING = 5000
"""The deepest nesting PyYAML's C composer is trusted with (it recurses once per level; ~100,000 levels crash it)."""


class _CollectionKey:
    """A list or a mapping met as a mapping key (refused when the mapping is converted)."""

    def __init__(self, node: yaml.Node) -> None:
        self.kind = "a list" if isinstance(node, yaml.SequenceNode) else "a mapping"

    def __repr__(self) -> str:
        return self.kind


class _NodeConverter(_Limits):
    """Turns a composed node tree into plain values, recording places, within limits.

    An alias is the very node it names, so aliased values are converted (and
    counted) once per use. A collection that contains itself through an alias
    is read the way the previous loader read it: the inner use is null.
    """

    def __init__(self, shown: str, max_nodes: int, max_depth: int, text: str, restore: dict[int, str] | None) -> None:
        super().__init__(shown, max_nodes, max_depth)
        self.restore = restore
        # the previous loader gave a byte order mark inside the text no width; LibYAML counts it as a column
        self.bom = next((chr(code) for code, ch in (restore or {}).items() if ch == "\ufeff"), None)
        self.lines = re.split(r"\r\n|\r|\n", text) if self.bom else []
        self.active: set[int] = set()  # ids of the collections being converted
        self.cut: dict[int, set[int]] = {}  # per collection, the positions read as null (uses of an enclosing collection)
        self.pairs: dict[int, list[tuple[Any, yaml.Node | None, yaml.Node]]] = {}  # per mapping, its keys with merges applied

    def place_of(self, node: yaml.Node) -> Place:
        mark = node.start_mark
        column = mark.column
        if self.bom and mark.line < len(self.lines):
            column -= self.lines[mark.line].count(self.bom, 0, column)
        return Place(self.shown, mark.line + 1, column + 1)

    def fail(self, message: str, node: yaml.Node) -> InputError:
        place = self.place_of(node)
        return InputError(message, self.shown, place.line, place.column)

    def scalar(self, node: yaml.ScalarNode) -> Any:
        """The value of a scalar node: text unless its tag (written or resolved) is one of YAML's number, bool, null or date tags."""
        tag = node.tag
        if tag in _COLLECTION_ONLY:
            raise self.fail(f"YAML syntax error: expected a {_COLLECTION_ONLY[tag]} node, but found scalar", node)
        text = node.value if self.restore is None else node.value.translate(self.restore)
        reader = _SCALAR_READERS.get(tag)
        if reader is None:  # text, or a tag cardgen does not know: the text as written
            return text
        try:
            return reader(text)
        except (ValueError, OverflowError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise self.fail(f"YAML value cannot be read: {first[:200]}", node) from exc

    def key(self, node: yaml.Node) -> Any:
        return self.scalar(node) if isinstance(node, yaml.ScalarNode) else _CollectionKey(node)

    def mapping_pairs(self, node: yaml.MappingNode, merging: frozenset[int] = frozenset()) -> list[tuple[Any, yaml.Node | None, yaml.Node]]:
        """(key, key node, value node) of a mapping: its own keys in order, then those merged in with ``<<`` that it lacks.

        Merged keys have no key node (no place of their own). Duplicate keys are errors.
        """
        known = self.pairs.get(id(node))
        if known is not None:
            return known
        pairs: list[tuple[Any, yaml.Node | None, yaml.Node]] = []
        seen: dict[Any, yaml.Node | None] = {}
        merge_key: yaml.Node | None = None
        sources: list[yaml.MappingNode] = []
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE and isinstance(key_node, yaml.ScalarNode):
                if merge_key is not None:
                    line = merge_key.start_mark.line + 1
                    raise self.fail(f'duplicate key: found a second merge key "<<" in this mapping (the first is on line {line})', key_node)
                merge_key = key_node
                sources = self.merge_sources(value_node)
                continue
            key = self.key(key_node)
            if key in seen:
                first = seen[key]
                where = f" (first on line {first.start_mark.line + 1})" if first is not None else ""
                raise self.fail(f'duplicate key: "{key}" appears twice in this mapping{where}', key_node)
            seen[key] = key_node
            pairs.append((key, key_node, value_node))
        if sources:
            inside = merging | {id(node)}
            for source in sources:
                if id(source) in inside:
                    raise self.fail("YAML syntax error: a mapping cannot merge itself (<<) into itself", source)
                for key, _unused, value_node in self.mapping_pairs(source, inside):
                    if key not in seen:
                        seen[key] = None
                        pairs.append((key, None, value_node))
        self.pairs[id(node)] = pairs
        return pairs

    def merge_sources(self, node: yaml.Node) -> list[yaml.MappingNode]:
        if isinstance(node, yaml.MappingNode):
            return [node]
        if isinstance(node, yaml.SequenceNode):
            for item in node.value:
                if not isinstance(item, yaml.MappingNode):
                    raise self.fail(f"YAML syntax error: expected a mapping for merging, but found {_kind(item)}", item)
            return list(node.value)
        raise self.fail(f"YAML syntax error: expected a mapping or list of mappings for merging, but found {_kind(node)}", node)

    def convert(self, node: yaml.Node, path: PathKey) -> Any:
        self._count(path)
        if isinstance(node, yaml.ScalarNode):
            return self._plain(self.scalar(node), path)
        kind = _kind(node)
        if node.tag in _SCALAR_ONLY:
            raise self.fail(f"YAML syntax error: expected a scalar node, but found {kind}", node)
        wanted = _COLLECTION_ONLY.get(node.tag)
        if wanted is not None and wanted != kind:
            raise self.fail(f"YAML syntax error: expected a {wanted} node, but found {kind}", node)
        this = id(node)
        cut = self.cut.get(this)
        self.active.add(this)
        try:
            if isinstance(node, yaml.MappingNode):
                out: dict[str, Any] = {}
                for index, (key, key_node, value_node) in enumerate(self.mapping_pairs(node)):
                    name = key if isinstance(key, str) else str(key)
                    child = path + (name,)
                    if key_node is not None:
                        self.map.places[child] = self.place_of(key_node)
                    if not isinstance(key, str):
                        place = self.map.place(child)
                        raise InputError(f"key {key!r} is not a string; quote it", self.shown, place.line, place.column)
                    self._check_scalar(key, child)
                    out[name] = self._child(value_node, child, this, index, cut)
                return out
            items: list[Any] = []
            for index, item in enumerate(node.value):
                child = path + (index,)
                self.map.places[child] = self.place_of(item)
                items.append(self._child(item, child, this, index, cut))
            return items
        finally:
            self.active.discard(this)

    def _child(self, node: yaml.Node, path: PathKey, owner: int, index: int, cut: set[int] | None) -> Any:
        """Convert item ``index`` of collection ``owner``; null where it uses a collection it is inside (from then on, always there)."""
        if id(node) in self.active:
            self.cut.setdefault(owner, set()).add(index)
        elif cut is None or index not in cut:
            return self.convert(node, path)
        self._count(path)
        return None


def _shield(text: str) -> tuple[str, dict[int, str] | None]:
    """Stand-ins for the :data:`_SHIELDED` characters, so that LibYAML reads them as ordinary characters, as YAML 1.2 does.

    Each one present is replaced by a private-use character the text does not
    hold (one character for one, so columns stay right); the returned table
    turns the stand-ins back in every string read. None when there is nothing to replace.
    """
    present = [ch for ch in _SHIELDED if ch in text]
    if not present:
        return text, None
    forward: dict[int, str] = {}
    restore: dict[int, str] = {}
    candidate = 0xF0000  # supplementary private use area A
    for ch in present:
        while chr(candidate) in text:
            candidate += 1
        forward[ord(ch)] = chr(candidate)
        restore[candidate] = ch
        candidate += 1
    return text.translate(forward), restore


def _check_directive(text: str, shown: str) -> None:
    """Refuse a ``%YAML`` directive other than 1.2: LibYAML would accept 1.1, but cardgen reads every file by the 1.2 rules."""
    if "%YAML" not in text or not re.search(r"^%YAML", text, re.MULTILINE):
        return
    loader = _Composer(text)
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.DocumentStartEvent):
                if event.version not in (None, (1, 2)):
                    version = ".".join(map(str, event.version))
                    mark = event.start_mark
                    raise InputError(
                        f"the file asks for YAML {version} (%YAML directive) but specs are read as YAML 1.2; remove the directive",
                        shown,
                        mark.line + 1 if mark else 0,
                        mark.column + 1 if mark else 0,
                    )
                return
    finally:
        loader.dispose()


def _check_nesting(text: str, shown: str, max_depth: int) -> None:
    """Refuse nesting beyond ``max_depth`` before the C composer could recurse too deep for the stack.

    At the start of a line, the block collections open have distinct
    indentations (a mapping and a list written under it at the same
    indentation aside), so they number at most twice the line's indentation
    plus two; on the line, each further one needs an indicator (``-``, ``?``,
    ``:``, ``[``, ``{``), and flow collections spanning lines are bounded by
    :func:`check_flow_depth`. So a line's length bounds the nesting it can
    reach, and only when some line could reach :data:`_SAFE_NESTING` are the
    parser's events counted (in C, without recursion) to find the real depth.
    """
    short = (_SAFE_NESTING - max_depth - 2) // 4
    if len(text) <= short:
        return
    lines = (text.replace("\r", "\n") if "\r" in text else text).split("\n")
    if max(map(len, lines)) <= short:
        return
    for line in lines:
        if len(line) > short:
            indent = len(line) - len(line.lstrip(" \t"))
            indicators = sum(line.count(ch) for ch in "-?:[{")
            if 2 * (indent + 1) + indicators + max_depth > _SAFE_NESTING:
                break
    else:
        return
    loader = _Composer(text)
    depth = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > min(max_depth + 1, _SAFE_NESTING):  # its items would lie deeper than max_depth
                    mark = event.start_mark
                    raise InputError(f"nesting deeper than {max_depth} levels", shown, mark.line + 1 if mark else 0, mark.column + 1 if mark else 0)
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
    finally:
        loader.dispose()


def _syntax_error(exc: yaml.MarkedYAMLError, text: str, shown: str, restore: dict[int, str] | None) -> InputError:
    """A parser or composer error as an input error at the place it names."""
    mark = exc.problem_mark or exc.context_mark
    context = exc.context or ""
    if exc.problem == "found invalid Unicode character escape code" and mark is not None:
        lines = text.split("\n")
        line = lines[mark.line] if mark.line < len(lines) else ""
        digits = re.match(r"[0-9a-fA-F]*", line[mark.column :])
        code = int(digits.group(), 16) if digits and digits.group() else -1
        if 0xD800 <= code <= 0xDFFF:
            return InputError(
                f"text holds an unpaired surrogate (U+{code:04X}); write the character itself, not its escape", shown, mark.line + 1, mark.column + 1
            )
        what = f"the escape {line[max(mark.column - 2, 0) : mark.column]}{digits.group() if digits else ''} is not a Unicode character"
    elif "duplicate anchor" in context and exc.context_mark is not None:
        what = f"the same anchor is defined twice (first on line {exc.context_mark.line + 1}); rename one of them"
    elif "single document" in context:
        what = "a spec file holds one YAML document, but another one starts here"
    else:
        what = exc.problem or context or "the text is not valid YAML"
    what = what.replace("\n", " ")
    if restore:
        what = what.translate(restore)
    return InputError(f"YAML syntax error: {what}", shown, mark.line + 1 if mark else 0, mark.column + 1 if mark else 0)


def _reader_error(exc: yaml.YAMLError, text: str, shown: str) -> InputError:
    """A reader error (a character YAML does not allow) as an input error at its line and column."""
    if not isinstance(exc, yaml.reader.ReaderError):
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return InputError(f"YAML error: {first[:200]}", shown)
    position = exc.position
    if _LOADER_BASE is not yaml.SafeLoader:  # LibYAML counts UTF-8 bytes
        position = len(text.encode("utf-8", "surrogatepass")[:position].decode("utf-8", "replace"))
    before = text[:position]
    line = before.count("\n") + 1
    column = position - (before.rfind("\n") + 1) + 1
    code = exc.character if isinstance(exc.character, int) else ord(exc.character)
    return InputError(f"YAML error: character U+{code:04X} is not allowed in YAML text ({exc.reason})", shown, line, column)


def _read_yaml(text: str, shown: str, max_nodes: int, max_depth: int) -> tuple[Any, SourceMap]:
    """Compose YAML text and convert it into plain values and places, within the limits."""
    check_flow_depth(text, shown, max_depth)
    text, restore = _shield(text.removeprefix("\ufeff"))  # a leading byte order mark only marks the encoding
    try:
        _check_directive(text, shown)
        _check_nesting(text, shown, max_depth)
        root = yaml.compose(text, Loader=_Composer)
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, text, shown, restore) from exc
    except yaml.YAMLError as exc:
        raise _reader_error(exc, text, shown) from exc
    except RecursionError as exc:  # the pure-Python composer, without LibYAML
        raise InputError(f"nesting deeper than {max_depth} levels", shown) from exc
    except UnicodeError as exc:
        raise InputError(f"YAML error: the text is not valid Unicode ({exc})", shown) from exc
    converter = _NodeConverter(shown, max_nodes, max_depth, text, restore)
    if root is None:
        return None, converter.map
    try:
        data = converter.convert(root, ())
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
        key = cache.key(YAML_ENTRY, PARSER_VERSION, hashlib.sha256(raw).hexdigest(), max_nodes, max_depth)
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
    return _read_yaml(text, shown, max_nodes, max_depth)


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


def load_card_table(
    path: Path, shown: str, max_rows: int = MAX_SHEET_ROWS, budget: SheetBudget | None = None
) -> tuple[list[dict[str, Any]], SourceMap]:
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
    return cards_from_rows(rows, shown, max_rows, budget)


def cards_from_rows(
    rows: SheetRows, shown: str, max_rows: int = MAX_SHEET_ROWS, budget: SheetBudget | None = None
) -> tuple[list[dict[str, Any]], SourceMap]:
    """Map sheet rows (header first) onto card mappings, remembering each cell's row and column.

    Every non-empty cell is counted against ``budget`` (a fresh one when None):
    :data:`~cardgen.limits.MAX_SHEET_CELLS` and :data:`~cardgen.limits.MAX_SHEET_CHARS`.
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
        problem = _scalar_problem(name)
        if problem:
            raise InputError(f"column {col_index}: {problem}", shown, 1, col_index)
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
        for col_index, (name, cell) in enumerate(zip(header, cells), start=1):
            if not name:
                continue
            value: Any = _coerce_cell(cell) if isinstance(cell, str) else cell
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            if isinstance(value, str) and value[:1] in "[{":
                shown_cell = value if len(value) <= 60 else value[:57] + "..."
                try:
                    value = _read_yaml(value, shown, 10_000, 10)[0]
                except (InputError, RecursionError) as exc:
                    raise InputError(f"column {name!r}: cannot read {shown_cell!r} as a list or mapping", shown, row_index, col_index) from exc
            problem = _scalar_problem(value)
            if problem:
                raise InputError(f"column {name!r}: {problem}", shown, row_index, col_index)
            if value is None:
                continue
            budget.spend(value, shown, row_index, col_index)
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
