"""The same flag means the same thing in every command: --paper, --lang/--card-lang, --out."""

from __future__ import annotations

from pathlib import Path

from typing import Any

import typer.main
from typer.testing import CliRunner

from cardgen.cli.app import app
from cardgen.cli.options import PaperChoice, card_locale, papers


def _options(command: str) -> dict[str, Any]:
    group: Any = typer.main.get_command(app)
    found = group.commands[command]
    return {name: param for param in found.params for name in getattr(param, "opts", ())}


def test_paper_defaults_to_all_and_is_checked_the_same_way_everywhere(tmp_path: Path) -> None:
    for command in ("build", "rulebook", "watch"):
        assert _options(command)["--paper"].default is PaperChoice.all, command
        result = CliRunner().invoke(app, [command, "no-such-game", "--paper", "a3", "--out", str(tmp_path)])
        assert result.exit_code == 2 and "a3" in result.output, (command, result.output)


def test_lang_chooses_the_card_language_unless_card_lang_does() -> None:
    assert card_locale("pt_BR", None) == "pt_BR"
    assert card_locale("all", None) is None
    assert card_locale("pt_BR", "en") == "en"
    assert papers(PaperChoice.all) == ("a4", "letter") and papers(PaperChoice.letter) == ("letter",)


def test_every_command_that_writes_under_output_takes_out() -> None:
    for command in ("build", "watch", "rulebook", "check", "report", "preview"):
        assert "--out" in _options(command), command
    assert _options("check")["--out"].default == Path("output")


def test_format_choices_are_checked_by_typer_with_one_error_style() -> None:
    for command in (["validate"], ["check", "no-such-game"], ["i18n", "check"]):
        result = CliRunner().invoke(app, [*command, "--format", "xml"])
        assert result.exit_code == 2 and "xml" in result.output, (command, result.output)
