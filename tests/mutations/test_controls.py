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



def _with_card_fields() -> list[str]:
    import yaml

    return [s for s in SHIPPED if any(d.get("fields") for d in yaml.safe_load((SPECS / s / "game.yaml").read_text(encoding="utf-8")).get("decks", []))]


@pytest.mark.parametrize("spec_id", _with_card_fields())
def test_an_ill_typed_card_value_is_a_finding_and_never_breaks_a_cross_check(spec_id: str, tmp_path: Path) -> None:
    """A card value of the wrong type is CG104 at its card; the rules' cross-checks, which compute over card
    values, wait for the fix instead of failing (the fuzzer found Keramikos' dig-site levels doing so)."""
    import csv

    from cardgen.catalogue import validate_folder

    from .helpers import edit_csv_row

    folder = copy_spec(spec_id, tmp_path)
    hit: list[str] = []

    def wrong(field: dict) -> object:
        return 7 if field.get("type") == "localised" else {"en": "x"}

    def break_one_value(data: dict) -> None:
        for deck in data.get("decks", []):
            fields = deck.get("fields") or {}
            for card in deck.get("cards") or []:
                for holder in [card] + list(card.get("faces") or []):
                    for name in holder.get("data") or {}:
                        if name in fields:
                            holder["data"][name] = wrong(fields[name])
                            hit.append(name)
                            return
        for deck in data.get("decks", []):
            fields = deck.get("fields") or {}
            if deck.get("cards_file"):
                with (folder / deck["cards_file"]).open(encoding="utf-8", newline="") as handle:
                    row = next(csv.DictReader(handle))
                name = next(column for column in row if column in fields)
                value = wrong(fields[name])
                edit_csv_row(folder / deck["cards_file"], row["id"], **{name: "{en: x}" if isinstance(value, dict) else str(value)})
                hit.append(name)
                return

    edit_yaml(folder, break_one_value)
    assert hit, f"{spec_id}: no card value to break"
    findings = validate_folder(folder, kinds=("static",)).findings
    assert [f for f in findings if f.code in ("CG103", "CG104") and hit[0] in f.message], rendered(findings)
