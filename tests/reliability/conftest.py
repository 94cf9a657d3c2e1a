"""Shared helpers of the reliability suite, and the ``--fuzz-examples`` option.

The fuzz suite runs a fixed number of cases by default (enough for CI, under the
folder's time budget). For a longer hunt, raise it::

    python -m pytest tests/reliability --fuzz-examples 20000
    CARDGEN_FUZZ_EXAMPLES=20000 python -m pytest tests/reliability

The option only exists when pytest is pointed at this folder (pytest reads
``pytest_addoption`` from the conftests of the paths it is given); the
environment variable works from anywhere.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "specs"
FIXTURES = ROOT / "tests" / "fixtures"
MINIMAL = FIXTURES / "valid" / "minimal"
HOSTILE = FIXTURES / "hostile"

DEFAULT_FUZZ_EXAMPLES = 2000
"""Fuzz cases in a normal run, over all tiers and all specs."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--fuzz-examples",
        action="store",
        type=int,
        default=None,
        help="How many fuzz cases tests/reliability/test_fuzz_specs.py runs in total (default 2000).",
    )


def fuzz_examples(config: pytest.Config) -> int:
    """The total number of fuzz cases asked for (option, then environment, then the default)."""
    chosen = config.getoption("--fuzz-examples", default=None)
    if chosen is None and os.environ.get("CARDGEN_FUZZ_EXAMPLES"):
        chosen = int(os.environ["CARDGEN_FUZZ_EXAMPLES"])
    return int(chosen) if chosen else DEFAULT_FUZZ_EXAMPLES


def shipped_spec_folders() -> list[Path]:
    """Every shipped spec (specs/*/game.yaml), as they land."""
    return sorted(p.parent for p in SPECS.glob("*/game.yaml"))


def fuzz_sources() -> list[Path]:
    """The spec folders the fuzz suite mutates: the shipped specs and the minimal fixture."""
    return shipped_spec_folders() + [MINIMAL]


def copy_spec(source: Path, target: Path) -> Path:
    """Copy a spec folder (game.yaml and its sibling files, e.g. CSV sheets) to ``target``."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def one_line(text: str) -> bool:
    """Whether ``text`` is one line that prints as UTF-8 (no newline, no unpaired surrogate)."""
    text.encode("utf-8")
    return "\n" not in text and "\r" not in text
