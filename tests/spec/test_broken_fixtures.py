"""Every broken fixture yields its expected finding at the marked line; unreadable files exit 2."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardgen.cli.app import app
from cardgen.findings import InputError
from cardgen.catalogue import validate_folder

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BROKEN = sorted(p for p in (FIXTURES / "broken").iterdir() if (p / "game.yaml").is_file())
UNREADABLE = sorted(p for p in (FIXTURES / "unreadable").iterdir() if (p / "game.yaml").is_file())
MARKER = "# <- finding"


def _expectation(folder: Path) -> tuple[str, int]:
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    code = re.search(r"^# expect: (CG\d{3})$", text, re.MULTILINE)
    assert code, f"{folder.name} lacks an '# expect: CGnnn' line"
    lines = [n for n, line in enumerate(text.splitlines(), start=1) if MARKER in line]
    assert len(lines) == 1, f"{folder.name} needs exactly one '{MARKER}' line"
    return code.group(1), lines[0]


def test_corpus_is_large_enough() -> None:
    assert len(BROKEN) >= 25
    assert len({_expectation(f)[0] for f in BROKEN}) >= 25, "the corpus should cover at least 25 distinct finding codes"


def test_minimal_fixture_is_clean() -> None:
    result = validate_folder(FIXTURES / "valid" / "minimal", kinds=("static",))
    assert result.findings == []


@pytest.mark.parametrize("folder", BROKEN, ids=[p.name for p in BROKEN])
def test_broken_fixture_reports_its_finding_at_its_line(folder: Path) -> None:
    code, line = _expectation(folder)
    result = validate_folder(folder, kinds=("static",))
    matching = [f for f in result.findings if f.code == code]
    assert matching, f"expected {code}, got {[f.render() for f in result.findings]}"
    assert any(f.line == line for f in matching), f"expected {code} at line {line}, got {[f.render() for f in matching]}"
    assert all(f.file.endswith("game.yaml") for f in matching)


EXPECTED_LINES = {
    "empty": 1,
    "comments-only": 1,
    "syntax-error": 4,
    "duplicate-key": 3,
    "binary": 0,
    "latin1": 2,
    "alias-bomb": 1,
    "deep-nesting": 3,
    "top-level-list": 1,
}


@pytest.mark.parametrize("folder", UNREADABLE, ids=[p.name for p in UNREADABLE])
def test_unreadable_file_is_an_input_error_with_its_place(folder: Path) -> None:
    with pytest.raises(InputError) as caught:
        validate_folder(folder)
    assert caught.value.file.endswith("game.yaml")
    assert caught.value.line == EXPECTED_LINES[folder.name]


@pytest.mark.parametrize("folder", UNREADABLE[:3], ids=[p.name for p in UNREADABLE[:3]])
def test_cli_exits_2_without_traceback_on_unreadable_input(folder: Path) -> None:
    result = CliRunner().invoke(app, ["validate", str(folder)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "CG001" in result.output


def test_cli_exits_1_on_findings_and_prints_json() -> None:
    result = CliRunner().invoke(app, ["validate", str(FIXTURES / "broken" / "polyomino-disconnected"), "--format", "json", "--no-sim"])
    assert result.exit_code == 1
    assert '"code": "CG111"' in result.output


def test_cli_github_format_prints_annotations() -> None:
    result = CliRunner().invoke(app, ["validate", str(FIXTURES / "broken" / "locale-missing"), "--format", "github", "--no-sim"])
    assert result.exit_code == 1
    assert result.output.startswith("::error file=")


def test_warning_alone_exits_0_but_strict_exits_1() -> None:
    folder = str(FIXTURES / "broken" / "licence-forbids-redistribution")
    assert CliRunner().invoke(app, ["validate", folder, "--no-sim"]).exit_code == 0
    assert CliRunner().invoke(app, ["validate", folder, "--no-sim", "--strict"]).exit_code == 1
