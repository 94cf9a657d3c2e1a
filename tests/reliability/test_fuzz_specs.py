"""Property-based fuzzing of the spec pipeline: mutated specs end in findings or one clean error.

Every shipped spec (``specs/*/game.yaml``, picked up as they land) and the
minimal fixture are mutated in four tiers:

* ``data``: the parsed document is mutated (keys deleted, duplicated, renamed,
  values retyped or swapped, odd Unicode inserted, numbers blown up, lists and
  scalars exchanged) and handed to the loader through
  :func:`cardgen.spec.yaml_load.convert_plain`, which applies the same limits and
  checks as the YAML reader. This tier is the bulk: parsing 30 kB of YAML with
  pure-Python ruamel costs 50-250 ms, validating parsed data a few ms.
* ``yaml``: the same mutations, dumped with ruamel and read back by the real
  reader (odd values must survive a real round trip too).
* ``text``: the raw bytes of game.yaml or a sibling card sheet are mutated
  (stray tokens, tags, anchors, brackets, tabs, broken UTF-8, cut lines).
* ``cli``: text mutations checked through ``cardgen validate`` (typer's
  CliRunner): exit 0, 1 or 2 and never a traceback.

Each case must end in a :class:`ValidationResult` or an :class:`InputError`
whose rendered lines are single printable lines; any other exception, or a
case slower than the deadline, fails. Runs are derandomized and keep no
database, so CI sees the same cases every time.
"""

from __future__ import annotations

import copy
import io
import json
import math
import shutil
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any, Callable, Iterator
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from typer.testing import CliRunner

import cardgen.spec.load as load_module
from cardgen.cli.app import app
from cardgen.findings import InputError
from cardgen.spec.source import SourceMap
from cardgen.spec.yaml_load import convert_plain, load_yaml
from cardgen.catalogue import validate_folder
from cardgen.validate.runner import ValidationResult

from .conftest import fuzz_examples, fuzz_sources, one_line

SOURCES = fuzz_sources()
TIER_SHARE = {"data": 0.82, "text": 0.13, "yaml": 0.03, "cli": 0.02}
"""How the fuzz cases are split between tiers (each tier's share is then split over the sources)."""
DEADLINE = timedelta(seconds=8)
"""The most one case may take: generous for a loaded 2-core machine, far below a hang."""

ODD_CHARS = [
    "\u200f",  # right-to-left mark
    "\u202e",  # right-to-left override
    "\u0301",  # combining acute accent
    "\U0001f3b2",  # emoji (game die)
    "\x00",
    "\x07",
    "\x1b",
    "\x7f",
    "\ufeff",
    "\uffff",
    "\ud800",  # an unpaired surrogate, as a YAML "\ud800" escape would give
    "\n",
    "\t",
    "<",
    "&",
    '"',
    "'",
    "{",
    "}",
    "{numbers.nope}",
    "{effect:nope}",
    "</text><rect/>",
    "${HOME}",
    "%s%n",
]
ODD_VALUES: list[Any] = [
    None, True, False, "", " ", "x", 0, -1, 1.5, [], {}, [1, 2], {"a": 1}, [[[]]],
    "../../etc/passwd", "/etc/passwd", "C:\\windows", "pots.csv", "{numbers.nope}",
    "<script>alert(1)</script>", "\u202eevil", "no", "null", "1e308",
]
NUMBERS: list[Any] = [
    0, -1, -500, 1_000_000, 2**31, 2**53, 2**63, -(2**63), 10**30, 10**300,
    1e308, -1e308, math.inf, -math.inf, math.nan, 0.5, -0.0, 5e-324,
]
KEY_NAMES = ["", " ", "id", "ID", "copies", "cards", "x" * 200, "<b>", "名前", "\u202ekey", "a.b", "0", "numbers", "__class__"]
TEXT_TOKENS = [
    ":", ": ", "- ", "-", "[", "]", "{", "}", ",", "&a ", "*a", "*missing", "<<: *a", "? ", "|", ">", "'", '"', "#",
    "\t", "\n", "\n  ", "\r", "!!python/object/apply:os.system ['true'] ", "!!python/name:os.system ", "!custom ",
    "!!binary aGk= ", "!!set {a, b} ", "!!omap ", "%YAML 1.1\n", "---\n", "...\n", "\\u", "0x" + "f" * 40, "9" * 5000,
    "[" * 60, "{a: " * 60, "\u202e", "\u0301", "\U0001f3b2", "\ufeff",
]
RAW_BYTES = [b"\xff", b"\xc3", b"\x00", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\x80\x80"]


# --- the documents -----------------------------------------------------------------

_BASE: dict[Path, tuple[str, SourceMap]] = {}


def base_document(source: Path) -> tuple[Any, SourceMap]:
    """The parsed game.yaml of ``source`` (a fresh copy) and its source map, parsed once per run."""
    if source not in _BASE:
        data, smap = load_yaml(source / "game.yaml", "game.yaml")
        _BASE[source] = (json.dumps(data, ensure_ascii=False), smap)
    text, smap = _BASE[source]
    return json.loads(text), smap


def sibling_files(source: Path) -> list[Path]:
    """The files beside game.yaml (card sheets)."""
    return sorted(p for p in source.iterdir() if p.is_file() and p.name != "game.yaml")


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    """A scratch folder for the whole module (hypothesis runs many cases per test)."""
    folder = Path(tempfile.mkdtemp(prefix="cardgen-fuzz-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def fresh_copy(workdir: Path, source: Path) -> Path:
    """A clean copy of ``source`` under ``workdir`` (siblings such as CSV sheets included)."""
    target = workdir / source.name
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target)
    return target


def examples_for(config: pytest.Config, tier: str) -> int:
    """This tier's share of the requested cases, per source."""
    return max(2, math.ceil(fuzz_examples(config) * TIER_SHARE[tier] / len(SOURCES)))


def fuzz_settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=DEADLINE,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
        print_blob=True,
    )


# --- mutations of parsed data -----------------------------------------------------

Slot = tuple[Any, Any]  # (container, key or index)


def slots(node: Any) -> list[Slot]:
    """Every (container, key) pair in a document, parents before children."""
    found: list[Slot] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            for key, value in current.items():
                found.append((current, key))
                stack.append(value)
        elif isinstance(current, list):
            for index, value in enumerate(current):
                found.append((current, index))
                stack.append(value)
    return found


odd_values = st.one_of(
    st.sampled_from(ODD_VALUES),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)


def mutate_once(draw: Callable[[Any], Any], doc: Any) -> None:
    """Apply one drawn mutation to ``doc`` in place."""
    found = slots(doc)
    if not found:
        return
    parent, key = found[draw(st.integers(0, len(found) - 1))]
    value = parent[key]
    op = draw(st.sampled_from(["delete", "duplicate", "retype", "rename", "swap", "unicode", "number", "reshape"]))
    if op == "delete":
        del parent[key]
    elif op == "duplicate":
        if isinstance(parent, list):
            parent.insert(key, copy.deepcopy(value))
        else:
            parent[draw(st.sampled_from(KEY_NAMES)) or f"{key}_copy"] = copy.deepcopy(value)
    elif op == "retype":
        parent[key] = draw(odd_values)
    elif op == "rename":
        if isinstance(parent, dict):
            new = draw(st.one_of(st.sampled_from(KEY_NAMES), st.just(str(key)[:-1]), st.just(str(key).upper()), st.just(f"{key}s")))
            parent[new] = parent.pop(key)
        else:
            parent[key] = {str(draw(st.sampled_from(KEY_NAMES))): value}
    elif op == "swap":
        other_parent, other_key = found[draw(st.integers(0, len(found) - 1))]
        mine, theirs = copy.deepcopy(value), copy.deepcopy(other_parent[other_key])
        parent[key] = theirs
        if other_key in other_parent if isinstance(other_parent, dict) else other_key < len(other_parent):
            other_parent[other_key] = mine
    elif op == "unicode":
        char = draw(st.sampled_from(ODD_CHARS))
        text = value if isinstance(value, str) else str(value)
        at = draw(st.integers(0, len(text)))
        parent[key] = text[:at] + char + text[at:]
    elif op == "number":
        parent[key] = draw(st.sampled_from(NUMBERS))
    elif op == "reshape":
        if isinstance(value, list):
            parent[key] = value[0] if value and draw(st.booleans()) else "scalar"
        elif isinstance(value, dict):
            parent[key] = list(value.values())
        else:
            parent[key] = [value] if draw(st.booleans()) else {"value": value}


@st.composite
def mutated_documents(draw: Callable[[Any], Any], source: Path) -> Any:
    doc, _ = base_document(source)
    for _ in range(draw(st.integers(1, 4))):
        mutate_once(draw, doc)
    return doc


# --- checking one case ----------------------------------------------------------------


def check_outcome(run: Callable[[], ValidationResult]) -> str:
    """Run one validation; it must give findings or an InputError, each printing as one line."""
    try:
        result = run()
    except InputError as error:
        assert one_line(error.render()), error.render()
        assert error.file, "an input error must name its file"
        return "input-error"
    assert isinstance(result, ValidationResult)
    for finding in result.findings:
        assert one_line(finding.render()), finding.render()
        json.dumps(finding.as_json(), ensure_ascii=False).encode("utf-8")
    return "findings" if result.findings else "clean"


def validate_parsed(folder: Path, doc: Any, smap: SourceMap) -> ValidationResult:
    """Validate ``folder`` with ``doc`` standing in for what game.yaml parses to."""

    def parsed(path: Path, shown: str, **_: Any) -> tuple[Any, SourceMap]:
        data, _unused = convert_plain(doc, shown)
        return data, smap

    with mock.patch.object(load_module, "load_yaml", parsed):
        return validate_folder(folder, kinds=("static",))


def dump_yaml(doc: Any) -> bytes:
    """The document as YAML text, as a designer's editor might save it (odd text kept as written)."""
    yaml = YAML(typ="rt", pure=True)
    yaml.allow_unicode = True
    stream = io.StringIO()
    yaml.dump(doc, stream)
    return stream.getvalue().encode("utf-8", "surrogatepass")


@st.composite
def text_mutations(draw: Callable[[Any], Any], raw: bytes) -> bytes:
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(raw)))
        op = draw(st.sampled_from(["insert", "insert", "delete", "duplicate-line", "swap-lines", "truncate", "raw-bytes", "indent"]))
        if op == "insert":
            raw = raw[:at] + draw(st.sampled_from(TEXT_TOKENS)).encode("utf-8", "surrogatepass") + raw[at:]
        elif op == "delete":
            raw = raw[:at] + raw[at + draw(st.integers(1, 80)):]
        elif op == "truncate":
            raw = raw[:at]
        elif op == "raw-bytes":
            raw = raw[:at] + draw(st.sampled_from(RAW_BYTES)) + raw[at:]
        else:
            lines = raw.split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if op == "duplicate-line":
                lines.insert(i, lines[j])
            elif op == "swap-lines":
                lines[i], lines[j] = lines[j], lines[i]
            else:
                lines[i] = b" " * draw(st.integers(1, 5)) + lines[i]
            raw = b"\n".join(lines)
    return raw


def _ids(folder: Path) -> str:
    return folder.name


# --- the tests --------------------------------------------------------------------------


@pytest.mark.parametrize("source", SOURCES, ids=_ids)
def test_data_mutations_end_in_findings(source: Path, workdir: Path, request: pytest.FixtureRequest) -> None:
    """Mutated parsed documents give findings or a clean InputError, never another exception."""
    folder = fresh_copy(workdir, source)
    _, smap = base_document(source)
    outcomes: dict[str, int] = {}

    @fuzz_settings(examples_for(request.config, "data"))
    @given(mutated_documents(source))
    def case(doc: Any) -> None:
        outcome = check_outcome(lambda: validate_parsed(folder, doc, smap))
        outcomes[outcome] = outcomes.get(outcome, 0) + 1

    examples = examples_for(request.config, "data")
    case()
    print(f"{source.name}: {outcomes}")
    assert sum(outcomes.values()) >= examples, (outcomes, examples)  # every planned case ran
    assert outcomes.get("findings", 0) + outcomes.get("input-error", 0) > examples // 2, outcomes


@pytest.mark.parametrize("source", SOURCES, ids=_ids)
def test_yaml_round_trip_mutations_end_in_findings(source: Path, workdir: Path, request: pytest.FixtureRequest) -> None:
    """The same mutations written as YAML and read back by the real reader."""
    folder = fresh_copy(workdir, source)

    @fuzz_settings(examples_for(request.config, "yaml"))
    @given(mutated_documents(source))
    def case(doc: Any) -> None:
        (folder / "game.yaml").write_bytes(dump_yaml(doc))
        check_outcome(lambda: validate_folder(folder, kinds=("static",)))

    case()


@pytest.mark.parametrize("source", SOURCES, ids=_ids)
def test_text_mutations_end_in_findings(source: Path, workdir: Path, request: pytest.FixtureRequest) -> None:
    """Raw byte mutations of game.yaml or a card sheet: findings or one clean error line."""
    folder = fresh_copy(workdir, source)
    targets = [source / "game.yaml"] + sibling_files(source)
    originals = {path.name: path.read_bytes() for path in targets}

    @fuzz_settings(examples_for(request.config, "text"))
    @given(st.data())
    def case(data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(sorted(originals)))
        for other, raw in originals.items():
            (folder / other).write_bytes(raw)
        (folder / name).write_bytes(data.draw(text_mutations(originals[name])))
        check_outcome(lambda: validate_folder(folder, kinds=("static",)))

    case()


@pytest.mark.parametrize("source", SOURCES, ids=_ids)
def test_cli_on_mutated_text_exits_cleanly(source: Path, workdir: Path, request: pytest.FixtureRequest) -> None:
    """``cardgen validate`` on mutated specs exits 0, 1 or 2, with no traceback in its output."""
    folder = fresh_copy(workdir, source)
    original = (source / "game.yaml").read_bytes()
    runner = CliRunner()

    @fuzz_settings(examples_for(request.config, "cli"))
    @given(text_mutations(original))
    def case(raw: bytes) -> None:
        (folder / "game.yaml").write_bytes(raw)
        result = runner.invoke(app, ["validate", "--no-sim", str(folder)])
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
        assert "Traceback" not in result.output

    case()


def test_every_source_validates_before_mutation() -> None:
    """The fuzz starts from sound documents: the unmutated sources load without errors."""
    assert len(SOURCES) >= 4, SOURCES  # three shipped specs at least, plus the minimal fixture
    for source in SOURCES:
        result = validate_folder(source, kinds=("static",))
        assert not result.has_errors, [f.render() for f in result.findings]


def test_fuzz_budget_is_at_least_two_thousand_cases(request: pytest.FixtureRequest) -> None:
    """The default run really runs the 2,000 cases the suite promises."""
    total = sum(examples_for(request.config, tier) for tier in TIER_SHARE) * len(SOURCES)
    assert total >= fuzz_examples(request.config) >= 2000 or "CARDGEN_FUZZ_EXAMPLES" in __import__("os").environ


@pytest.mark.parametrize("kind", [{"a": 1}, ["text"], 7, None])
def test_a_field_type_of_the_wrong_kind_is_a_finding_before_the_sheet_is_read(tmp_path: Path, kind: Any) -> None:
    """Found by the data fuzzer: a field's `type` given as a mapping reached the sheet reader's text-field test
    (`in` a set of type names) and raised TypeError (unhashable) instead of giving a finding."""
    from cardgen.catalogue import validate_folder

    folder = tmp_path / "crazy-eights"
    shutil.copytree(Path(__file__).resolve().parents[2] / "specs" / "crazy-eights", folder)
    path = folder / "game.yaml"
    yaml = YAML()
    doc = yaml.load(path.read_text(encoding="utf-8"))
    doc["decks"][0]["fields"]["points"]["type"] = kind
    buffer = io.StringIO()
    yaml.dump(doc, buffer)
    path.write_text(buffer.getvalue(), encoding="utf-8")
    result = validate_folder(folder, kinds=("static",))
    assert any(f.code == "CG004" and "fields.points.type" in f.render() for f in result.findings), [f.render() for f in result.findings]
