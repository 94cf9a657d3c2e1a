"""The README's set-up: two commands, the first installing what the tests read results with, and .ci/run following both."""

from __future__ import annotations

import re
from pathlib import Path

from external_tools import PACKAGES

ROOT = Path(__file__).resolve().parents[2]


def _setup_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Set up") : readme.index("\n## ", readme.index("## Set up") + 1)]
    return [block.strip() for block in re.findall(r"```\n(.*?)```", section, flags=re.S)]


def test_the_readme_has_two_set_up_commands_and_the_first_installs_the_test_tools() -> None:
    install, test = _setup_commands()
    assert "pip install -e '.[dev]'" in install and "bash .ci/install-test-tools" in install
    assert test == "python -m pytest"


def test_ci_runs_the_readme_set_up_and_test_command() -> None:
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    install, test = _setup_commands()
    assert "-e '.[dev]'" in run and "bash .ci/install-test-tools" in run
    assert run.rstrip().splitlines()[-1] == test


def test_the_install_step_names_every_program_the_tests_need() -> None:
    script = (ROOT / ".ci" / "install-test-tools").read_text(encoding="utf-8")
    for program, package in PACKAGES.items():
        assert f"command -v {program} " in script and f"packages+=({package})" in script, (program, package)
