"""The package, its tests and the benchmarks type-check (``[tool.mypy] files`` in pyproject.toml): CI runs only the test command, so the type checker runs inside it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("mypy") is None and subprocess.run([sys.executable, "-m", "mypy", "--version"], capture_output=True).returncode != 0, reason="mypy is not installed")
def test_mypy_passes_on_package_tests_and_bench() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
