"""Reading YAML safely, keeping the line and column of every key and item.

A document is composed into YAML nodes by PyYAML (with LibYAML, in C; no object
is ever constructed from a tag) and converted into plain Python values, by the
YAML 1.2 rules of :mod:`cardgen.spec.yaml_resolve`, plus a :class:`SourceMap`
that remembers, for each path inside the document, where it was written. The
conversion is bounded: file size, nesting depth and the number of nodes after
alias expansion all have limits, so a typo or a hostile file cannot start an
endless build. Parses are kept in the build's cache (:mod:`cardgen.spec.parse_cache`).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import yaml

from cardgen.findings import InputError
from cardgen.limits import MAX_DEPTH, MAX_DOCUMENT_CHARS, MAX_INT, MAX_NODES, MAX_SCALAR_CHARS
from cardgen.spec.files import decode_text, read_bytes
from cardgen.spec.parse_cache import ResultCache, open_entry, seal_entry
from cardgen.spec.source import PathKey, Place, SourceMap, dotted
from cardgen.spec.yaml_resolve import COLLECTION_ONLY, MAP, MERGE, SCALAR_ONLY, SCALAR_READERS, SEQ, STR, plain_tag


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


def scalar_problem(value: Any) -> str | None:
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
        problem = scalar_problem(value)
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
# YAML 1.2 rules of cardgen.spec.yaml_resolve.

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
            return plain_tag(value) if implicit[0] else STR
        return SEQ if kind is yaml.SequenceNode else MAP

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
        if tag in COLLECTION_ONLY:
            raise self.fail(f"YAML syntax error: expected a {COLLECTION_ONLY[tag]} node, but found scalar", node)
        text = node.value if self.restore is None else node.value.translate(self.restore)
        reader = SCALAR_READERS.get(tag)
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
            if key_node.tag == MERGE and isinstance(key_node, yaml.ScalarNode):
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
        if node.tag in SCALAR_ONLY:
            raise self.fail(f"YAML syntax error: expected a scalar node, but found {kind}", node)
        wanted = COLLECTION_ONLY.get(node.tag)
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


def read_yaml_text(text: str, shown: str, max_nodes: int, max_depth: int) -> tuple[Any, SourceMap]:
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
    return read_yaml_text(text, shown, max_nodes, max_depth)
