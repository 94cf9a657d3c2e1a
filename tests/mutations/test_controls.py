"""Controls: the shipped specs, and unmutated copies of them, are clean, so every finding the mutants
get comes from the mutation."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.engine.checks import quick_checks
from cardgen.findings import Severity
from cardgen.spec.load import load_spec

from .helpers import SHIPPED, SPECS, copy_spec, edit_yaml, errors, rendered, static


@pytest.mark.parametrize("spec_id", SHIPPED)
def test_shipped_spec_passes_quick_checks(spec_id: str) -> None:
    loaded = load_spec(SPECS / spec_id)
    assert loaded.spec is not None and not loaded.findings, rendered(loaded.findings)
    report = quick_checks(loaded)
    assert not errors(report.findings), report.render_text()
    assert report.counts and all(c.metrics is not None for c in report.counts)
    assert all(f.severity is not Severity.ERROR for f in report.findings)


@pytest.mark.parametrize("spec_id", SHIPPED)
def test_round_trip_copy_is_statically_clean(spec_id: str, tmp_path: Path) -> None:
    """Loading and dumping the YAML unchanged (what every mutant goes through) adds no finding."""
    folder = copy_spec(spec_id, tmp_path)
    edit_yaml(folder, lambda data: None)
    result = static(folder)
    assert not result.has_errors, rendered(result.findings)
    assert (folder / "game.yaml").read_text(encoding="utf-8").startswith("# yaml-language-server: $schema=")
