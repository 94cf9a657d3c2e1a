"""Spec YAML is composed by PyYAML (LibYAML) and converted by cardgen, and reads exactly as it did with ruamel.yaml.

Until session 2, specs were loaded with ruamel.yaml's pure-Python round-trip
loader and a converter walking its CommentedMap/CommentedSeq tree. That path is
kept below (:func:`reference`) as the yardstick: on a corpus of scalars and
odd constructs, on thousands of generated plain scalars and on every YAML file
shipped in specs/, the games' layouts (cardgen/games/*/layouts/) and tests/fixtures/, the new reader gives
the same values, in the same order, with the same places, and refuses what the
old one refused. The few deliberate differences are listed in ``DIFFERENCES``
with both outcomes.
"""

from __future__ import annotations

import io
import itertools
import json
import math
from pathlib import Path
from typing import Any

import pytest
import yaml
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from cardgen.cache import ArtefactCache
from cardgen.findings import InputError
from cardgen.spec import yaml_load
from cardgen.limits import MAX_INT
from cardgen.spec.sheets import cards_from_rows
from cardgen.spec.yaml_load import load_yaml

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(
    {path for folder in ("specs", "cardgen/games", "tests/fixtures") for path in (ROOT / folder).rglob("*") if path.suffix in {".yaml", ".yml"}}
)

Places = list[tuple[tuple[str | int, ...], tuple[int, int]]]


# --- the reference: the ruamel round-trip path cardgen used before ----------------------------


def reference(text: str) -> tuple[Any, Places]:
    """Values and places as the ruamel.yaml round-trip loader and its converter gave them; raises on what they refused."""
    loader = YAML(typ="rt", pure=True)
    loader.allow_duplicate_keys = False
    tree = loader.load(io.StringIO(text))
    places: dict[tuple[str | int, ...], tuple[int, int]] = {}
    budget = [50_000]  # far above any shipped file; stops alias bombs early

    def convert(node: Any, path: tuple[str | int, ...]) -> Any:
        budget[0] -= 1
        if budget[0] < 0 or len(path) > yaml_load.MAX_DEPTH:
            raise ValueError("alias bomb or runaway nesting")
        if isinstance(node, CommentedMap):
            out = {}
            for key in node:
                child = path + (key if isinstance(key, str) else str(key),)
                try:
                    line, column = node.lc.key(key)
                    places[child] = (line + 1, column + 1)
                except (KeyError, TypeError, AttributeError):
                    pass
                if not isinstance(key, str) or any("\ud800" <= ch <= "\udfff" for ch in key):
                    raise ValueError(f"key {key!r} is not a string or holds a surrogate")
                out[key] = convert(node[key], child)
            return out
        if isinstance(node, CommentedSeq):
            items = []
            for index, value in enumerate(node):
                try:
                    line, column = node.lc.item(index)
                    places[path + (index,)] = (line + 1, column + 1)
                except (KeyError, TypeError, AttributeError):
                    pass
                items.append(convert(value, path + (index,)))
            return items
        if isinstance(node, bool) or node is None:
            return node
        if isinstance(node, int):
            if not -MAX_INT <= node <= MAX_INT:
                raise ValueError("number is too large")
            return int(node)
        if isinstance(node, float):
            return float(node)
        if isinstance(node, (dict, list)):  # plain containers from merges
            return convert(CommentedMap(node) if isinstance(node, dict) else CommentedSeq(node), path)
        if hasattr(node, "isoformat"):
            return node.isoformat()
        text = str(node)
        if any("\ud800" <= ch <= "\udfff" for ch in text):
            raise ValueError("unpaired surrogate")
        return text

    data = convert(tree, ())
    return data, list(places.items())


def current(text: str) -> tuple[Any, Places]:
    """Values and places as cardgen reads them now."""
    data, smap = yaml_load._parse_yaml(text, "x.yaml", yaml_load.MAX_NODES, yaml_load.MAX_DEPTH)
    return data, [(path, (place.line, place.column)) for path, place in smap.places.items()]


def same_reading(text: str) -> None:
    """Both readers give the same values (in the same order) and the same places, or both refuse the text."""
    try:
        old = reference(text)
    except Exception:  # noqa: BLE001 - the old loader refused it, in any of its ways
        with pytest.raises(InputError):
            current(text)
        return
    new = current(text)
    assert json.dumps(new[0], ensure_ascii=False) == json.dumps(old[0], ensure_ascii=False), text
    assert new[1] == old[1], text


# --- scalars ----------------------------------------------------------------------------------

SCALARS = [
    # whole numbers: bases, underscores, signs, leading zeros
    "0", "-0", "+0", "+12", "-12", "010", "08", "00", "0o17", "-0o17", "0o7_7", "07_7", "0x1F", "-0x1F", "0x1f", "0x_1", "0x1F_",
    "0b101", "+0b1", "1_000", "1__0", "1_", "9007199254740991", "-9007199254740991",
    # floats
    "1.5", "1.", "0.", ".5", "+.5", "-.5e+3", ".5e3", "5.e3", "1e3", "1E3", "1e-3", "12e03", "1.0e+3", "1_0.5_0", "3.14_15", "._5", "-0.0",
    ".inf", "-.inf", "+.inf", ".Inf", "-.Inf", ".INF", ".iNf", ".nan", ".NaN", ".NAN", "-.nan", "1e400", "-1e400",
    # booleans and look-alikes
    "true", "True", "TRUE", "tRUE", "false", "False", "FALSE", "yes", "Yes", "no", "on", "off", "y", "n",
    # nulls
    "~", "null", "Null", "NULL", "nULL", "",
    # dates and times
    "2024-01-01", "2024-1-1", "0001-01-01", "2024-01-01 10:00:00", "2024-01-01t10:00:00", "2024-01-01T10:00:00Z", "2024-1-1 1:00:00",
    "2024-01-01 10:00:00.123456789", "2024-01-01 10:00:00.", "2024-01-01 10:00:00 +01:00", "2024-01-01 10:00:00 -5",
    "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 Z", "2024-01-01 10:00:00.9999999", "1999-12-31T23:59:59.9999996+14:00",
    # text that looks like something else
    "1:20", "12:30:00", "1_2:3", "0xG", "0o8", "0o", "0b", "_1", "0.0.0", "1.2.3", "=", "<<", "-x", "?x", "b#c", "1e", "e3", "0x",
]


@pytest.mark.parametrize("scalar", SCALARS)
def test_plain_scalar_reads_as_before(scalar: str) -> None:
    same_reading(f"a: {scalar}\nb: [{scalar}]\n" if scalar else "a:\nb: []\n")


def test_generated_plain_scalars_read_as_before() -> None:
    """Every string of up to three characters over an alphabet of number-ish characters, in one document."""
    alphabet = "019_.+-eExobT:Zn"
    tokens = ["".join(chars) for size in (1, 2, 3) for chars in itertools.product(alphabet, repeat=size)]
    tokens = [t for t in tokens if not t.startswith(("-", ":", "?")) and ":" not in t[1:] and "#" not in t]
    readable = []
    for token in tokens:
        try:
            current(f"- {token}\n")
        except InputError:  # a number-like text neither loader can build (such as +_): refused alone
            same_reading(f"- {token}\n")
        else:
            readable.append(token)
    assert len(readable) > 2500
    same_reading("".join(f"- {token}\n" for token in readable))


@pytest.mark.parametrize(
    "text",
    [
        # explicit tags on scalars
        "a: !!str 12", "a: !!int '12'", "a: !!int 0x1F", "a: !!float '1'", "a: !!float 1", "a: !!float ' 1.5'", "a: !!float nan",
        "a: !!float infinity", "a: !!float '-.nan'", "a: !!bool 'yes'", "a: !!bool 'On'", "a: !!null 'x'", "a: !!null ''", "a: !!str",
        "a: !!null", "a: !!timestamp 2024-01-01", "a: !!timestamp 2024-1-1", "a: !<tag:yaml.org,2002:int> 5", "a: !<tag:yaml.org,2002:str> 5",
        "%TAG !e! tag:yaml.org,2002:\n---\na: !e!int '7'", "a: ! 12", "a: ! '12'", "a: !<!> 12",
        # tags cardgen does not know: plain text or a plain collection, never an object
        "a: !custom x", "a: !custom {b: 1}", "a: !!python/name:os.system", "a: !!python/none ''", "a: !!merge x", "a: !!value x",
        "a: !!map {b: 1}", "a: !!seq [1]", "a: !!str {b: 1}", "a: !!str\n  b: 1",
        # values that cannot be built: refused by both
        "a: !!int abc", "a: !!int ''", "a: !!int '-'", "a: !!int '0x'", "a: !!int 0b2", "a: !!int '1:20'", "a: !!float ''", "a: !!float '1:20'",
        "a: !!float 1e3e4", "a: !!bool ''", "a: !!bool", "a: !!int", "a: !!int [1]", "a: !!float [1]", "a: !!null [1]", "a: !!bool [1]",
        "a: !!timestamp x", "a: !!timestamp [1]", "a: !!map x", "a: !!seq x", "a: !!seq {b: 1}", "a: !!map [1]", "a: !!pairs x",
        "a: 2024-13-45", "a: 2024-02-30", "a: 2024-01-01 25:00:00", "a: " + "9" * 5000, "a: 0x" + "f" * 5000, "a: 9007199254740992",
        # quoting, escapes and block scalars
        "a: '12'", "a: \"12\"", "a: 'it''s'", "a: |\n  12\n", "a: >\n  x\n  y\n\n  z\n", "a: |-\n  x\n", "a: |+\n  x\n\n", "a: |2\n   x\n",
        "a: >-\n  x\n   y\n  z", "a: x\n  y\n\n  z", "a: \"x\n  y\\\n  z\"", "a: \"\\x85\"", "a: \"\\L\"", "a: \"\\N\"", "a: \"\\P\"", "a: \"\\_\"",
        "a: \"\\/\"", "a: \"\\t\"", "a: \"\\\t\"", "a: \"\\U0001F3B2\"", "a: \"\\e\"", "a: \"\\ud800\"", "\"\\udfff\": 2", "a: \"\\uD83C\\uDFB2\"",
        "a: \"\\x\"", "a: \"\\u12\"", "a: 'x\x07y'", "a: \"x\\ay\"", "a: |x",
        # keys
        "? a\n", "? a\n: 1", "? |\n  x\n: 1", "1: x", "null: x", "~: x", "true: x", "1.5: x", "2024-01-01: x", "[1]: x", "{a: 1}: x", "? [1]\n: x",
        "!!int 1: x", "&k a: 1\nb: *k", "a: 1\na: 2", "a: 1\n'a': 2", "1: a\n1: b", "a: 1\nb: {a: 1, a: 2}",
        # merge keys
        "<<: {a: 1}", "b: &m {x: 1}\na:\n  <<: *m\n  y: 2", "b: &m {x: 1}\na:\n  <<: *m\n  x: 2", "b: &m {x: 1, w: 5}\na:\n  y: 2\n  <<: *m\n  z: 3",
        "b: &m {x: 1}\nc: &n {x: 3, z: 1}\na:\n  <<: [*m, *n]\n  y: 2", "m: &m {a: 1, b: 2, c: 3}\nn: &n {d: 4, b: 5, e: 6}\nx: {<<: [*n, *m], c: 0, f: 7}",
        "s: &s [{p: 1}, {q: 2}]\na:\n  <<: *s\n  r: 3", "m: &m {<<: {p: 1}, x: 1}\na: {<<: *m, y: 2}", "a:\n  <<: {x: {n: 1}}\n  y: 1",
        "a: {'<<': {x: 1}}", "a: {!!merge '<<': {x: 1}}", "a: {<<: []}", "a: {<<: {}}", "a: <<", "a:\n  <<: 1", "a:\n  <<: [1]", "a: {<<: null}",
        "a: {<<: [{x: 1}, [1]]}", "a:\n  <<: {x: 1}\n  <<: {w: 2}", "a: {x: 1, <<: {x: 2}, x: 3}", "a: {<<: {x: 1, x: 2}}", "a: {<<: {1: 2}}",
        "a: &m {x: 1, <<: *m}",
        # anchors and aliases, including collections that contain themselves
        "a: &x 12\nb: *x", "a: &x 1.5\nb: *x", "a: &x null", "a: &x 2024-01-01", "a: !!str &x 12\nb: *x", "- &x foo\n- *x", "a: *nope", "*k: 1",
        "a: &me {b: *me}", "a: &me [1, [2, *me]]", "a: &me {b: [*me]}\nc: *me", "x: &a [&b [*a]]\ny: *b", "x: &a {k: &b [*a]}\ny: *b",
        # structure, documents and places
        "a: [é, x]\nb: [\U0001f3b2, y]\nc: {ção: 1, d: 2}", "- !custom foo\n- x", "a:\n- b\n- c: 1\n  d: 2", "a: [\n  1,\n  2\n]", "a:\n  - x\n  -\n  - y",
        "a: {b: }", "a: [ ]", "a: { }", "a: ''", "a: |\n\n", "a: >\n", "a: x\n\n\n", "\ufeffa: 1", "a: 1\r\nb: [1,\r\n 2]\r\n", "a: 1\rb: 2",
        "a: [1,\t2]", "a: [a: 1, b]", "a: [? a]", "a: {? a}", "a: {a: 1, ? b : 2}", "a: {x: 1,}", "a: [1,]", "a: [1,,2]", "a: {,}", "a: [a, b]: c",
        "a: b # c", "a: - x", "a: x:", "a: x: y", "a: %x", "a: @x", "a: `x", "a: [http://x, b:c]", "---\na: 1\n...\n", "--- a", "---\n", "...",
        "12", "- 1", "'x'", "a: 1\n---\nb: 2", "a: 1\n---\n", "a: 1\n...\n---\n", "%YAML 1.2\n---\na: yes", "%YAML 2.0\n---\na: 1",
        "a: x\ufeffy", "a: {min: \ufeff5, max: 10}\nb: 1", "a: [\ufeff1, 2]", "a: 1\n\ufeffb: [\ufeff1, \ufeff\ufeff2]", "a: '\ufeff'\nb: [1, 2]",
        "a: x\u2028y\nb: 1", "a: x\u2029y\nb: 1", "a: 'x\u2028y'\nb: [1, 2]", "a: [x\u2028y, z]\nb: 1",
    ],
)
def test_construct_reads_as_before(text: str) -> None:
    same_reading(text)


DIFFERENCES: list[tuple[str, str, Any, Any]] = [
    # (why, text, what the ruamel loader gave (or "refused"), what cardgen reads now (or "refused"))
    ("an anchored boolean was turned into 1 or 0", "a: &x true\nb: [&y false, *y]", {"a": 1, "b": [0, 0]}, {"a": True, "b": [False, False]}),
    ("binary data was the repr of Python bytes; now the text as written", "a: !!binary aGk=", {"a": "b'hi'"}, {"a": "aGk="}),
    ("a set was the repr of its keys; now a plain mapping", "a: !!set {x, y}", {"a": "set(odict_keys(['x', 'y']))"}, {"a": {"x": None, "y": None}}),
    ("an ordered map became a mapping; now the list as written", "a: !!omap [x: 1]", {"a": {"x": 1}}, {"a": [{"x": 1}]}),
    ("pairs were reprs of tuples; now the list as written", "a: !!pairs [x: 1]", {"a": ["('x', 1)"]}, {"a": [{"x": 1}]}),
    ("a tagged key was refused; now its text", "!custom k: v\n!!str 1: w", "refused", {"k": "v", "1": "w"}),
    ("a tab was refused as a separator; YAML 1.2 allows it", "a:\tb\nc: d\t# note", "refused", {"a": "b", "c": "d"}),
    ("NEL folded into a space; now kept, as YAML 1.2 reads it", "a: 'x\x85y'", {"a": "x y"}, {"a": "x\x85y"}),
    ("LS or PS in a comment or block scalar was refused", "# a\u2028b\nc: |\n  x\u2029y\n", "refused", {"c": "x\u2029y\n"}),
    (
        "inside [ ] or { }, LibYAML refuses a plain scalar that starts or ends with ':' or has ':?' in it; quote it",
        "a: [:x]\nb: {en: :)}\nc: [x:?]",
        {"a": [":x"], "b": {"en": ":)"}, "c": ["x:?"]},
        "refused",
    ),
    ("a JSON-like key before ':' inside [ ] was refused; YAML 1.2 allows it", "a: ['k':v]", "refused", {"a": [{"k": "v"}]}),
    ("an unknown directive was ignored; LibYAML refuses it", "%FOO bar\n---\na: 1", {"a": 1}, "refused"),
    ("%YAML 1.1 switched to YAML 1.1 rules; now refused", "%YAML 1.1\n---\na: yes", {"a": True}, "refused"),
    ("an anchor defined twice was reused with a warning; now refused", "a: &x 1\nb: &x 2\nc: *x", {"a": 1, "b": 2, "c": 2}, "refused"),
]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize(("why", "text", "old", "new"), DIFFERENCES, ids=[d[0] for d in DIFFERENCES])
def test_deliberate_differences(why: str, text: str, old: Any, new: Any) -> None:
    if old == "refused":
        with pytest.raises(Exception):  # noqa: B017 - any of the old loader's refusals
            reference(text)
    else:
        assert reference(text)[0] == old
    if new == "refused":
        with pytest.raises(InputError):
            current(text)
    else:
        assert current(text)[0] == new


def test_quoted_colons_in_flow_collections_read_as_before() -> None:
    same_reading("a: [':x', 'y:', \"x:?\"]\nb: {en: ':)'}\n")


def test_tagged_collections_now_have_places() -> None:
    """The old loader recorded no places inside a tagged list or mapping; the items now have theirs."""
    text = "a: !custom [1, {b: 2}]\n"
    assert reference(text)[1] == [(("a",), (1, 1)), (("a", 1, "b"), (1, 17))]
    assert current(text)[1] == [(("a",), (1, 1)), (("a", 0), (1, 13)), (("a", 1), (1, 16)), (("a", 1, "b"), (1, 17))]


# --- every shipped file -----------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("path", SHIPPED, ids=[str(p.relative_to(ROOT)) for p in SHIPPED])
def test_shipped_file_reads_as_before(path: Path) -> None:
    raw = path.read_bytes()
    try:
        text = yaml_load.decode_text(raw, path.name)
    except InputError:
        return  # refused before any YAML is read (binary, Latin-1): nothing changed there
    try:
        old_data, old_places = reference(text)
    except Exception as old_error:  # noqa: BLE001
        with pytest.raises(InputError) as caught:
            current(text)
        old_line = getattr(getattr(old_error, "problem_mark", None), "line", None)
        if old_line is not None:
            assert caught.value.line == old_line + 1
        return
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        with pytest.raises(InputError, match="file is empty"):
            current(text)
        return
    new_data, new_places = current(text)
    assert json.dumps(new_data, ensure_ascii=False) == json.dumps(old_data, ensure_ascii=False)
    old_map, new_map = dict(old_places), dict(new_places)
    assert {path: new_map.get(path) for path in old_map} == old_map
    lines = text.splitlines()
    extra = [place for path, place in new_places if path not in old_map]
    assert all("!" in lines[line - 1] for line, _ in extra), extra  # only inside tagged collections (see above)


def test_the_shipped_files_are_many() -> None:
    assert len(SHIPPED) > 60
    assert any(p.name == "game.yaml" and p.parent.name == "keramikos" for p in SHIPPED)


# --- behaviour, errors and limits -------------------------------------------------------------


def test_duplicate_key_is_refused_at_the_second_key() -> None:
    with pytest.raises(InputError, match=r'^duplicate key: "id" appears twice') as caught:
        current("id: one\nname: x\nid: two\n")
    assert (caught.value.line, caught.value.column) == (3, 1)


def test_non_string_key_is_refused_at_the_key() -> None:
    with pytest.raises(InputError, match=r"key 12 is not a string; quote it") as caught:
        current("a:\n  b: 1\n  12: x\n")
    assert (caught.value.line, caught.value.column) == (3, 3)
    with pytest.raises(InputError, match=r"key a list is not a string"):
        current("? [1, 2]\n: x\n")


def test_merged_keys_come_after_the_written_ones_and_have_no_place_of_their_own() -> None:
    data, places = current("base: &b {x: 1, y: 2}\nmore: &m {y: 3, z: 4}\ncard:\n  <<: [*b, *m]\n  x: 0\n")
    assert data["card"] == {"x": 0, "y": 2, "z": 4}
    assert [p for p in places if p[0][0] == "card"] == [(("card",), (3, 1)), (("card", "x"), (5, 3))]


def test_alias_bomb_stops_at_the_node_limit_with_a_place() -> None:
    text = "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
    with pytest.raises(InputError, match="alias/anchor bomb") as caught:
        yaml_load._parse_yaml(text, "x.yaml", 500, 40)
    assert caught.value.line == 1 and caught.value.column > 0


def test_self_containing_collections_end_cleanly() -> None:
    assert current("loop: &me [1, *me]\n")[0] == {"loop": [1, None]}
    assert current("x: &a [&b [*a]]\ny: *b\n")[0] == {"x": [[None]], "y": [None]}
    with pytest.raises(InputError, match="cannot merge itself"):
        current("a: &m {x: 1, <<: *m}\n")


def test_depth_limit_names_the_place() -> None:
    with pytest.raises(InputError, match="nesting deeper than 3 levels") as caught:
        yaml_load._parse_yaml("a:\n  b:\n    c:\n      d: 1\n", "x.yaml", 100, 3)
    assert (caught.value.line, caught.value.column) == (4, 7)


@pytest.mark.parametrize(
    "text", ["- " * 100_000 + "x\n", "a: " + "- " * 100_000 + "x\n", ("- " * 1000 + "\n") * 60], ids=["one-line", "under-a-key", "many-lines"]
)
def test_deep_block_nesting_is_refused_before_the_c_composer_recurses(text: str) -> None:
    """LibYAML's composer recurses once per level: 100,000 levels on one line would overflow the C stack."""
    with pytest.raises(InputError):
        yaml_load._parse_yaml(text, "x.yaml", yaml_load.MAX_NODES, yaml_load.MAX_DEPTH)


def test_long_lines_of_prose_pass_the_nesting_guard() -> None:
    text = "a: " + "x - y ? z [w] {v} " * 200 + "\nb: [1, 2]\n"
    assert current(text)[0]["b"] == [1, 2]


def test_yaml_1_1_directive_is_refused_and_1_2_accepted() -> None:
    with pytest.raises(InputError, match=r"asks for YAML 1\.1") as caught:
        current("%YAML 1.1\n---\nflag: yes\n")
    assert caught.value.line == 1
    assert current("%YAML 1.2\n---\nflag: yes\n")[0] == {"flag": "yes"}


def test_a_second_document_is_refused() -> None:
    with pytest.raises(InputError, match="another one starts here") as caught:
        current("a: 1\n---\nb: 2\n")
    assert caught.value.line == 2


def test_control_character_is_refused_at_its_place() -> None:
    with pytest.raises(InputError, match=r"U\+0007") as caught:
        current("a: 1\nb: 'ção \x07'\n")
    assert (caught.value.line, caught.value.column) == (2, 9)


def test_syntax_error_names_line_and_column() -> None:
    with pytest.raises(InputError, match="^YAML syntax error: ") as caught:
        current("a: 1\nb: {c: 2\nd: 3\n")
    assert caught.value.line >= 2 and caught.value.column >= 1


def test_line_separators_stay_text_and_do_not_shift_lines() -> None:
    data, places = current("a: 'x\u2028y\x85z\u2029'\nb: [1, 2]\n")
    assert data == {"a": "x\u2028y\x85z\u2029", "b": [1, 2]}
    assert places[-1] == (("b", 1), (2, 8))


def test_no_object_is_ever_constructed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only nodes are composed: PyYAML's constructors are never called, whatever the tags say."""

    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("a PyYAML constructor was called")

    monkeypatch.setattr(yaml.constructor.BaseConstructor, "construct_object", refuse)
    monkeypatch.setattr(yaml.constructor.BaseConstructor, "construct_document", refuse)
    text = "a: !!python/object/apply:os.system ['touch PWNED']\nb: !!python/name:os.system\nc: !!python/object/new:os.system {args: [x]}\n"
    assert current(text)[0] == {"a": ["touch PWNED"], "b": "", "c": {"args": ["x"]}}


def test_pure_python_composer_reads_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without LibYAML, PyYAML's Python composer takes the same path (slower), with the same results."""
    pure = type("_PureComposer", (yaml.SafeLoader,), {name: vars(yaml_load._Composer)[name] for name in ("resolve", "descend_resolver", "ascend_resolver")})
    texts = [(ROOT / "specs" / "keramikos" / "game.yaml").read_text(encoding="utf-8"), "a: [0o17, 1_000, .inf, yes, 2024-01-01, ~, 'x\u2028']\n"]
    expected = [current(text) for text in texts]
    monkeypatch.setattr(yaml_load, "_Composer", pure)
    monkeypatch.setattr(yaml_load, "_LOADER_BASE", yaml.SafeLoader)
    assert [current(text) for text in texts] == expected
    with pytest.raises(InputError, match=r"U\+0007") as caught:
        current("a: 1\nb: 'ção \x07'\n")
    assert (caught.value.line, caught.value.column) == (2, 9)


def test_csv_cells_holding_lists_are_read_by_the_same_reader() -> None:
    rows = [["id", "name.en", "cells", "flags"], ["a", "A", "[[0, 0], [1, 0x1]]", "{on: yes, n: 1_0}"], ["b", "B", "[1, [2", ""]]
    with pytest.raises(InputError, match="column 'cells'") as caught:
        cards_from_rows(rows, "cards.csv")
    assert (caught.value.line, caught.value.column) == (3, 3)
    cards, _ = cards_from_rows(rows[:2], "cards.csv")
    assert cards[0]["data"] == {"cells": [[0, 0], [1, 1]], "flags": {"on": "yes", "n": 10}}


def test_a_parse_cached_by_another_yaml_parser_is_not_reused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    load_yaml(path, "game.yaml", cache=ArtefactCache(tmp_path / "cache"))
    parsed: list[str] = []
    real = yaml_load._parse_yaml

    def counting(text: str, shown: str, max_nodes: int, max_depth: int) -> Any:
        parsed.append(shown)
        return real(text, shown, max_nodes, max_depth)

    monkeypatch.setattr(yaml_load, "_parse_yaml", counting)
    load_yaml(path, "game.yaml", cache=ArtefactCache(tmp_path / "cache"))
    assert parsed == []
    monkeypatch.setattr(yaml_load, "PARSER_VERSION", "another parser")
    load_yaml(path, "game.yaml", cache=ArtefactCache(tmp_path / "cache"))
    assert parsed == ["game.yaml"]


def test_values_are_plain_python() -> None:
    data, _ = current("i: 0x1F\nf: 1e3\nb: true\nn: ~\nd: 2024-01-01\nt: 2024-01-01 10:00:00\ns: !custom x\nl: [1]\nm: {k: v}\n")
    assert data == {"i": 31, "f": 1000.0, "b": True, "n": None, "d": "2024-01-01", "t": "2024-01-01T10:00:00", "s": "x", "l": [1], "m": {"k": "v"}}
    assert [type(v) for v in data.values()] == [int, float, bool, type(None), str, str, str, list, dict]
    assert math.isnan(current("x: .nan\n")[0]["x"])
