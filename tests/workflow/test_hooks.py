"""The pre-commit hook file and the workflow document agree with the commands they name."""

from __future__ import annotations

import re
from pathlib import Path

from ruamel.yaml import YAML
from typer.testing import CliRunner

from cardgen.cli.app import app

ROOT = Path(__file__).resolve().parents[2]


def test_pre_commit_hook() -> None:
    hooks = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = hooks
    assert hook["id"] == "cardgen-validate"
    assert hook["entry"] == "cardgen validate --no-sim"
    assert hook["language"] == "python" and hook["pass_filenames"] is False
    assert re.search(hook["files"], "specs/gem-market/cards.csv") and not re.search(hook["files"], "cardgen/cli/app.py")


def test_workflow_doc_names_real_options() -> None:
    doc = (ROOT / "docs" / "workflow.md").read_text(encoding="utf-8")
    assert "id: cardgen-validate" in doc and "cardgen validate --format github" in doc
    runner = CliRunner()
    for command, options in {"new": ["--dir"], "watch": ["--out", "--interval", "--paper", "--lang", "--card-lang"], "validate": ["--format", "--no-sim", "--strict"]}.items():
        result = runner.invoke(app, [command, "--help"], terminal_width=200)
        assert result.exit_code == 0
        for option in options:
            assert option in result.output, (command, option)
            assert option in doc, (command, option)
