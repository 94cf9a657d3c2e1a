"""`cardgen build` options: --lang sets the card language as well as the rulebook's; --no-cache builds afresh."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from cardgen.cli.app import app

MINIMAL = Path(__file__).resolve().parent / "fixtures" / "valid" / "minimal"


def _card_text(out: Path) -> str:
    return (out / "minimal" / "cards" / "shapes-domino.svg").read_text(encoding="utf-8")


def test_lang_sets_the_card_language(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["build", str(MINIMAL), "--lang", "pt_BR", "--paper", "a4", "--out", str(tmp_path / "pt"), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "Dominó" in _card_text(tmp_path / "pt")
    assert (tmp_path / "pt" / "minimal" / "minimal-rules-pt_BR.pdf").is_file()


def test_all_languages_print_cards_in_the_first_locale(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["build", str(MINIMAL), "--paper", "a4", "--out", str(tmp_path / "all"), "--quiet"])
    assert result.exit_code == 0, result.output
    text = _card_text(tmp_path / "all")
    assert "Domino" in text and "Dominó" not in text


def test_no_cache_builds_the_same_files_and_keeps_no_cache(tmp_path: Path) -> None:
    cached = CliRunner().invoke(app, ["build", str(MINIMAL), "--paper", "a4", "--out", str(tmp_path / "cached"), "--quiet"])
    fresh = CliRunner().invoke(app, ["build", str(MINIMAL), "--paper", "a4", "--out", str(tmp_path / "fresh"), "--quiet", "--no-cache"])
    assert cached.exit_code == 0 and fresh.exit_code == 0, cached.output + fresh.output
    assert any((tmp_path / "cached" / ".cache").rglob("*"))
    assert not (tmp_path / "fresh" / ".cache").exists()
    built = sorted(p.relative_to(tmp_path / "fresh") for p in (tmp_path / "fresh" / "minimal").rglob("*") if p.is_file())
    assert built and all((tmp_path / "fresh" / p).read_bytes() == (tmp_path / "cached" / p).read_bytes() for p in built)
