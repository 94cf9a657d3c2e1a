"""Property-based fuzzing of the inputs beyond game.yaml: layouts, card sheets, catalogs and replays.

test_fuzz_specs.py mutates specs; this file generates the other files a user
(or an attacker) hands cardgen, with the numbers that drive work pushed to
their extremes (NaN, infinities, 10**300, negative sizes, huge repeat counts,
deep nesting, long texts):

* layouts (``layouts/<deck>.yaml`` in a spec folder), through validation with
  the render checks, which lay out every face;
* card sheets as CSV, XLSX and ODS, through the spec loader;
* gettext catalogs (the shipped pt_BR catalog, mutated), through the catalog check;
* replay logs (a real Ceramus replay, mutated), read and played back through the engine.

Each case must end in a result (findings, a catalog report, a replay played
through) or in the one clean error its layer raises (:class:`InputError`,
:class:`ReplayMismatch`), with one-line messages, within a deadline. Runs
are derandomized with no database; ``--fuzz-examples`` scales them (see conftest).
"""

from __future__ import annotations

import csv
import io
import json
import math
import random
import shutil
import signal
import tempfile
import zipfile
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.engine.core import Game
from cardgen.findings import InputError
from cardgen.spec.load import load_spec
from cardgen.catalogue import validate_folder

from .conftest import MINIMAL, ROOT, fuzz_examples, one_line

SHARE = {"layouts": 0.03, "sheets": 0.04, "catalogs": 0.03, "replays": 0.06}
"""Each target's share of the fuzz budget (2,000 cases by default: 60, 80, 60 and 120)."""
HANG_SECONDS = 60
"""A case still running after this long is a hang (the suite fails instead of waiting)."""

NUMBERS: list[Any] = [
    0, -1, 1, 2, 6, 64, 65, 1000, 10_000, 10**6, 10**7, 2**53, 2**63, 10**30, -(10**30),
    0.0, -0.0, 0.25, 5e-324, 1e-9, 1e6, 1e308, -1e308, math.inf, -math.inf, math.nan,
]
ODD: list[Any] = [None, True, False, "", "x", "nan", "inf", "-1e999", [], {}, [1, 2], {"a": 1}, [[[[]]]]]


@contextmanager
def no_hang(seconds: float = HANG_SECONDS) -> Iterator[None]:
    """Fail the case (instead of hanging the suite) when it runs longer than ``seconds``."""

    def expired(_signum: int, _frame: object) -> None:
        raise AssertionError(f"still running after {seconds} s (a loop without a bound?)")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def examples(config: pytest.Config, target: str) -> int:
    return max(10, math.ceil(fuzz_examples(config) * SHARE[target]))


def fuzz_settings(count: int) -> settings:
    return settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=timedelta(seconds=HANG_SECONDS),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
        print_blob=True,
    )


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="cardgen-fuzz-inputs-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def fresh_minimal(workdir: Path) -> Path:
    target = workdir / "spec"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(MINIMAL, target)
    return target


def clean_error(error: InputError) -> None:
    assert one_line(error.render() if hasattr(error, "render") else str(error)), error


# --------------------------------------------------------------------------- layouts

WIDGETS = [
    "title", "text", "fields", "field", "type_band", "credit_line", "ornament", "back_title", "game_title", "panel",
    "polyomino", "pattern", "palette_grid", "palette_list", "swatch", "piece", "seat_mark", "icon_row", "nope",
    "keramikos_dice_totals", "keramikos_level", "keramikos_set", "keramikos_vessel", "ceramus_tiles_used",
]
PARAM_NAMES = [
    "size", "min_size", "label_size", "icon_size", "chance_size", "frame_cells", "max", "line_height", "gap", "radius",
    "cell_max", "scale", "symbol_scale", "tint", "stroke_width", "border_width", "inset", "padding", "span",
    "field", "colour", "align", "valign", "font", "motif", "grid", "single_line", "justify",
]
LAYOUT_TARGETS = ["shapes", "sites", "pots", "bones", "tile"]

numbers = st.sampled_from(NUMBERS) | st.floats(allow_nan=True, allow_infinity=True) | st.integers(-(10**12), 10**12)
values = numbers | st.sampled_from(ODD) | st.text(max_size=20) | st.sampled_from(["cells", "pattern", "grid", "totals", "level", "set", "lattice", "center"])
boxes = st.lists(numbers, min_size=4, max_size=4) | st.lists(numbers, max_size=6) | st.sampled_from(ODD)
elements = st.fixed_dictionaries(
    {"widget": st.sampled_from(WIDGETS), "box": boxes},
    optional={"params": st.dictionaries(st.sampled_from(PARAM_NAMES), values, max_size=5), "art": st.booleans()},
)
faces = st.fixed_dictionaries(
    {"elements": st.lists(elements, max_size=4)},
    optional={"background": st.sampled_from(["#ffffff", "type", "nope", None]), "background_tint": numbers,
              "frame": st.fixed_dictionaries({}, optional={"width_mm": numbers, "inset_mm": numbers, "radius_mm": numbers})},
)
layouts = st.fixed_dictionaries({"front": faces}, optional={"back": faces, "min_text_pt": numbers})


def _json(value: Any) -> str:
    """JSON (which YAML reads) with YAML's spellings of the non-finite floats."""
    text = json.dumps(value, allow_nan=True)
    return text.replace("-Infinity", "-.inf").replace("Infinity", ".inf").replace("NaN", ".nan")


def test_layouts_end_in_findings(workdir: Path, request: pytest.FixtureRequest) -> None:
    @fuzz_settings(examples(request.config, "layouts"))
    @given(layout=layouts, target=st.sampled_from(LAYOUT_TARGETS))
    def case(layout: dict[str, Any], target: str) -> None:
        folder = fresh_minimal(workdir)
        (folder / "layouts").mkdir()
        (folder / "layouts" / f"{target}.yaml").write_text(_json(layout) + "\n", encoding="utf-8")
        try:
            with no_hang():
                result = validate_folder(folder, kinds=("static", "render"))
        except InputError as error:
            clean_error(error)
            return
        assert all(one_line(f.render()) for f in result.findings)

    case()


# --------------------------------------------------------------------------- card sheets

POTS_CARD = "      - {id: amphora, name: {en: Amphora, pt_BR: Ânfora}, copies: 2, data: {set: amphora, set_size: 2}}\n"
HEADERS = ["id", "name.en", "name.pt_BR", "set", "set_size", "copies", "text.en", "face1.name.en", "", "id"]
cells = (
    st.sampled_from(["pot", "Pot", "Vaso", "amphora", "1", "2", "500", "501", "-1", "1e999", "nan", "inf", "NaN", "[[1,2]]", "[" * 50, "{a: 1}", '"', ""])
    | st.integers(-(10**20), 10**20).map(str)
    | st.text(max_size=30)
    | st.builds(lambda ch, n: ch * n, st.sampled_from("xy é\n"), st.sampled_from([100, 66_000, 70_000]))
)
sheets = st.lists(st.lists(cells, min_size=1, max_size=8), min_size=0, max_size=12)
header_rows = st.lists(st.sampled_from(HEADERS), min_size=1, max_size=8) | st.just(["id", "name.en", "name.pt_BR", "set", "set_size", "copies"])


def _with_sheet(workdir: Path, name: str) -> Path:
    folder = fresh_minimal(workdir)
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text.replace("    cards:\n" + POTS_CARD, f"    cards_file: {name}\n", 1), encoding="utf-8")
    return folder


def _write_csv(path: Path, rows: list[list[str]]) -> None:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8", errors="surrogatepass")


def _xml_text(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _xml_safe(value: str) -> str:
    return "".join(ch for ch in value if ch in "\t\n\r" or (" " <= ch <= "\ud7ff") or ("\ue000" <= ch <= "\ufffd"))


def _write_xlsx(path: Path, rows: list[list[str]], draw: random.Random) -> None:
    shared = sorted({c for row in rows for c in row})
    part = draw.choice(["xl/worksheets/sheet1.xml", "xl/worksheets/sheet1.bin", "xl/data"])
    body = ""
    for r, row in enumerate(rows, start=1):
        body += f'<row r="{r}">'
        for c, value in enumerate(row):
            ref = f"{chr(65 + c)}{r}"
            kind = draw.randrange(4)
            if kind == 0 and shared:
                index = shared.index(value) if draw.random() < 0.9 else draw.choice([-1, len(shared), 10**12])
                body += f'<c r="{ref}" t="s"><v>{index}</v></c>'
            elif kind == 1:
                body += f'<c r="{ref}"><v>{_xml_text(_xml_safe(value))}</v></c>'
            else:
                body += f'<c r="{ref}" t="inlineStr"><is><t>{_xml_text(_xml_safe(value))}</t></is></c>'
        body += "</row>"
    prologue = draw.choice(["", "", '<!DOCTYPE x [<!ENTITY e "ee">]>'])
    sheet = f'<?xml version="1.0" encoding="UTF-8"?>{prologue}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{body}</sheetData></worksheet>'
    strings = "".join(f"<si><t>{_xml_text(_xml_safe(s))}</t></si>" for s in shared)
    from .test_bounded_work import XLSX_PARTS

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, template in XLSX_PARTS.items():
            archive.writestr(name, template.replace("{sheet}", part))
        archive.writestr("xl/sharedStrings.xml", f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">{strings}</sst>')
        archive.writestr(part, sheet)


def _write_ods(path: Path, rows: list[list[str]], draw: random.Random) -> None:
    from .test_bounded_work import write_raw_ods

    def paragraph(value: str) -> str:
        inner = _xml_text(_xml_safe(value))
        roll = draw.randrange(6)
        if roll == 0:
            inner += f'<text:s text:c="{draw.choice([1, 1000, 10**9, -5, "x"])}"/>' * draw.choice([1, 80])
        elif roll == 1:
            depth = draw.choice([3, 60, 70])
            inner = "<text:span>" * depth + inner + "</text:span>" * depth
        return f"<text:p>{inner}</text:p>"

    def cell(value: str) -> str:
        repeat = draw.choice(["", "", ' table:number-columns-repeated="3"', f' table:number-columns-repeated="{draw.choice([0, 10**9, 201])}"'])
        if value and draw.random() < 0.2:
            return f'<table:table-cell{repeat} office:value-type="float" office:value="{_xml_text(_xml_safe(value))}"/>'
        return f'<table:table-cell{repeat} office:value-type="string">{paragraph(value)}</table:table-cell>'

    body = ""
    for row in rows:
        repeat = draw.choice(["", "", f' table:number-rows-repeated="{draw.choice([2, 5000, 10**9, 0])}"'])
        body += f"<table:table-row{repeat}>" + "".join(cell(v) for v in row) + "</table:table-row>"
    if draw.random() < 0.2:
        depth = draw.choice([2, 70])
        body = "<table:table-row-group>" * depth + body + "</table:table-row-group>" * depth
    write_raw_ods(path, body)


def test_card_sheets_end_in_cards_or_one_error(workdir: Path, request: pytest.FixtureRequest) -> None:
    @fuzz_settings(examples(request.config, "sheets"))
    @given(kind=st.sampled_from(["csv", "xlsx", "ods"]), header=header_rows, rows=sheets, seed=st.integers(0, 2**32))
    def case(kind: str, header: list[str], rows: list[list[str]], seed: int) -> None:
        folder = _with_sheet(workdir, f"pots.{kind}")
        table = [header, *rows]
        draw = random.Random(seed)
        if kind == "csv":
            _write_csv(folder / "pots.csv", table)
        elif kind == "xlsx":
            _write_xlsx(folder / "pots.xlsx", table, draw)
        else:
            _write_ods(folder / "pots.ods", table, draw)
        try:
            with no_hang():
                loaded = load_spec(folder)
        except InputError as error:
            clean_error(error)
            return
        assert all(one_line(f.render()) for f in loaded.findings)

    case()


# --------------------------------------------------------------------------- catalogs

CATALOG = ROOT / "locales" / "pt_BR" / "LC_MESSAGES" / "cardgen.po"
PO_TOKENS = [
    'msgid ""', 'msgstr ""', 'msgstr[0] ""', "msgstr[99999] \"x\"", 'msgid_plural "x"', "#, fuzzy", "#, python-format", "msgctxt \"c\"",
    '"Plural-Forms: nplurals=1000000; plural=n;\\n"', '"Plural-Forms: nplurals=2; plural=(n > 1 ? 0 : 1;\\n"', '"Content-Type: text/plain; charset=latin-1\\n"',
    '"%(name)s"', '"{count}"', '"\\', "\x00", "\ufeff", '"' + "x" * 70_000 + '"', "\n" * 3, "#~ msgid \"old\"",
]


def test_catalogs_end_in_findings(workdir: Path, request: pytest.FixtureRequest) -> None:
    from cardgen.rulebook.checks import catalog_findings

    base = CATALOG.read_text(encoding="utf-8")

    @fuzz_settings(examples(request.config, "catalogs"))
    @given(edits=st.lists(st.tuples(st.integers(0, 10**9), st.sampled_from(PO_TOKENS) | st.text(max_size=10), st.booleans()), min_size=1, max_size=6))
    def case(edits: list[tuple[int, str, bool]]) -> None:
        text = base
        for position, token, cut in edits:
            at = position % (len(text) + 1)
            text = text[:at] + token + (text[at + 40 :] if cut else text[at:])
        path = workdir / "cardgen.po"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        with no_hang():
            findings = catalog_findings(path, "pt_BR")
        assert all(one_line(f.render()) for f in findings)

    case()


# --------------------------------------------------------------------------- replays


@pytest.fixture(scope="module")
def ceramus() -> tuple[Game, str]:
    """The Ceramus game (fewest players) and a real replay of one random game."""
    from cardgen.engine.agents import make_agent
    from cardgen.engine.core import make_game
    from cardgen.engine.playout import play_game
    from cardgen.engine.replay import dumps_replay, replay_of

    loaded = load_spec(ROOT / "specs" / "ceramus")
    assert loaded.spec is not None
    game = make_game(loaded.spec, loaded.spec.players.min)
    result = play_game(game, [make_agent("random", game) for _ in range(game.num_players)], 7)
    return game, dumps_replay(replay_of(game, result))


JSON_TOKENS = [
    "NaN", "Infinity", "-Infinity", "1e999", "9" * 5000, "9" * 4000, str(2**63), "-1", "0", "1.5", "true", "null", '"x"',
    "[" * 30 + "]" * 30, "[" * 5000 + "]" * 5000, "{}", "[]", '"\\ud800"', "{" * 3, "",
]
REPLAY_KEYS = ["game", "spec_hash", "players", "seed", "agents", "ply", "player", "action", "text", "scores", "ranking", "termination"]


def test_replays_end_in_a_playback_or_one_error(ceramus: tuple[Game, str], request: pytest.FixtureRequest) -> None:
    from cardgen.engine.replay import ReplayMismatch, loads_replay, replay_lines

    game, base = ceramus
    lines = base.splitlines()

    @fuzz_settings(examples(request.config, "replays"))
    @given(
        edits=st.lists(
            st.tuples(st.integers(0, 10**6), st.sampled_from(REPLAY_KEYS), st.sampled_from(JSON_TOKENS), st.sampled_from(["set", "drop", "line", "dup"])),
            min_size=1,
            max_size=4,
        )
    )
    def case(edits: list[tuple[int, str, str, str]]) -> None:
        rows = list(lines)
        for position, key, token, how in edits:
            index = position % len(rows)
            if how == "line":
                rows.insert(index, token)
            elif how == "dup":
                rows[index:index] = [rows[index]] * (1 + position % 5)
            else:
                try:
                    data = json.loads(rows[index])
                except (ValueError, RecursionError):  # a line inserted by an earlier edit: leave it as it is
                    continue
                if not isinstance(data, dict):
                    continue
                if how == "drop":
                    data.pop(key, None)
                    rows[index] = json.dumps(data)
                else:
                    data[key] = "__TOKEN__"
                    rows[index] = json.dumps(data).replace('"__TOKEN__"', token or '""')
        text = "\n".join(rows) + "\n"
        with no_hang():
            try:
                replay = loads_replay(text, "fuzz.jsonl")
            except InputError as error:
                clean_error(error)
                return
            try:
                played = list(replay_lines(game, replay))
            except ReplayMismatch as mismatch:
                assert one_line(str(mismatch))
                return
        assert played and all(one_line(line) for line in played)

    case()


def test_the_base_replay_plays_back(ceramus: tuple[Game, str]) -> None:
    """The control: the unmutated replay reads and plays through."""
    from cardgen.engine.replay import loads_replay, replay_lines

    game, base = ceramus
    assert list(replay_lines(game, loads_replay(base)))[-1].startswith("end (")
