"""``cardgen rulebook`` and ``cardgen i18n`` through typer's CliRunner."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from cardgen.cli.app import app

from .conftest import LANTERN, copy_spec, edit

runner = CliRunner()


def test_rulebook_writes_every_language_and_paper(tmp_path: Path) -> None:
    result = runner.invoke(app, ["rulebook", str(LANTERN), "--paper", "all", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in (tmp_path / "lantern-market").iterdir())
    assert files == [
        "lantern-market-rules-en-letter.pdf",
        "lantern-market-rules-en.md",
        "lantern-market-rules-en.pdf",
        "lantern-market-rules-pt_BR-letter.pdf",
        "lantern-market-rules-pt_BR.md",
        "lantern-market-rules-pt_BR.pdf",
    ]
    assert (tmp_path / "lantern-market" / "lantern-market-rules-pt_BR.pdf").read_bytes().startswith(b"%PDF-")


def test_rulebook_one_language_default_paper(tmp_path: Path) -> None:
    """``--paper`` defaults to all, as in ``build`` and ``watch``."""
    result = runner.invoke(app, ["rulebook", str(LANTERN), "--lang", "pt_BR", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "lantern-market").iterdir()) == [
        "lantern-market-rules-pt_BR-letter.pdf", "lantern-market-rules-pt_BR.md", "lantern-market-rules-pt_BR.pdf",
    ]


def test_rulebook_one_paper(tmp_path: Path) -> None:
    result = runner.invoke(app, ["rulebook", str(LANTERN), "--lang", "pt_BR", "--paper", "a4", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "lantern-market").iterdir()) == ["lantern-market-rules-pt_BR.md", "lantern-market-rules-pt_BR.pdf"]


def test_rulebook_refuses_an_unknown_language_or_paper(tmp_path: Path) -> None:
    assert runner.invoke(app, ["rulebook", str(LANTERN), "--lang", "fr", "--out", str(tmp_path)]).exit_code == 2
    assert runner.invoke(app, ["rulebook", str(LANTERN), "--paper", "a3", "--out", str(tmp_path)]).exit_code == 2
    assert not (tmp_path / "lantern-market").exists()


def test_rulebook_refuses_a_spec_with_errors(tmp_path: Path) -> None:
    folder = copy_spec(tmp_path / "specs")
    edit(folder / "game.yaml", "min_age: 8", "min_age: 8\ncolour_scheme: dark")
    result = runner.invoke(app, ["rulebook", str(folder), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "CG003" in result.output
    assert not (tmp_path / "out").exists()


def test_rulebook_replaces_files_atomically(tmp_path: Path) -> None:
    target = tmp_path / "lantern-market" / "lantern-market-rules-en.md"
    target.parent.mkdir(parents=True)
    target.write_text("old", encoding="utf-8")
    assert runner.invoke(app, ["rulebook", str(LANTERN), "--lang", "en", "--out", str(tmp_path)]).exit_code == 0
    assert target.read_text(encoding="utf-8").startswith("# Lantern Market")
    assert [p.name for p in target.parent.iterdir() if p.name.startswith(".")] == []


def test_i18n_check_is_clean() -> None:
    result = runner.invoke(app, ["i18n", "check"])
    assert result.exit_code == 0, result.output
    assert "0 error(s)" in result.output
