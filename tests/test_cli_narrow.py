"""A run builds only the command it names (issue 17): the narrowed app parses, helps and fails as the whole app does."""

from __future__ import annotations

from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from cardgen.cli.app import app, app_for

NAMES = sorted(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def test_every_command_and_group_is_found_by_its_name() -> None:
    assert {"build", "validate", "watch", "export", "i18n"} <= set(NAMES)
    for name in NAMES:
        narrow: Any = typer.main.get_command(app_for([name, "--help"]))
        assert sorted(narrow.commands) == [name], "only the named command is made into a click command"
    assert app_for(["build", "bench/job"]) is not app


@pytest.mark.parametrize("args", [[], ["--help"], ["--debug"], ["no-such-command"], ["buil"]])
def test_anything_but_a_command_name_runs_the_whole_app(args: list[str]) -> None:
    assert app_for(args) is app


@pytest.mark.parametrize("name", NAMES)
def test_a_command_helps_as_in_the_whole_app(name: str) -> None:
    runner = CliRunner()
    whole = runner.invoke(app, [name, "--help"], prog_name="cardgen")
    narrow = runner.invoke(app_for([name, "--help"]), [name, "--help"], prog_name="cardgen")
    assert whole.exit_code == narrow.exit_code == 0
    assert narrow.output == whole.output


@pytest.mark.parametrize("args", [["build", "--paper", "a3"], ["validate", "--format", "xml"], ["export", "nothing"], ["build", "--no-such-flag"]])
def test_a_command_refuses_bad_arguments_as_in_the_whole_app(args: list[str]) -> None:
    runner = CliRunner()
    whole = runner.invoke(app, args, prog_name="cardgen")
    narrow = runner.invoke(app_for(args), args, prog_name="cardgen")
    assert whole.exit_code == narrow.exit_code == 2
    assert narrow.output == whole.output
