"""Hostile inputs (tests/fixtures/hostile/ and files made at test time): refused cleanly, never obeyed.

Each test names the attack, runs the real loader, validator or build, and checks
both the clean outcome (a finding, or one error line naming the file) and that
the attack had no effect (no file read, no command run, no markup injected).
"""

from __future__ import annotations

import re

import os
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cardgen.findings import InputError, Severity
from cardgen.spec.load import confined_path, load_spec
from cardgen.limits import MAX_FILE_BYTES
from cardgen.spec.yaml_load import check_flow_depth, load_yaml
from cardgen.catalogue import validate_folder

from .conftest import HOSTILE, MINIMAL, copy_spec, one_line
from .test_build_safety import run_cli

SVG = "{http://www.w3.org/2000/svg}"


def codes(folder: Path, kinds: tuple[str, ...] = ("static",)) -> list[str]:
    return [f.code for f in validate_folder(folder, kinds=kinds).findings]  # type: ignore[arg-type]


# --- confinement --------------------------------------------------------------------


@pytest.mark.parametrize("name", ["path-traversal", "absolute-path", "dot-segments"])
def test_card_sheet_paths_leaving_the_folder_are_findings(name: str) -> None:
    loaded = load_spec(HOSTILE / name)
    found = [f for f in loaded.findings if f.code == "CG010"]
    assert len(found) == 1, [f.render() for f in loaded.findings]
    assert found[0].path == "decks[2].cards_file"
    assert found[0].line == 69 and found[0].severity is Severity.ERROR
    assert "outside the spec folder" in found[0].message
    assert loaded.spec is None  # nothing from /etc/passwd became cards


def _with_sheet(tmp_path: Path, sheet: str) -> Path:
    folder = copy_spec(MINIMAL, tmp_path / "spec")
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text.replace("    size: mini\n", f"    size: mini\n    cards_file: {sheet}\n", 1), encoding="utf-8")
    return folder


def test_symlinked_sheet_pointing_outside_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.csv").write_text("id,name.en,name.pt_BR\nstolen,Stolen,Roubado\n", encoding="utf-8")
    folder = _with_sheet(tmp_path, "pots.csv")
    (folder / "pots.csv").symlink_to(outside / "secret.csv")
    assert confined_path(folder, "pots.csv") is None
    loaded = load_spec(folder)
    assert [f.code for f in loaded.findings] == ["CG010"]
    assert loaded.spec is None


def test_symlinked_folder_pointing_outside_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "pots.csv").write_text("id,name.en,name.pt_BR\nstolen,Stolen,Roubado\n", encoding="utf-8")
    folder = _with_sheet(tmp_path, "sheets/pots.csv")
    (folder / "sheets").symlink_to(outside, target_is_directory=True)
    assert [f.code for f in load_spec(folder).findings] == ["CG010"]


def test_symlink_staying_inside_is_accepted(tmp_path: Path) -> None:
    folder = _with_sheet(tmp_path, "link.csv")
    (folder / "real.csv").write_text("id,name.en,name.pt_BR,set,set_size\nkylix,Kylix,Cálice,kylix,1\n", encoding="utf-8")
    (folder / "link.csv").symlink_to(folder / "real.csv")
    loaded = load_spec(folder)
    assert loaded.spec is not None, [f.render() for f in loaded.findings]
    assert [c.id for c in loaded.spec.decks[2].cards] == ["amphora", "kylix"]


# --- bounded work ---------------------------------------------------------------------


def test_alias_bomb_stops_at_the_node_limit() -> None:
    with pytest.raises(InputError, match="alias/anchor bomb") as caught:
        load_spec(HOSTILE / "alias-bomb")
    assert caught.value.file.endswith("alias-bomb/game.yaml") and caught.value.line > 0
    assert one_line(caught.value.render())


def test_self_referencing_alias_ends(tmp_path: Path) -> None:
    """An anchor used inside itself cannot be built; ruamel leaves the inner use empty (None)."""
    path = tmp_path / "game.yaml"
    path.write_text("spec_version: 1\nloop: &me [1, *me]\n", encoding="utf-8")
    data, _ = load_yaml(path, "game.yaml")
    assert data == {"spec_version": 1, "loop": [1, None]}


def test_cyclic_data_from_a_tool_is_a_clean_error() -> None:
    """Values built by code may be cyclic; the converter's depth limit stops them."""
    from cardgen.spec.yaml_load import convert_plain

    loop: list[object] = [1]
    loop.append(loop)
    with pytest.raises(InputError, match="nesting deeper than 40"):
        convert_plain({"loop": loop}, "tool")


def test_file_over_two_mebibytes_is_refused_before_parsing(tmp_path: Path) -> None:
    folder = copy_spec(MINIMAL, tmp_path / "spec")
    with (folder / "game.yaml").open("a", encoding="utf-8") as handle:
        handle.write("# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    assert (folder / "game.yaml").stat().st_size > MAX_FILE_BYTES
    with pytest.raises(InputError, match="over the 2097152-byte limit"):
        validate_folder(folder, kinds=("static",))


def test_huge_card_sheet_is_refused(tmp_path: Path) -> None:
    folder = _with_sheet(tmp_path, "pots.csv")
    row = "pot{},Pot,Vaso,pots,1\n"
    with (folder / "pots.csv").open("w", encoding="utf-8") as handle:
        handle.write("id,name.en,name.pt_BR,set,set_size\n")
        for index in range(MAX_FILE_BYTES // len(row) + 10):
            handle.write(row.format(index))
    with pytest.raises(InputError, match="byte limit") as caught:
        load_spec(folder)
    assert caught.value.file.endswith("pots.csv")


def test_giant_csv_cell_is_a_clean_error(tmp_path: Path) -> None:
    folder = _with_sheet(tmp_path, "pots.csv")
    (folder / "pots.csv").write_text("id,name.en,name.pt_BR\nbig,\"" + "x" * 200_000 + "\",Grande\n", encoding="utf-8")
    with pytest.raises(InputError, match="cannot be read as CSV") as caught:
        load_spec(folder)
    assert (caught.value.line, caught.value.column) == (2, 1)


def test_deep_flow_nesting_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text("spec_version: 1\nnumbers: " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="nesting deeper than 40 levels") as caught:
        load_yaml(path, "game.yaml")
    assert (caught.value.line, caught.value.column) == (2, 50)


@pytest.mark.parametrize(
    "text",
    [
        "a: 'it''s [not [a [list'\n",
        'a: "[[[[[[" \n',
        "a: see [1 and [2\n" * 50,
        "# [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n",
        "a: [[[[[[[[[[]]]]]]]]]]\n" * 100,
    ],
)
def test_flow_depth_scan_ignores_brackets_in_text_and_comments(text: str) -> None:
    check_flow_depth(text, "x.yaml", 40)


def test_flow_depth_scan_sees_through_tags_and_anchors() -> None:
    with pytest.raises(InputError):
        check_flow_depth("a: " + "!t &x [" * 41, "x.yaml", 40)


def test_deep_nesting_inside_a_csv_cell_is_a_clean_error(tmp_path: Path) -> None:
    folder = _with_sheet(tmp_path, "pots.csv")
    (folder / "pots.csv").write_text('id,name.en,name.pt_BR,cells\nx,X,X,"' + "[" * 3000 + "]" * 3000 + '"\n', encoding="utf-8")
    with pytest.raises(InputError, match="cannot read") as caught:
        load_spec(folder)
    assert (caught.value.line, caught.value.column) == (2, 4)


@pytest.mark.parametrize(
    ("replacement", "message"),
    [
        ("depth: " + "9" * 5000, "YAML value cannot be read"),
        ("depth: 0x" + "f" * 5000, "number is too large"),
        ("depth: 9007199254740992", "number is too large"),
        ('depth: "\\ud800"', "unpaired surrogate"),
        ('"\\udfff": 2', "unpaired surrogate"),
    ],
)
def test_absurd_scalars_are_one_clean_error(tmp_path: Path, replacement: str, message: str) -> None:
    folder = copy_spec(MINIMAL, tmp_path / "spec")
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text.replace("depth: 2", replacement), encoding="utf-8")
    with pytest.raises(InputError, match=message) as caught:
        validate_folder(folder, kinds=("static",))
    assert one_line(caught.value.render())


@pytest.mark.parametrize(
    ("old", "new", "code", "expected"),
    [
        ("copies: 2\n", "copies: 1000000\n", "CG004", "less than or equal to 500"),
        ("copies: 2\n", "copies: -3\n", "CG004", "greater than or equal to 1"),
        ("columns: 2, rows: 1", "columns: 500, rows: 500", "CG004", "less than or equal to 20"),
        ("count: 3, where", "count: -1, where", "CG004", "greater than or equal to 0"),
        ("players: {min: 1, max: 2}", "players: {min: 1, max: 1000000000}", "CG150", "above the 12 players"),
        ("count: 2, sides: 2", "count: 10, sides: 100", "CG113", "map to no card"),
    ],
)
def test_absurd_numbers_are_findings(tmp_path: Path, old: str, new: str, code: str, expected: str) -> None:
    folder = copy_spec(MINIMAL, tmp_path / "spec")
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    assert old in text
    (folder / "game.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    findings = validate_folder(folder, kinds=("static",)).findings
    matching = [f for f in findings if f.code == code and expected in f.message]
    assert matching, [f.render() for f in findings]
    assert len(findings) < 50


# --- no code from data ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["python-apply-tag", "python-new-tag", "python-name-tag", "custom-tag"])
def test_object_tags_are_never_executed(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # where `touch CARDGEN_PWNED` would land
    folder = copy_spec(HOSTILE / name, tmp_path / name)
    try:
        loaded = load_spec(folder)
    except InputError as error:  # a clean refusal is as good as plain data
        assert one_line(error.render())
        loaded = None
    assert not (tmp_path / "CARDGEN_PWNED").exists()
    assert not Path("CARDGEN_PWNED").exists()
    if loaded is not None and loaded.spec is not None:
        assert isinstance(loaded.spec.version, str)
        assert "root:" not in loaded.spec.version  # the tag did not read /etc/passwd
    if name == "custom-tag":
        assert loaded is not None and loaded.spec is not None and loaded.spec.version == "/etc/passwd"
    if name in {"python-apply-tag", "python-new-tag"}:
        assert loaded is not None and [f.code for f in loaded.findings] == ["CG004"]


def test_template_sandbox_refuses_escape_attempt() -> None:
    import jinja2

    from cardgen.rulebook import environment

    env = environment.make_environment("en")
    for payload in (
        "{{ ''.__class__.__mro__[1].__subclasses__() }}",
        "{{ cycler.__init__.__globals__.os.popen('id').read() }}",
        "{{ self._TemplateReference__context }}",
    ):
        with pytest.raises((jinja2.exceptions.SecurityError, jinja2.exceptions.UndefinedError)):
            env.from_string(payload).render()


def test_template_escape_in_a_spec_folder_is_a_clean_finding(tmp_path: Path) -> None:
    folder = copy_spec(MINIMAL, tmp_path / "spec")
    templates = folder / "templates" / "rulebook"
    templates.mkdir(parents=True)
    (templates / "rulebook.xhtml.j2").write_text("<html>{{ ''.__class__.__mro__[1].__subclasses__() }}</html>\n", encoding="utf-8")
    out = tmp_path / "out"
    code, stdout, stderr = run_cli(["build", str(folder), "--out", str(out), "--paper", "a4"])
    assert code == 1, (stdout, stderr)
    assert "SecurityError" in stdout and "Traceback" not in stdout + stderr
    assert "not built" in stderr
    assert not (out / "minimal").exists()


def _svg_texts(path: Path) -> str:
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    assert not [el for el in root.iter() if el.tag.lower().endswith(("script", "foreignobject"))]
    assert not [el for el in root.iter() if el.get("width") == "999"]
    return "\n".join("".join(el.itertext()) for el in root.iter(f"{SVG}text"))


def test_markup_in_card_names_round_trips_through_svg_and_pdf(tmp_path: Path) -> None:
    import pypdf
    out = tmp_path / "out"
    code, stdout, stderr = run_cli(["build", str(HOSTILE / "markup-injection"), "--out", str(out), "--paper", "a4", "--lang", "en"])
    assert code == 0, (stdout, stderr)
    cards = out / "minimal" / "cards"
    expected = {
        "shapes-domino.svg": "<script>alert('x')</script>",
        "shapes-corner.svg": '</text><rect width="999"/>',
        "sites-low.svg": "Tom &amp; Jerry & \"Co\" 'x'",
        "sites-mid.svg": "\u202eevil\u202c \u05e9\u05dc\u05d5\u05dd",
    }
    for name, title in expected.items():
        assert title in _svg_texts(cards / name).splitlines(), name
    low = _svg_texts(cards / "sites-low.svg")
    assert "<tspan>&#x41;</tspan>" in low.replace("\n", " ")  # card text too, taken literally
    for svg in sorted((out / "minimal").rglob("*.svg")):
        _svg_texts(svg)  # every SVG parses and holds no injected element
    pages = pypdf.PdfReader(out / "minimal" / "minimal-cards-bleed.pdf").pages
    pdf_text = "\n".join(page.extract_text() for page in pages)
    for title in list(expected.values())[:3]:
        assert title in pdf_text


def test_control_characters_in_printed_text_are_findings(tmp_path: Path) -> None:
    folder = HOSTILE / "control-characters"
    result = validate_folder(folder, kinds=("static", "render", "i18n"))
    # The static layer names each control character (CG122) before any face is drawn;
    # the render layer's missing-glyph check (CG202) would name them too if it ran.
    named = sorted(set(re.findall(r"U\+[0-9A-F]{4}", " ".join(f.message for f in result.findings if f.code in {"CG122", "CG202"}))))
    assert named == ["U+0007", "U+0008", "U+001B", "U+007F"], [f.render() for f in result.findings]
    for finding in result.findings:
        assert one_line(finding.render())
    out = tmp_path / "out"
    code, stdout, stderr = run_cli(["build", str(folder), "--out", str(out)])
    assert code == 1 and "Traceback" not in stdout + stderr
    assert not (out / "minimal").exists()


def test_user_cannot_name_output_outside_by_game_id(tmp_path: Path) -> None:
    """A game id is a plain lower-case word, so ``<out>/<id>`` never leaves the output folder."""
    folder = copy_spec(MINIMAL, tmp_path / "spec")
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text.replace("id: minimal", "id: ../../escaped", 1), encoding="utf-8")
    assert "CG004" in codes(folder)
    (folder / "game.yaml").write_text(text.replace("id: minimal", "id: /tmp/escaped", 1), encoding="utf-8")
    assert "CG004" in codes(folder)


def test_fixtures_are_where_the_tests_expect() -> None:
    names = sorted(p.name for p in HOSTILE.iterdir() if (p / "game.yaml").is_file())
    assert names == sorted(
        ["absolute-path", "alias-bomb", "control-characters", "custom-tag", "dot-segments", "markup-injection",
         "path-traversal", "python-apply-tag", "python-name-tag", "python-new-tag"]
    )
