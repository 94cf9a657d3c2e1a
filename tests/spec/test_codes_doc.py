"""docs/findings.md lists every finding code cardgen can report, and no code is declared twice with two meanings."""

from __future__ import annotations

import re
from pathlib import Path

from cardgen.catalogue import all_codes, findings_reference_markdown

ROOT = Path(__file__).resolve().parents[2]


def test_findings_doc_is_current() -> None:
    kept = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    assert kept.rstrip("\n") == findings_reference_markdown().rstrip("\n"), "run: cardgen validate --list-codes > docs/findings.md"


def test_every_code_used_in_the_package_is_documented() -> None:
    documented = set(all_codes())
    used: set[str] = set()
    for path in (ROOT / "cardgen").rglob("*.py"):
        used |= set(re.findall(r"[\"'](CG\d{3})[\"']", path.read_text(encoding="utf-8")))
    assert used - documented == set()
