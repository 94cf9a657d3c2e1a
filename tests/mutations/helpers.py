"""Helpers for the mutation tests: copy a shipped spec, break it by editing its data, check the copy.

Every mutant is a copy of ``specs/<id>`` in the test's ``tmp_path``; the YAML is
edited with ruamel's round-trip loader (comments, the schema line and folded
text survive), the CSV sheets with the csv module. The static layer is run
through :func:`cardgen.catalogue.validate_folder` and the engine through
:func:`cardgen.engine.checks.run_checks` with few playouts, one process, no
skill ladder and a fixed seed, so every result is deterministic and fast.
"""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path
from typing import Any, Callable, Iterable

from ruamel.yaml import YAML

from cardgen.engine.checks import CheckReport, run_checks
from cardgen.findings import Finding, Severity
from cardgen.spec.load import LoadedSpec
from cardgen.catalogue import validate_folder
from cardgen.validate.runner import ValidationResult

SPECS = Path(__file__).resolve().parents[2] / "specs"
SHIPPED = tuple(sorted(p.parent.name for p in SPECS.glob("*/game.yaml")))
"""Every shipped spec: a game added under specs/ is mutated too."""

SEED = 0
"""Every engine run starts at this seed, so the reports are reproducible."""


def _yaml() -> YAML:
    yaml = YAML()  # round-trip: keeps comments, key order and the schema line
    yaml.preserve_quotes = True
    yaml.width = 4096  # never re-wrap long lines
    return yaml


def copy_spec(spec_id: str, tmp_path: Path) -> Path:
    """A fresh copy of ``specs/<spec_id>`` inside ``tmp_path``."""
    target = tmp_path / spec_id
    shutil.copytree(SPECS / spec_id, target)
    return target


def edit_yaml(folder: Path, change: Callable[[Any], None]) -> None:
    """Load ``folder/game.yaml`` round-trip, let ``change`` edit the data in place, write it back."""
    path = folder / "game.yaml"
    yaml = _yaml()
    data = yaml.load(path.read_text(encoding="utf-8"))
    change(data)
    out = io.StringIO()
    yaml.dump(data, out)
    path.write_text(out.getvalue(), encoding="utf-8")


def edit_csv_row(path: Path, row_id: str, **values: str) -> None:
    """Set columns of the row whose ``id`` is ``row_id`` in a card sheet; the other rows stay as they were."""
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        fields = list(reader.fieldnames or [])
        rows = list(reader)
    hits = [row for row in rows if row["id"] == row_id]
    assert len(hits) == 1, f"{row_id!r} is not exactly one row of {path.name}"
    for name, value in values.items():
        assert name in fields, name
        hits[0][name] = value
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def deck(data: Any, deck_id: str) -> Any:
    """The deck mapping with id ``deck_id`` in raw spec data."""
    hits = [d for d in data["decks"] if d["id"] == deck_id]
    assert len(hits) == 1, deck_id
    return hits[0]


def card(data: Any, deck_id: str, card_id: str) -> Any:
    """The card mapping with id ``card_id`` of deck ``deck_id`` in raw spec data."""
    hits = [c for c in deck(data, deck_id)["cards"] if c["id"] == card_id]
    assert len(hits) == 1, card_id
    return hits[0]


def static(folder: Path) -> ValidationResult:
    """The loader's and the static validator's findings (no render, text or simulation checks)."""
    result = validate_folder(folder, kinds=("static",))
    assert result.loaded is not None and result.loaded.spec is not None, [f.render() for f in result.findings]
    return result


def engine(loaded: LoadedSpec, playouts: int, players: Iterable[int] | None = None) -> CheckReport:
    """``run_checks`` with a small playout count: inline, no skill ladder, the fixed seed, no time budget."""
    return run_checks(loaded, playouts=playouts, seed=SEED, jobs=1, players=list(players) if players else None, skill_games=0)


def errors(findings: Iterable[Finding], code: str | None = None) -> list[Finding]:
    """The error findings, of one code when ``code`` is given."""
    return [f for f in findings if f.severity is Severity.ERROR and (code is None or f.code == code)]


def codes(findings: Iterable[Finding]) -> set[str]:
    """The codes of the error findings."""
    return {f.code for f in errors(findings)}


def line_of(finding: Finding) -> str:
    """The text of the line a finding points at, read from the file it names."""
    lines = Path(finding.file).read_text(encoding="utf-8").splitlines()
    assert 1 <= finding.line <= len(lines), finding.render()
    return lines[finding.line - 1]


def rendered(findings: Iterable[Finding]) -> str:
    """Findings as readable lines, for assertion messages."""
    return "\n".join(f.render() for f in findings)
